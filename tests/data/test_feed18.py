"""DataFeeder (0 / 1 / 2 LoD levels), PyReader (iterable and not), py_reader's queue, from_generator's
`.iterable` and default_collate_fn against Paddle 1.8.5 (tests/goldens/feed18.json, tools/oracle/rec_feed18.py)."""

from __future__ import annotations

import pytest

from tests.data import feed_cases
from tests.data.conftest import golden
from tests.data.test_dataset18 import same

G = golden("feed18")


def test_data_feeder_matches_paddle(fluid):
    ours = feed_cases.feeder_cases(fluid)
    assert ours["feed_short"] == "FieldCountError" and G["feeder"]["feed_short"] == "AssertionError"
    ours["feed_short"] = "AssertionError"  # ours is an AssertionError too, with a message naming the variables
    same(ours, G["feeder"])


def test_readers_match_paddle(fluid):
    ours = feed_cases.reader_cases(fluid)
    ours["queue_methods"] = [m for m in ours["queue_methods"] if m in G["readers"]["queue_methods"]]
    same(ours, G["readers"])


def test_feeder_errors_name_the_variable(fluid):
    import numpy as np

    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        words = fluid.layers.data("words", shape=[1], dtype="int64", lod_level=1)
        img = fluid.data("img", shape=[-1, 2, 2], dtype="float32")
    feeder = fluid.DataFeeder([words, img], fluid.CPUPlace())
    with pytest.raises(AssertionError, match=r"The number of fields in data \(1\) does not match len\(feed_list\) "
                                             r"\(2\): \['words', 'img'\]"):
        feeder.feed([([1],)])
    with pytest.raises(ValueError, match=r"Reshape error. What is defined in data layer is \[-1, 2, 2\], but "
                                         r"receive \[2, 3\] \(variable 'img'\)"):
        feeder.feed([([1], np.ones(3)), ([2], np.ones(3))])
    with pytest.raises(TypeError, match="Feed list should contain a list of variable"):
        fluid.DataFeeder([3], fluid.CPUPlace())
    multi = feeder.decorate_reader(lambda: iter([[([1], np.ones([2, 2]))]] * 3), multi_devices=True, num_places=2)
    assert [len(group) for group in multi()] == [2]
