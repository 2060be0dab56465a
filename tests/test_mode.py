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


# fluid 1.x's Tensor-less creation ops decide the mode while a script has not (engine/core/mode.py): each script runs in
# a fresh process, since whether a dygraph Tensor exists yet is the process's state. `mode` is what the script
# prints last: the mode after its calls, and what the creation op returned.
_LEGACY_SCRIPTS = {
    # a 1.x script (Paddle's test_executor_return_tensor_not_overwriting): creation ops first, then an Executor
    # runs the default program; 1.8.5 fetches [[2, 2, 2], ...]
    "fluid_1x_program": ("""
x = fluid.layers.ones(shape=[2, 3], dtype='float32')
y = fluid.layers.fill_constant(shape=[2, 3], dtype='float32', value=1.0)
out = fluid.layers.elementwise_add(x=x, y=y)
res, = fluid.Executor(fluid.CPUPlace()).run(fluid.default_main_program(), fetch_list=[out])
print(paddle.in_dynamic_mode(), type(x).__name__, res.tolist())
""", "False Variable [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]"),
    # a 2.x dygraph script that holds a Tensor already: fluid.layers still runs eagerly
    "dygraph_tensor_first": ("""
t = paddle.to_tensor([1.0])
x = fluid.layers.zeros(shape=[2], dtype='float32')
print(paddle.in_dynamic_mode(), type(x).__name__, (x + t).numpy().tolist())
""", "True Tensor [1.0, 1.0]"),
    # 1.x dygraph: under fluid.dygraph.guard() the first op is a creation op, and stays eager after the guard
    "dygraph_guard": ("""
with fluid.dygraph.guard():
    x = fluid.layers.fill_constant(shape=[2], dtype='int64', value=3)
y = fluid.layers.range(0, 3, 1, 'int64')
print(paddle.in_dynamic_mode(), type(y).__name__, (x * 1).numpy().tolist())
""", "True Tensor [3, 3]"),
    # a script that chose dygraph explicitly is never second-guessed
    "explicit_dygraph": ("""
paddle.disable_static()
x = fluid.layers.ones(shape=[1], dtype='float32')
print(paddle.in_dynamic_mode(), type(x).__name__, x.numpy().tolist())
""", "True Tensor [1.0]"),
}


@pytest.mark.parametrize("case", sorted(_LEGACY_SCRIPTS))
def test_fluid_creation_ops_choose_the_mode_of_an_undecided_script(case):
    import os
    import subprocess
    import sys

    body, expected = _LEGACY_SCRIPTS[case]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.path.join(root, "shims")]))
    script = "import paddle\nimport paddle.fluid as fluid\n" + body
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == expected
