"""The shortcuts that make building and first-running a program cheaper (issue 15 item 1) change no result:
the shape-inference cache gives what inference gives, fused_adam gives the bits of `adam` run one parameter at a
time, and interpreted first runs give the generated code's bits."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch


def _record(build):
    """Record `build(x)` in a fresh program twice; the outputs' (shape, dtype) both times."""
    import paddle

    paddle.enable_static()
    out = []
    for _ in range(2):
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 6], "float32")
            ys = build(x)
            out.append([(tuple(y.shape), str(y.dtype)) for y in ys])
    return out


# name, build(x) -> outputs, expected (shape, dtype) list
INFER_CASES = [
    ("relu", lambda x: [paddle_f().relu(x)], [((-1, 6), "paddle.float32")]),
    ("reshape", lambda x: [x.reshape([-1, 2, 3])], [((-1, 2, 3), "paddle.float32")]),
    ("split", lambda x: paddle_mod().split(x, [2, 4], axis=1), [((-1, 2), "paddle.float32"), ((-1, 4), "paddle.float32")]),
    ("cast", lambda x: [x.astype("int64")], [((-1, 6), "paddle.int64")]),
    ("rand", lambda x: [paddle_mod().rand([2, 3])], [((2, 3), "paddle.float32")]),
    ("const_tensor", lambda x: [x + paddle_mod().to_tensor(np.ones(6, "float32"))], [((-1, 6), "paddle.float32")]),
]


def paddle_mod():
    import paddle

    return paddle


def paddle_f():
    import paddle

    return paddle.nn.functional


@pytest.mark.parametrize("name,build,want", INFER_CASES, ids=[c[0] for c in INFER_CASES])
def test_inference_cache_gives_the_inferred_specs(name, build, want):
    from paddle_compat.engine.framework import infer

    first, second = _record(build)
    assert first == second == want
    # and without the cache, inference itself gives the same
    saved = dict(infer._CACHE)
    infer._CACHE.clear()
    try:
        orig = infer._cache_key
        infer._cache_key = lambda *a: None
        try:
            assert _record(build)[0] == want
        finally:
            infer._cache_key = orig
    finally:
        infer._CACHE.clear()
        infer._CACHE.update(saved)


def test_inference_cache_keys_the_default_dtype():
    import paddle

    paddle.enable_static()
    try:
        got = []
        for d in ("float32", "float64", "float32"):
            paddle.set_default_dtype(d)
            main = paddle.static.Program()
            with paddle.static.program_guard(main, paddle.static.Program()):
                got.append(str(paddle.rand([2, 3]).dtype))
    finally:
        paddle.set_default_dtype("float32")
    assert got == ["paddle.float32", "paddle.float64", "paddle.float32"]


def test_inference_cache_skips_constants_and_objects():
    from paddle_compat.engine.framework import infer
    from paddle_compat.engine.framework.tensor import Tensor
    from paddle_compat.engine.framework.registry import OPS

    opdef = OPS["relu"]
    assert infer._cache_key(opdef, (Tensor(torch.ones(2)),), {}) is None
    assert infer._cache_key(opdef, (object(),), {}) is None
    assert infer._cache_key(opdef, ((1, [2.0, "a"]),), {"name": None}) is not None


def _adam_loop(params, grads, m1, m2, b1p, b2p, lr, epsilon, scaled):
    """`adam` one parameter at a time (the reference for fused_adam's multi-tensor body)."""
    from paddle_compat.engine.framework.registry import OPS

    for i in range(len(params)):
        OPS["adam"].impl(params[i], grads[i], m1[i], m2[i], b1p[i], b2p[i], lr, epsilon=epsilon,
                         scaled_epsilon=scaled)


def _adam_state(dtype, lr_kind):
    g = torch.Generator().manual_seed(3)
    shapes = [(50, 20), (20,), (3, 5), (1,)]

    def r(s, pos=False):
        t = torch.rand(s, generator=g, dtype=torch.float64) if pos else torch.randn(s, generator=g, dtype=torch.float64)
        return t.to(dtype)

    state = [[r(s) for s in shapes], [r(s) for s in shapes], [r(s) for s in shapes], [r(s, True) for s in shapes],
             [torch.tensor([0.9 ** (i + 1)], dtype=dtype) for i in range(len(shapes))],
             [torch.tensor([0.999 ** (i + 2)], dtype=dtype) for i in range(len(shapes))]]
    lr = {"float": 1e-2, "tensor": torch.tensor([1e-2], dtype=dtype),
          "tensor32": torch.tensor([1e-2], dtype=torch.float32)}[lr_kind]
    return state, lr


@pytest.mark.parametrize("dtype,scaled,lr_kind", list(itertools.product(
    [torch.float32, torch.float64], [True, False], ["float", "tensor", "tensor32"])))
def test_fused_adam_is_adam_per_parameter_bitwise(dtype, scaled, lr_kind):
    from paddle_compat.engine.framework.registry import OPS

    fused = OPS["fused_adam"].impl
    (a, lr_a), (b, lr_b) = _adam_state(dtype, lr_kind), _adam_state(dtype, lr_kind)
    for _ in range(4):
        with torch.no_grad():
            _adam_loop(*a, lr_a, 1e-8, scaled)
        fused(*b, lr_b, epsilon=1e-8, scaled_epsilon=scaled)
    for xs, ys in zip(a, b):
        for x, y in zip(xs, ys):
            assert torch.equal(x, y)


def _all_on(dp: bool = False):
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    for flag in ("fuse_elewise_add_act_ops", "fuse_bn_act_ops", "fuse_bn_add_act_ops", "fuse_relu_depthwise_conv",
                 "fuse_gemm_epilogue", "fuse_all_optimizer_ops", "fuse_all_reduce_ops", "enable_inplace",
                 "memory_optimize", "enable_sequential_execution", "enable_addto") + (("sync_batch_norm",) if dp else ()):
        setattr(bs, flag, True)
    return bs


def _train_dp(builder, opt, steps):
    """`builder` on 2 CPU places with every option on: losses, fetched extras and parameters."""
    import os
    import sys

    import paddle.fluid as fluid

    sys.path.insert(0, os.path.dirname(__file__))
    from _programs import fresh

    fresh()
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = 7
    with fluid.program_guard(main, startup):
        loss, feeds, extras = builder(opt=opt)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(startup, scope=scope)
    prog = fluid.CompiledProgram(main, _all_on(True)).with_data_parallel(loss_name=loss.name,
                                                                         places=fluid.cpu_places(2))
    rng = np.random.RandomState(0)
    out = []
    for i in range(steps):
        feed = {k: rng.rand(4, *shape).astype("float32") for k, shape in feeds.items()}
        fetch = [loss] + list(extras.values()) if i % 2 == 0 else [loss]  # two plans
        out += exe.run(prog, feed=feed, fetch_list=fetch, scope=scope)
    out += [np.array(scope.find_var(v.name).get_tensor()) for v in main.list_vars()
            if v.persistable and scope.find_var(v.name) is not None]
    return out


def _train_one(builder, opt, steps):
    import os
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    from _programs import train

    r = train(builder, _all_on(), steps=steps, fetch_extras=True, opt=opt)
    return list(r.losses) + [x for e in r.extras for x in e] + [r.params[k] for k in sorted(r.params)]


@pytest.mark.parametrize("runner", ["single", "dp"])
@pytest.mark.parametrize("name,opt", [("mlp", "adam"), ("convbn", "momentum"), ("gemm", "adam"), ("elementwise", "sgd")])
def test_interpreted_first_runs_equal_generated_code_bitwise(monkeypatch, runner, name, opt):
    """A plan's first runs are interpreted node by node (engine/framework/fx_interp.py), later ones run its generated
    code: with every BuildStrategy option on, one place and two, both give the same bits."""
    import os
    import sys

    from paddle_compat.engine.framework import fx_interp

    sys.path.insert(0, os.path.dirname(__file__))
    import _programs

    builder = getattr(_programs, name)
    run = _train_dp if runner == "dp" else _train_one
    got = {}
    for calls in (0, 1000, 2):  # generated only, interpreted only, interpreted then generated
        monkeypatch.setattr(fx_interp, "INTERPRETED_CALLS", calls)
        got[calls] = run(builder, opt, 5)
    for calls in (1000, 2):
        assert len(got[calls]) == len(got[0])
        for x, y in zip(got[0], got[calls]):
            assert np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True)


UPDATE_OPTIMIZERS = ["SGD", "Momentum", "Adam", "Adamax", "Adagrad", "Adadelta", "RMSProp", "Lamb", "DecayedAdagrad"]


@pytest.mark.parametrize("name", UPDATE_OPTIMIZERS)
def test_update_op_rule_gives_the_inferred_spec(name):
    """Update ops infer their output from `param` (engine/ops/update_ops.py _param_spec): the spec the body gives
    on substitutes (the generic inference), for every recorded update of a small fc program."""
    import paddle.fluid as fluid
    import torch.fx as fx

    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.ops.tensor._helpers import default_infer

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data("x", [5], dtype="float32")
        loss = fluid.layers.mean(fluid.layers.fc(fluid.layers.fc(x, 4, act="relu"), 3))
        kw = {"momentum": 0.9} if name == "Momentum" else {}
        getattr(fluid.optimizer, name)(learning_rate=0.1, **kw).minimize(loss)
    block = main.global_block()

    def var(a):  # the Variable a recorded argument node holds
        return block.vars.get(a.meta.get("var_name")) if isinstance(a, fx.Node) else a

    seen = 0
    for n in block.graph.nodes:
        opdef = n.meta.get("opdef")
        if opdef is None or opdef.infer is None or opdef.infer.__name__ != "_param_spec":
            continue
        args = [var(a) for a in n.args]
        kwargs = {k: var(v) for k, v in n.kwargs.items()}
        if not all(isinstance(a, Variable) or not isinstance(b, fx.Node)
                   for a, b in zip(list(args) + list(kwargs.values()), list(n.args) + list(n.kwargs.values()))):
            continue  # an argument that is no Variable of the block (a constant node)
        assert opdef.infer(*args, **kwargs) == default_infer(opdef, tuple(args), kwargs)
        seen += 1
    assert seen >= 4


def test_update_op_rule_refuses_a_gradient_of_another_shape():
    from paddle_compat.engine.core.errors import InvalidArgumentError
    from paddle_compat.engine.ops.update_ops import _param_spec

    class V:
        def __init__(self, shape):
            self.shape, self.dtype, self.name = shape, "float32", "w"

    assert _param_spec(V([4, 3]), V([-1, 3])).shape == (4, 3)
    with pytest.raises(InvalidArgumentError, match="same shape"):
        _param_spec(V([4, 3]), V([3, 4]))


def test_dp_fetched_gradient_is_the_sum_on_every_place():
    """Under uniform_post the other places run no optimizer step and get the reduced gradients only where an output
    passes one through: a fetched param@GRAD is the same sum on every place, on every run (data_parallel.py)."""
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = 3
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data("x", [6], dtype="float32")
        loss = fluid.layers.mean(fluid.layers.fc(fluid.layers.fc(x, 5, act="relu"), 2))
        fluid.optimizer.Adam(0.01).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(startup, scope=scope)
    cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, places=fluid.cpu_places(3))
    rng = np.random.RandomState(0)
    for i in range(6):
        fetch = [loss.name] if i % 2 else ["fc_0.w_0@GRAD", "fc_1.b_0@GRAD"]
        out = exe.run(cp, feed={"x": rng.rand(6, 6).astype("float32")}, fetch_list=fetch, scope=scope,
                      return_merged=False)
        if not i % 2:
            for per_place in out:
                assert len(per_place) == 3
                assert all(np.array_equal(per_place[0], v) for v in per_place[1:])
    w = [np.array(s.find_var("fc_0.w_0").get_tensor()) for s in cp._executor.local_scopes()]
    assert all(np.array_equal(w[0], v) for v in w[1:])
