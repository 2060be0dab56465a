"""Small training programs for the pass tests, and a runner comparing strategies on them."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import numpy as np


def _layers():
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    return paddle, fluid


def mlp(opt: str = "sgd"):
    """fc+relu, fc+tanh, x + sigmoid(y), scale(a + b), a + gelu(b), mean; every fusable activation."""
    paddle, fluid = _layers()
    x = fluid.layers.data("x", [8], dtype="float32")
    h1 = fluid.layers.fc(x, 16, act="relu")
    h2 = fluid.layers.fc(h1, 16, act="tanh")
    h3 = fluid.layers.elementwise_add(h1, fluid.layers.sigmoid(h2))
    h4 = fluid.layers.scale(fluid.layers.elementwise_add(h3, h2), scale=0.5, bias=0.25)
    h5 = fluid.layers.elementwise_add(h4, paddle.nn.functional.gelu(h3))
    out = fluid.layers.fc(h5, 1)
    loss = fluid.layers.mean(out)
    _optimizer(fluid, opt).minimize(loss)
    return loss, {"x": (8,)}, {"h1": h1, "h3": h3}


def convbn(opt: str = "momentum"):
    """conv + batch_norm + relu, conv + batch_norm + add + relu, relu + depthwise conv."""
    paddle, fluid = _layers()
    img = fluid.layers.data("img", [4, 6, 6], dtype="float32")
    c1 = fluid.layers.conv2d(img, 4, 3, padding=1, bias_attr=False)
    b1 = fluid.layers.batch_norm(c1, act="relu")
    c2 = fluid.layers.conv2d(b1, 4, 3, padding=1, bias_attr=False)
    b2 = fluid.layers.batch_norm(c2)
    r = fluid.layers.relu(fluid.layers.elementwise_add(b2, b1))
    d = fluid.layers.conv2d(r, 4, 3, padding=1, groups=4, bias_attr=False)
    loss = fluid.layers.mean(d)
    _optimizer(fluid, opt).minimize(loss)
    return loss, {"img": (4, 6, 6)}, {"b1": b1}


def gemm(opt: str = "adam"):
    """matmul_v2 + bias + relu, fc (mul + bias + gelu), and an fc over two inputs (a `sum`)."""
    paddle, fluid = _layers()
    x = fluid.layers.data("x", [8], dtype="float32")
    w = paddle.static.create_parameter([8, 16], "float32")
    b = paddle.static.create_parameter([16], "float32", is_bias=True)
    h = fluid.layers.relu(paddle.add(paddle.matmul(x, w), b))
    g = fluid.layers.fc(h, 16, act="gelu")
    two = fluid.layers.fc([h, g], 4)
    loss = fluid.layers.mean(two)
    _optimizer(fluid, opt).minimize(loss)
    return loss, {"x": (8,)}, {"h": h}


def elementwise(n: int = 16, d: int = 8, rounds: int = 4, opt: str = "sgd"):
    """Issue 3's elementwise program: rounds of act(x * w + b), relu / tanh alternating, mean."""
    paddle, fluid = _layers()
    x = fluid.layers.data("x", [d], dtype="float32")
    h = x
    for i in range(rounds):
        w = paddle.static.create_parameter([d], "float32",
                                           default_initializer=paddle.nn.initializer.Constant(1.0 + 0.01 * i))
        b = paddle.static.create_parameter([d], "float32", is_bias=True)
        t = fluid.layers.elementwise_add(fluid.layers.elementwise_mul(h, w), b)
        h = fluid.layers.relu(t) if i % 2 == 0 else fluid.layers.tanh(t)
    loss = fluid.layers.mean(h)
    _optimizer(fluid, opt).minimize(loss)
    return loss, {"x": (d,)}, {"h": h}


def _optimizer(fluid, opt: str):
    return {"sgd": lambda: fluid.optimizer.SGD(0.1), "momentum": lambda: fluid.optimizer.Momentum(0.05, 0.9),
            "adam": lambda: fluid.optimizer.Adam(0.01)}[opt]()


@dataclass
class Run:
    losses: list
    params: dict
    extras: list = field(default_factory=list)
    gm: object = None
    stats: dict = field(default_factory=dict)
    program: object = None


def fresh() -> None:
    from paddle_compat.engine.framework import program, scope, unique_name

    program._main[0] = program.Program()
    program._startup[0] = program.Program()
    scope._global[0] = scope.Scope()
    unique_name.switch()


def train(builder, strategy=None, steps: int = 3, batch: int = 4, fetch_extras: bool = False, compiled=True,
          **kw) -> Run:
    """Build the program fresh (same names and initial values each time), train `steps` steps."""
    _, fluid = _layers()
    fresh()
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = 7
    with fluid.program_guard(main, startup):
        loss, feeds, extras = builder(**kw)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    prog = fluid.CompiledProgram(main, strategy) if compiled else main
    rng = np.random.RandomState(0)
    fetch = [loss] + (list(extras.values()) if fetch_extras else [])
    losses, ex = [], []
    for _ in range(steps):
        feed = {k: rng.rand(batch, *shape).astype("float32") for k, shape in feeds.items()}
        out = exe.run(prog, feed=feed, fetch_list=fetch)
        losses.append(out[0])
        ex.append(out[1:])
    scope = fluid.global_scope()
    params = {v.name: np.array(scope.find_var(v.name).get_tensor()) for v in main.list_vars()
              if v.persistable and scope.find_var(v.name) is not None}
    gm = next(iter(main._exec_cache.values())).gm
    stats = dict(prog._pass_stats) if compiled else {}
    return Run(losses, params, ex, gm, stats, main)


def all_off():
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    for name, (default, types) in bs.FIELDS.items():
        if bool in types and name not in ("remove_unnecessary_lock",):
            setattr(bs, name, False)
    return bs


def op_types(gm) -> list[str]:
    return [n.meta["op_type"] for n in gm.graph.nodes if n.op == "call_function" and n.meta.get("op_type")]


def assert_same(a: Run, b: Run, tol: float = 1e-6) -> None:
    for x, y in zip(a.losses, b.losses):
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol)
    assert a.params.keys() == b.params.keys()
    for k in a.params:
        np.testing.assert_allclose(a.params[k], b.params[k], rtol=tol, atol=tol, err_msg=k)
    for ea, eb in zip(a.extras, b.extras):
        for x, y in zip(ea, eb):
            np.testing.assert_allclose(x, y, rtol=tol, atol=tol)


def three_steps(build, backend, shape=(2, 4), last_step=contextlib.nullcontext) -> list:
    """The losses of three SGD steps of `build`'s program on a feed of `shape` (arange / its size): plain (backend
    None) or on the compiler path with `backend` (dynamo's state and counters reset before the runs); the third runs
    inside the context `last_step()` (a profiler, after the compiling first run). `build` returns the loss, or the
    loss and a list of values fetched beside it."""
    import torch._dynamo

    import paddle

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
            paddle.seed(1)
            loss = build(paddle, paddle.static.data("x", list(shape), "float32"))
            loss, extra = loss if isinstance(loss, tuple) else (loss, [])
            paddle.optimizer.SGD(0.1).minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prog = paddle.static.CompiledProgram(main)._with_compiler(backend) if backend else main
        torch._dynamo.reset()
        torch._dynamo.utils.counters.clear()
        size = int(np.prod(shape))
        feed = {"x": np.arange(size, dtype="float32").reshape(shape) / size}
        losses = [exe.run(prog, feed=feed, fetch_list=[loss, *extra])[0] for _ in range(2)]
        with last_step():
            losses.append(exe.run(prog, feed=feed, fetch_list=[loss, *extra])[0])
        return losses
    finally:
        paddle.disable_static()
