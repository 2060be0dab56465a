"""fluid.layers.auc against Paddle 1.8.5: global and sliding-window AUC and the histograms, run after run."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_auc as C

_, GOLDEN = load_golden("fluid18_auc")


def test_auc_runs_match_paddle18():
    import paddle

    paddle.enable_static()
    got = C.run(paddle.fluid)
    assert sorted(got) == sorted(GOLDEN)
    for k, want in GOLDEN.items():
        assert got[k].dtype == want.dtype and got[k].shape == want.shape, k
        np.testing.assert_allclose(got[k], want, rtol=1e-12, err_msg=k)


def test_auc_rejects_other_curves():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        p = fluid.data("p", [None, 2], "float32")
        lab = fluid.data("l", [None, 1], "int64")
        with pytest.raises(Exception, match="curve 'PR'"):
            fluid.layers.auc(p, lab, curve="PR")
