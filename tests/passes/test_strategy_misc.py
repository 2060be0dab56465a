"""BuildStrategy fields and conflicts, DOT dumps (golden files), multi-place hooks for the data-parallel
runner (per-replica pipeline, gradient buckets, broadcast groups, sync_batch_norm callback),
ExecutionStrategy semantics on one place, and the opt-in compiler switch."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from _programs import all_off, assert_same, fresh, mlp, op_types, three_steps, train  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


# --- BuildStrategy fields -----------------------------------------------------------------------------
def test_unknown_field_attribute_error_and_wrong_type_type_error():
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    with pytest.raises(AttributeError, match="fuse_elewise_add_act"):
        bs.fuse_elewise_add_act = True  # Paddle's misspelling trap: the field ends in _ops
    with pytest.raises(TypeError, match="enable_inplace"):
        bs.enable_inplace = 1
    with pytest.raises(TypeError, match="debug_graphviz_path"):
        bs.debug_graphviz_path = None
    es = fluid.ExecutionStrategy()
    with pytest.raises(AttributeError):
        es.num_thread = 2
    with pytest.raises(TypeError):
        es.num_threads = 2.0
    assert (bs.enable_inplace, bs.fuse_bn_add_act_ops, bs.memory_optimize, es.num_iteration_per_drop_scope) == \
        (True, True, None, 100)


def test_option_conflicts_resolved_as_paddle():
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    bs.reduce_strategy = fluid.BuildStrategy.ReduceStrategy.Reduce
    bs.fuse_all_optimizer_ops = True
    r = bs.resolved(2)
    assert (r.fuse_all_optimizer_ops, r.fuse_all_reduce_ops, r.fuse_broadcast_ops) == (False, False, True)
    r1 = bs.resolved(1)  # Reduce on one place is AllReduce
    assert r1.reduce_strategy == fluid.BuildStrategy.ReduceStrategy.AllReduce and r1.fuse_broadcast_ops is False
    bs2 = fluid.BuildStrategy()
    bs2.fuse_all_optimizer_ops = None
    bs2.sync_batch_norm = True
    r2 = bs2.resolved(1)
    assert r2.fuse_all_optimizer_ops is True and r2.enable_sequential_execution is True
    assert r2.memory_optimize is False  # None -> !gc_enabled
    assert bs2.fuse_all_optimizer_ops is None  # the user's object is not rewritten


def test_strategy_enabled_passes_follow_pipeline_order():
    import paddle.fluid as fluid
    from paddle_compat.engine.passes import ORDER, enabled_passes

    bs = fluid.BuildStrategy()
    bs.fuse_elewise_add_act_ops = True
    bs.memory_optimize = True
    flags = enabled_passes(bs.resolved(1))
    assert flags == sorted(flags, key=ORDER.index)
    assert {"fuse_elewise_add_act_ops", "fuse_bn_add_act_ops", "enable_inplace", "memory_optimize"} <= set(flags)


# --- DOT dumps ----------------------------------------------------------------------------------------
def _dot_program():
    import paddle.fluid as fluid

    x = fluid.layers.data("x", [4], dtype="float32")
    h = fluid.layers.fc(x, 3, act="relu")
    loss = fluid.layers.mean(h)
    fluid.optimizer.SGD(0.1).minimize(loss)
    return loss, {"x": (4,)}, {}


@pytest.mark.parametrize("suffix", ["original", "fused", "multi_devices"])
def test_debug_graphviz_dumps_match_golden(tmp_path, suffix):
    bs = all_off()
    bs.fuse_elewise_add_act_ops = True
    bs.fuse_all_optimizer_ops = True
    bs.debug_graphviz_path = str(tmp_path / "g")
    train(_dot_program, bs, steps=1)
    path = tmp_path / f"g_{suffix}_graph"
    text = path.read_text()
    golden = os.path.join(GOLDEN, f"small_{suffix}_graph.dot")
    if os.environ.get("PADDLE_COMPAT_REGEN_GOLDEN"):
        with open(golden, "w", encoding="utf-8") as f:
            f.write(text)
    with open(golden, encoding="utf-8") as f:
        assert text == f.read()
    assert text.startswith("digraph")
    if suffix == "original":
        assert '[label="mul"' in text and '[label="relu"' in text and '[label="sgd"' in text
        assert "fc_0.w_0@GRAD" in text and "fc_0.tmp_2" in text
    else:
        assert '[label="fused_elemwise_activation"' in text and '[label="fused_sgd"' in text
        assert '[label="relu"' not in text


# --- multi-place hooks ----------------------------------------------------------------------------------
def _plain_gm(builder, **kw):
    """The unpassed GraphModule of a program, plus the program and its protected names."""
    r = train(builder, None, steps=1, compiled=False, **kw)
    return r


def test_run_strategy_per_replica_and_buckets(tmp_path):
    """What the data-parallel runner calls for each replica: conflicts resolved for N places, only
    replica 0 dumps, and the gradient buckets are there."""
    import paddle.fluid as fluid
    from paddle_compat.engine.passes import copy_gm, run_strategy
    from paddle_compat.engine.passes.fuse_all_reduce_ops import coalesced_all_reduce_, grad_buckets

    r = _plain_gm(mlp)
    bs = fluid.BuildStrategy()
    bs.debug_graphviz_path = str(tmp_path / "dp")
    protected = {v.name for v in r.program.list_vars() if v.persistable} | {"x"}
    stats: dict = {}
    gms = [run_strategy(copy_gm(r.gm), bs, protected=protected, num_places=2, program=r.program, replica=i,
                        stats=stats) for i in range(2)]
    assert sorted(os.listdir(tmp_path)) == ["dp_fused_graph", "dp_multi_devices_graph", "dp_original_graph"]
    b0, b1 = grad_buckets(gms[0]), grad_buckets(gms[1])
    assert b0 == b1 and len(b0) == 1 and len(b0[0]["grads"]) == 6
    import torch

    ts = [torch.ones(2, 3), torch.full((4,), 2.0)]
    coalesced_all_reduce_(ts, lambda buf: buf.mul_(3))
    assert ts[0].tolist() == [[3.0] * 3] * 2 and ts[1].tolist() == [6.0] * 4


def test_bucket_size_flags(monkeypatch):
    import paddle.fluid as fluid
    from paddle_compat.engine.passes import copy_gm, run_strategy
    from paddle_compat.engine.passes.fuse_all_reduce_ops import grad_buckets

    r = _plain_gm(mlp)
    monkeypatch.setenv("FLAGS_fuse_parameter_groups_size", "2")
    gm = run_strategy(copy_gm(r.gm), fluid.BuildStrategy(), num_places=2, program=r.program)
    assert [len(b["grads"]) for b in grad_buckets(gm)] == [2, 2, 2]


def test_fuse_broadcast_groups_in_reduce_mode():
    import paddle.fluid as fluid
    from paddle_compat.engine.passes import copy_gm, run_strategy
    from paddle_compat.engine.passes.fuse_broadcast_ops import broadcast_groups

    r = _plain_gm(mlp)
    bs = fluid.BuildStrategy()
    bs.reduce_strategy = fluid.BuildStrategy.ReduceStrategy.Reduce
    gm = run_strategy(copy_gm(r.gm), bs, num_places=2, program=r.program)
    groups = broadcast_groups(gm)
    assert [g["owner"] for g in groups] == [0, 1]
    owned = sorted(p for g in groups for p in g["params"])
    assert owned == sorted(p.name for p in r.program.all_parameters())
    # greedy by numel: the largest parameter (fc_1.w_0 16x16) does not share a place with fc_0.w_0 (8x16)
    owner = {p: g["owner"] for g in groups for p in g["params"]}
    assert owner["fc_0.w_0"] != owner["fc_1.w_0"]
    # one place (or AllReduce): the option is resolved off and nothing is recorded
    assert broadcast_groups(run_strategy(copy_gm(r.gm), bs, num_places=1, program=r.program)) == []


def test_sync_batch_norm_callback_reduces_statistics():
    """The rewritten node takes its batch statistics from the runtime callback: with a callback that
    doubles the batch (as if a second replica had the same data), the result equals plain batch_norm."""
    import torch
    from paddle_compat.engine.ops.fused import sync_batch_norm, sync_bn_callback
    from paddle_compat.engine.ops.nn_functional.norm import batch_norm_op

    body = sync_batch_norm.__paddle_op__.impl
    x = torch.randn(4, 3, 5, 5)
    rm1, rv1, rm2, rv2 = torch.zeros(3), torch.ones(3), torch.zeros(3), torch.ones(3)
    want = batch_norm_op.__paddle_op__.impl(x, rm1, rv1)
    calls = []

    def cb(s, sq, n):
        calls.append(n.item())
        return s * 2, sq * 2, n * 2

    with sync_bn_callback(cb):
        got = body(x, rm2, rv2)
    assert calls == [100.0]
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rm2, rm1)
    assert torch.equal(body(x, rm2.clone(), rv2.clone()), batch_norm_op.__paddle_op__.impl(x, rm2.clone(),
                                                                                         rv2.clone()))


# --- ExecutionStrategy ------------------------------------------------------------------------------------
def _es_program():
    import paddle.fluid as fluid

    fresh()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [1], dtype="float32")
        y = fluid.layers.fc(x, 1, bias_attr=False,
                            param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(1.0)))
        loss = fluid.layers.mean(y)
        fluid.optimizer.SGD(1.0).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    return main, exe, loss


def test_num_iteration_per_run_runs_n_iterations_and_num_threads_written_back():
    import paddle.fluid as fluid

    main, exe, loss = _es_program()
    es = fluid.ExecutionStrategy()
    es.num_iteration_per_run = 3
    cp = fluid.CompiledProgram(main)
    cp._exec_strategy = es
    feed = {"x": np.ones((2, 1), "float32")}
    out = exe.run(cp, feed=feed, fetch_list=[loss, "fc_0.w_0"])
    # d loss / d w = mean(x) = 1, lr 1: three iterations move w from 1 to -2; the fetch is the last one's
    assert float(out[1].reshape(-1)[0]) == pytest.approx(-2.0)
    assert float(out[0].reshape(-1)[0]) == pytest.approx(-1.0)  # loss of iteration 3 (w = -1 before it)
    assert es.num_threads == 2  # 0 resolved to 2 x places on CPU and stored back, as Paddle does


def test_drop_scope_counter_matches_paddle():
    import paddle.fluid as fluid

    main, exe, loss = _es_program()
    es = fluid.ExecutionStrategy()
    es.num_iteration_per_drop_scope = 3
    cp = fluid.CompiledProgram(main)
    cp._exec_strategy = es
    feed = {"x": np.ones((2, 1), "float32")}
    seen = []
    for i in range(4):
        exe.run(cp, feed=feed, fetch_list=[loss] if i in (0, 2) else [])
        seen.append(cp._need_create_local_exe_scopes())
    assert seen == [False, False, True, False]  # strategy_semantics.md 2.3, measured on 1.8.5
    cp.drop_local_exe_scopes()
    assert cp._need_create_local_exe_scopes() is True


# --- compiler path switch ----------------------------------------------------------------------------------
def test_compiler_switch_is_off_by_default_and_documented(monkeypatch):
    import paddle.fluid as fluid
    from paddle_compat.engine.static.compile_backend import env_backend

    monkeypatch.delenv("PADDLE_COMPAT_COMPILE", raising=False)
    cp = fluid.CompiledProgram(fluid.Program())
    assert cp._backend() is None and env_backend() is None
    monkeypatch.setenv("PADDLE_COMPAT_COMPILE", "1")
    assert cp._backend() == "inductor"
    assert cp._with_compiler(None)._backend() is None  # an explicit opt-out wins over the env
    monkeypatch.setenv("PADDLE_COMPAT_COMPILE", "aot_eager")
    assert fluid.CompiledProgram(fluid.Program())._backend() == "aot_eager"


@pytest.mark.skipif(not os.environ.get("PADDLE_COMPAT_TEST_COMPILE"),
                    reason="torch.compile takes tens of seconds; set PADDLE_COMPAT_TEST_COMPILE=1 to run")
def test_compiler_path_trains_like_eager(monkeypatch):
    import paddle.fluid as fluid

    plain = train(mlp, None, compiled=False)
    monkeypatch.setenv("PADDLE_COMPAT_COMPILE", os.environ.get("PADDLE_COMPAT_TEST_COMPILE_BACKEND", "inductor"))
    import torch._dynamo

    torch._dynamo.utils.counters.clear()
    bs = fluid.BuildStrategy()
    bs.fuse_elewise_add_act_ops = True
    bs.enable_inplace = bs.memory_optimize = True  # issue 15 item 4: every option composes with the compiler
    c = train(mlp, bs)
    assert_same(plain, c, tol=1e-5)
    assert "fused_elemwise_activation" in op_types(c.gm.gm)  # passes ran before compiling
    assert not any(n.meta.get("inplace_of") or n.meta.get("variant") for n in c.gm.gm.graph.nodes)  # left to inductor
    counters = torch._dynamo.utils.counters
    assert not counters["graph_break"] and counters["stats"]["unique_graphs"] == 1  # one graph, compiled once


def _position_ids(paddle, x):
    """Position ids built in the program (`paddle.arange(n).unsqueeze(0)`, as a BERT's): constants the compiler path
    computes once (compile_backend._fold_constants) instead of breaking dynamo's graph at the Python numbers the
    range op reads."""
    pos = paddle.arange(4, dtype="int64").unsqueeze(0).astype("float32")
    return (paddle.nn.Linear(4, 4)(x) + pos).mean()


def _batch_norm_acts(paddle, x):
    """Training batch norm (its running statistics updated natively in eager runs) and Paddle's hard_swish /
    hard_sigmoid (native gradients in eager runs): the formulas dynamo can trace under torch.compile."""
    h = paddle.static.nn.batch_norm(paddle.reshape(x, [2, 4, 1, 1]))
    h = paddle.nn.functional.hardswish(h) + paddle.nn.functional.hardsigmoid(h)
    return h.mean()


@pytest.mark.parametrize("build", [_position_ids, _batch_norm_acts], ids=lambda f: f.__name__.strip("_"))
def test_compiler_path_compiles_one_graph(build):
    """No graph break: one graph, compiled once; the losses stay the plain Executor's."""
    import numpy as np
    import torch._dynamo

    plain = three_steps(build, None)
    compiled = three_steps(build, "eager")
    counters = torch._dynamo.utils.counters
    assert not counters["graph_break"] and counters["stats"]["unique_graphs"] == 1, dict(counters["graph_break"])
    np.testing.assert_allclose(np.concatenate(compiled), np.concatenate(plain), rtol=1e-6)


def _paddle_lstm(paddle, x):
    """paddle.nn.LSTM (the `rnn` op: torch.lstm)."""
    out, _ = paddle.nn.LSTM(4, 3, num_layers=2)(paddle.reshape(x, [2, 1, 4]))
    return out.mean()


def _fluid_lstm(paddle, x):
    """fluid.layers.lstm (the `cudnn_lstm` op: torch.lstm), time-major."""
    import paddle.fluid as fluid

    seq = paddle.reshape(x, [2, 1, 4])
    init = fluid.layers.fill_constant([1, 1, 3], "float32", 0.0)
    out, _, _ = fluid.layers.lstm(seq, init, init, 2, 3, 1)
    return paddle.mean(out)


@pytest.mark.parametrize("build", [_paddle_lstm, _fluid_lstm], ids=lambda f: f.__name__.strip("_"))
def test_compiler_path_keeps_the_rnn_kernel(build):
    """torch's fused LSTM kernel stays out of the compiled graphs (engine/core/eager_kernels.py): no graph holds an
    lstm call or its per-step decomposition, dynamo breaks the graph there once, and three training steps give the
    plain Executor's losses (the kernel's own backward, joined by autograd to the compiled pieces)."""
    import numpy as np
    import torch._dynamo

    graphs: list = []

    def recording(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    plain = three_steps(build, None)
    compiled = three_steps(build, recording)
    targets = [str(n.target) for gm in graphs for n in gm.graph.nodes if n.op == "call_function"]
    assert graphs and not any("lstm" in t or "sigmoid" in t for t in targets), targets
    breaks = torch._dynamo.utils.counters["graph_break"]
    assert len(breaks) == 1 and "disable" in next(iter(breaks)), dict(breaks)
    np.testing.assert_allclose(np.concatenate(compiled), np.concatenate(plain), rtol=1e-6)
    assert not np.array_equal(plain[0], plain[2])  # the steps trained


def _convs(paddle, x):
    """A 1x1 convolution, then a depthwise 3x3 one (filter [4, 1, 3, 3]), on a [1, 2, 2, 2] image."""
    h = paddle.static.nn.conv2d(paddle.reshape(x, [1, 2, 2, 2]), 4, 1, bias_attr=False)
    h = paddle.static.nn.conv2d(h, 4, 3, padding=1, groups=4, bias_attr=False)
    return (h * h).mean()


def _plain_convs(paddle, x):
    """Two ungrouped convolutions (ResNet's kind)."""
    h = paddle.static.nn.conv2d(paddle.reshape(x, [1, 2, 2, 2]), 4, 1, bias_attr=False)
    h = paddle.static.nn.conv2d(h, 4, 3, padding=1, bias_attr=False)
    return (h * h).mean()


def _fluid_depthwise(paddle, x):
    """fluid 1.x's depthwise convolution: recorded as conv2d with groups = channels (use_cudnn's default)."""
    import paddle.fluid as fluid

    h = fluid.layers.conv2d(paddle.reshape(x, [1, 2, 2, 2]), 2, 3, padding=1, groups=2, bias_attr=False)
    return (h * h).mean()


def _no_convs(paddle, x):
    return (paddle.static.nn.fc(x, 3) ** 2).mean()


FORCED = {"force_layout_optimization": True}


@pytest.mark.parametrize("build,channels_last,options", [
    (_convs, True, FORCED),  # a depthwise convolution: channels-last filters and activations, in both graphs
    (_fluid_depthwise, True, FORCED),
    (_plain_convs, False, {"layout_optimization": False}),  # ungrouped only: row-major throughout
    (_no_convs, False, None),
], ids=["depthwise", "fluid_grouped", "ungrouped", "no_convs"])
def test_compiler_path_layout_per_graph(build, channels_last, options, monkeypatch):
    """compile_backend._conv_layout's choice per graph, for the inductor backend: the filters kept channels-last
    and inductor's layout optimization forced where a convolution is grouped (the backward graph, which has no
    convolution node, would decide it off), off where they are all ungrouped (ResNet-50:
    0.87x torch eager against 0.97x channels-last, whose filter gradients are transposing copies in oneDNN's
    backward), nothing without convolutions."""
    from paddle_compat.engine.static import compile_backend

    seen = []
    real = compile_backend._conv_layout

    def spy(gm, backend, device):
        assert device == "cpu"
        seen.append((real(gm, "inductor", device), real(gm, "inductor", "gpu")))
        return real(gm, backend, device)

    monkeypatch.setattr(compile_backend, "_conv_layout", spy)
    three_steps(build, "eager")
    assert len(seen) == 1
    (layout, opts), on_gpu = seen[0]
    assert (layout is not None) == channels_last and opts == options
    assert on_gpu == (None, None)  # measured on oneDNN: a GPU graph keeps inductor's own choices


def test_compiler_path_keeps_conv_filters_channels_last():
    """On CPU the compiler path keeps the convolutions' filters in channels-last order in the Scope (the layout
    inductor gives the activations; oneDNN's conv backward is 1.5-2x slower on mixed layouts), with the strides
    `empty_like(memory_format=channels_last)` gives even where a row-major filter passes `is_contiguous` in that
    format (the depthwise [4, 1, 3, 3]); the losses stay the plain Executor's and the Scope's values read back
    as the same numbers."""
    import numpy as np
    import torch

    import paddle

    plain_scope, scope = paddle.static.Scope(), paddle.static.Scope()
    with paddle.static.scope_guard(plain_scope):
        plain = three_steps(_convs, None)
    with paddle.static.scope_guard(scope):
        compiled = three_steps(_convs, "eager")
    np.testing.assert_allclose(np.concatenate(compiled), np.concatenate(plain), rtol=1e-6)
    filters = {n: scope.find_var(n).get_tensor() for n in ("conv2d_0.w_0", "conv2d_1.w_0")}
    for name, lt in filters.items():
        t = lt._t
        assert t.stride() == torch.empty_like(t, memory_format=torch.channels_last).stride(), (name, t.stride())
        np.testing.assert_allclose(np.array(lt), np.array(plain_scope.find_var(name).get_tensor()), rtol=1e-6)
    assert filters["conv2d_1.w_0"]._t.shape == (4, 1, 3, 3)
    assert not plain_scope.find_var("conv2d_1.w_0").get_tensor()._t.stride() == filters["conv2d_1.w_0"]._t.stride()


def _mobilenet_block(paddle, x):
    """MobileNet's block: 1x1 convolution, batch norm with relu6, depthwise 3x3 at stride 2 (x [2, 4, 8, 8])."""
    h = paddle.static.nn.conv2d(x, 8, 1, bias_attr=False)
    h = paddle.static.nn.batch_norm(h, act="relu6")
    h = paddle.static.nn.conv2d(h, 8, 3, stride=2, padding=1, groups=8, bias_attr=False)
    return (h * h).mean()


def test_compiled_depthwise_backward_reads_the_saved_activation_as_it_is():
    """MobileNet's block under inductor: the compiled backward hands oneDNN's convolution backward the channels-last
    activation the forward saved, so that backward makes no copy of it (with the backward graph's layout
    optimization off, inductor asked for it in the order (N, H, C, W) and oneDNN copied it back); three training
    steps give the plain Executor's losses."""
    from torch.profiler import profile

    plain = three_steps(_mobilenet_block, None, (2, 4, 8, 8))
    p = profile(record_shapes=True)
    compiled = three_steps(_mobilenet_block, "inductor", (2, 4, 8, 8), lambda: p)
    copies = [e.input_shapes for e in p.events() if e.name in ("aten::copy_", "aten::clone")
              and e.input_shapes and list(e.input_shapes[0]) == [2, 8, 8, 8]]
    assert not copies, copies
    np.testing.assert_allclose(np.concatenate(compiled), np.concatenate(plain), rtol=1e-5)
