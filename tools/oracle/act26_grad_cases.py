"""Activations whose gradients Paddle's kernels compute with their own formulas (boundaries included), recorded from
real Paddle 2.6.2 by rec_cases26.py (golden act26_grads; test: tests/nn/test_act26_grads.py). Each case: the output
and the input's gradient for a random upstream gradient, on inputs that hit the kinks exactly."""
import numpy as np


def _inputs():
    x = np.random.RandomState(0).randn(997).astype("float32") * 4
    kinks = [-6, -3, -2.9999998, -1.5, 0, 0.5, 2.9999998, 3, 3.0000002, 6, 6.0000005]
    return np.concatenate([x, np.array(kinks, "float32")])


def _run(paddle, fn):
    x = _inputs()
    g = np.random.RandomState(1).randn(x.size).astype("float32")
    t = paddle.to_tensor(x, stop_gradient=False)
    y = fn(t)
    y.backward(paddle.to_tensor(g))
    return {"out": y.numpy(), "dx": t.grad.numpy()}


def hardswish(paddle):
    return _run(paddle, paddle.nn.functional.hardswish)


def hardswish_layer(paddle):
    return _run(paddle, paddle.nn.Hardswish())


def hardsigmoid(paddle):
    return _run(paddle, paddle.nn.functional.hardsigmoid)


def hardsigmoid_slope(paddle):
    return _run(paddle, lambda t: paddle.nn.functional.hardsigmoid(t, slope=0.5, offset=1.5))


def relu6(paddle):
    return _run(paddle, paddle.nn.functional.relu6)


CASES = [hardswish, hardswish_layer, hardsigmoid, hardsigmoid_slope, relu6]
