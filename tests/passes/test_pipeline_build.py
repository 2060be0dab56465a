"""How a CompiledProgram is built (issue 15 items 1, 2): the pass pipeline works on one copy of the graph and
generates Python code once; a pass that fails in the middle of the pipeline is undone without losing the
passes before or after it; the per-run path re-plans only when an option changes."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from _programs import all_off, assert_same, elementwise, op_types, train  # noqa: E402


def _on(*flags):
    bs = all_off()
    for f in flags:
        setattr(bs, f, True)
    return bs


def test_failing_pass_between_others_is_undone_and_the_others_still_apply(monkeypatch):
    from paddle_compat.engine import passes

    passes._load()

    def broken(gm, ctx):
        for n in list(gm.graph.nodes):  # damage the shared working copy, then fail
            if n.meta.get("op_type") == "fused_elemwise_activation":
                n.meta["op_type"] = "damaged"
        raise RuntimeError("boom")

    monkeypatch.setattr(passes, "PIPELINE", [(f, broken if f == "fuse_all_optimizer_ops" else fn)
                                             for f, fn in passes.PIPELINE])
    passes._warned.discard("fuse_all_optimizer_ops")
    flags = ("fuse_elewise_add_act_ops", "fuse_all_optimizer_ops", "enable_inplace", "memory_optimize")
    with pytest.warns(UserWarning, match="fuse_all_optimizer_ops: pass skipped"):
        on = train(elementwise, _on(*flags))
    want = train(elementwise, _on("fuse_elewise_add_act_ops", "enable_inplace", "memory_optimize"))
    assert_same(want, on, tol=0)
    t = op_types(on.gm)
    assert "damaged" not in t and t.count("fused_elemwise_activation") == 4, t  # the pass before: replayed
    assert "sgd_reuse_grad" in t and any(n.meta.get("inplace_of") for n in on.gm.graph.nodes)  # the ones after
    assert "fuse_all_optimizer_ops" not in on.stats and "enable_inplace" in on.stats


def test_pipeline_leaves_its_input_alone_and_generates_code_once(monkeypatch):
    import torch.fx as fx

    from paddle_compat.engine.framework.fx_copy import materialize
    from paddle_compat.engine.passes import copy_gm, run_strategy

    r = train(elementwise, all_off())
    gm = copy_gm(r.gm)
    before = [(n.name, n.target, n.meta.get("op_type")) for n in gm.graph.nodes]
    calls = []
    real = fx.GraphModule.recompile

    def counting(self):
        calls.append(self)
        return real(self)

    monkeypatch.setattr(fx.GraphModule, "recompile", counting)
    out = run_strategy(gm, _on("fuse_elewise_add_act_ops", "enable_inplace", "memory_optimize",
                               "fuse_all_optimizer_ops"), program=r.program)
    assert [(n.name, n.target, n.meta.get("op_type")) for n in gm.graph.nodes] == before
    assert "fused_elemwise_activation" in op_types(out)
    materialize(out)
    assert len(calls) <= 1  # the passes themselves generated no code: only materialize did
    fused = [n.name for n in out.graph.nodes if n.meta.get("op_type") == "fused_elemwise_activation"]
    assert fused and all(f"{name} = " in out.code for name in fused)


def test_plan_hands_the_pipeline_its_fresh_graph_without_a_copy(monkeypatch):
    """The Plan's graph is its own fresh copy of the program, which it can build again: the passes rewrite it in
    place (no second copy per new plan) and the rebuild hook does not outlive the transform."""
    from paddle_compat.engine import passes

    copies = []
    real = passes.copy_gm
    monkeypatch.setattr(passes, "copy_gm", lambda gm: copies.append(gm) or real(gm))
    r = train(elementwise, _on("fuse_elewise_add_act_ops", "enable_inplace", "memory_optimize"))
    assert copies == []
    plan = next(iter(r.program._exec_cache.values()))
    assert "fused_elemwise_activation" in op_types(plan.gm) and passes.REBUILD not in plan.gm.meta


def test_plan_forward_is_generated_code_not_a_lazy_trampoline():
    from paddle_compat.engine.framework import fx_interp

    # the first runs are interpreted (fx_interp); then the plan calls the generated forward itself
    r = train(elementwise, _on("enable_inplace", "memory_optimize"), steps=fx_interp.INTERPRETED_CALLS + 1)
    plan = next(iter(r.program._exec_cache.values()))
    assert plan.forward.__func__ is type(plan.gm).forward  # the generated forward itself
    assert "<eval_with_key>" in plan.forward.__code__.co_filename


def test_compiled_program_replans_when_an_option_or_a_set_field_changes():
    import numpy as np
    import paddle.fluid as fluid

    from _programs import fresh

    fresh()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [4], dtype="float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 3))
        fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    bs = fluid.BuildStrategy()
    cp = fluid.CompiledProgram(main, bs)
    feed = {"x": np.ones((2, 4), "float32")}
    exe.run(cp, feed=feed, fetch_list=[loss])
    exe.run(cp, feed=feed, fetch_list=[loss])
    assert len(main._exec_cache) == 1
    bs.mkldnn_enabled_op_types.add("conv2d")  # content change without a set: a new key
    exe.run(cp, feed=feed, fetch_list=[loss])
    assert len(main._exec_cache) == 2
    bs.enable_inplace = False
    exe.run(cp, feed=feed, fetch_list=[loss])
    assert len(main._exec_cache) == 3
    exe.run(cp, feed=feed, fetch_list=[loss])
    assert len(main._exec_cache) == 3


def test_compiler_env_is_read_at_the_first_run_and_kept(monkeypatch):
    import paddle.fluid as fluid

    monkeypatch.delenv("PADDLE_COMPAT_COMPILE", raising=False)
    cp = fluid.CompiledProgram(fluid.Program())
    assert cp._token()[1] is None
    monkeypatch.setenv("PADDLE_COMPAT_COMPILE", "aot_eager")
    assert cp._token()[1] is None  # kept from the first run, as Paddle reads its flags when it compiles
    assert cp._backend() == "aot_eager"  # the switch itself follows the environment
    assert cp._with_compiler("aot_eager")._token()[1] == "aot_eager"  # an explicit choice resets it
    assert cp._with_compiler(None)._token()[1] is None
    assert fluid.CompiledProgram(fluid.Program())._token()[1] == "aot_eager"


def test_pass_that_breaks_the_graph_but_reports_no_change_is_found_and_undone(monkeypatch):
    import torch

    from paddle_compat.engine import passes

    passes._load()

    def sneaky(gm, ctx):
        import torch

        for n in gm.graph.nodes:
            if n.meta.get("op_type") == "mean":
                n.target = torch.mean  # no longer its op's body: only the final check sees it
        return passes.PassResult(gm, False)

    monkeypatch.setattr(passes, "PIPELINE", [(f, sneaky if f == "fuse_all_optimizer_ops" else fn)
                                             for f, fn in passes.PIPELINE])
    passes._warned.discard("fuse_all_optimizer_ops")
    with pytest.warns(UserWarning, match="fuse_all_optimizer_ops: pass skipped"):
        on = train(elementwise, _on("fuse_elewise_add_act_ops", "fuse_all_optimizer_ops", "enable_inplace"))
    want = train(elementwise, _on("fuse_elewise_add_act_ops", "enable_inplace"))
    assert_same(want, on, tol=0)
    assert "mean" in op_types(on.gm) and "fused_elemwise_activation" in op_types(on.gm)
    assert all(n.target is not torch.mean for n in on.gm.graph.nodes)
