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
