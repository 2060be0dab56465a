"""paddle.autograd against real Paddle 2.6.2: the cases of tools/oracle/autograd26_cases.py (written once over
the public API) replayed here and compared with tests/goldens/autograd26 (tools/oracle/rec_cases26.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("autograd26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "autograd26")


def test_pylayer_errors():
    import paddle

    class Bad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, dz):
            return dz  # one gradient for two Tensor inputs

    x = paddle.ones([2])
    x.stop_gradient = False
    with pytest.raises(ValueError, match="Bad.backward: the number of returned gradients \\(1\\)"):
        Bad.apply(x, x * 2).sum().backward()

    class NoBackward(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with pytest.raises(NotImplementedError, match="backward"):
        NoBackward.apply(x).sum().backward()
    paddle.enable_static()
    with pytest.raises(NotImplementedError, match="static_pylayer"):
        NoBackward.apply(x)


@pytest.mark.parametrize("batched", [False, True])
def test_static_hessian_equals_dygraph(batched):
    """Real Paddle 2.6.2's static hessian() fails its own numel check (a Variable compared with 1); ours records
    the rows' double backward. Checked against the dygraph result, which matches 2.6.2 (hessian_cases)."""
    import paddle

    xv = np.random.RandomState(3).uniform(-1, 1, [4, 3] if batched else [3])

    def f(x):
        y = paddle.tanh(x) * x * x
        return y.sum(axis=-1) if batched else y.sum()

    x = paddle.to_tensor(xv)
    x.stop_gradient = False
    want = paddle.autograd.hessian(f(x), x, batch_axis=0 if batched else None)[:].numpy()
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        xs = paddle.static.data("x", list(xv.shape), "float64")
        xs.stop_gradient = False
        h = paddle.autograd.hessian(f(xs), xs, batch_axis=0 if batched else None)
        got = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": xv}, fetch_list=[h[:]])[0]
    assert got.shape == tuple(h.shape)
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_static_jacobian_needs_a_known_row_count():
    import paddle

    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [None], "float32")
        x.stop_gradient = False
        with pytest.raises(ValueError, match="number of ys elements .* must be known"):
            paddle.autograd.jacobian(x * 2, x)[:]


def test_jacobian_and_backward_errors():
    import paddle

    x = paddle.ones([2, 2])
    x.stop_gradient = False
    with pytest.raises(ValueError, match="xs.ndim should be 0 or 1"):
        paddle.autograd.jacobian(x * 2, x)
    with pytest.raises(ValueError, match="batch_axis should be None or 0"):
        paddle.autograd.jacobian(x * 2, x, batch_axis=1)
    with pytest.raises(ValueError, match="Only support ys.numel"):
        paddle.autograd.hessian(x * 2, x)
    y = x * 2
    with pytest.raises(ValueError, match="duplicate"):
        paddle.autograd.backward([y, y])
    with pytest.raises(ValueError, match="length of grad_tensors"):
        paddle.autograd.backward([y], [None, None])


@pytest.mark.parametrize("with_backward", [True, False])
def test_static_pylayer(with_backward):
    import paddle

    def forward_fn(x, y):
        return paddle.exp(x) * y, x + y

    def backward_fn(da, db):
        return 2 * paddle.exp(da) + db, da * 3

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("X", [None, 3], "float32")
        y = paddle.static.data("Y", [None, 3], "float32")
        x.stop_gradient = y.stop_gradient = not with_backward
        out = paddle.static.nn.static_pylayer(forward_fn, [x, y], backward_fn if with_backward else None)
        assert isinstance(out, tuple) and len(out) == 2
        fetch = list(out)
        if with_backward:
            fetch += paddle.static.gradients([out[0]], [x, y])
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xv, yv = np.array([[0.0, 1.0, 2.0]], "float32"), np.array([[1.0, 2.0, 3.0]], "float32")
    res = exe.run(main, feed={"X": xv, "Y": yv}, fetch_list=fetch)
    np.testing.assert_allclose(res[0], np.exp(xv) * yv, rtol=1e-6)
    np.testing.assert_allclose(res[1], xv + yv, rtol=1e-6)
    if with_backward:  # d(out0) = 1, d(out1) = 0: backward_fn(1, 0)
        np.testing.assert_allclose(res[2], np.full([1, 3], 2 * np.e), rtol=1e-6)
        np.testing.assert_allclose(res[3], np.full([1, 3], 3.0), rtol=1e-6)
    paddle.disable_static()
    with pytest.raises(RuntimeError, match="static_pylayer: This API can only be used under static graph mode"):
        paddle.static.nn.static_pylayer(forward_fn, [paddle.ones([1]), paddle.ones([1])])
