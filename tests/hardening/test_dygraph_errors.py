"""Dygraph bad input raises as Paddle 2.6.2 does (goldens: hardening26): an in-place op on a leaf that needs a
gradient, backward() twice, a float in a creation shape, squeeze on an axis the tensor does not have."""

from __future__ import annotations

import numpy as np
import pytest

from ._common import G18, G26, check_error


def _leaf():
    import paddle

    x = paddle.ones([2, 3])
    x.stop_gradient = False
    return x


def _setitem(x):
    x[0] = 5.0


LEAF = r"\(InvalidArgument\) Leaf {} \({}\) that doesn't stop gradient can't use inplace strategy\. {}"
# (case, call, golden, regex)
INPLACE = [
    ("add_", lambda p: _leaf().add_(p.ones([2, 3])), "inplace_add_", LEAF.format("Var", "", r"paddle\.Tensor\.add_")),
    ("scale_", lambda p: _leaf().scale_(2.0), "inplace_scale_", LEAF.format("Var", "", r"paddle\.Tensor\.scale_")),
    ("relu_", lambda p: p.nn.functional.relu_(_leaf()), "inplace_relu_", LEAF.format("Var", "", "")),
    ("setitem", lambda p: _setitem(_leaf()), "inplace_setitem", LEAF.format("Tensor", "", r"paddle\.Tensor\.__setitem")),
    ("parameter", lambda p: p.nn.Linear(2, 2).weight.add_(p.ones([2, 2])), "inplace_param",
     LEAF.format("Var", r"linear_\d+\.w_0", "")),
]


@pytest.mark.parametrize("call,case,pattern", [c[1:] for c in INPLACE], ids=[c[0] for c in INPLACE])
def test_inplace_on_a_leaf_that_needs_grad(call, case, pattern):
    import paddle

    with pytest.raises(Exception) as ei:
        call(paddle)
    check_error(ei.value, G26[case], pattern)


def test_inplace_allowed_where_paddle_allows_it():
    import paddle

    # under no_grad: the value changes, the tensor stays the same leaf that needs a gradient (Paddle's result)
    x = _leaf()
    with paddle.no_grad():
        x.add_(paddle.ones([2, 3]))
    rec = G26["inplace_no_grad"]
    assert x.stop_gradient == rec["stop_gradient"] and x.is_leaf
    np.testing.assert_array_equal(x.numpy(), rec["value"])
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 2 * np.array(rec["value"]))
    # a non-leaf: the in-place op is part of the graph
    y = _leaf()
    z = y * 2
    z.add_(paddle.ones([2, 3]))
    z.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), np.full((2, 3), 2.0))
    # assign(output=) copies into a parameter, as Paddle's assign_out_
    lin = paddle.nn.Linear(2, 2)
    paddle.assign(paddle.ones([2, 2]), output=lin.weight)
    assert not lin.weight.stop_gradient and lin.weight.is_leaf and lin.weight.numpy().sum() == 4.0


def _twice(retain, fn):
    x = _leaf()
    y = fn(x).sum()
    y.backward(retain_graph=retain)
    y.backward()
    return x.grad.numpy()


TWICE = r"(?s)^\(Fatal\) Tensor\.backward: .*You calculate backward twice for the same subgraph without setting " \
        r"retain_graph=True\. Please set retain_graph=True in the first backward/grad call\."


@pytest.mark.parametrize("case,fn", [("backward_twice", lambda x: x * x), ("backward_twice_add", lambda x: x + 1)])
def test_backward_twice(case, fn):
    with pytest.raises(Exception) as ei:
        _twice(False, fn)
    check_error(ei.value, G26[case], TWICE)
    assert isinstance(ei.value, RuntimeError)  # what torch raised here before, for callers that catch it
    np.testing.assert_array_equal(_twice(True, lambda x: x * x), G26["backward_twice_retain"]["grad"])


CREATION = ["zeros", "ones", "empty", "full", "rand", "randn", "randint", "normal", "standard_normal"]


def _creation(p, name, shape):
    return {"full": lambda s: p.full(s, 1.0), "randint": lambda s: p.randint(0, 5, s),
            "normal": lambda s: p.normal(shape=s)}.get(name, getattr(p, name))(shape)


@pytest.mark.parametrize("name", CREATION)
@pytest.mark.parametrize("shape,pos", [([2.5, 3], 0), ((2, 3.0), 1)])
def test_float_in_a_creation_shape(name, shape, pos):
    import paddle

    with pytest.raises(Exception) as ei:
        _creation(paddle, name, shape)
    golden = G26[f"float_shape_{'tuple_' if pos else ''}{name}"]
    check_error(ei.value, golden, rf"paddle\.{name}\(\): argument 'shape' .*must be list of int, but got float at "
                                  rf"pos {pos}")
    assert _creation(paddle, name, [np.int64(2), 3]).shape == [2, 3]  # numpy integers are integers


def test_float_shape_in_static_mode_and_fluid_truncation():
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    with pytest.raises(TypeError, match=r"paddle\.zeros\(\): argument 'shape'"):  # Paddle 2.x static: TypeError
        paddle.zeros([2.5, 3])
    assert fluid.layers.fill_constant([2.5, 3], "float32", 1.0).shape == (2, 3)  # fluid 1.8 truncates


SQUEEZE = r"^\(InvalidArgument\) Each axis in Attr\(axes\) should be in the range of \[-2, 1\]But current axis " \
          r"is:{}, input tensor's shape = \[2, 3\]\."


@pytest.mark.parametrize("axis,reported", [(5, 5), (-3, -1), ([1, 4], 4)])
def test_squeeze_axis_out_of_range(axis, reported):
    import paddle
    import paddle.fluid as fluid

    x = paddle.ones([2, 3])
    with pytest.raises(Exception) as ei:
        paddle.squeeze(x, axis=axis)
    check_error(ei.value, G26[f"squeeze_{axis}"], SQUEEZE.format(reported))
    if not isinstance(axis, list):
        with pytest.raises(Exception) as ei:
            fluid.layers.squeeze(x, [axis])
        check_error(ei.value, G18[f"squeeze_{axis}"], SQUEEZE.format(reported))
    assert paddle.squeeze(paddle.ones([2, 1]), axis=-1).shape == [2]
