"""paddle.incubate.autograd's functional API (vjp, jvp, Jacobian, Hessian) over the public API (see
rec_cases26.py); tests/api2x/test_incubate_autograd.py replays them on paddle_compat."""
import numpy as np

X = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
Y = np.array([[1.0, 0.0], [2.0, 1.0]], "float32")


def _xy(paddle):
    return paddle.to_tensor(X), paddle.to_tensor(Y)


def vjp_jvp(paddle):
    x, y = _xy(paddle)
    ag = paddle.incubate.autograd
    out = {"vjp": ag.vjp(lambda a: a * a, x)[1].numpy()}
    out["vjp_pair"] = np.concatenate([t.numpy().ravel() for t in ag.vjp(paddle.matmul, [x, y], paddle.ones([2, 2]))[1]])
    out["jvp"] = ag.jvp(lambda a: a * a, x, paddle.ones([2, 2]) * 2)[1].numpy()
    out["jvp_pair"] = ag.jvp(paddle.matmul, [x, y])[1].numpy()
    return out


def jacobian_hessian(paddle):
    x, y = _xy(paddle)
    ag = paddle.incubate.autograd
    jac = ag.Jacobian(paddle.matmul, [x, y])
    batched = ag.Jacobian(lambda a: a * a, x, is_batched=True)
    hes = ag.Hessian(lambda a: paddle.sum(a * a * a), x)
    return {"jac": jac[:].numpy(), "jac_shape": np.array(jac.shape), "jac_row": jac[0, :].numpy(),
            "batched": batched[:].numpy(), "batched_shape": np.array(batched.shape), "hessian": hes[:].numpy(),
            "hessian_shape": np.array(hes.shape)}


def static_program(paddle):
    """The same API in a static program (paddle.static.gradients underneath): vjp of two inputs, jvp with v,
    Jacobian and Hessian matrices."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 2], "float32")
            y = paddle.static.data("y", [2, 2], "float32")
            ys, vj = paddle.incubate.autograd.vjp(lambda a, b: paddle.matmul(a, b), [x, y])
            f = lambda a: paddle.tanh(a) * a  # noqa: E731
            ys2, jv = paddle.incubate.autograd.jvp(f, x, y)
            jac = paddle.incubate.autograd.Jacobian(f, x)[:]
            hess = paddle.incubate.autograd.Hessian(lambda a: paddle.sum(paddle.tanh(a) * a), x)[:]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        names = ["ys", "vjp_x", "vjp_y", "ys2", "jvp", "jac", "hess"]
        vals = exe.run(main, feed={"x": X, "y": Y}, fetch_list=[ys, vj[0], vj[1], ys2, jv, jac, hess])
        return dict(zip(names, vals))
    finally:
        paddle.disable_static()


CASES = [vjp_jvp, jacobian_hessian, static_program]
