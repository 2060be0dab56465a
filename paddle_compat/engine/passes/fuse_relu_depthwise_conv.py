"""`fuse_relu_depthwise_conv`: relu folded into the depthwise conv2d that reads it.

Flag: BuildStrategy.fuse_relu_depthwise_conv (default False). Paddle: fuse_relu_depthwise_conv_pass.cc
(GPU-only there; here on every device, since relu-then-conv is the same arithmetic wherever it runs).

Algorithm: for every relu node whose readers are all depthwise convolutions (conv2d with groups > 1 and a
weight of shape [C_out, 1, kh, kw] when the program's shapes are known, i.e. groups == input channels),
and whose result is not protected: each reader becomes a `depthwise_conv2d` node with
`fuse_relu_before_depthwise_conv=True` reading the relu's input, and the relu node is removed.
Backward: autograd differentiates relu inside the conv body, as Paddle's fused grad kernel does.

Sound when: no other op, fetch or persistable needs the relu output.

Before:  r = relu(x); y = conv2d(r, w, groups=C)
After:   y = depthwise_conv2d(x, w, groups=C, fuse_relu_before_depthwise_conv=True)
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import bound, is_protected, new_op_node, op_nodes, op_type, var_shape


def _is_depthwise(conv: fx.Node, relu: fx.Node, ctx: PassContext) -> bool:
    if op_type(conv) not in ("conv2d", "depthwise_conv2d"):  # F.conv2d records Paddle's depthwise_conv2d
        return False
    kw = bound(conv)
    if kw["x"] is not relu or int(kw.get("groups") or 1) <= 1:
        return False
    wshape = var_shape(kw["weight"], ctx.program) if isinstance(kw["weight"], fx.Node) else None
    return wshape is None or (len(wshape) == 4 and wshape[1] == 1)


@register("fuse_relu_depthwise_conv")
def fuse_relu_depthwise_conv(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    n_fused = 0
    for relu in op_nodes(gm, ["relu"]):
        users = list(relu.users)
        if not users or is_protected(relu, ctx.protected) or not all(_is_depthwise(u, relu, ctx) for u in users):
            continue
        src = relu.args[0] if relu.args else relu.kwargs["x"]
        for conv in users:
            kw = bound(conv)
            kw.pop("x")
            kw["fuse_relu_before_depthwise_conv"] = True
            with g.inserting_before(conv):
                f = new_op_node(g, "depthwise_conv2d", (src,), kw, conv, fused_from=["relu", op_type(conv)],
                                attrs_={k: v for k, v in kw.items() if not isinstance(v, fx.Node)})
            conv.replace_all_uses_with(f)
            g.erase_node(conv)
            n_fused += 1
        g.erase_node(relu)
    return PassResult(gm, n_fused > 0, {"fused": n_fused})
