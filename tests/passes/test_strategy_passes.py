"""Every BuildStrategy option: the same training run with the option on and off gives the same losses and
parameters (1e-6), and the pass really fired (op types / node counts / metadata / dump files)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from _programs import all_off, assert_same, convbn, elementwise, gemm, mlp, op_types, train  # noqa: E402


def _fused_functors(run):
    return sorted(tuple(n.kwargs["functor_list"]) for n in run.gm.graph.nodes
                  if n.meta.get("op_type") == "fused_elemwise_activation")


def check_elewise(run):
    f = _fused_functors(run)
    acts = {a for fl in f for a in fl if a != "elementwise_add"}
    assert acts == {"relu", "tanh", "sigmoid", "scale", "gelu"}, f
    assert any(fl[1] == "elementwise_add" for fl in f) and any(fl[0] == "elementwise_add" for fl in f)
    assert "relu" not in op_types(run.gm) and "tanh" not in op_types(run.gm)


def check_bn_act(run):
    t = op_types(run.gm)
    assert t.count("fused_bn_act") == 1 and t.count("batch_norm") == 1, t


def check_bn_add_act(run):
    t = op_types(run.gm)
    assert t.count("fused_bn_add_activation") == 1 and t.count("batch_norm") == 1, t


def check_depthwise(run):
    t = op_types(run.gm)
    assert t.count("depthwise_conv2d") == 1 and t.count("relu") == 1, t  # the bn relu stays
    n = next(n for n in run.gm.graph.nodes if n.meta.get("op_type") == "depthwise_conv2d")
    assert n.kwargs["fuse_relu_before_depthwise_conv"] is True


def check_gemm(run):
    kinds = sorted((n.kwargs["kind"], n.kwargs["activation"]) for n in run.gm.graph.nodes
                   if n.meta.get("op_type") == "fused_gemm_epilogue")
    assert ("matmul_v2", "relu") in kinds and ("mul", "gelu") in kinds, kinds


def _check_optimizer(kind):
    def check(run):
        t = op_types(run.gm)
        assert t.count(f"fused_{kind}") == 1 and kind not in t, t
        assert run.stats["fuse_all_optimizer_ops"]["fused_updates"] >= 4
    return check


def check_all_reduce(run):
    buckets = run.gm.meta["allreduce_buckets"]
    assert len(buckets) == 1 and len(buckets[0]["grads"]) == len(buckets[0]["params"]) >= 6
    assert all(g.endswith("@GRAD") for g in buckets[0]["grads"])
    assert buckets[0]["numel"] > 0
    tagged = [n for n in run.gm.graph.nodes if "allreduce_bucket" in n.meta]
    assert len(tagged) == len(buckets[0]["grads"])


def check_inplace(run):
    assert run.stats["enable_inplace"]["inplace"] >= 2
    assert any(n.meta.get("inplace_of") for n in run.gm.graph.nodes)


def check_memory(run):
    t = op_types(run.gm)
    assert "sgd_reuse_grad" in t and "sgd" not in t, t


def check_memory_lean(run):
    variants = [n.meta.get("variant") for n in run.gm.graph.nodes if n.meta.get("variant")]
    assert variants.count("lean_grad") == 4 and variants.count("expand_grad") == 1, variants
    assert "sgd_reuse_grad" in op_types(run.gm)


def check_sequential(run):
    assert run.gm.meta.get("sequential") is True


def check_lock(run):
    assert run.gm.meta.get("op_locks") is False


def check_sync_bn(run):
    t = op_types(run.gm)
    assert t.count("sync_batch_norm") == 2 and "batch_norm" not in t, t


def check_addto(run):
    assert sum(1 for n in run.gm.graph.nodes if n.meta.get("addto")) == 1


# flag, builder, builder kwargs, check
OPTIONS = [
    ("fuse_elewise_add_act_ops", mlp, {}, check_elewise),
    ("fuse_bn_act_ops", convbn, {}, check_bn_act),
    ("fuse_bn_add_act_ops", convbn, {}, check_bn_add_act),
    ("fuse_relu_depthwise_conv", convbn, {}, check_depthwise),
    ("fuse_gemm_epilogue", gemm, {}, check_gemm),
    ("fuse_all_optimizer_ops", mlp, {"opt": "sgd"}, _check_optimizer("sgd")),
    ("fuse_all_optimizer_ops", convbn, {"opt": "momentum"}, _check_optimizer("momentum")),
    ("fuse_all_optimizer_ops", gemm, {"opt": "adam"}, _check_optimizer("adam")),
    ("fuse_all_reduce_ops", mlp, {}, check_all_reduce),
    ("enable_inplace", elementwise, {}, check_inplace),
    ("memory_optimize", mlp, {"opt": "sgd"}, check_memory),
    ("memory_optimize", elementwise, {"opt": "sgd"}, check_memory_lean),
    ("enable_sequential_execution", mlp, {}, check_sequential),
    ("remove_unnecessary_lock", mlp, {}, check_lock),
    ("sync_batch_norm", convbn, {}, check_sync_bn),
    ("enable_addto", gemm, {}, check_addto),
]


@pytest.mark.parametrize("flag,builder,kw,check", OPTIONS,
                         ids=[f"{o[0]}-{o[1].__name__}-{o[2].get('opt', '')}" for o in OPTIONS])
def test_option_on_equals_off_and_fires(flag, builder, kw, check):
    off = train(builder, all_off(), fetch_extras=True, **kw)
    on_strategy = all_off()
    setattr(on_strategy, flag, True)
    on = train(builder, on_strategy, fetch_extras=True, **kw)
    assert_same(off, on)
    check(on)
    # off really is off: the pass did not fire
    assert flag not in off.stats


@pytest.mark.parametrize("builder,kw", [(mlp, {"opt": "sgd"}), (convbn, {}), (gemm, {"opt": "adam"}),
                                        (elementwise, {"opt": "momentum"})])
def test_all_options_together_equal_plain_executor(builder, kw):
    import paddle.fluid as fluid

    plain = train(builder, None, fetch_extras=True, compiled=False, **kw)
    bs = fluid.BuildStrategy()
    for name, (default, types) in bs.FIELDS.items():
        if bool in types and name not in ("sync_batch_norm", "async_mode", "is_distribution"):
            setattr(bs, name, True)
    bs.memory_optimize = True
    on = train(builder, bs, fetch_extras=True, **kw)
    assert_same(plain, on)
    assert len(on.stats) >= 4, on.stats  # several passes fired


def test_default_strategy_equals_plain_executor():
    plain = train(convbn, None, compiled=False)
    default = train(convbn, None)
    assert_same(plain, default)
    assert "fused_bn_add_activation" in op_types(default.gm)  # fuse_bn_add_act_ops defaults to True


def test_fetched_intermediates_never_corrupted():
    """enable_inplace + memory_optimize + fusions with intermediates fetched: the fetched values equal
    those of a run without passes, and no fetched variable was reused or fused away."""
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    bs.enable_inplace = True
    bs.memory_optimize = True
    bs.fuse_elewise_add_act_ops = True
    for builder in (mlp, elementwise, gemm):
        plain = train(builder, None, fetch_extras=True, compiled=False)
        on = train(builder, bs, fetch_extras=True)
        assert_same(plain, on)
        reused = set(on.stats.get("enable_inplace", {}).get("vars", []))
        fetched = {n.meta.get("var_name") for n in on.gm.graph.nodes
                   if any(u.op == "output" for u in n.users)}
        assert not (reused & fetched), reused & fetched
        # the fetched pre-activation of the elementwise program keeps its own node
        for n in on.gm.graph.nodes:
            if n.meta.get("inplace_of"):
                assert n.meta["inplace_of"] not in fetched


def test_inplace_in_inference_program_keeps_fetches():
    """No backward: wider in-place (elementwise_mul too); a fetched intermediate stays intact."""
    import paddle.fluid as fluid
    from _programs import fresh

    fresh()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [8], dtype="float32")
        a = fluid.layers.elementwise_mul(fluid.layers.relu(x), x)
        b = fluid.layers.elementwise_mul(fluid.layers.scale(a, scale=2.0), x)
        c = fluid.layers.tanh(fluid.layers.elementwise_add(b, x))
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.RandomState(1).rand(3, 8).astype("float32")}
    xs = feed["x"].copy()
    want = exe.run(main, feed=feed, fetch_list=[a, c])
    bs = fluid.BuildStrategy()
    cp = fluid.CompiledProgram(main, bs)
    got = exe.run(cp, feed=feed, fetch_list=[a, c])
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(feed["x"], xs)  # the feed buffer was not reused
    st = cp._pass_stats["enable_inplace"]
    assert a.name not in st["vars"] and "x" not in st["vars"] and st["inplace"] >= 2


def test_failing_pass_is_skipped_with_one_warning(monkeypatch):
    from paddle_compat.engine import passes

    passes._load()

    def broken(gm, ctx):
        for n in gm.graph.nodes:
            if n.meta.get("op_type") == "relu":
                gm.graph.erase_node(n)  # leaves dangling users: lint must catch it
        raise RuntimeError("boom")

    monkeypatch.setattr(passes, "PIPELINE", [(f, broken if f == "fuse_elewise_add_act_ops" else fn)
                                             for f, fn in passes.PIPELINE])
    passes._warned.discard("fuse_elewise_add_act_ops")
    bs = all_off()
    bs.fuse_elewise_add_act_ops = True
    with pytest.warns(UserWarning, match="fuse_elewise_add_act_ops: pass skipped"):
        on = train(mlp, bs)
    off = train(mlp, all_off())
    assert_same(off, on)
    assert "relu" in op_types(on.gm)


@pytest.mark.parametrize("min_numel", [0, 1 << 15], ids=["lean_bodies", "small_tensors_plain_ops"])
def test_lean_gradient_bodies_match_torch_autograd_bit_for_bit(monkeypatch, min_numel):
    """min_numel 0: every case runs the custom autograd Functions; 1 << 15 (engine/ops/fused.py's default): these
    small tensors run torch's own ops (the Functions cost more than they save there)."""
    import torch
    from paddle_compat.engine.ops import fused
    from paddle_compat.engine.ops.fused import elementwise_mul_lean_grad, mean_expand_grad

    monkeypatch.setattr(fused, "LEAN_MIN_NUMEL", min_numel)
    calls = []
    for cls in (fused._MulLeanGrad, fused._MeanExpandGrad):
        monkeypatch.setattr(cls, "apply", (lambda orig: lambda *a: calls.append(1) or orig(*a))(cls.apply))
    mul = elementwise_mul_lean_grad.__paddle_op__.impl
    mean = mean_expand_grad.__paddle_op__.impl
    torch.manual_seed(0)
    for xs, ys, axis in (((64, 33), (33,), -1), ((8, 5, 3), (5,), 1), ((16, 16), (16, 16), -1)):
        x = torch.randn(*xs, requires_grad=True)
        y = torch.randn(*ys, requires_grad=True)
        yy = y.reshape(list(ys) + [1] * (len(xs) - axis - len(ys))) if axis != -1 else y
        want = torch.autograd.grad(torch.tanh(x * yy).mean().reshape(1), [x, y], torch.full((1,), 0.3))
        got = torch.autograd.grad(mean(torch.tanh(mul(x, y, axis))), [x, y], torch.full((1,), 0.3))
        for g, w in zip(got, want):
            assert torch.equal(g, w)
    assert len(calls) == (6 if min_numel == 0 else 0)


def test_inplace_never_reuses_an_alias_of_a_feed():
    """add_n of one input returns that input itself and scale with an act saves its result: neither may
    be written in place, whatever their names say (a feed would be corrupted)."""
    import paddle
    import paddle.fluid as fluid
    from _programs import fresh

    fresh()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [4], dtype="float32")
        a = fluid.layers.relu(paddle.add_n([x]))
        b = fluid.layers.tanh(fluid.layers.scale(a, scale=2.0, act="relu"))
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.RandomState(2).randn(3, 4).astype("float32")}
    xs = feed["x"].copy()
    want = exe.run(main, feed=feed, fetch_list=[b])[0]
    cp = fluid.CompiledProgram(main, fluid.BuildStrategy())
    got = exe.run(cp, feed=feed, fetch_list=[b])[0]
    np.testing.assert_array_equal(feed["x"], xs)
    np.testing.assert_array_equal(got, want)
    assert not any(n.meta.get("inplace_of") for n in next(iter(main._exec_cache.values())).gm.graph.nodes
                   if n.meta.get("op_type") in ("relu", "tanh"))


@pytest.mark.parametrize("opt", ["sgd", "momentum"])
@pytest.mark.parametrize("builder", [mlp, elementwise])
def test_fused_updates_are_bit_identical(builder, opt):
    """fused_sgd / fused_momentum run sgd's / momentum's own kernels (on CPU the product by the learning rate, then
    the difference, without parameter-sized temporaries: update_ops.sub_scaled_all_), so fusing the updates
    changes no bit of the parameters."""
    off = train(builder, all_off(), fetch_extras=True, opt=opt)
    on_strategy = all_off()
    on_strategy.fuse_all_optimizer_ops = True
    on = train(builder, on_strategy, fetch_extras=True, opt=opt)
    assert on.stats["fuse_all_optimizer_ops"]["fused_updates"] >= 2
    assert_same(off, on, tol=0.0)


def _mean_acts():
    """paddle.mean (reduce_mean) over relu / tanh / sigmoid of x * w + b: every body memory_optimize pools."""
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    x = fluid.layers.data("x", [8], dtype="float32")
    h = x
    for i, act in enumerate((fluid.layers.relu, fluid.layers.tanh, fluid.layers.sigmoid)):
        w = paddle.static.create_parameter([8], "float32",
                                           default_initializer=paddle.nn.initializer.Constant(1.0 + 0.1 * i))
        h = act(fluid.layers.elementwise_add(fluid.layers.elementwise_mul(h, w),
                                             paddle.static.create_parameter([8], "float32", is_bias=True)))
    loss = paddle.mean(h)
    fluid.optimizer.SGD(0.1).minimize(loss)
    return loss, {"x": (8,)}, {"h": h}


@pytest.mark.parametrize("fuse", [False, True], ids=["inplace", "fused_add_act"])
@pytest.mark.parametrize("builder", [elementwise, _mean_acts])
def test_pooled_buffers_bit_identical_and_reused(monkeypatch, builder, fuse):
    """memory_optimize's bodies write their large results into the plan's buffer pool (engine/core/buffer_pool.py):
    with the thresholds at 0 every step's results come from it, and losses, parameters and fetched
    intermediates (held across steps, so a buffer in use must never be handed out again) are the same bits as
    with the same strategy running torch's own ops (the thresholds' defaults leave these small tensors to
    them); the pool's buffers are handed out again from op to op and step to step."""
    from paddle_compat.engine.core import buffer_pool
    from paddle_compat.engine.ops import fused

    bs = all_off()
    bs.enable_inplace = bs.memory_optimize = True
    bs.fuse_elewise_add_act_ops = fuse
    off = train(builder, bs, fetch_extras=True, steps=4, batch=64)
    assert next(iter(off.program._exec_cache.values())).pool.nbytes == 0
    monkeypatch.setattr(fused, "LEAN_MIN_NUMEL", 0)
    monkeypatch.setattr(buffer_pool, "POOL_MIN_BYTES", 0)
    acts = []
    orig_apply = fused._ActInplaceLean.apply
    monkeypatch.setattr(fused._ActInplaceLean, "apply", lambda *a: acts.append(a[1]) or orig_apply(*a))
    served = []
    orig = buffer_pool.BufferPool.empty
    monkeypatch.setattr(buffer_pool.BufferPool, "empty", lambda self, *a: served.append(a[2]) or orig(self, *a))
    on = train(builder, bs, fetch_extras=True, steps=4, batch=64)
    if fuse:
        assert "fused_elemwise_activation" in op_types(on.gm)
    else:
        assert on.stats["memory_optimize"]["pooled_inplace_ops"] >= 3
    assert [n.meta.get("variant") for n in on.gm.graph.nodes if n.meta.get("op_type") in ("mean", "reduce_mean")] \
        == ["expand_grad"]
    assert_same(off, on, tol=0.0)
    for a, b in zip(off.extras, on.extras):
        np.testing.assert_array_equal(a[0], b[0])
    plan = next(iter(on.program._exec_cache.values()))
    assert plan.pool is not None and len(served) >= 4 * 8 and len(acts) >= 4 * 3
    assert plan.pool.nbytes < sum(served) / 2  # buffers were handed out again
    from paddle_compat.engine.core.runtime import RUNTIME

    assert RUNTIME.pool is None  # set only while a plan runs


def test_buffer_pool_hands_out_only_unreferenced_buffers():
    import torch
    from paddle_compat.engine.core.buffer_pool import BufferPool

    pool = BufferPool()
    a = pool.empty((4, 8), torch.float32, 128)
    a.fill_(1.0)
    v = a[1:]  # a view keeps the buffer in use after `a` dies
    del a
    b = pool.empty((4, 8), torch.float32, 128)
    assert b.data_ptr() != v.data_ptr() - 32 and pool.nbytes == 256
    ptr = b.data_ptr()
    del b
    c = pool.empty((32,), torch.float32, 128)  # the same bytes under another shape: reused
    assert c.data_ptr() == ptr and c.is_contiguous() and not c._is_view() and pool.nbytes == 256
    del v
    d = pool.empty((2, 16), torch.float32, 128)
    assert pool.nbytes == 256 and d.data_ptr() != c.data_ptr()


def test_buffer_pool_trim_drops_free_buffers_of_sizes_not_asked_for():
    """A plan fed varying shapes keeps one step's buffers: after a step, free buffers of sizes that step did
    not ask for go back; a buffer still in use stays."""
    import torch
    from paddle_compat.engine.core.buffer_pool import BufferPool

    pool = BufferPool()
    a = pool.empty((8,), torch.float32, 32)
    pool.empty((16,), torch.float32, 64)  # dies at once
    pool.trim()  # both sizes were asked for this step: kept
    assert pool.nbytes == 96
    pool.empty((4,), torch.float32, 16)
    pool.trim()  # 64 free and not asked for: dropped; 32 not asked for but `a` uses it: kept
    assert pool.nbytes == 32 + 16
    del a
    pool.trim()
    assert pool.nbytes == 0


def test_buffer_pool_off_by_environment(monkeypatch):
    """PADDLE_COMPAT_BUFFER_POOL=0 (buffer_pool.ENABLED): memory_optimize's plans make no pool."""
    from paddle_compat.engine.core import buffer_pool

    bs = all_off()
    bs.enable_inplace = bs.memory_optimize = True
    assert next(iter(train(elementwise, bs).program._exec_cache.values())).pool is not None
    monkeypatch.setattr(buffer_pool, "ENABLED", False)
    assert next(iter(train(elementwise, bs).program._exec_cache.values())).pool is None


@pytest.mark.parametrize("builder", [mlp, convbn, gemm])
def test_buffer_pool_on_equals_off_with_default_strategy(monkeypatch, builder):
    """Paddle's default BuildStrategy plus memory_optimize, every buffer eligible for the pool: the same bits
    with the pool (the plan's buffers, the pooled activation gradients) as without it."""
    import paddle.fluid as fluid
    from paddle_compat.engine.core import buffer_pool
    from paddle_compat.engine.ops import fused

    monkeypatch.setattr(fused, "LEAN_MIN_NUMEL", 0)
    monkeypatch.setattr(buffer_pool, "POOL_MIN_BYTES", 0)
    runs = []
    for enabled in (False, True):
        monkeypatch.setattr(buffer_pool, "ENABLED", enabled)
        bs = fluid.BuildStrategy()
        bs.memory_optimize = True
        runs.append(train(builder, bs, fetch_extras=True, steps=3, batch=32))
    assert next(iter(runs[1].program._exec_cache.values())).pool.nbytes > 0
    assert_same(runs[0], runs[1], tol=0.0)
    for a, b in zip(runs[0].extras, runs[1].extras):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("kind", ["relu", "tanh", "sigmoid"])
def test_pooled_inplace_activation_matches_torch_autograd_bit_for_bit(monkeypatch, kind):
    """_ActInplaceLean (memory_optimize's in-place relu / tanh / sigmoid with a pooled gradient) against torch's
    own in-place activation: the same first gradients, and the same second ones (create_graph: no `out=`)."""
    import torch
    from paddle_compat.engine.core import buffer_pool
    from paddle_compat.engine.core.runtime import RUNTIME
    from paddle_compat.engine.ops import fused

    monkeypatch.setattr(fused, "LEAN_MIN_NUMEL", 0)
    monkeypatch.setattr(buffer_pool, "POOL_MIN_BYTES", 0)
    x0 = torch.randn(64, 33, generator=torch.Generator().manual_seed(0))
    w = torch.randn(33, generator=torch.Generator().manual_seed(1))
    inplace = {"relu": torch.relu_, "tanh": torch.tanh_, "sigmoid": torch.sigmoid_}[kind]
    got = []
    for pooled in (False, True):
        monkeypatch.setattr(RUNTIME, "pool", buffer_pool.BufferPool() if pooled else None)
        x = x0.clone().requires_grad_()
        t = x * w
        y = fused.LEAN_INPLACE_BODIES[kind](t) if pooled else inplace(t)
        first = torch.autograd.grad(y, x, torch.full_like(y, 0.5))[0]
        x = x0.clone().requires_grad_()
        t = x * w
        y = fused.LEAN_INPLACE_BODIES[kind](t) if pooled else inplace(t)
        g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
        second = torch.autograd.grad((g * g).sum(), x)[0]
        got.append((first, g.detach(), second))
        if pooled:
            assert RUNTIME.pool.nbytes > 0
    for a, b in zip(*got):
        assert torch.equal(a, b)
