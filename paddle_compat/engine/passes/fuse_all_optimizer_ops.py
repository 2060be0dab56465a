"""`fuse_all_optimizer_ops`: one multi-tensor update per optimizer type (fused_sgd / fused_momentum /
fused_adam over torch._foreach kernels).

Flag: BuildStrategy.fuse_all_optimizer_ops (default False; Reduce mode forces it off, and an unset None
becomes True: BuildStrategy.resolved). Paddle: fuse_sgd_op_pass / fuse_momentum_op_pass /
fuse_adam_op_pass over coalesced parameters.

Algorithm: group the sgd / momentum / adam nodes by (op type, learning-rate input, scalar attributes).
For each group of two or more, check that no other node between the group's first and last member reads
or writes any tensor a member touches (parameter, gradient, accumulators) or a member's result; then one
fused node, placed at the last member, takes the lists of parameters, gradients and accumulators, and
each member's result is replaced by `fused[i]`. The multi-tensor kernels do the same arithmetic per
tensor as the single updates (engine/ops/update_ops.py), so parameters are bit-identical.

Sound when: the group's updates are independent (each parameter appears once) and nothing in between
observes a half-updated state (checked above). A group that fails the check is left unfused. An adam whose
gradient is a SelectedRows in Paddle (`selected_rows=True`, an is_sparse embedding's) stays single: Paddle's
fuse passes take dense (LoDTensor) gradients only, and its sparse kernel is not the fused one.

Before:  sgd(w0, w0@GRAD, lr); sgd(b0, b0@GRAD, lr); sgd(w1, w1@GRAD, lr)
After:   fused_sgd([w0, b0, w1], [w0@GRAD, b0@GRAD, w1@GRAD], lr)
"""

from __future__ import annotations

import operator

import torch.fx as fx

from paddle_compat.engine.ops.fused import FUSED_OPTIMIZERS
from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import bound, new_op_node, op_nodes, op_type

# op type -> names of its per-parameter tensor inputs (become lists); the rest are shared
TENSOR_ARGS = {
    "sgd": ("param", "grad"),
    "momentum": ("param", "grad", "velocity"),
    "adam": ("param", "grad", "moment1", "moment2", "beta1_pow", "beta2_pow"),
}
LIST_NAMES = {
    "sgd": ("params", "grads"),
    "momentum": ("params", "grads", "velocities"),
    "adam": ("params", "grads", "moment1", "moment2", "beta1_pow", "beta2_pow"),
}


def _key(n: fx.Node) -> tuple | None:
    t = op_type(n)
    kw = bound(n)
    if kw.get("selected_rows"):
        return None
    shared = []
    for k, v in kw.items():
        if k in TENSOR_ARGS[t] or k == "selected_rows":
            continue
        if isinstance(v, (list, tuple, dict)):
            return None
        shared.append((k, v))
    return (t, tuple(shared))


@register("fuse_all_optimizer_ops")
def fuse_all_optimizer_ops(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    g = gm.graph
    order = {n: i for i, n in enumerate(g.nodes)}
    groups: dict[tuple, list[fx.Node]] = {}
    for n in op_nodes(gm, FUSED_OPTIMIZERS):
        k = _key(n)
        if k is not None:
            groups.setdefault(k, []).append(n)
    n_groups = n_members = 0
    for (t, shared), members in groups.items():
        if len(members) < max(2, ctx.min_fused_updates):
            continue
        touched: set[fx.Node] = set(members)
        kws = {m: bound(m) for m in members}  # inspect's bind is slow: once per member
        for m in members:
            kw = kws[m]
            touched |= {kw[a] for a in TENSOR_ARGS[t] if isinstance(kw[a], fx.Node)}
        params = [kws[m]["param"] for m in members]
        if len(set(params)) != len(params):
            continue
        lo, hi = order[members[0]], order[members[-1]]
        between = [n for n in g.nodes if lo < order[n] < hi and n not in touched]
        if any(a in touched for n in between for a in n.all_input_nodes):
            continue
        lists = {ln: [kws[m][a] for m in members] for a, ln in zip(TENSOR_ARGS[t], LIST_NAMES[t])}
        kwargs = dict(lists, **dict(shared))
        last = members[-1]
        with g.inserting_after(last):
            f = new_op_node(g, FUSED_OPTIMIZERS[t], (), kwargs, last, attrs_=dict(shared),
                            fused_from=[t] * len(members))
        f.meta["out_names"] = [nm for m in members for nm in m.meta.get("out_names", ())]
        f.meta.pop("var_name", None)
        with g.inserting_after(f):
            for i, m in enumerate(members):
                if m.users:
                    gi = g.call_function(operator.getitem, (f, i))
                    gi.meta.update(var_name=m.meta.get("var_name"), role=m.meta.get("role"), op_type=None)
                    m.replace_all_uses_with(gi)
        for m in members:
            g.erase_node(m)
        n_groups += 1
        n_members += len(members)
    return PassResult(gm, n_groups > 0, {"groups": n_groups, "fused_updates": n_members})
