"""Mode selection: 2.x starts in dygraph; a fluid script's first static-only call switches to static mode
unless the user chose a mode explicitly."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("entry", [
    lambda p: p.fluid.layers.data("x", [3]),
    lambda p: p.static.data("x", [None, 3]),
    lambda p: p.fluid.data("x", [None, 3]),
    lambda p: p.static.Executor(p.CPUPlace()),
    lambda p: p.static.program_guard(p.static.Program()).__enter__(),
], ids=["layers.data", "static.data", "fluid.data", "Executor", "program_guard"])
def test_static_entry_points_switch_mode_when_unset(entry):
    import paddle

    assert paddle.in_dynamic_mode()
    entry(paddle)
    assert not paddle.in_dynamic_mode()


def test_explicit_dygraph_is_respected():
    import paddle

    paddle.disable_static()
    paddle.static.Executor(paddle.CPUPlace())
    assert paddle.in_dynamic_mode()
    with pytest.raises(RuntimeError, match="static mode"):
        paddle.static.data("x", [None, 3])


def test_dygraph_guard_restores_mode():
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    with fluid.dygraph.guard():
        assert paddle.in_dynamic_mode()
        t = fluid.dygraph.to_variable([1.0, 2.0])
        assert t.numpy().tolist() == [1.0, 2.0]
    assert not paddle.in_dynamic_mode()


def test_a_dygraph_tensor_is_a_variable_only_in_dygraph_mode():
    """Paddle's VariableMetaClass (1.8.5 and 2.6.2 read the same): isinstance(tensor, fluid.Variable) and
    isinstance(tensor, paddle.static.Variable) are True in dygraph mode, False in static mode; static Variables
    and Parameters are Variables in both."""
    import numpy as np

    import paddle
    import paddle.fluid as fluid

    t = paddle.to_tensor([1.0])
    classes = (fluid.Variable, fluid.framework.Variable, paddle.static.Variable)
    assert all(isinstance(t, c) for c in classes) and not isinstance(np.ones(1), fluid.Variable)
    paddle.enable_static()
    try:
        x = paddle.static.data("x", [1])
        assert not any(isinstance(t, c) for c in classes)
        assert all(isinstance(x, c) and issubclass(type(x), c) for c in classes)
    finally:
        paddle.disable_static()
