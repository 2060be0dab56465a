"""fluid.dygraph losses, NCE, TreeConv and SpectralNorm, and fluid.contrib tree_conv, against Paddle 1.8.5
(tests/fluid/cases18_dygraph_more.py, golden fluid18_dygraph_more), plus their argument errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fluid import cases18_dygraph_more as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_dygraph_more")


@pytest.mark.parametrize("cls, msg", [
    ("MSELoss", "'reduction' in 'MSELoss' should be 'sum', 'mean' or 'none', but received avg."),
    ("L1Loss", "The value of 'reduction' in L1Loss should be 'sum', 'mean' or 'none', but received avg"),
    ("BCELoss", "The value of 'reduction' in bce_loss should be 'sum', 'mean' or 'none', but received avg"),
])
def test_loss_reduction_errors(cls, msg):
    import paddle

    with pytest.raises(ValueError) as e:
        getattr(paddle.fluid.dygraph, cls)(reduction="avg")
    assert str(e.value).startswith(msg)


def test_dygraph_to_static_func_records_in_static_mode():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid

    @fluid.dygraph.dygraph_to_static_func
    def f(x):
        return fluid.layers.relu(x) * 2

    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        out = f(fluid.data("x", [2], "float32"))
    (r,) = fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": np.array([-1, 3], "float32")}, fetch_list=[out])
    np.testing.assert_array_equal(r, [0, 6])
