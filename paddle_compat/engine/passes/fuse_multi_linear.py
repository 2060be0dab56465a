"""Inference plans: linear projections of one input as one GEMM (a plain Program's plan, engine/static/executor.py
plain_transform; Paddle Inference's multihead_matmul_fuse_pass fuses the same q / k / v projections).

Pattern: two or more `matmul_v2(X, W_i)` (no transposes, W_i a 2-D parameter placeholder) whose only reader is an
`elementwise_add(., b_i)` of a 1-D parameter b_i of W_i's column count on the last axis, all reading the same X.
They become one `multi_linear(X, [W_i], [b_i])` node and one getitem per projection
(nn_functional.common.multi_linear: one matmul of the concatenated weights, kept while the weights are unchanged, and
each projection's bits, checked once per shape; where the one GEMM would give other bits it runs them one by one).

Only without a backward (a training plan differentiates each projection) and only when no product is fetched or
protected (the matmul's own result no longer exists; the adds' results are the getitems, with their names).
"""

from __future__ import annotations

import operator

import torch.fx as fx

from paddle_compat.engine.ops.nn_functional.common import multi_linear
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


def fuse_multi_linear(gm: fx.GraphModule, protected: set[str], program) -> fx.GraphModule:
    if has_backward(gm):
        return gm
    groups: dict[fx.Node, list] = {}
    for mm in op_nodes(gm, ("matmul_v2",)):
        p = _projection(mm, protected, program)
        if p is not None:
            groups.setdefault(p[0], []).append((mm, *p[1:]))
    g = gm.graph
    for x, members in groups.items():
        if len(members) < 2:
            continue
        first = members[0][0]
        with g.inserting_before(first):
            fused = g.call_function(multi_linear, (x, [m[1] for m in members], [m[2] for m in members]))
            fused.meta.update(op_type="multi_linear", role=first.meta.get("role"))
            outs = []
            for i, (_, _, _, add) in enumerate(members):
                gi = g.call_function(operator.getitem, (fused, i))
                gi.meta.update({k: v for k, v in add.meta.items() if k in ("var_name", "out_names", "role")})
                outs.append(gi)
        for (mm, _, _, add), gi in zip(members, outs):
            add.replace_all_uses_with(gi)
            g.erase_node(add)
            g.erase_node(mm)
    return gm
