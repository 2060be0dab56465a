"""`fuse_elewise_add_act_ops`: elementwise_add + activation -> fused_elemwise_activation.

Flag: BuildStrategy.fuse_elewise_add_act_ops (default False). Paddle: fuse_elewise_add_act_pass.cc.

Algorithm: in graph order, for every activation node `act` in {relu, tanh, sigmoid, scale, gelu}:
  pattern 1  act(elementwise_add(x, y))  when the add's result has `act` as its only reader
             -> fused_elemwise_activation(x, y, functor_list=[act, "elementwise_add"])
  pattern 2  elementwise_add(x, act(y))  when act's result has the add as its only reader
             -> fused_elemwise_activation(x, y, functor_list=["elementwise_add", act])
The fused node takes over the variable name of the pattern's last node; the intermediate disappears.
Backward needs no pattern of its own: the single autograd node differentiates the fused body, which is
the same torch kernels in the same order (so gradients are bit-identical).

Sound when: the intermediate is read by nothing else and is not protected (a fetch target, a feed or a
persistable): a fetched intermediate keeps its own node and blocks the fusion. `scale` with a tensor
`scale` or its own `act` is left alone.

Before:  tmp_1 = elementwise_add(tmp_0, b, axis=1); tmp_2 = relu(tmp_1)
After:   tmp_2 = fused_elemwise_activation(tmp_0, b, functor_list=['relu', 'elementwise_add'], axis=1)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.ops.fused import ACTIVATIONS
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import arg, attrs, is_protected, new_op_node, op_nodes, op_type, replace, sole_user


def _act_ok(n: fx.Node) -> bool:
    t = op_type(n)
    if t not in ACTIVATIONS:
        return False
    if t == "scale" and (isinstance(arg(n, 1, "scale"), fx.Node) or arg(n, 4, "act")):
        return False
    return isinstance(n.args[0] if n.args else n.kwargs.get("x"), fx.Node)


def _act_attrs(n: fx.Node) -> dict:
    return {k: v for k, v in attrs(n).items() if k != "x"}


@register("fuse_elewise_add_act_ops")
def fuse_elewise_add_act(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    fused = {"act(x+y)": 0, "x+act(y)": 0}
    gone: set[fx.Node] = set()
    for act in op_nodes(gm, ACTIVATIONS):
        if act in gone or not _act_ok(act):
            continue
        src = act.args[0] if act.args else act.kwargs["x"]
        # pattern 1: act(add(x, y))
        if op_type(src) == "elementwise_add" and src not in gone and sole_user(src) is act \
                and not is_protected(src, ctx.protected) \
                and isinstance(arg(src, 0, "x"), fx.Node) and isinstance(arg(src, 1, "y"), fx.Node):
            x, y, axis = arg(src, 0, "x"), arg(src, 1, "y"), arg(src, 2, "axis", -1)
            with g.inserting_before(act):
                f = new_op_node(g, "fused_elemwise_activation", (x, y),
                                {"functor_list": (op_type(act), "elementwise_add"), "axis": axis,
                                 "act_attrs": _act_attrs(act)}, act, fused_from=["elementwise_add", op_type(act)])
            replace(act, f, [src])
            gone |= {act, src}
            fused["act(x+y)"] += 1
            continue
        # pattern 2: add(x, act(y))
        add = sole_user(act)
        if add is not None and op_type(add) == "elementwise_add" and add not in gone \
                and arg(add, 1, "y") is act and arg(add, 0, "x") is not act \
                and not is_protected(act, ctx.protected):
            x, axis = arg(add, 0, "x"), arg(add, 2, "axis", -1)
            with g.inserting_before(add):
                f = new_op_node(g, "fused_elemwise_activation", (x, src),
                                {"functor_list": ("elementwise_add", op_type(act)), "axis": axis,
                                 "act_attrs": _act_attrs(act)}, add, fused_from=[op_type(act), "elementwise_add"])
            replace(add, f, [act])
            gone |= {act, add}
            fused["x+act(y)"] += 1
    n = sum(fused.values())
    return PassResult(gm, n > 0, {"fused": n, **fused})
