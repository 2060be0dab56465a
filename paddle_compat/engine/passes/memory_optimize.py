"""`memory_optimize`: liveness-based early release and reuse of dead buffers.

Flag: BuildStrategy.memory_optimize (default None, which Paddle resolves to False because garbage
collection is on: BuildStrategy.resolved). Paddle: buffer_shared_cross_op_memory_reuse_pass (a dead
variable's buffer is reused by a later op's output of the same size and dtype) plus eager deletion.

Algorithm:
  1. Liveness: for every value, its last reader in program order. The GraphModule's generated code drops
     each local right after that reader (`x = None`; torch.fx codegen), which is eager deletion: a
     temporary's memory goes back to the allocator as soon as it is dead, unless autograd saved it for
     backward. The pass computes the liveness table (gm.meta["last_use"]: var name -> last reader node
     name) and the peak number of simultaneously live temporaries, and checks that every value is
     released at its last reader (no reader after the release point).
  2. Cross-op reuse: an optimizer update `p -= g * lr` (sgd, fused_sgd) whose gradient g is dead after it
     and unprotected (not fetched) writes `g * lr` into g's own buffer (sgd_reuse_grad /
     fused_sgd_reuse_grad) instead of a new temporary of the same size and dtype: one parameter-sized
     allocation less per parameter and step. Forward temporaries are reused by enable_inplace (an op
     result written into its dead input), which is where the large savings are on activation-heavy
     programs (bench/bench_passes.py).
  3. Lean gradient buffers: with a backward node in the graph, a full-reduction `mean` of an op result
     keeps its op type but runs the body `mean_expand_grad` (variant "expand_grad"), whose backward hands
     the gradient on as a stride-0 view (g / numel expanded) instead of materializing an input-sized
     buffer of identical values: on activation-heavy programs the backward's peak (all saved activations
     plus the first gradient buffers) drops by one activation-sized buffer. Same value per element.
     Only where mean's input is an op result (its gradient flows into that op's backward, which reads
     it; it is never returned as a parameter gradient that an optimizer would update in place).
     Likewise every elementwise_mul runs `elementwise_mul_lean_grad` (variant "lean_grad"): its
     backward finishes the broadcast operand's reduced gradient (g * x summed to w's shape) and frees
     that temporary before forming the full-size g * w, where torch's MulBackward holds both products
     at once. Same formulas, same reduction (sum_to), so the same bits. A full-reduction `reduce_mean`
     (paddle.mean) of an op result runs `reduce_mean_expand_grad`, mean_expand_grad's gradient with
     reduce_mean's signature.
  4. Pooled buffers: the plan of a graph with a backward keeps a cache of large CPU buffers
     (engine/core/buffer_pool.py; gm.meta["buffer_pool"]). The lean elementwise_mul writes its product, and its
     backward its full-size gradients, into pooled buffers (`out=`), and every relu / tanh / sigmoid that
     enable_inplace made in-place runs a body (variant of INPLACE_BODIES: LEAN_INPLACE_BODIES) whose
     backward writes the input gradient into one (threshold_backward / tanh_backward / sigmoid_backward,
     torch's own formulas), as does the in-place activation of fused_elemwise_activation (act(x + y),
     fuse_elewise_add_act_ops). A buffer is handed out again only when no tensor uses it, so after the first
     step a step's large buffers are the same resident pages: no page faults, and no heap fragmentation
     from freeing multi-MiB blocks to malloc (bench/bench_memory.py: peak RSS at the buffers' live peak).

Sound when: the reused buffer is dead afterwards and not a feed, fetch target or persistable (Paddle's
historic memory_optimize bug corrupted fetched values: strategy_semantics.md §3.4); a gradient is
produced by autograd, never saved for backward. Bit-identical: the same multiply, written in place.

Before:  sgd(w, w@GRAD, lr)                     (w@GRAD dead afterwards)
         loss = mean(h)                          (h = tanh(...))
After:   sgd_reuse_grad(w, w@GRAD, lr)          (w@GRAD *= lr; w -= w@GRAD)
         loss = mean[expand_grad](h)
         h = tanh[inplace t, pooled gradient](t)  (the plan runs with a buffer pool)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.core.buffer_pool import BUFFER_POOL
from paddle_compat.engine.ops.fused import INPLACE_BODIES, LEAN_INPLACE_BODIES, elementwise_mul_lean_grad, \
    fused_sgd_reuse_grad, mean_expand_grad, reduce_mean_expand_grad, sgd_reuse_grad
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import bound, has_backward, is_protected, new_op_node, op_nodes, op_type, replace

REUSE = {"sgd": ("sgd_reuse_grad", "grad"), "fused_sgd": ("fused_sgd_reuse_grad", "grads")}


def liveness(gm: fx.GraphModule) -> tuple[dict[fx.Node, fx.Node], int]:
    """(value -> last reader, peak count of live non-placeholder values)."""
    last: dict[fx.Node, fx.Node] = {}
    for n in gm.graph.nodes:
        for a in n.all_input_nodes:
            last[a] = n
    live: set[fx.Node] = set()
    peak = 0
    released_at: dict[fx.Node, list[fx.Node]] = {}
    for v, r in last.items():
        released_at.setdefault(r, []).append(v)
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.users:
            live.add(n)
        peak = max(peak, len(live))
        for v in released_at.get(n, ()):
            live.discard(v)
    return last, peak


def _dead_after(v: fx.Node, n: fx.Node, order: dict[fx.Node, int]) -> bool:
    return all(order[u] <= order[n] for u in v.users)


@register("memory_optimize")
def memory_optimize(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    order = {n: i for i, n in enumerate(g.nodes)}
    last, peak = liveness(gm)
    gm.meta["last_use"] = {v.meta.get("var_name", v.name): r.name for v, r in last.items()}
    reused = 0
    for n in op_nodes(gm, REUSE):
        new_type, gname = REUSE[n.meta["op_type"]]
        kw = bound(n)
        grads = kw[gname] if isinstance(kw[gname], (list, tuple)) else [kw[gname]]
        if not all(isinstance(gr, fx.Node) and not is_protected(gr, ctx.protected) and _dead_after(gr, n, order)
                   and gr.meta.get("role") == "backward" for gr in grads):
            continue
        if len({id(gr) for gr in grads}) != len(grads):
            continue
        with g.inserting_before(n):
            f = new_op_node(g, new_type, tuple(n.args), dict(n.kwargs), n, attrs_=dict(n.meta.get("attrs") or {}))
        for k in ("out_names", "fused_from"):
            if k in n.meta:
                f.meta[k] = n.meta[k]
        replace(n, f)
        reused += len(grads)
    assert sgd_reuse_grad and fused_sgd_reuse_grad  # registered op bodies
    lean = pooled = 0
    if has_backward(gm):
        for n in op_nodes(gm, ["mean"]):
            x = n.args[0] if n.args else n.kwargs.get("x")
            if isinstance(x, fx.Node) and op_type(x) is not None:
                n.target = mean_expand_grad.__paddle_op__.impl
                n.meta["variant"] = "expand_grad"
                lean += 1
        for n in op_nodes(gm, ["reduce_mean"]):
            kw = bound(n)
            if kw["axis"] is None and not kw["keepdim"] and isinstance(kw["x"], fx.Node) and op_type(kw["x"]) is not None:
                n.target = reduce_mean_expand_grad.__paddle_op__.impl
                n.meta["variant"] = "expand_grad"
                lean += 1
        for n in op_nodes(gm, ["elementwise_mul"]):
            if n.meta.get("inplace_of"):
                continue
            n.target = elementwise_mul_lean_grad.__paddle_op__.impl
            n.meta["variant"] = "lean_grad"
            lean += 1
        for n in op_nodes(gm, LEAN_INPLACE_BODIES):
            if n.meta.get("inplace_of") and n.target is INPLACE_BODIES[op_type(n)]:
                n.target = LEAN_INPLACE_BODIES[op_type(n)]
                pooled += 1
        gm.meta[BUFFER_POOL] = True
    return PassResult(gm, reused + lean + pooled > 0,
                      {"reused_grad_buffers": reused, "lean_grad_ops": lean, "pooled_inplace_ops": pooled,
                       "peak_live_values": peak})
