"""paddle.distributed.InMemoryDataset / QueueDataset against real Paddle 2.6.2 (tests/data/cases26_dataset2x.py,
golden dataset2x26): init(**kwargs) over MultiSlot files, train_from_dataset, the trained parameters; and
the settings 2.x names that are not supported here are named."""

from __future__ import annotations

import pytest

from tests.conftest import check_case26, load_golden
from tests.data import cases26_dataset2x as C

_, GOLDEN = load_golden("dataset2x26")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_training_from_a_2x_dataset_matches_paddle26(name):
    check_case26(GOLDEN, C.CASES, name)


@pytest.mark.parametrize("kwargs,pattern", [({"input_type": 1}, "input_type=1"),
                                            ({"no_such_setting": 3}, "'no_such_setting' is not supported")])
def test_unsupported_settings_are_named(kwargs, pattern):
    import paddle
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match=f"paddle.distributed.InMemoryDataset.init.*{pattern}"):
        paddle.distributed.InMemoryDataset().init(**kwargs)


def test_update_settings_changes_only_what_is_given():
    import paddle

    ds = paddle.distributed.QueueDataset()
    ds.init(batch_size=4, pipe_command="cat")
    ds.update_settings(batch_size=8)
    assert ds.proto_desc.batch_size == 8 and ds.proto_desc.pipe_command == "cat"
