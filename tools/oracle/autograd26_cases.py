"""paddle.autograd cases written once over the public API: each case takes the `paddle` module and returns
{name: array}. `tools/oracle/rec_cases26.py autograd26_cases autograd26` runs them on real Paddle 2.6.2, tests/api2x/test_autograd.py on
paddle_compat. Scalars are made 1-D (Paddle 2.6 reductions are 0-D, 2.4's [1])."""
import numpy as np
from _common import static_run as _static_run


def _x(paddle, shape, seed, dtype="float64"):
    t = paddle.to_tensor(np.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype))
    t.stop_gradient = False
    return t


def pylayer_tanh(paddle):
    class CusTanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, func1, func2=paddle.square):
            ctx.func = func2
            y = func1(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1 - ctx.func(y))

    x = _x(paddle, [2, 3], 0)
    z = CusTanh.apply(x, func1=paddle.tanh)
    (z * z).sum().backward()
    return {"z": z.numpy(), "xgrad": x.grad.numpy(), "stop_gradient": np.array(z.stop_gradient)}


def pylayer_two_outputs(paddle):
    class Mix(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y, scale):
            ctx.save_for_backward(x, y)
            ctx.scale = scale
            return x * y * scale, x + y

        @staticmethod
        def backward(ctx, da, db):
            x, y = ctx.saved_tensor()
            return da * y * ctx.scale + db, da * x * ctx.scale + db

    x, y = _x(paddle, [3], 1), _x(paddle, [3], 2)
    a, b = Mix.apply(x, y, 3.0)
    (a * 2 + b * paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")).sum().backward()
    return {"a": a.numpy(), "b": b.numpy(), "xgrad": x.grad.numpy(), "ygrad": y.grad.numpy()}


def pylayer_non_differentiable_and_materialize(paddle):
    class SortIdx(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = paddle.argsort(x)
            out = paddle.sort(x)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            ctx.set_materialize_grads(False)
            return out, idx

        @staticmethod
        def backward(ctx, dout, didx):
            (idx,) = ctx.saved_tensor()
            grad = paddle.zeros_like(dout)
            return paddle.scatter(grad, idx, dout)

    x = _x(paddle, [5], 3)
    out, idx = SortIdx.apply(x)
    (out * paddle.arange(5, dtype="float64")).sum().backward()
    return {"out": out.numpy(), "idx": idx.numpy(), "idx_stop_gradient": np.array(idx.stop_gradient),
            "xgrad": x.grad.numpy()}


def pylayer_in_a_chain(paddle):
    class Cube(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return 3 * x * x * dy

    x, w = _x(paddle, [2, 2], 4), _x(paddle, [2, 2], 5)
    y = paddle.matmul(Cube.apply(paddle.exp(x)), w)
    y.sum().backward()
    return {"y": y.numpy(), "xgrad": x.grad.numpy(), "wgrad": w.grad.numpy()}


def jacobian_unbatched(paddle):
    x = _x(paddle, [3], 6)
    y = paddle.concat([x * x, paddle.sin(x[:2])])
    j = paddle.autograd.jacobian(y, x)
    return {"shape": np.array(j.shape), "full": j[:].numpy(), "row": j[1].numpy(), "elem": j[3, 1].numpy(),
            "cols": j[:, 1:].numpy(), "plus": (j + 1.0).numpy()}


def jacobian_batched(paddle):
    x = _x(paddle, [4, 3], 7)
    y = paddle.concat([x * x.sum(axis=1, keepdim=True), paddle.tanh(x[:, :1])], axis=1)
    j = paddle.autograd.jacobian(y, x, batch_axis=0)
    return {"shape": np.array(j.shape), "full": j[:].numpy(), "mid": j[:, 1, :].numpy(), "first": j[0].numpy()}


def jacobian_tuples(paddle):
    x1, x2 = _x(paddle, [2], 8), _x(paddle, [3], 9)
    y1 = paddle.concat([x1 * 2.0, x2[:1] * x1[:1]])
    y2 = paddle.concat([x2 ** 2, x1])
    js = paddle.autograd.jacobian((y1, y2), (x1, x2))
    out = {}
    for i, row in enumerate(js):
        for k, j in enumerate(row):
            out[f"j{i}{k}"] = j[:].numpy()
    single = paddle.autograd.jacobian(y1, (x1, x2))
    out["single_x2"] = single[1][:].numpy()
    return out


def hessian_cases(paddle):
    x = _x(paddle, [3], 10)
    f = (paddle.tanh(x) * x.sum()).sum().reshape([])
    h = paddle.autograd.hessian(f, x)
    x1, x2 = _x(paddle, [2], 11), _x(paddle, [2], 12)
    g = (x1 * x1 * x2).sum().reshape([])
    hs = paddle.autograd.hessian(g, (x1, x2))
    xb = _x(paddle, [4, 2], 13)
    fb = (xb ** 3).sum(axis=1)
    hb = paddle.autograd.hessian(fb, xb, batch_axis=0)
    return {"h": h[:].numpy(), "h_shape": np.array(h.shape), "h01": hs[0][1][:].numpy(),
            "h11": hs[1][1][:].numpy(), "hb": hb[:].numpy(), "hb_shape": np.array(hb.shape)}


def backward_api(paddle):
    x = _x(paddle, [3], 14)
    a, b = x * 2, x * x
    paddle.autograd.backward([a, b], [paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64"), None])
    g1 = x.grad.numpy().copy()
    y = _x(paddle, [2], 15)
    paddle.autograd.backward(paddle.exp(y).sum())
    return {"g1": g1, "g2": y.grad.numpy()}


def saved_tensors_hooks_case(paddle):
    calls = []

    def pack(t):
        calls.append(1)
        return t.numpy()

    def unpack(a):
        return paddle.to_tensor(a)

    x = _x(paddle, [3], 16)
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y = paddle.exp(x) * x
    y.sum().backward()
    return {"y": y.numpy(), "xgrad": x.grad.numpy(), "hooked": np.array(len(calls) > 0)}




def static_double_grad(paddle):
    def build(paddle):
        x = paddle.static.data("x", [3], "float64")
        x.stop_gradient = False
        y = paddle.sum(x * x * paddle.tanh(x))
        (dx,) = paddle.static.gradients([y], [x])
        (d2,) = paddle.static.gradients([paddle.sum(dx * dx)], [x])
        return {"dx": dx, "d2": d2}

    return _static_run(paddle, build, {"x": np.array([0.5, -1.0, 2.0])})


def static_jacobian_hessian(paddle):
    w = np.random.RandomState(17).uniform(-1, 1, [3, 2])

    def build(paddle):
        x = paddle.static.data("x", [3], "float64")
        x.stop_gradient = False
        y = paddle.tanh(paddle.matmul(x.reshape([1, 3]), paddle.to_tensor(w)).reshape([2])) * x[0]
        j = paddle.autograd.jacobian(y, x)
        xb = paddle.static.data("xb", [4, 3], "float64")
        xb.stop_gradient = False
        jb = paddle.autograd.jacobian(paddle.tanh(xb[:, 0:2]) * xb[:, 2:3], xb, batch_axis=0)
        s = paddle.sum(paddle.tanh(x) * x * x[1]).reshape([1])
        jj = paddle.autograd.jacobian(paddle.autograd.jacobian(s, x)[0], x)  # 2.6.2's static hessian() fails
        return {"j": j[:], "jrow": j[1, :], "jb": jb[:], "jj": jj[:]}

    return _static_run(paddle, build, {"x": np.array([0.3, -0.7, 1.1]),
                                       "xb": np.random.RandomState(18).uniform(-1, 1, [4, 3])})


CASES = [pylayer_tanh, pylayer_two_outputs, pylayer_non_differentiable_and_materialize, pylayer_in_a_chain,
         jacobian_unbatched, jacobian_batched, jacobian_tuples, hessian_cases, backward_api, saved_tensors_hooks_case,
         static_double_grad, static_jacobian_hessian]
