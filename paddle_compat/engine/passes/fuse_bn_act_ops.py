"""`fuse_bn_act_ops`: batch_norm + activation -> fused_bn_act.

Flag: BuildStrategy.fuse_bn_act_ops (default False). Paddle: fuse_bn_act_pass.cc (batch_norm + relu into
fused_batch_norm_act, cuDNN only; we fuse on every device since the body is the same arithmetic).

Algorithm: for every activation node (relu, tanh, sigmoid, scale, gelu) whose input is a batch_norm node
read by nothing else and not protected, one fused_bn_act node gets all batch_norm arguments plus
`act_type` / `act_attrs`, and takes the activation's variable name. The running mean / variance are
still updated in place inside the body (same kernels, same order).

Sound when: the batch_norm output is neither fetched nor persistable nor read elsewhere; scale with a
tensor scale or its own act is left alone.

Before:  bn = batch_norm(x, mean, var, w, b, is_test=False); y = relu(bn)
After:   y = fused_bn_act(x, mean, var, w, b, is_test=False, ..., act_type='relu')
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.ops.fused import ACTIVATIONS
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import attrs, bound, is_protected, new_op_node, op_nodes, op_type, replace, sole_user
from paddle_compat.engine.passes.fuse_elewise_add_act_ops import _act_ok


def act_input(act: fx.Node) -> fx.Node | None:
    src = act.args[0] if act.args else act.kwargs.get("x")
    return src if isinstance(src, fx.Node) else None


def bn_args(bn: fx.Node) -> dict:
    return bound(bn)


@register("fuse_bn_act_ops")
def fuse_bn_act(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    n_fused = 0
    for act in op_nodes(gm, ACTIVATIONS):
        if not _act_ok(act):
            continue
        bn = act_input(act)
        if bn is None or op_type(bn) != "batch_norm" or sole_user(bn) is not act or is_protected(bn, ctx.protected):
            continue
        kw = bn_args(bn)
        kw.update(act_type=op_type(act), act_attrs={k: v for k, v in attrs(act).items() if k != "x"})
        x = kw.pop("x")
        with g.inserting_before(act):
            f = new_op_node(g, "fused_bn_act", (x,), kw, act, fused_from=["batch_norm", op_type(act)],
                            attrs_={k: v for k, v in kw.items() if not isinstance(v, fx.Node)})
        replace(act, f, [bn])
        n_fused += 1
    return PassResult(gm, n_fused > 0, {"fused": n_fused})
