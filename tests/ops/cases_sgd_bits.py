"""SGD's update to the last bit: p - lr * g rounds the product, then the difference (Paddle's CPU kernels have no
fused multiply-add). Three steps of loss = sum(w * g), whose gradient is g exactly, so only the update's rounding
is checked: dygraph and static on 2.6.2 (`run(paddle)`), fluid on 1.8.5 (`run(fluid)`). Shared by
tools/oracle/rec_run26.py / rec_run18.py and tests/ops/test_sgd_bits.py."""

import numpy as np


def data():
    rs = np.random.RandomState(5)
    return rs.randn(4096).astype("float32"), [rs.randn(4096).astype("float32") for _ in range(3)]


def _static(static, param, total, sgd, gs):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("g", [4096], "float32")
        w = param()
        sgd(0.1).minimize(total(w * x))
    exe = static.Executor()
    with static.scope_guard(static.Scope() if hasattr(static, "Scope") else static.global_scope()):
        exe.run(startup)
        return [np.array(exe.run(main, feed={"g": g}, fetch_list=[w])[0]) for g in gs]


def run(api):
    w0, gs = data()
    if hasattr(api, "layers"):  # fluid 1.8.5
        fluid = api
        steps = _static(fluid, lambda: fluid.layers.create_parameter(
            [4096], "float32", name="w", default_initializer=fluid.initializer.NumpyArrayInitializer(w0)),
            fluid.layers.reduce_sum, fluid.optimizer.SGD, gs)
        return {f"fluid_step{i}": s for i, s in enumerate(steps)}
    paddle = api
    res = {}
    w = paddle.create_parameter([4096], "float32", default_initializer=paddle.nn.initializer.Assign(w0))
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    for i, g in enumerate(gs):
        paddle.sum(w * paddle.to_tensor(g)).backward()
        opt.step()
        opt.clear_grad()
        res[f"dygraph_step{i}"] = w.numpy()
    paddle.enable_static()
    try:
        steps = _static(paddle.static, lambda: paddle.create_parameter(
            [4096], "float32", default_initializer=paddle.nn.initializer.Assign(w0)), paddle.sum,
            paddle.optimizer.SGD, gs)
    finally:
        paddle.disable_static()
    res.update({f"static_step{i}": s for i, s in enumerate(steps)})
    return res
