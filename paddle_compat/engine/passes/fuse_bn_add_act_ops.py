"""`fuse_bn_add_act_ops`: batch_norm + elementwise_add + activation -> fused_bn_add_activation.

Flag: BuildStrategy.fuse_bn_add_act_ops (default **True**, as in Paddle). Paddle: fuse_bn_add_act_pass.cc
(cuDNN only there; the same arithmetic here on every device).

Algorithm: for every activation node (relu, tanh, sigmoid, scale, gelu) whose input is an
elementwise_add with a batch_norm node on either side, where the add and the batch_norm are each read
only by the next node of the chain and neither is protected: one fused_bn_add_activation(x, z, ...)
with `bn_first` telling which side the batch_norm was on (so the add keeps its operand order and `axis`).

Sound when: neither intermediate is fetched, persistable or read elsewhere.

Before:  bn = batch_norm(x, ...); s = elementwise_add(bn, z); y = relu(s)
After:   y = fused_bn_add_activation(x, z, ..., act_type='relu', bn_first=True)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.ops.fused import ACTIVATIONS
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import arg, attrs, bound, is_protected, new_op_node, op_nodes, op_type, replace, \
    sole_user
from paddle_compat.engine.passes.fuse_bn_act_ops import act_input
from paddle_compat.engine.passes.fuse_elewise_add_act_ops import _act_ok


def _chain_ok(n: fx.Node, nxt: fx.Node, ctx: PassContext) -> bool:
    return sole_user(n) is nxt and not is_protected(n, ctx.protected)


@register("fuse_bn_add_act_ops")
def fuse_bn_add_act(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    n_fused = 0
    for act in op_nodes(gm, ACTIVATIONS):
        if not _act_ok(act):
            continue
        add = act_input(act)
        if add is None or op_type(add) != "elementwise_add" or not _chain_ok(add, act, ctx):
            continue
        a, b = arg(add, 0, "x"), arg(add, 1, "y")
        if not (isinstance(a, fx.Node) and isinstance(b, fx.Node)):
            continue
        if op_type(a) == "batch_norm" and a is not b and _chain_ok(a, add, ctx):
            bn, z, bn_first = a, b, True
        elif op_type(b) == "batch_norm" and a is not b and _chain_ok(b, add, ctx):
            bn, z, bn_first = b, a, False
        else:
            continue
        kw = bound(bn)
        x = kw.pop("x")
        kw.update(act_type=op_type(act), axis=arg(add, 2, "axis", -1), bn_first=bn_first,
                  act_attrs={k: v for k, v in attrs(act).items() if k != "x"})
        with g.inserting_before(act):
            f = new_op_node(g, "fused_bn_add_activation", (x, z), kw, act,
                            fused_from=["batch_norm", "elementwise_add", op_type(act)],
                            attrs_={k: v for k, v in kw.items() if not isinstance(v, fx.Node)})
        replace(act, f, [add, bn])
        n_fused += 1
    return PassResult(gm, n_fused > 0, {"fused": n_fused})
