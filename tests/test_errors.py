"""Bad input to the static core gets a clear error naming the variable and what was expected."""

from __future__ import annotations

import numpy as np
import pytest


def _program():
    import paddle

    paddle.enable_static()
    x = paddle.static.data("x", [None, 13], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    pred = paddle.static.nn.fc(x, 1)
    loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
    paddle.optimizer.SGD(0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    return paddle, exe, loss


GOOD = {"x": np.zeros((4, 13), "float32"), "y": np.zeros((4, 1), "float32")}

CASES = [
    # (id, feed, fetch, run startup?, exception, message regex)
    ("missing_feed", {"x": GOOD["x"]}, None, True, RuntimeError, r"variable 'y' is read by op.*not fed"),
    ("wrong_shape", {"x": np.zeros((4, 12), "float32"), "y": GOOD["y"]}, None, True, ValueError,
     r"fed Variable 'x' should have dimensions = 2, shape = \(-1, 13\), but received fed shape \[4, 12\]"),
    ("wrong_rank", {"x": np.zeros((4, 13, 1), "float32"), "y": GOOD["y"]}, None, True, ValueError,
     r"fed Variable 'x'"),
    ("wrong_dtype", {"x": np.zeros((4, 13), "float64"), "y": GOOD["y"]}, None, True, ValueError,
     r"data type of fed Variable 'x' must be 'float32', but received 'float64'"),
    ("unknown_fetch", GOOD, ["no_such_var"], True, RuntimeError, r"fetch variable 'no_such_var' is not found"),
    ("main_before_startup", GOOD, None, False, RuntimeError,
     r"persistable variable 'fc_0\.\w_0' is not initialized.*startup program"),
    # a failure inside an op at run time names the op and the variable it computes (the torch error is kept)
    ("rows_disagree", {"x": GOOD["x"], "y": np.zeros((3, 1), "float32")}, None, True, RuntimeError,
     r"\(Fatal\) Executor.run: op elementwise_sub computing 'square_error_cost_0.tmp_0' failed: The size of "
     r"tensor a \(4\)"),
]


@pytest.mark.parametrize("feed,fetch,startup,exc,match", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_executor_errors(feed, fetch, startup, exc, match):
    paddle, exe, loss = _program()
    if startup:
        exe.run(paddle.static.default_startup_program())
    with pytest.raises(exc, match=match):
        exe.run(paddle.static.default_main_program(), feed=feed, fetch_list=fetch or [loss])


def test_errors_name_the_op_and_shapes_at_record_time():
    import paddle

    paddle.enable_static()
    a = paddle.static.data("a", [None, 3])
    b = paddle.static.data("b", [4, 5])
    with pytest.raises(ValueError, match=r"paddle\.matmul \(op matmul_v2\).*a: shape=\[-1, 3\].*b: shape=\[4, 5\]"):
        paddle.matmul(a, b)


def test_fluid_layers_data_feed_is_not_shape_checked():
    """1.8.5 checks feed shapes only for fluid.data variables. A feed that differs from a fluid.layers.data
    variable's shape only by dims of size 1 is reshaped to it (1.8.5 keeps [4]: ours gives [4, 1], which our ops
    broadcast as the script expects); any other shape is taken as fed, as in 1.8.5."""
    import paddle.fluid as fluid

    label = fluid.layers.data("label", [1], dtype="int64")
    out = fluid.layers.cast(label, "float32")
    exe = fluid.Executor(fluid.CPUPlace())
    res, = exe.run(feed={"label": np.arange(4, dtype="int64")}, fetch_list=[out])
    assert res.shape == (4, 1)
    res, = exe.run(feed={"label": np.arange(6, dtype="int64").reshape(3, 2)}, fetch_list=[out])
    assert res.shape == (3, 2)


def test_bad_program_and_fetch_types():
    paddle, exe, loss = _program()
    with pytest.raises(TypeError, match="program should be a Program or CompiledProgram"):
        exe.run("main")
    with pytest.raises(TypeError, match="fetch_list items must be Variable or str"):
        exe.run(feed=GOOD, fetch_list=[3])
    paddle.disable_static()
    eager = paddle.ones([2])
    paddle.enable_static()
    with pytest.raises(TypeError, match="computed in dygraph mode.*paddle.enable_static"):
        exe.run(feed=GOOD, fetch_list=[eager])


def test_python_lists_follow_the_variable_dtype():
    paddle, exe, loss = _program()
    exe.run(paddle.static.default_startup_program())
    (lv,) = exe.run(paddle.static.default_main_program(), feed={"x": [[1] * 13] * 2, "y": [[0.5], [1.5]]},
                    fetch_list=[loss])
    assert lv.dtype == np.float32 and np.isfinite(lv).all()
    with pytest.raises(ValueError, match="must be 'float32', but received 'float64'"):  # arrays keep their dtype
        exe.run(paddle.static.default_main_program(), feed={"x": np.ones((2, 13)), "y": [[0.5], [1.5]]},
                fetch_list=[loss])


def test_op_failures_in_data_parallel_replicas_name_the_op():
    paddle, exe, loss = _program()
    exe.run(paddle.static.default_startup_program())
    cp = paddle.static.CompiledProgram(paddle.static.default_main_program()).with_data_parallel(
        loss_name=loss.name, places=[paddle.CPUPlace()] * 2)
    with pytest.raises(RuntimeError, match=r"op elementwise_sub computing 'square_error_cost_0.tmp_0' failed"):
        exe.run(cp, feed={"x": GOOD["x"], "y": np.zeros((6, 1), "float32")}, fetch_list=[loss])
