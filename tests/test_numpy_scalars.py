"""numpy 2 and shape [1] values (issue 12 item 3, paddle_compat/engine/core/numpy_scalars.py): what `exe.run` fetches and
what `Tensor.numpy()` returns stay plain ndarrays of shape [1] and convert with float() / int() as under numpy 1.x."""

from __future__ import annotations

import numpy as np
import pytest


def _dygraph_loss():
    import paddle

    paddle.disable_static()
    return paddle.mean(paddle.to_tensor([1.0, 2.0, 4.0])).numpy()


def _fetched_loss():
    import paddle

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3], "float32")
            loss = paddle.mean(x)
            count = paddle.sum(paddle.cast(x > 1.5, "int64"))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        return exe.run(main, feed={"x": np.array([1.0, 2.0, 4.0], "float32")}, fetch_list=[loss, count])
    finally:
        paddle.disable_static()


def _fluid_fetched_loss():
    import paddle

    fluid = paddle.fluid
    paddle.enable_static()
    try:
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            x = fluid.layers.data("x", [3], dtype="float32")
            loss = fluid.layers.mean(x)
        exe = fluid.Executor(fluid.CPUPlace())
        exe.run(startup)
        (v,) = exe.run(main, feed={"x": np.array([[1.0, 2.0, 4.0]], "float32")}, fetch_list=[loss])
        return v
    finally:
        paddle.disable_static()


def test_dygraph_numpy_of_a_reduction():
    a = _dygraph_loss()
    assert type(a) is np.ndarray and isinstance(a, np.ndarray)
    assert a.shape == (1,)
    assert float(a) == pytest.approx(7 / 3) and a[0] == pytest.approx(7 / 3)
    assert int(a) == 2
    assert "%.3f" % a == "2.333"
    assert "{:.1f}".format(float(a)) == "2.3"


def test_executor_fetches():
    loss, count = _fetched_loss()
    assert type(loss) is np.ndarray and loss.shape == (1,) and count.shape == (1,)
    assert float(loss) == pytest.approx(7 / 3) and loss[0] == pytest.approx(7 / 3)
    assert int(count) == 2 and count.dtype == np.int64
    v = _fluid_fetched_loss()
    assert v.shape == (1,) and float(v) == pytest.approx(7 / 3)


@pytest.mark.parametrize("value, want", [
    (np.array([1.5], "float32"), 1.5),
    (np.array([[2.5]]), 2.5),
    (np.array(3.5), 3.5),
    (np.array([7], "int32"), 7.0),
    (np.array([1.25])[0:1], 1.25),  # a view
    (np.asarray(np.array([0.5]).reshape(1, 1, 1)), 0.5),
])
def test_one_element_arrays_convert(value, want):
    import paddle  # noqa: F401 - installs the conversion

    assert float(value) == want
    assert int(value) == int(want)


@pytest.mark.parametrize("value", [np.ones(2), np.ones((1, 2)), np.ones(0)])
def test_other_arrays_still_refuse(value):
    import paddle  # noqa: F401

    with pytest.raises(TypeError, match="only size-1 arrays"):
        float(value)
    with pytest.raises(TypeError, match="only size-1 arrays"):
        int(value)


def test_index_is_unchanged():
    import operator

    import paddle  # noqa: F401

    with pytest.raises(TypeError):
        operator.index(np.array([1]))  # numpy 1.x refused this too


def test_turned_off_by_environment(tmp_path):
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PADDLE_COMPAT_NUMPY_SCALARS="0", PYTHONPATH=here)
    code = ("import numpy as np\nfrom paddle_compat.engine.core import numpy_scalars\nassert not numpy_scalars.install()\n"
            "try:\n    float(np.ones(1)); print('converted')\nexcept TypeError:\n    print('refused')\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == ("refused" if int(np.__version__.split(".")[0]) >= 2 else "converted"), out.stderr
