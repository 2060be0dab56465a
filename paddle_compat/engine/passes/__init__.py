"""Graph passes over the compiled fx GraphModule, driven by BuildStrategy flags.

PIPELINE is the one ordered table mapping a BuildStrategy flag to its pass (Paddle's order,
build_strategy.cc ParallelExecutorPassBuilder, then the memory passes of parallel_executor.cc).
`apply_pipeline` runs the enabled ones; after each: metadata refresh, lint, verification; code is generated
once, for the final graph.
A pass that cannot apply warns once and leaves the graph as it was.

Entry points: `CompiledProgram._graph_transform(exe, feeds, fetches, num_places, replica, device,
compile_backend)` (engine/static/compiler.py) or, below it, `run_strategy(gm, build_strategy, protected=...,
num_places=..., program=..., replica=...)`: resolves Paddle's option conflicts for the number of places,
then runs the pipeline; the data-parallel runner calls it per replica (only replica 0 writes the
debug_graphviz_path dumps). Metadata the multi-device passes leave for that runner:
gm.meta["allreduce_buckets"] (fuse_all_reduce_ops), gm.meta["broadcast_groups"] (fuse_broadcast_ops),
gm.meta["sequential"] (enable_sequential_execution); sync_batch_norm nodes read
ops.fused.SYNC_BN.callback.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import torch.fx as fx

from paddle_compat.engine.framework.fx_copy import copy_gm


@dataclass
class PassResult:
    gm: fx.GraphModule
    modified: bool
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class PassContext:
    """What passes may need beyond the graph: names that must never lose their buffers.

    `program` (optional) gives passes the static shapes of variables (`var_shape`); `replica` is the index
    of the place this graph runs on when the data-parallel runner builds one graph per place."""

    protected: set[str] = field(default_factory=set)  # feeds, fetch targets, persistables
    num_places: int = 1
    device: str = "cpu"
    debug_path: str = ""
    program: Any = None
    replica: int = 0
    reduce_strategy: int = 0  # ReduceStrategy value (0 AllReduce, 1 Reduce)
    min_fused_updates: int = 2  # fuse_all_optimizer_ops: the fewest updates a fused group takes


# (flag, pass) in Paddle's order. Filled by the pass modules (each registers itself on import).
PIPELINE: list[tuple[str, Callable[[fx.GraphModule, PassContext], PassResult]]] = []


def register(flag: str) -> Callable:
    def deco(fn: Callable) -> Callable:
        PIPELINE.append((flag, fn))
        return fn

    return deco


def _flag_on(strategy: Any, flag: str) -> bool:
    # "debug_graphviz_path:fused" style entries share one BuildStrategy field
    return bool(getattr(strategy, flag.partition(":")[0], False))


def enabled_passes(strategy: Any) -> list[str]:
    _load()
    return [flag for flag, _ in PIPELINE if _flag_on(strategy, flag)]


_warned: set[str] = set()


# gm.meta key: a zero-argument callable that builds gm's graph again (engine/static/executor.py Plan sets it on the fresh
# copy of the program it hands to the transform). apply_pipeline then rewrites gm itself instead of a copy and
# calls it only when a pass fails and the graph must be restored (issue 15: one graph copy less per new plan).
REBUILD = "_paddle_compat_rebuild"


def apply_pipeline(gm: fx.GraphModule, strategy: Any, ctx: PassContext,
                   stats: dict[str, dict] | None = None) -> fx.GraphModule:
    """Run every enabled pass in PIPELINE order. The passes work on one copy of the graph (gm itself is
    never changed, unless gm.meta[REBUILD] says its owner can build it again); each pass's result is checked
    (`check_graph`: metadata refreshed, lint, outputs unchanged, protected names kept). A pass that raises or fails the check is skipped with one warning
    per flag, and the graph it was given is restored by replaying the passes before it on a fresh copy of
    gm (passes are deterministic), so a failing pass leaves the graph exactly as it was. Python code is
    generated once, for the graph that runs (the caller's `materialize`), not after each pass: on the small programs of
    Paddle's pass tests the per-pass copies and recompiles were most of the cost of building a
    CompiledProgram (bench/bench_first_run.py). `stats`, when given, receives each fired pass's
    PassResult.stats under its flag."""
    _load()
    rebuild = getattr(gm, "meta", {}).pop(REBUILD, None)
    chosen = [(flag, fn) for flag, fn in PIPELINE if _flag_on(strategy, flag)]
    if not chosen:
        return gm
    before = _output_names(gm)
    try:
        # a graph its owner can build again (REBUILD) is worked on in place: no copy on the common path
        work, fired = _run_passes(gm, chosen, before, ctx, strict=False, copy=rebuild is None)
        check_graph(work, before, ctx)  # also covers the passes that reported no change
    except Exception:  # noqa: BLE001 - which pass failed is not known yet: again, checking after each one
        if rebuild is not None:  # gm may be half rewritten: start from a fresh build of it
            gm = rebuild()
        work, fired = _run_passes(gm, chosen, before, ctx, strict=True)
    if stats is not None:
        stats.update(fired)
    return work  # its code is generated by whoever runs it (engine/static/executor.py Plan: materialize)


def _run_passes(gm: fx.GraphModule, chosen: list, before: list, ctx: PassContext,
                strict: bool, copy: bool = True) -> tuple[fx.GraphModule, dict[str, dict]]:
    """apply_pipeline's loop. Not `strict`: a pass's result is checked only when it reports a change (lint is
    the bulk of a check, and most passes find nothing to do on most programs), the caller checks the end
    result, and any failure is raised for the caller to run again strictly. `strict`: every result is checked, a failing pass is skipped with one
    warning per flag and undone by replaying the passes adopted before it on a fresh copy of gm. Returns the
    graph and the stats of the passes that fired."""
    work = copy_gm(gm) if copy else gm
    fired: dict[str, dict] = {}
    done: list[Callable] = []  # passes adopted so far, in order (replayed after a failure)
    for flag, fn in chosen:
        try:
            res = fn(work, ctx)
            if strict or res.modified:
                check_graph(res.gm, before, ctx)
            work = res.gm
            done.append(fn)
            if res.modified:
                fired[flag] = dict(res.stats)
        except Exception as e:  # noqa: BLE001 - a pass never breaks the program
            if not strict:
                raise
            if flag not in _warned:
                _warned.add(flag)
                warnings.warn(f"BuildStrategy.{flag}: pass skipped ({type(e).__name__}: {e})", stacklevel=3)
            work = copy_gm(gm)
            for prev in done:
                work = prev(work, ctx).gm
    return work, fired


def run_strategy(gm: fx.GraphModule, strategy: Any, *, protected: set[str] | frozenset = frozenset(),
                 num_places: int = 1, device: str = "cpu", program: Any = None, replica: int = 0,
                 stats: dict | None = None) -> fx.GraphModule:
    """The entry point for callers outside CompiledProgram (the data-parallel runner calls it once per
    replica graph): resolve the strategy's option conflicts for `num_places` the way Paddle does, then run
    the pipeline. Only replica 0 writes the debug_graphviz_path dumps."""
    resolved = strategy.resolved(num_places) if hasattr(strategy, "resolved") else strategy
    ctx = PassContext(protected=set(protected), num_places=num_places, device=device,
                      debug_path=getattr(resolved, "debug_graphviz_path", "") if replica == 0 else "",
                      program=program, replica=replica,
                      reduce_strategy=int(getattr(resolved, "reduce_strategy", 0)))
    return apply_pipeline(gm, resolved, ctx, stats)


def _output_names(gm: fx.GraphModule) -> list[Any]:
    out = next(n for n in reversed(gm.graph.nodes) if n.op == "output")
    return [a.meta.get("var_name", a.name) if isinstance(a, fx.Node) else a for a in out.args[0]]


def check_graph(gm: fx.GraphModule, before_outputs: list[Any], ctx: PassContext) -> None:
    """Verification after a pass: refresh each op node's Paddle metadata from its OpDef, lint the graph,
    and check that the outputs (fetches + persistable write-backs) are the same variables as before."""
    for n in gm.graph.nodes:
        od = n.meta.get("opdef")
        if n.op == "call_function" and od is not None:
            n.meta["op_type"] = od.type
            if n.target is not od.impl and not (n.meta.get("inplace_of") or n.meta.get("variant")):
                raise AssertionError(f"node {n.name}: target does not match its op {od.type}")
    gm.graph.lint()
    after = _output_names(gm)
    if after != before_outputs:
        raise AssertionError(f"graph outputs changed: {before_outputs} -> {after}")


_loaded = [False]


def _load() -> None:
    if _loaded[0]:
        return
    _loaded[0] = True
    import importlib
    import pkgutil

    for mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{mod}")
    order = {flag: i for i, flag in enumerate(ORDER)}
    PIPELINE.sort(key=lambda fp: order.get(fp[0], len(order)))


ORDER = [
    "debug_graphviz_path:original",
    "enable_sequential_execution",
    "sync_batch_norm",
    "fuse_relu_depthwise_conv",
    "fuse_bn_act_ops",
    "fuse_bn_add_act_ops",
    "fuse_gemm_epilogue",
    "fuse_elewise_add_act_ops",
    "fuse_all_reduce_ops",
    "fuse_all_optimizer_ops",
    "debug_graphviz_path:fused",
    "fuse_broadcast_ops",
    "debug_graphviz_path:multi_devices",
    "remove_unnecessary_lock",
    "enable_addto",
    "enable_inplace",
    "memory_optimize",
]
