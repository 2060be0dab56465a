"""`enable_inplace`: an op writes its result into its first input's buffer when that input is dead.

Flag: BuildStrategy.enable_inplace (default **True**, as in Paddle since PR #17911). Paddle:
buffer_shared_inplace_pass.

Algorithm: for each node whose op has an in-place body (engine/ops/fused.py INPLACE_BODIES: elementwise_add /
sub / mul, relu, tanh, sigmoid, scale, gelu, fused_elemwise_activation) with first input `x`, retarget the
node to the in-place body (op type and name unchanged; meta `inplace_of` = x's name) when all hold:
  1. x is not protected: not a feed, not a persistable (parameters, accumulators), not a constant, not a
     fetch target or graph output, and carries no protected name;
  2. x is dead afterwards: the node is x's last reader in program order (with autograd in the graph:
     its *only* reader, since an earlier reader may have saved x for its backward);
  3. x owns fresh memory: its producer is an op known to return a new tensor, never a view of another
     value (reshape, assign, getitem outputs are never reused);
  4. autograd is not harmed: if the graph has a backward node, the consumer must be one whose backward
     does not need its input (add, sub, scale by a number, the add of fused_elemwise_activation need
     nothing; relu, tanh, sigmoid need their *result*, which the in-place variant saves), and the
     producer must not have saved its own output for backward (elementwise_add/sub/mul, mul,
     matmul_v2, conv2d, batch_norm, scale without act, sum of 2+ inputs: outputs not saved; a relu
     output, which relu's backward needs, is never overwritten). Without a backward node
     (inference, or ops that run under no_grad) elementwise_mul and gelu may reuse too.
At run time the body still checks that the result has x's shape and dtype (no broadcast into x, no type
promotion) and otherwise computes out of place.

Sound when: 1-4 hold; results are bit-identical (same kernels, written in place).

Before:  t1 = elementwise_add(t0, b);  t2 = relu(t1)        (t0, t1 temporaries)
After:   t1 = elementwise_add[inplace t0](t0, b);  t2 = relu[inplace t1](t1)   (one buffer)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.ops.fused import INPLACE_BODIES
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import has_backward, is_protected, op_nodes, op_type

# consumers whose backward does not need the input they overwrite
GRAD_SAFE_CONSUMERS = {"elementwise_add", "elementwise_sub", "relu", "tanh", "sigmoid", "scale",
                       "fused_elemwise_activation"}
# producers returning fresh memory whose output autograd does not save
UNSAVED_OUTPUT_PRODUCERS = {"elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "mul",
                            "matmul_v2", "conv2d", "depthwise_conv2d", "batch_norm", "sync_batch_norm", "scale",
                            "sum", "sum_addto"}
# producers returning fresh memory (enough when nothing is differentiated)
FRESH_PRODUCERS = UNSAVED_OUTPUT_PRODUCERS | {
    "relu", "tanh", "sigmoid", "gelu", "leaky_relu", "softmax", "pool2d", "fused_elemwise_activation",
    "fused_bn_act", "fused_bn_add_activation", "fused_gemm_epilogue", "exp", "sqrt", "square", "abs"}


def _first_input(n: fx.Node) -> fx.Node | None:
    a = n.args[0] if n.args else n.kwargs.get("x")
    return a if isinstance(a, fx.Node) else None


def producer_ok(x: fx.Node, allowed: set[str]) -> bool:
    """x's producer is in `allowed` and, for the two ops whose result is not always fresh and unsaved,
    in the safe form: `scale` without its own act (relu / tanh would save their result) and `sum` of
    two or more inputs (add_n of one input returns that input itself)."""
    t = op_type(x)
    if t not in allowed:
        return False
    if t == "scale":
        return not (x.kwargs.get("act") or (len(x.args) > 4 and x.args[4]))
    if t in ("sum", "sum_addto"):
        inputs = x.args[0] if x.args else x.kwargs.get("inputs")
        return isinstance(inputs, (list, tuple)) and len(inputs) >= 2
    return True


def candidates(gm: fx.GraphModule, protected: set[str], types=INPLACE_BODIES) -> list[tuple[fx.Node, fx.Node]]:
    """(consumer, reused input) pairs satisfying conditions 1-4."""
    grad = has_backward(gm)
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    out = []
    for n in op_nodes(gm, types):
        x = _first_input(n)
        if x is None or is_protected(x, protected) or n.meta.get("inplace_of"):
            continue
        users = list(x.users)
        if grad:
            if users != [n] or op_type(n) not in GRAD_SAFE_CONSUMERS or not producer_ok(x, UNSAVED_OUTPUT_PRODUCERS):
                continue
        elif max(order[u] for u in users) != order[n] or not producer_ok(x, FRESH_PRODUCERS):
            continue
        if sum(1 for a in n.all_input_nodes if a is x) > 1 or x in n.args[1:] or x in n.kwargs.values():
            continue  # x read twice by the same op (x + x)
        out.append((n, x))
    return out


def _retarget(gm: fx.GraphModule, protected: set[str]) -> list[tuple[fx.Node, fx.Node]]:
    pairs = candidates(gm, protected)
    for n, x in pairs:
        n.target = INPLACE_BODIES[op_type(n)]
        n.meta["inplace_of"] = x.meta.get("var_name", x.name)
    return pairs


def rewrite(gm: fx.GraphModule, protected: set[str]) -> fx.GraphModule:
    """The rewrite alone, for a plain Program's plan (engine/static/executor.py plain_transform): no pipeline
    around it (its checks cost more than the rewrite on the small programs most plans are)."""
    _retarget(gm, protected)
    return gm


@register("enable_inplace")
def enable_inplace(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    pairs = _retarget(gm, ctx.protected)
    return PassResult(gm, bool(pairs), {"inplace": len(pairs), "vars": [x.meta.get("var_name") for _, x in pairs]})
