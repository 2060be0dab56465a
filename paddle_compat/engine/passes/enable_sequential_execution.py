"""`enable_sequential_execution`: ops run in Program order.

Flag: BuildStrategy.enable_sequential_execution (default False; sync_batch_norm forces it on:
BuildStrategy.resolved). Paddle: sequential_execution_pass adds a dependency edge between consecutive
ops so the threaded SSA executor cannot reorder them.

Algorithm: none needed. A GraphModule's generated `forward` runs its nodes one after another in graph
order, and graph order is Program (recording) order, so execution is already sequential and
deterministic. The pass keeps the flag's semantics by checking that claim: every node's inputs come
before it (topological == program order) and records `gm.meta["sequential"] = True`, which a threaded
runner (data parallel) must honour by not reordering a replica's ops.

Sound: read-only.

Before/After: unchanged graph; gm.meta["sequential"] = True.
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register


@register("enable_sequential_execution")
def enable_sequential_execution(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    seen: set[fx.Node] = set()
    for n in gm.graph.nodes:
        if any(a not in seen for a in n.all_input_nodes):
            raise AssertionError(f"node {n.name} reads a value defined after it")
        seen.add(n)
    gm.meta["sequential"] = True
    return PassResult(gm, False, {"ops_in_order": len(seen)})
