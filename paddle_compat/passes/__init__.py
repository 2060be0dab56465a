"""Graph passes over the compiled fx GraphModule, driven by BuildStrategy flags.

PIPELINE is the one ordered table mapping a BuildStrategy flag to its pass (Paddle's order,
build_strategy.cc ParallelExecutorPassBuilder, then the memory passes of parallel_executor.cc).
`apply_pipeline` runs the enabled ones; after each: metadata refresh, lint, verification, recompile.
A pass that cannot apply warns once and leaves the graph as it was.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import torch.fx as fx


@dataclass
class PassResult:
    gm: fx.GraphModule
    modified: bool
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class PassContext:
    """What passes may need beyond the graph: names that must never lose their buffers."""

    protected: set[str] = field(default_factory=set)  # feeds, fetch targets, persistables
    num_places: int = 1
    device: str = "cpu"
    debug_path: str = ""


# (flag, pass) in Paddle's order. Filled by the pass modules (each registers itself on import).
PIPELINE: list[tuple[str, Callable[[fx.GraphModule, PassContext], PassResult]]] = []


def register(flag: str) -> Callable:
    def deco(fn: Callable) -> Callable:
        PIPELINE.append((flag, fn))
        return fn

    return deco


def _flag_on(strategy: Any, flag: str) -> bool:
    return bool(getattr(strategy, flag, False))


def enabled_passes(strategy: Any) -> list[str]:
    _load()
    return [flag for flag, _ in PIPELINE if _flag_on(strategy, flag)]


_warned: set[str] = set()


def apply_pipeline(gm: fx.GraphModule, strategy: Any, ctx: PassContext) -> fx.GraphModule:
    _load()
    for flag, fn in PIPELINE:
        if not _flag_on(strategy, flag):
            continue
        try:
            res = fn(gm, ctx)
            res.gm.graph.lint()
            res.gm.recompile()
            gm = res.gm
        except Exception as e:  # noqa: BLE001 - a pass never breaks the program
            if flag not in _warned:
                _warned.add(flag)
                warnings.warn(f"BuildStrategy.{flag}: pass skipped ({type(e).__name__}: {e})", stacklevel=2)
    return gm


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
    "debug_graphviz_path",
    "enable_sequential_execution",
    "sync_batch_norm",
    "fuse_relu_depthwise_conv",
    "fuse_bn_act_ops",
    "fuse_bn_add_act_ops",
    "fuse_gemm_epilogue",
    "fuse_elewise_add_act_ops",
    "fuse_all_reduce_ops",
    "fuse_all_optimizer_ops",
    "fuse_broadcast_ops",
    "remove_unnecessary_lock",
    "enable_addto",
    "enable_inplace",
    "memory_optimize",
]
