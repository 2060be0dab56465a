"""`fuse_gemm_epilogue`: matmul_v2 / mul + elementwise_add(bias) [+ relu / gelu] -> fused_gemm_epilogue.

Flag: BuildStrategy.fuse_gemm_epilogue (default False). Paddle: fuse_gemm_epilogue_pass.cc (cuBLASLt).

Algorithm: for every elementwise_add(gemm, bias) where gemm is a matmul_v2 or fluid `mul` node read only
by the add, and bias is a 1-D parameter (a placeholder; its static shape has one dim when the program is
known): one fused_gemm_epilogue(x, y, bias, kind, gemm_attrs, axis) node. If the add result in turn is
read only by a relu or gelu, the activation joins as `activation`. The fused body calls the same gemm
body, then the same add, then the activation (in place on the fresh sum for relu), so results and
gradients are bit-identical.

Sound when: the gemm output (and the pre-activation sum when an activation is folded) is read by
nothing else and not protected.

Before:  t0 = mul(x, w); t1 = elementwise_add(t0, b, axis=1); t2 = relu(t1)
After:   t2 = fused_gemm_epilogue(x, w, b, kind='mul', gemm_attrs={...}, axis=1, activation='relu')
"""

from __future__ import annotations

import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import arg, attrs, bound, is_protected, new_op_node, op_nodes, op_type, replace, \
    sole_user, var_shape

GEMMS = ("matmul_v2", "mul")
EPILOGUE_ACTS = ("relu", "gelu")


@register("fuse_gemm_epilogue")
def fuse_gemm_epilogue(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    n_fused = n_act = 0
    for add in op_nodes(gm, ["elementwise_add"]):
        gemm, bias = arg(add, 0, "x"), arg(add, 1, "y")
        if not (isinstance(gemm, fx.Node) and isinstance(bias, fx.Node)) or op_type(gemm) not in GEMMS:
            continue
        if sole_user(gemm) is not add or is_protected(gemm, ctx.protected) or bias.op != "placeholder":
            continue
        bshape = var_shape(bias, ctx.program)
        if bshape is not None and len(bshape) != 1:
            continue
        kw = bound(gemm)
        x, y = kw.pop("x"), kw.pop("y")
        kw.pop("name", None)
        last, dead, act = add, [gemm], "none"
        nxt = sole_user(add)
        if nxt is not None and op_type(nxt) in EPILOGUE_ACTS and not is_protected(add, ctx.protected):
            last, dead, act = nxt, [add, gemm], op_type(nxt)
        fkw = {"kind": op_type(gemm), "gemm_attrs": kw, "axis": arg(add, 2, "axis", -1), "activation": act,
               "act_attrs": {k: v for k, v in attrs(last).items() if k != "x"} if act != "none" else {}}
        with g.inserting_before(last):
            f = new_op_node(g, "fused_gemm_epilogue", (x, y, bias), fkw, last,
                            fused_from=[op_type(gemm), "elementwise_add"] + ([act] if act != "none" else []))
        replace(last, f, dead)
        n_fused += 1
        n_act += act != "none"
    return PassResult(gm, n_fused > 0, {"fused": n_fused, "with_activation": n_act})
