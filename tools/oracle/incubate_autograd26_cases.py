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


CASES = [vjp_jvp, jacobian_hessian]
