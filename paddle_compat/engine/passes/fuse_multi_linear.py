"""Inference plans: linear projections of one input as one GEMM (a plain Program's plan, engine/static/executor.py
plain_transform; Paddle Inference's multihead_matmul_fuse_pass fuses the same q / k / v projections).

Pattern: two or more `matmul_v2(X, W_i)` (no transposes, W_i a 2-D parameter placeholder) whose only reader is an
`elementwise_add(., b_i)` of a 1-D parameter b_i of W_i's column count on the last axis, all reading the same X.
They become one `multi_linear(X, [W_i], [b_i])` node and one getitem per projection
(nn_functional.common.multi_linear: one matmul of the concatenated weights, kept while the weights are unchanged, and
each projection's bits, checked once per shape; where the one GEMM would give other bits it runs them one by one).

Only without a backward (a training plan differentiates each projection) and only when no product is fetched or
protected (the matmul's own result no longer exists; the adds' results are the getitems, with their names). The
compiler path, which does not keep Paddle's bits, fuses the same groups in training graphs too (`fuse_projections`:
one differentiable `concat_linear` node a group, engine/static/compiler.py).

Self-attention, as paddle.nn.MultiHeadAttention records it: three projections of one [B, T, E] input, each read only
by `reshape2(., [0, 0, H, D])` -> `transpose2(., [0, 2, 1, 3])`; q's then by `scale(., s)` (bias 0) read only by
`matmul_v2(q, k, transpose_y=True)` with k's; v's by the `matmul_v2(weights, v)`. Those nodes become one
`multi_head_inputs` node (nn_functional.common.attention_heads: the bias add of the one GEMM writes the scaled q, k
transposed and v in the layouts the two matmuls read, bit for bit the ops' values), and the first matmul reads k
transposed without its transpose_y. None of the replaced values may be fetched or protected.
"""

from __future__ import annotations

import operator

import torch.fx as fx

from paddle_compat.engine.ops.nn_functional.common import concat_linear, multi_head_inputs, multi_linear
from paddle_compat.engine.passes._util import bound, has_backward, is_protected, op_nodes, sole_user, var_shape


def _param(n, protected: set[str], program, rank: int) -> tuple | None:
    """The static shape of a parameter placeholder of this rank, else None."""
    if not isinstance(n, fx.Node) or n.op != "placeholder" or n.meta.get("var_name") not in protected:
        return None
    shape = var_shape(n, program)
    return shape if shape is not None and len(shape) == rank and all(d > 0 for d in shape) else None


def _projection(mm: fx.Node, protected: set[str], program) -> tuple | None:
    """(X, W, b, add node) when mm is matmul_v2(X, W) read only by elementwise_add(mm, b) on the last axis."""
    kw = bound(mm)
    if kw.get("transpose_x") or kw.get("transpose_y") or is_protected(mm, protected):
        return None
    x, w = kw["x"], kw["y"]
    ws = _param(w, protected, program, 2)
    x_shape = var_shape(x, program) if isinstance(x, fx.Node) else None
    add = sole_user(mm)
    if ws is None or not x_shape or add is None or add.meta.get("op_type") != "elementwise_add":
        return None
    kw = bound(add)
    if kw["x"] is not mm or kw["axis"] not in (-1, len(x_shape) - 1) or _param(kw["y"], protected, program, 1) != (ws[1],):
        return None
    return x, w, kw["y"], add


def _heads(gi: fx.Node, columns: int, protected: set[str]) -> tuple | None:
    """(reshape node, transpose node, H, D) when gi is read only by reshape2(gi, [0, 0, H, D]) (H * D its columns),
    itself read only by transpose2(., [0, 2, 1, 3]), none of them protected."""
    r = sole_user(gi)
    if r is None or r.meta.get("op_type") != "reshape2":
        return None
    shape = list(bound(r)["shape"]) if isinstance(bound(r)["shape"], (list, tuple)) else None
    if shape is None or len(shape) != 4 or shape[:2] != [0, 0] or any(type(d) is not int or d <= 0 for d in shape[2:]) \
            or shape[2] * shape[3] != columns:
        return None
    tr = sole_user(r)
    if tr is None or tr.meta.get("op_type") != "transpose2" or list(bound(tr)["perm"]) != [0, 2, 1, 3]:
        return None
    if any(is_protected(n, protected) for n in (gi, r, tr)):
        return None
    return r, tr, shape[2], shape[3]


def _matmul(n: fx.Node | None, transpose_y: bool) -> dict | None:
    if n is None or n.meta.get("op_type") != "matmul_v2":
        return None
    kw = bound(n)
    return kw if not kw["transpose_x"] and bool(kw["transpose_y"]) is transpose_y else None


def _attention(g: fx.Graph, fused: fx.Node, outs: list, x: fx.Node, members: list, protected: set[str],
               program) -> None:
    """The self-attention rewrite of the module docstring, when `fused`'s three projections match it."""
    x_shape = var_shape(x, program)
    if len(outs) != 3 or x_shape is None or len(x_shape) != 3:
        return
    chains = []
    for gi, (_, w, _, _) in zip(outs, members):
        ch = _heads(gi, var_shape(w, program)[1], protected)
        if ch is None:
            return
        chains.append(ch)
    if len({c[2:] for c in chains}) != 1:
        return
    roles: dict = {}
    for i, (_, tr, _, _) in enumerate(chains):
        user = sole_user(tr)
        if user is not None and user.meta.get("op_type") == "scale":
            kw = bound(user)
            mm = _matmul(sole_user(user), True)
            if float(kw["bias"]) != 0.0 or not kw["bias_after_scale"] or kw["act"] or type(kw["scale"]) is not float \
                    or is_protected(user, protected) or mm is None or mm["x"] is not user:
                return
            roles["q"] = (i, user, sole_user(user))
        elif (mm := _matmul(user, True)) is not None and mm["y"] is tr:
            roles["k"] = (i, user)
        elif (mm := _matmul(user, False)) is not None and mm["y"] is tr:
            roles["v"] = (i, user)
    if len(roles) != 3 or roles["k"][1] is not roles["q"][2]:
        return
    order = [roles["q"][0], roles["k"][0], roles["v"][0]]
    scale_node, qk, wv = roles["q"][1], roles["q"][2], roles["v"][1]
    heads, dim = chains[0][2], chains[0][3]
    with g.inserting_before(fused):
        node = g.call_function(multi_head_inputs, (x, [members[i][1] for i in order], [members[i][2] for i in order],
                                                   heads, dim, bound(scale_node)["scale"]))
        node.meta.update(op_type="multi_head_inputs", role=fused.meta.get("role"))
        q, kt, v = (g.call_function(operator.getitem, (node, i)) for i in range(3))
    q.meta.update({k: v_ for k, v_ in scale_node.meta.items() if k in ("var_name", "out_names", "role")})
    v.meta.update({k: v_ for k, v_ in chains[order[2]][1].meta.items() if k in ("var_name", "out_names", "role")})
    kt.meta["role"] = fused.meta.get("role")  # k transposed: no Paddle variable holds it
    qk.args, qk.kwargs = (q, kt, False, False), {}
    qk.meta["attrs"] = {**(qk.meta.get("attrs") or {}), "transpose_y": False}
    kw = bound(wv)
    wv.args, wv.kwargs = (kw["x"], v, False, False), {}
    for n in [scale_node, *(c[1] for c in chains), *(c[0] for c in chains), *outs, fused]:
        g.erase_node(n)


def _groups(gm: fx.GraphModule, protected: set[str], program) -> list[tuple[fx.Node, list]]:
    """(X, [(matmul, W, b, add), ...]) for each input X read by two or more projections (`_projection`)."""
    groups: dict[fx.Node, list] = {}
    for mm in op_nodes(gm, ("matmul_v2",)):
        p = _projection(mm, protected, program)
        if p is not None:
            groups.setdefault(p[0], []).append((mm, *p[1:]))
    return [(x, members) for x, members in groups.items() if len(members) >= 2]


def _fuse(g: fx.Graph, x: fx.Node, members: list, body, op_name: str) -> tuple[fx.Node, list]:
    """One `body(X, [W_i], [b_i])` node in place of the group's matmuls and adds, and one getitem per projection that
    takes over its add's variable name; returns (the node, the getitems)."""
    first = members[0][0]
    with g.inserting_before(first):
        fused = g.call_function(body, (x, [m[1] for m in members], [m[2] for m in members]))
        fused.meta.update(op_type=op_name, role=first.meta.get("role"))
        outs = []
        for i, (_, _, _, add) in enumerate(members):
            gi = g.call_function(operator.getitem, (fused, i))
            gi.meta.update({k: v for k, v in add.meta.items() if k in ("var_name", "out_names", "role")})
            outs.append(gi)
    for (mm, _, _, add), gi in zip(members, outs):
        add.replace_all_uses_with(gi)
        g.erase_node(add)
        g.erase_node(mm)
    return fused, outs


def fuse_multi_linear(gm: fx.GraphModule, protected: set[str], program) -> fx.GraphModule:
    if has_backward(gm):
        return gm
    for x, members in _groups(gm, protected, program):
        fused, outs = _fuse(gm.graph, x, members, multi_linear, "multi_linear")
        _attention(gm.graph, fused, outs, x, members, protected, program)
    return gm


def fuse_projections(gm: fx.GraphModule, protected: set[str], program) -> int:
    """The compiler path's form, for training graphs too: each group as one differentiable `concat_linear` (one GEMM
    of the concatenated weights forward, one for the input's gradient and one for the weights', instead of one per
    projection; values to the order of the GEMM's additions, the compiler path's tolerance). Returns the number of
    groups fused."""
    groups = _groups(gm, protected, program)
    for x, members in groups:
        _fuse(gm.graph, x, members, concat_linear, "concat_linear")
    if groups:
        gm.graph.lint()
        gm.recompile()
    return len(groups)
