"""`remove_unnecessary_lock`: drop per-op locking where ops cannot race.

Flag: BuildStrategy.remove_unnecessary_lock (default True). Paddle: modify_op_lock_and_record_event_pass
removes the CUDA-stream lock / event recording of op handles that have no cross-stream dependencies.

Algorithm: none needed. Our runtime has no op handles, locks or events: a graph runs on one Python thread
in order (replicas each run their own graph), so there is nothing to lock and nothing to remove. The
pass records `gm.meta["op_locks"] = False` so the flag's state stays visible and documented.

Sound: read-only; nothing observable in Paddle either (strategy_semantics.md §2.2).

Before/After: unchanged graph.
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register


@register("remove_unnecessary_lock")
def remove_unnecessary_lock(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    gm.meta["op_locks"] = False
    return PassResult(gm, False)
