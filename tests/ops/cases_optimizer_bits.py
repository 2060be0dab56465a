"""Optimizer updates to the last bit, as Paddle's CPU kernels round them: SGD (p - lr * g: the product, then the
difference; no fused multiply-add) and Adam / AdamW (moments in float, each product rounded; 2.x's update line in
double). Three steps of loss = sum(w * g), whose gradient is g exactly, so only the updates' rounding is checked:
dygraph and static on 2.6.2 (`run(paddle)`), fluid on 1.8.5 (`run(fluid)`: SGD, and Adam's moments -- 1.8's
Adam update goes through Eigen's vectorized sqrt, which we do not copy). Shared by tools/oracle/rec_run26.py /
rec_run18.py and tests/ops/test_optimizer_bits.py."""

import numpy as np

N = 4096


def data():
    rs = np.random.RandomState(5)
    return rs.randn(N).astype("float32"), [rs.randn(N).astype("float32") for _ in range(3)]


def static_steps(static, param, total, optimizer, gs, build_strategy=None, extra=()):
    """Train loss = total(w * g) three steps with `optimizer`; returns per step [w] + the named `extra` vars."""
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("g", [N], "float32")
        w = param()
        optimizer().minimize(total(w * x))
    exe = static.Executor()
    with static.scope_guard(static.Scope() if hasattr(static, "Scope") else static.global_scope()):
        exe.run(startup)
        prog = main if build_strategy is None else static.CompiledProgram(main, build_strategy=build_strategy)
        names = [v.name for v in main.list_vars() if any(e in v.name for e in extra)]
        return [[np.array(o) for o in exe.run(prog, feed={"g": g}, fetch_list=[w] + sorted(names))] for g in gs]


def optimizers26(paddle, parameters=None):
    return {"sgd": lambda: paddle.optimizer.SGD(0.1, parameters=parameters),
            "adam": lambda: paddle.optimizer.Adam(0.01, parameters=parameters),
            "adamw": lambda: paddle.optimizer.AdamW(0.01, parameters=parameters, weight_decay=0.05)}


def param26(paddle, w0):
    return lambda: paddle.create_parameter([N], "float32", default_initializer=paddle.nn.initializer.Assign(w0))


def run(api):
    w0, gs = data()
    res = {}
    if hasattr(api, "layers"):  # fluid 1.8.5
        fluid = api
        for name, opt in (("sgd", lambda: fluid.optimizer.SGD(0.1)), ("adam", lambda: fluid.optimizer.Adam(0.01))):
            steps = static_steps(fluid, lambda: fluid.layers.create_parameter(
                [N], "float32", name="w", default_initializer=fluid.initializer.NumpyArrayInitializer(w0)),
                fluid.layers.reduce_sum, opt, gs, extra=("moment",))
            for i, outs in enumerate(steps):
                for j, o in enumerate(outs):
                    res[f"fluid_{name}_step{i}_{'w' if j == 0 else f'moment{j}'}"] = o
        return res
    paddle = api
    for name in optimizers26(paddle):
        w = param26(paddle, w0)()
        opt = optimizers26(paddle, [w])[name]()
        for i, g in enumerate(gs):
            paddle.sum(w * paddle.to_tensor(g)).backward()
            opt.step()
            opt.clear_grad()
            res[f"dygraph_{name}_step{i}"] = w.numpy()
    w = paddle.create_parameter([N], "float64", default_initializer=paddle.nn.initializer.Assign(w0.astype("float64")))
    opt = paddle.optimizer.Adam(0.01, parameters=[w])  # a float64 parameter, its beta pows float32
    for i, g in enumerate(gs):
        paddle.sum(w * paddle.to_tensor(g.astype("float64"))).backward()
        opt.step()
        opt.clear_grad()
        res[f"dygraph_adam_f64_step{i}"] = w.numpy()
    paddle.enable_static()
    try:
        for name, opt in optimizers26(paddle).items():
            for i, outs in enumerate(static_steps(paddle.static, param26(paddle, w0), paddle.sum, opt, gs)):
                res[f"static_{name}_step{i}"] = outs[0]
    finally:
        paddle.disable_static()
    return res
