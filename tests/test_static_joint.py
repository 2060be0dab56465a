"""A static training step run as one joint forward + backward + update graph (engine/static/joint.py).

Each case builds the same program twice (same names, same seeds) and runs it on the same feeds: once on the plan's
own path (PADDLE_COMPAT_JOINT off) and once with the joint graph traced at the first run. The fetched values and
every persistable variable after the steps must be the same bits, and the plan must have run the joint graph -
or, for the programs it cannot express, kept its own path and said why.
"""

from __future__ import annotations

import numpy as np
import pytest

STEPS = 4


def _mlp_ce(opt: str):
    def build(paddle):
        x = paddle.static.data("x", [None, 12])
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.static.nn.fc(x, 16, activation="relu")
        logits = paddle.static.nn.fc(h, 5)
        loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, y))
        optimizer = {
            "sgd": lambda: paddle.optimizer.SGD(learning_rate=0.1),
            "adam": lambda: paddle.optimizer.Adam(learning_rate=0.01),
            "momentum_l2": lambda: paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9,
                                                              weight_decay=paddle.regularizer.L2Decay(1e-3)),
            "sgd_clip": lambda: paddle.optimizer.SGD(learning_rate=0.1,
                                                     grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5)),
            "adam_decay": lambda: paddle.optimizer.Adam(
                learning_rate=paddle.optimizer.lr.ExponentialDecay(0.01, 0.9)),
        }[opt]()
        optimizer.minimize(loss)
        return [loss], lambda r: {"x": r.rand(8, 12).astype("float32"), "y": r.randint(0, 5, (8, 1)).astype("int64")}

    return build


def _fc_mean(paddle):
    x = paddle.static.data("X", [None, 1])
    loss = paddle.mean(paddle.static.nn.fc(x, 10))
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    return [loss], lambda r: {"X": r.rand(10, 1).astype("float32")}


def _conv_bn(paddle):
    x = paddle.static.data("img", [None, 2, 8, 8])
    y = paddle.static.data("label", [None, 1], "int64")
    h = paddle.static.nn.conv2d(x, 4, 3, padding=1)
    h = paddle.static.nn.batch_norm(h, act="relu")  # moving mean / variance: persistable values written back
    h = paddle.nn.functional.max_pool2d(h, 2, 2)
    logits = paddle.static.nn.fc(paddle.flatten(h, 1), 3)
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, y))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return [loss, h], lambda r: {"img": r.rand(4, 2, 8, 8).astype("float32"),
                                 "label": r.randint(0, 3, (4, 1)).astype("int64")}


def _cross_entropy_acts(ignored: bool):
    def build(paddle):
        x = paddle.static.data("x", [None, 12])
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.nn.functional.hardswish(paddle.static.nn.fc(x, 16))
        h = paddle.nn.functional.hardsigmoid(h) * paddle.nn.functional.softmax(h)
        loss = paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 5), y)  # its mean: a branch on the labels
        paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)

        def feed(r):
            y = r.randint(0, 5, (8, 1)).astype("int64")
            if ignored:
                y[2] = -100  # ignore_index: the mean over the kept samples
            return {"x": r.rand(8, 12).astype("float32"), "y": y}

        return [loss], feed

    return build


def _masked_select(paddle):
    x = paddle.static.data("x", [None, 6])
    h = paddle.static.nn.fc(x, 6)
    loss = paddle.mean(paddle.masked_select(h, h > 0))  # a shape that depends on values: traced symbolically
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss], lambda r: {"x": r.rand(4, 6).astype("float32") - 0.2}


def _dropout(paddle):
    x = paddle.static.data("x", [None, 6])
    h = paddle.nn.functional.dropout(paddle.static.nn.fc(x, 6), 0.5)
    loss = paddle.mean(h)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss], lambda r: {"x": r.rand(4, 6).astype("float32")}


def _fluid_fc(paddle):
    import paddle.fluid as fluid

    x = fluid.layers.data("x", [6])
    y = fluid.layers.data("y", [1])
    pred = fluid.layers.fc(fluid.layers.fc(x, 8, act="tanh"), 1)
    loss = fluid.layers.reduce_sum(fluid.layers.square_error_cost(pred, y))
    fluid.optimizer.SGD(learning_rate=0.01, regularization=fluid.regularizer.L2Decay(1e-2)).minimize(loss)
    return [loss, pred], lambda r: {"x": r.rand(5, 6).astype("float32"), "y": r.rand(5, 1).astype("float32")}


def _conv_bias_relu_sgd(paddle):
    x = paddle.static.data("x", [None, 2, 8, 8])
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.static.nn.conv2d(x, 4, 3, padding=1, act="relu")  # conv, its bias add, relu: one buffer
    h2 = paddle.static.nn.fc(paddle.flatten(h, 1), 6)
    t = h2 * 2.0 + h2  # h2 read twice: kept
    t = paddle.static.nn.fc(x, 1, num_flatten_dims=1) + t  # [N, 1] + [N, 6]: no broadcast into the first input
    loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(paddle.static.nn.fc(t, 3), y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss], lambda r: {"x": r.rand(4, 2, 8, 8).astype("float32"), "y": r.randint(0, 3, (4, 1)).astype("int64")}


def _lenet_pools(paddle):
    """LeNet's 2x2 max pools and ResNet's 3x3 / stride 2 / padding 1, on inputs large enough for the native kernel
    (engine/ops/nn_functional/pooling._NATIVE_GRAD_MIN)."""
    F = paddle.nn.functional  # noqa: N806
    x = paddle.static.data("x", [None, 1, 28, 28])
    y = paddle.static.data("y", [None, 1], "int64")
    h = F.max_pool2d(paddle.static.nn.conv2d(x, 6, 5, padding=2, act="relu"), 2, 2)
    h = F.max_pool2d(paddle.static.nn.conv2d(h, 8, 3, padding=1, act="relu"), 3, 2, padding=1)
    loss = paddle.mean(F.softmax_with_cross_entropy(paddle.static.nn.fc(paddle.flatten(h, 1), 10), y))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss], lambda r: {"x": r.rand(8, 1, 28, 28).astype("float32"),
                              "y": r.randint(0, 10, (8, 1)).astype("int64")}


JOINT_CASES = {
    "conv_bias_relu_sgd": _conv_bias_relu_sgd,
    "lenet_max_pools": _lenet_pools,
    "fc_mean_sgd": _fc_mean,
    "mlp_ce_sgd": _mlp_ce("sgd"),
    "mlp_ce_adam": _mlp_ce("adam"),
    "mlp_ce_momentum_l2": _mlp_ce("momentum_l2"),
    "mlp_ce_sgd_global_norm_clip": _mlp_ce("sgd_clip"),
    "mlp_ce_adam_lr_decay": _mlp_ce("adam_decay"),
    "conv_bn_pool_momentum": _conv_bn,
    "cross_entropy_hardswish": _cross_entropy_acts(False),
    "cross_entropy_ignored_label": _cross_entropy_acts(True),
    "fluid_fc_l2_reduce_sum": _fluid_fc,
    "masked_select": _masked_select,
    "dropout": _dropout,
}


def _ctc(paddle):
    logits = paddle.static.data("logits", [5, 2, 4])  # [T, B, C]
    labels = paddle.static.data("labels", [2, 2], "int32")
    ilen = paddle.static.data("ilen", [2], "int64")
    llen = paddle.static.data("llen", [2], "int64")
    h = paddle.static.nn.fc(logits, 4, num_flatten_dims=2)
    loss = paddle.nn.functional.ctc_loss(h, labels, ilen, llen, reduction="mean")  # a kernel with a value-sized
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)  # workspace: the trace cannot size it
    return [loss], lambda r: {"logits": r.rand(5, 2, 4).astype("float32"),
                              "labels": r.randint(1, 4, (2, 2)).astype("int32"),
                              "ilen": np.array([5, 5], "int64"), "llen": np.array([2, 2], "int64")}


def _sparse_embedding(paddle):
    import paddle.fluid as fluid

    ids = fluid.layers.data("ids", [1], dtype="int64")
    emb = fluid.layers.embedding(ids, size=[10, 4], is_sparse=True)
    loss = fluid.layers.mean(emb)
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss], lambda r: {"ids": r.randint(0, 10, (6, 1)).astype("int64")}


def _py_func(paddle):
    import paddle.fluid as fluid

    x = paddle.static.data("x", [None, 3])
    h = paddle.static.nn.fc(x, 3)
    out = fluid.default_main_program().current_block().create_var(name="pyout", dtype="float32", shape=[-1, 3])
    fluid.layers.py_func(lambda a: np.array(a) * 2, h, out)
    loss = paddle.mean(h)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss, out], lambda r: {"x": r.rand(4, 3).astype("float32")}


def _inference(paddle):
    x = paddle.static.data("x", [None, 5])
    out = paddle.static.nn.fc(x, 3)
    return [out], lambda r: {"x": r.rand(4, 5).astype("float32")}


def _uniform(paddle):
    x = paddle.static.data("x", [None, 6])
    noise = paddle.uniform([4, 6], min=-0.1, max=0.1)
    loss = paddle.mean(paddle.static.nn.fc(x + noise, 6))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return [loss], lambda r: {"x": r.rand(4, 6).astype("float32")}


FALLBACK_CASES = {  # case -> (builder, words of the reason the plan keeps its own path)
    "uniform_random": (_uniform, "random op uniform_random"),
    "ctc_loss": (_ctc, "trace failed at warpctc"),
    "sparse_embedding": (_sparse_embedding, "SelectedRows"),
    "py_func": (_py_func, "op py_func"),
    "inference": (_inference, "no backward"),
}


def _plan(program):
    plans = list(program._exec_cache.values())
    assert len(plans) == 1
    return plans[0]


def _run(build, joint_on: bool, monkeypatch, steps: int = STEPS, compiled=None, seed: int = 0):
    import paddle
    import torch
    from paddle_compat.engine.static import joint

    monkeypatch.setattr(joint, "ENABLED", [joint_on])
    monkeypatch.setattr(joint, "AFTER_CALLS", [0])
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    startup.random_seed = 11
    main.random_seed = seed
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        fetches, feed = build(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.RandomState(5)
    prog = paddle.static.CompiledProgram(main, build_strategy=compiled()) if compiled else main
    torch.manual_seed(3)  # dropout draws from torch's generator
    outs = [exe.run(prog, feed=feed(rng), fetch_list=fetches, scope=scope) for _ in range(steps)]
    state = {v.name: np.array(scope.find_var(v.name).get_tensor()) for v in main.list_vars()
             if v.persistable and scope.find_var(v.name) is not None and scope.find_var(v.name).get_tensor()._is_initialized()}
    return outs, state, _plan(main)


def _bits(a) -> bytes:
    a = np.ascontiguousarray(a)
    return a.dtype.str.encode() + str(a.shape).encode() + a.tobytes()


def _assert_same(ref, got):
    outs_r, state_r, _ = ref
    outs_g, state_g, _ = got
    assert [[_bits(a) for a in step] for step in outs_g] == [[_bits(a) for a in step] for step in outs_r]
    assert sorted(state_g) == sorted(state_r)
    for name in state_r:
        assert _bits(state_g[name]) == _bits(state_r[name]), name


@pytest.mark.parametrize("case", sorted(JOINT_CASES))
def test_joint_graph_gives_the_same_bits(case, monkeypatch):
    own = _run(JOINT_CASES[case], False, monkeypatch)
    got = _run(JOINT_CASES[case], True, monkeypatch)
    assert own[2].joint is None and own[2].joint_off == "PADDLE_COMPAT_JOINT=0"
    plan = got[2]
    assert plan.joint_off is None and plan.joint is not None and len(plan.joint.graphs) == 1, plan.joint_off
    _assert_same(own, got)


@pytest.mark.parametrize("case", sorted(FALLBACK_CASES))
def test_programs_the_joint_graph_cannot_express_keep_their_path(case, monkeypatch):
    build, reason = FALLBACK_CASES[case]
    own = _run(build, False, monkeypatch)
    got = _run(build, True, monkeypatch)
    plan = got[2]
    assert plan.joint is None and reason in (plan.joint_off or ""), plan.joint_off
    _assert_same(own, got)


def test_dropout_with_a_program_seed_keeps_its_path(monkeypatch):
    """A program's random_seed gives each run a fresh seeded generator, which a traced graph cannot."""
    got = _run(_dropout, True, monkeypatch, seed=5)
    assert got[2].joint is None and "random op dropout with the program's random_seed" in got[2].joint_off


def _strategy(**flags):
    def make():
        import paddle

        bs = paddle.static.BuildStrategy()
        for k, v in flags.items():
            setattr(bs, k, v)
        return bs

    return make


@pytest.mark.parametrize("case,flags", [
    ("mlp_ce_adam", {}),
    ("conv_bn_pool_momentum", {"fuse_elewise_add_act_ops": True, "fuse_bn_act_ops": True, "enable_inplace": True}),
    ("mlp_ce_sgd", {"fuse_all_optimizer_ops": True, "fuse_all_reduce_ops": True}),
    ("mlp_ce_adam", {"fuse_all_optimizer_ops": True}),
    ("mlp_ce_momentum_l2", {"fuse_all_optimizer_ops": True}),
])
def test_compiled_program_graph_after_its_passes(case, flags, monkeypatch):
    own = _run(JOINT_CASES[case], False, monkeypatch, compiled=_strategy(**flags))
    got = _run(JOINT_CASES[case], True, monkeypatch, compiled=_strategy(**flags))
    assert got[2].joint is not None and len(got[2].joint.graphs) == 1, got[2].joint_off
    _assert_same(own, got)


def test_memory_optimize_keeps_its_path(monkeypatch):
    got = _run(_fc_mean, True, monkeypatch, compiled=_strategy(memory_optimize=True))
    assert got[2].joint is None and "buffer pool" in got[2].joint_off


def test_a_graph_whose_bits_differ_is_dropped(monkeypatch):
    """The check at a graph's first run: a joint graph whose settle step is wrong gives other bits, so the plan
    keeps its own path, and the run's results are its own path's."""
    from paddle_compat.engine.static import joint

    own = _run(_fc_mean, False, monkeypatch)
    monkeypatch.setattr(joint, "_settle_", lambda out, x, kind: out.add_(1.0))
    got = _run(_fc_mean, True, monkeypatch)
    assert got[2].joint is None and "bits differ" in got[2].joint_off
    _assert_same(own, got)


def test_traced_after_some_runs_and_per_feed_shape(monkeypatch):
    """A plan runs its own path for its first AFTER_CALLS runs of a signature; each feed shape gets its graph."""
    import paddle
    from paddle_compat.engine.static import joint

    monkeypatch.setattr(joint, "ENABLED", [True])
    monkeypatch.setattr(joint, "AFTER_CALLS", [2])
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetches, _ = _fc_mean(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.RandomState(0)
    for _ in range(2):
        exe.run(main, feed={"X": rng.rand(10, 1).astype("float32")}, fetch_list=fetches, scope=scope)
    plan = _plan(main)
    assert plan.joint is not None and not plan.joint.graphs
    exe.run(main, feed={"X": rng.rand(10, 1).astype("float32")}, fetch_list=fetches, scope=scope)
    assert len(plan.joint.graphs) == 1
    for _ in range(3):
        exe.run(main, feed={"X": rng.rand(3, 1).astype("float32")}, fetch_list=fetches, scope=scope)
    assert len(plan.joint.graphs) == 2 and plan.joint_off is None


def test_an_error_at_run_is_the_plans_own(monkeypatch):
    """A run of the joint graph that raises (a label out of range) leaves the joint graph and raises the plan's own
    error, naming the Paddle op."""
    import paddle
    from paddle_compat.engine.static import joint

    monkeypatch.setattr(joint, "ENABLED", [True])
    monkeypatch.setattr(joint, "AFTER_CALLS", [0])
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetches, feed = _mlp_ce("sgd")(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.RandomState(0)
    exe.run(main, feed=feed(rng), fetch_list=fetches, scope=scope)
    plan = _plan(main)
    assert plan.joint is not None and len(plan.joint.graphs) == 1
    bad = feed(rng)
    bad["y"][0, 0] = 7  # 5 classes
    with pytest.raises(Exception, match="softmax_with_cross_entropy"):
        exe.run(main, feed=bad, fetch_list=fetches, scope=scope)
    assert plan.joint is None and "raised" in plan.joint_off


def test_a_long_step_keeps_its_path(monkeypatch):
    """A plan whose own-path runs all took longer than LONG_STEP_S is not traced (its time is in its kernels)."""
    import paddle
    from paddle_compat.engine.static import joint

    monkeypatch.setattr(joint, "ENABLED", [True])
    monkeypatch.setattr(joint, "AFTER_CALLS", [2])
    monkeypatch.setattr(joint, "LONG_STEP_S", [0.0])
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        fetches, feed = _fc_mean(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.RandomState(0)
    for _ in range(5):
        exe.run(main, feed=feed(rng), fetch_list=fetches, scope=scope)
    plan = _plan(main)
    assert plan.joint is not None and not plan.joint.graphs and plan.joint.fastest > 0


def test_dead_inputs_are_written_in_place_and_updates_run_batched(monkeypatch):
    """The joint graph writes an elementwise op into its first input when that input dies with it (conv -> bias
    add -> relu: one buffer), never into an input read again or one the result is broadcast from; the program's
    sgd ops run as one multi-tensor update (the plain plan's fuse_all_optimizer_ops rewrite). Bits:
    test_joint_graph_gives_the_same_bits[conv_bias_relu_sgd]."""
    import torch

    from paddle_compat.engine.static import executor

    monkeypatch.setattr(executor, "PLAIN_MIN_FUSED_UPDATES", 2)  # the program's 8 updates: fused
    got = _run(_conv_bias_relu_sgd, True, monkeypatch)
    (gm,) = [f.__self__ for f in got[2].joint.graphs.values()]
    inplace = {torch.Tensor.add_, torch.Tensor.mul_, torch.relu_}
    nodes = [n for n in gm.graph.nodes if n.op == "call_function"]
    for n in nodes:
        if n.target in inplace:  # its first input read by this op alone, same shape as the result
            x = n.args[0]
            assert len(x.users) == 1 and x.meta["val"].shape == n.meta["val"].shape, n.format_node()
    assert sum(n.target in inplace for n in nodes) >= 4  # the conv's bias add and relu, fc bias adds
    # the [N, 1] + [N, 6] add stays out of place
    assert any(n.target is torch.add and n.args[0].meta["val"].shape != n.meta["val"].shape for n in nodes)
    sgd = [n for n in nodes if getattr(n.target, "__name__", "") in ("sgd", "fused_sgd", "update_fused_sgd")]
    assert len(sgd) == 1 and "fused_sgd" in sgd[0].target.__name__, [n.target for n in nodes]


def test_joint_graph_pools_through_the_native_kernel_with_torchs_bits(monkeypatch):
    """The joint graph's max-pool nodes call pooling.max_pool2d_with_indices (the native kernel where it applies):
    the same bits as the plan's own path with torch's own pooling (the kernel off on both paths)."""
    from paddle_compat.engine.core import native
    from paddle_compat.engine.ops.nn_functional import pooling

    if pooling._MAX_POOL2D is None:
        pytest.skip("the native module is not built (tools/build_native.py)")
    calls = []
    kernel = pooling._MAX_POOL2D
    monkeypatch.setattr(pooling, "_MAX_POOL2D", lambda *a: calls.append(1) or kernel(*a))
    got = _run(_lenet_pools, True, monkeypatch)
    plan = got[2]
    assert plan.joint is not None and len(plan.joint.graphs) == 1, plan.joint_off
    code = next(iter(plan.joint.graphs.values())).__self__.code
    assert code.count("max_pool2d_with_indices(") == 2 and len(calls) >= 2 * STEPS
    monkeypatch.setattr(pooling, "_MAX_POOL2D", None)
    assert native.function("max_pool2d") is not None
    _assert_same(_run(_lenet_pools, False, monkeypatch), got)
