"""`enable_addto`: accumulate a sum into the buffer of its first addend.

Flag: BuildStrategy.enable_addto (default False). Paddle: inplace_addto_op_pass makes a gradient
accumulation (`sum` of partial gradients) write with add-to into the buffer of the first partial
instead of allocating the sum.

In our graphs gradient accumulation happens inside torch autograd (the one `autograd_grad` node), so the
`sum` ops left to rewrite are those in the program itself (fluid.layers.sums / paddle.add_n, e.g. an fc
over several inputs). Algorithm: every `sum` node whose first addend satisfies enable_inplace's rules
(unprotected, dead afterwards, fresh memory not saved by autograd) becomes `sum_addto`, which adds the
other addends into that buffer in the same order (bit-identical to the pairwise out-of-place sum); the
run-time guard falls back to the plain sum when shapes or dtypes would not fit.

Sound when: as enable_inplace; add's backward needs no inputs, so autograd is unaffected.

Before:  s = sum([a, b, c])            (a a temporary)
After:   s = sum_addto([a, b, c])      (a += b; a += c)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.ops.fused import sum_addto
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import has_backward, is_protected, op_nodes
from paddle_compat.engine.passes.enable_inplace import FRESH_PRODUCERS, UNSAVED_OUTPUT_PRODUCERS, producer_ok


@register("enable_addto")
def enable_addto(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    grad = has_backward(gm)
    n_done = 0
    for n in op_nodes(gm, ["sum"]):
        inputs = n.args[0] if n.args else n.kwargs.get("inputs")
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2 or not isinstance(inputs[0], fx.Node):
            continue
        x = inputs[0]
        ok_prod = UNSAVED_OUTPUT_PRODUCERS if grad else FRESH_PRODUCERS
        if is_protected(x, ctx.protected) or list(x.users) != [n] or not producer_ok(x, ok_prod) \
                or list(inputs).count(x) > 1:
            continue
        n.target = sum_addto.__paddle_op__.impl
        n.meta["inplace_of"] = x.meta.get("var_name", x.name)
        n.meta["addto"] = True
        n_done += 1
    return PassResult(gm, n_done > 0, {"addto": n_done})
