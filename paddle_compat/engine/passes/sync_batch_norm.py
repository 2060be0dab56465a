"""`sync_batch_norm`: batch_norm -> sync_batch_norm (statistics over all replicas).

Flag: BuildStrategy.sync_batch_norm (default False; forces enable_sequential_execution on, as Paddle's
compiler.py does). Paddle: sync_batch_norm_pass renames op type batch_norm to sync_batch_norm (and the
grad op); its kernel all-reduces the batch mean / variance across places (CUDA only in Paddle; here on
every device).

Algorithm: every training-mode batch_norm node becomes a `sync_batch_norm` node with the same arguments
(inference-mode nodes, is_test=True, keep batch_norm, as there are no batch statistics to share). The
op body (engine/ops/fused.py) reads the runtime hook `paddle_compat.engine.ops.fused.SYNC_BN.callback`, which the
data-parallel runner sets per replica thread with `sync_bn_callback(cb)`:
    cb(local_sum[C], local_sqsum[C], local_count) -> (global_sum, global_sqsum, global_count)
(an all-reduce across replicas). With no callback set (one place) the body *is* batch_norm, so the
rewrite alone is bit-identical.

Sound: always (the rewrite); the cross-replica result equals batch_norm over the concatenated batch.

Before:  y = batch_norm(x, mean, var, w, b, is_test=False)
After:   y = sync_batch_norm(x, mean, var, w, b, is_test=False)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import bound, new_op_node, op_nodes


@register("sync_batch_norm")
def sync_batch_norm(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    n_rewritten = 0
    for bn in op_nodes(gm, ["batch_norm"]):
        kw = bound(bn)
        if kw.get("is_test"):
            continue
        with g.inserting_before(bn):
            f = new_op_node(g, "sync_batch_norm", bn.args, dict(bn.kwargs), bn,
                            attrs_=dict(bn.meta.get("attrs") or {}))
        bn.replace_all_uses_with(f)
        g.erase_node(bn)
        n_rewritten += 1
    return PassResult(gm, n_rewritten > 0, {"rewritten": n_rewritten})
