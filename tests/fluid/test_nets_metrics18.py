"""fluid.nets, fluid.metrics, fluid.evaluator and fluid.average against Paddle 1.8.5 (tests/fluid/cases18_nets_metrics.py,
golden fluid18_nets_metrics), plus their argument errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fluid import cases18_nets_metrics as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_nets_metrics")


@pytest.mark.parametrize("make, args, msg", [
    (lambda M: M.Precision(), ([1], np.array([1])), "The 'preds' must be a numpy ndarray."),
    (lambda M: M.Accuracy(), (0.5, -1), "The 'weight' can not be negative"),
    (lambda M: M.Accuracy(), ("x", 1), "The 'value' must be a number(int, float) or a numpy ndarray."),
    (lambda M: M.EditDistance("e"), (np.zeros(2), [2]), "The 'seq_num' must be a number(int, float)."),
    (lambda M: M.CompositeMetric(), None, "SubMetric should be inherit from MetricBase."),
])
def test_metric_argument_errors(make, args, msg):
    import paddle

    m = make(paddle.fluid.metrics)
    with pytest.raises(ValueError) as e:
        m.update(*args) if args is not None else m.add_metric(object())
    assert str(e.value) == msg


def test_metric_eval_without_data_and_config():
    import paddle

    M = paddle.fluid.metrics
    with pytest.raises(ValueError, match="There is no data in Accuracy Metrics"):
        M.Accuracy().eval()
    p = M.Precision("p")
    p.update(np.array([[0.9], [0.8]]), np.array([[1], [0]]))
    assert p.get_config() == {"name": "p", "states": {"tp": 1, "fp": 1}} and str(p) == "p"
    p.reset()
    assert (p.tp, p.fp, p.eval()) == (0, 0, 0.0)


def test_nets_argument_errors():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        x = fluid.data("x", [2, 3, 4], "int32")
        with pytest.raises(TypeError, match="The data type of 'input' in glu must be"):
            fluid.nets.glu(x)
        q = fluid.data("q", [2, 3, 4], "float32")
        with pytest.raises(ValueError, match="must be divisible by the number of attention heads"):
            fluid.nets.scaled_dot_product_attention(q, q, q, num_heads=3)
        with pytest.raises(TypeError, match="conv_num_filter must be a list or tuple"):
            fluid.nets.img_conv_group(fluid.data("i", [1, 3, 4, 4], "float32"), 3, 2)
