"""1x1 convolutions of one group as real Paddle 2.6.2 computes them on CPU (its GEMM convolution: one GEMM of the
filters [out, in] by each sample's [in, H * W]) -> tests/goldens/conv1x1_26.{npz,json}, which
tests/ops/test_conv_gemm.py replays bit for bit.
- dygraph: F.conv2d forward, and the input's and the filter's gradients for a given upstream gradient, per case of
  CASES (batch, channels, sizes, stride, padding, dtype);
- static: a Program of two 1x1 convolutions (the second strided) with a relu between, mean of the square, Momentum,
  three steps: the losses and the final filters.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_conv1x1_26.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import save  # noqa: E402

import paddle  # noqa: E402

# (x shape [N, C, H, W], out channels, stride, padding, dtype)
CASES = [((2, 64, 7, 7), 128, 1, 0, "float32"), ((3, 512, 3, 3), 64, 1, 0, "float32"),
         ((1, 8, 5, 5), 4, 1, 0, "float32"), ((2, 16, 9, 9), 8, 2, 0, "float32"), ((2, 6, 4, 4), 5, 1, 1, "float32"),
         ((4, 32, 6, 6), 48, 1, 0, "float64")]


def out_size(s, stride, pad):
    return (s + 2 * pad - 1) // stride + 1


def dygraph(arrays):
    rng = np.random.RandomState(0)
    paddle.disable_static()
    for i, (xs, co, st, pd, dt) in enumerate(CASES):
        x = rng.standard_normal(xs).astype(dt)
        w = rng.standard_normal((co, xs[1], 1, 1)).astype(dt)
        g = rng.standard_normal((xs[0], co, out_size(xs[2], st, pd), out_size(xs[3], st, pd))).astype(dt)
        xt, wt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(w, stop_gradient=False)
        y = paddle.nn.functional.conv2d(xt, wt, stride=st, padding=pd)
        (y * paddle.to_tensor(g)).sum().backward()
        arrays.update({f"x{i}": x, f"w{i}": w, f"g{i}": g, f"y{i}": y.numpy(), f"gx{i}": xt.grad.numpy(),
                       f"gw{i}": wt.grad.numpy()})


def static(arrays):
    rng = np.random.RandomState(1)
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 16, 8, 8], "float32")
        h = paddle.nn.functional.relu(paddle.static.nn.conv2d(x, 32, 1, bias_attr=False))
        h = paddle.static.nn.conv2d(h, 8, 1, stride=2, bias_attr=False)
        loss = paddle.mean(h * h)
        paddle.optimizer.Momentum(0.1, 0.9).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for name, shape in (("conv2d_0.w_0", (32, 16, 1, 1)), ("conv2d_1.w_0", (8, 32, 1, 1))):
            v = (rng.standard_normal(shape) * 0.3).astype("float32")
            scope.find_var(name).get_tensor().set(v, paddle.CPUPlace())
            arrays["init__" + name.replace(".", "_")] = v
        xs = rng.standard_normal((3, 4, 16, 8, 8)).astype("float32")
        arrays["xs"] = xs
        arrays["losses"] = np.array([exe.run(main, feed={"x": xb}, fetch_list=[loss])[0] for xb in xs])
        for name in ("conv2d_0.w_0", "conv2d_1.w_0"):
            arrays["final__" + name.replace(".", "_")] = np.array(scope.find_var(name).get_tensor())


def main():
    arrays = {}
    dygraph(arrays)
    static(arrays)
    save("conv1x1_26", arrays, {"paddle_version": paddle.__version__, "cases": [list(c) for c in CASES],
                                "program": "conv2d(x, 32, 1) -> relu -> conv2d(., 8, 1, stride=2) -> mean(h * h), "
                                           "Momentum(0.1, 0.9), 3 steps"})


if __name__ == "__main__":
    main()
