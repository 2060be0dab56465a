"""`fuse_broadcast_ops`: one fused broadcast of all updated parameters (Reduce mode).

Flag: BuildStrategy.fuse_broadcast_ops (default True; forced off in AllReduce mode, and Reduce on a
single place is AllReduce: BuildStrategy.resolved). Paddle: multi_devices_graph_pass InsertPostprocessOps
fuses the per-parameter broadcasts after the optimizer into one `fused_broadcast` op handle.

The graph is not changed; the pass writes metadata the data-parallel runner consumes:

  gm.meta["broadcast_groups"]: list of {"owner": place index, "params": [param names]}: in Reduce mode the
      optimizer of a parameter runs on its owner place only, which then broadcasts the parameter. Owners
      follow Paddle's ReduceSSAGraphBuilder: for each parameter in gradient production order, the place
      with the smallest accumulated numel so far (greedy by element count, not round-robin).
  node.meta["broadcast_owner"] = owner place index, on each optimizer update node.
  broadcast_groups(gm) -> the list above ([] when the pass did not run).
The runner broadcasts each group with one call (e.g. coalesced, as fuse_all_reduce_ops.coalesced_all_reduce_
does for gradients) instead of one call per parameter.

Sound: metadata only.

Before:  sgd(w0, ...); sgd(b0, ...)      (2 places, Reduce)
After:   same nodes; broadcast_owner=0 / 1; gm.meta["broadcast_groups"] = [{owner: 0, params: [w0]}, ...]
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.ops.fused import FUSED_OPTIMIZERS
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import bound, op_nodes, var_shape
from paddle_compat.engine.passes.fuse_all_reduce_ops import _numel, grad_nodes


@register("fuse_broadcast_ops")
def fuse_broadcast_ops(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    if ctx.num_places <= 1:
        return PassResult(gm, False, {"reason": "single place"})
    load = [0] * ctx.num_places
    owner: dict[str, int] = {}
    for gnode, pname in grad_nodes(gm):
        dev = min(range(ctx.num_places), key=lambda i: (load[i], i))
        owner[pname] = dev
        n = _numel(var_shape(gnode, ctx.program))
        load[dev] += max(n, 1)
    groups: dict[int, list[str]] = {}
    for n in op_nodes(gm, FUSED_OPTIMIZERS):
        p = bound(n)["param"]
        pname = p.meta.get("var_name") if isinstance(p, fx.Node) else None
        if pname in owner:
            n.meta["broadcast_owner"] = owner[pname]
            groups.setdefault(owner[pname], []).append(pname)
    gm.meta["broadcast_groups"] = [{"owner": o, "params": ps} for o, ps in sorted(groups.items())]
    return PassResult(gm, bool(groups), {"groups": len(groups)})


def broadcast_groups(gm: fx.GraphModule) -> list[dict]:
    return list(getattr(gm, "meta", {}).get("broadcast_groups", []))
