"""Backward as part of the Program: `append_backward` and `gradients`.

Paddle appends one `*_grad` op per forward op. We append two nodes that mean the same thing:
- the loss@GRAD seed: a `fill_constant` node (role `loss_grad`) named `<loss>@GRAD`, the node that
  GradientScaleStrategy rewrites (1/N, 1) or turns into a feed (Customized);
- one `autograd_grad` node (role `backward`) that runs torch.autograd over the recorded forward and
  yields every requested gradient, each a Variable named `<var>@GRAD` that can be fetched.
The Executor runs a program with such a node under grad mode with trainable parameters as leaves.
`block.ops` lists the node as the `*_grad` ops of the forward ops it differentiates, in Paddle's order.
"""

from __future__ import annotations

import operator
from typing import Any, Sequence

import torch
import torch.fx as fx

from paddle_compat.engine.core import autograd_engine
from paddle_compat.engine.framework.program import (ROLE_BACKWARD, ROLE_FORWARD, ROLE_LOSS_GRAD, Parameter, Variable,
                                             VarType, _detach, _fx_name)
from paddle_compat.engine.framework.selected_rows import SelectedRowsValue, merge_add
from paddle_compat.engine.ops.common import scalar_dims
from paddle_compat.engine.framework.registry import op


@op("autograd_grad", role=ROLE_BACKWARD, differentiable=False)
def autograd_grad(targets, inputs, target_gradients, retain_graph=False, create_graph=False):
    """Gradients of `targets` w.r.t. `inputs`, seeded with `target_gradients` (zeros where unused).
    `retain_graph` is set when a later backward node of the same program differentiates the same forward;
    `create_graph` when a later one differentiates these gradients (double grad, as Paddle's `*_grad_grad` ops)."""
    need = [x for x in inputs if x.requires_grad]
    live = [(t, g if g.shape == t.shape else g.reshape(t.shape) if g.numel() == t.numel() else g.expand_as(t))
            for t, g in zip(targets, target_gradients) if t.requires_grad]
    if not live or not need:
        return tuple(torch.zeros_like(x) for x in inputs)
    res = iter(autograd_engine.grad([t for t, _ in live], need, [s for _, s in live], allow_unused=True,
                                    retain_graph=retain_graph or create_graph, create_graph=create_graph))
    return _fill_unused(inputs, res)


@op("grad_leaf")
def grad_leaf(x):
    """A computed variable that `gradients()` differentiates against: unchanged where it already depends on a
    variable that requires grad, else (a zeros_like, a detached copy, data without gradient) a leaf that requires
    grad, so its consumers are differentiable w.r.t. it as in Paddle, where any variable can be an input."""
    return x if x.requires_grad or not x.is_floating_point() else x.detach().requires_grad_()


def _as_grad_input(v: Variable) -> None:
    n = v.node
    if n.op == "placeholder":
        n.meta["needs_grad"] = True  # a fed input must be a leaf that requires grad at run time
        return
    if n.target is grad_leaf.__paddle_op__.impl:
        return
    g = n.graph
    with g.inserting_after(n):
        leaf = g.call_function(grad_leaf.__paddle_op__.impl, (n,))
    n.replace_all_uses_with(leaf, delete_user_cb=lambda u: u is not leaf)
    leaf.meta.update({k: n.meta[k] for k in ("var_name", "role") if k in n.meta})
    leaf.meta.update(op_type=None, opdef=grad_leaf.__paddle_op__, attrs={})  # not one of Paddle's block.ops
    v.node = leaf


def _fill_unused(inputs, res):
    """Zeros for inputs the targets do not depend on (Paddle fills such gradients with zeros)."""
    out = []
    for x in inputs:
        g = next(res) if x.requires_grad else None
        out.append(torch.zeros_like(x) if g is None else g)
    return tuple(out)


def _ancestors(nodes: Sequence[fx.Node]) -> set[fx.Node]:
    seen: set[fx.Node] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n.target is not _detach:  # stop_gradient=True cuts the backward here
            stack.extend(n.all_input_nodes)
    return seen


def _grad_name(block, base: str) -> str:
    name = f"{base}@GRAD"
    k = 0
    while name in block.vars:  # a second backward over the same variable: Paddle's @RENAME suffix
        name = f"{base}@GRAD@RENAME@{k}"
        k += 1
    return name


def _append_grad_node(block, targets: list[Variable], inputs: list[Variable], seeds: list[Variable]):
    g = block.graph
    for earlier in g.nodes:  # an earlier backward must keep the autograd graph for this one
        if earlier.meta.get("op_type") == "autograd_grad":
            earlier.kwargs = {**earlier.kwargs, "retain_graph": True}
    fwd = _ancestors([t.node for t in targets])
    for earlier in fwd:  # gradients of gradients: the earlier backward records its own graph
        if earlier.meta.get("op_type") == "autograd_grad":
            earlier.kwargs = {**earlier.kwargs, "create_graph": True}
    fwd_types = [n.meta.get("paddle_type") or n.meta["op_type"] for n in g.nodes
                 if n in fwd and n.op == "call_function" and n.meta.get("op_type")
                 and n.meta.get("role") == ROLE_FORWARD]
    node = g.create_node("call_function", autograd_grad.__paddle_op__.impl,
                         ([t.node for t in targets], [v.node for v in inputs], [s.node for s in seeds]), {},
                         name="autograd_grad")
    names = [_grad_name(block, v.name) for v in inputs]
    node.meta.update(op_type="autograd_grad", opdef=autograd_grad.__paddle_op__, attrs={}, role=ROLE_BACKWARD,
                     grad_of=list(reversed(fwd_types)), out_names=names)
    out = []
    for i, (v, gname) in enumerate(zip(inputs, names)):
        gn = g.call_function(operator.getitem, (node, i))
        gn.name = g._graph_namespace.create_name(_fx_name(gname), None)
        gn.meta.update(var_name=gname, role=ROLE_BACKWARD, op_type=None)
        gv = Variable(block, gname, v.shape, v.dtype, node=gn, stop_gradient=True)
        if isinstance(v, Parameter) and _sparse_lookups(v.node, fwd):
            gv.type = VarType.SELECTED_ROWS  # its node stays the dense gradient: see selected_rows_node
        block.vars[gname] = gv
        out.append(gv)
    block.program._bump()
    return out


# lookup ops whose weight gradient is a SelectedRows when this attribute is set (fluid.layers.embedding, fluid.embedding,
# paddle.nn.functional.embedding(sparse=True))
_SPARSE_LOOKUPS = {"lookup_table": "is_sparse", "lookup_table_v2": "sparse"}


def _sparse_lookups(param: fx.Node, fwd: set[fx.Node]) -> list[fx.Node]:
    """The sparse lookups of `param` in the differentiated forward, when those are all its uses there (Paddle:
    a weight also read densely gets a dense gradient, the `sum` of a SelectedRows and a LoDTensor)."""
    users = [u for u in param.users if u in fwd]
    lookups = [u for u in users if u.meta.get("op_type") in _SPARSE_LOOKUPS
               and u.meta.get("attrs", {}).get(_SPARSE_LOOKUPS[u.meta["op_type"]])
               and (u.args[1] if len(u.args) > 1 else u.kwargs.get("weight")) is param]
    return lookups if users and len(lookups) == len(users) else []


def sparse_rows(ids: list, douts: list, height: int) -> SelectedRowsValue:
    """The SelectedRows gradient of a weight from its lookups' ids and output gradients: rows in lookup order
    (duplicates kept), as Paddle's lookup_table_grad gives it; several lookups are summed by Paddle's `sum` op,
    which merges (rows ascending, equal ids added)."""
    rows = torch.cat([i.reshape(-1).long() for i in ids])
    value = torch.cat([d.reshape(-1, d.shape[-1]) for d in douts])
    sr = SelectedRowsValue(rows, value, height)
    return merge_add(sr) if len(ids) > 1 else sr


def selected_rows_node(var: Variable) -> fx.Node:
    """The graph node whose value is `var` as a SelectedRowsValue. A sparse gradient's own node stays dense (the
    optimizer reads it); the first call builds its rows: the backward node also differentiates the lookups'
    outputs (Paddle's `<out>@GRAD` variables), and a node assembles ids and those gradients."""
    n = var.node
    if n.meta.get("selected_rows"):
        return n
    cached = n.meta.get("selected_rows_node")
    if cached is not None and cached.graph is n.graph:
        return cached
    ag = n.args[0] if n.target is operator.getitem else None
    if ag is None or ag.meta.get("op_type") != "autograd_grad":
        raise ValueError(f"variable {var.name!r} is a SelectedRows that no backward of this program produces")
    targets, inputs, seeds = ag.args
    lookups = _sparse_lookups(inputs[n.args[1]], _ancestors(targets))
    block, g = var.block, n.graph
    start = len(inputs)
    ag.args = (targets, list(inputs) + lookups, seeds)
    names = [_grad_name(block, lk.meta["var_name"]) for lk in lookups]
    ag.meta["out_names"] = list(ag.meta.get("out_names", ())) + names
    douts, anchor = [], n
    for i, (lk, gname) in enumerate(zip(lookups, names)):
        with g.inserting_after(anchor):
            gn = g.call_function(operator.getitem, (ag, start + i))
        gn.name = g._graph_namespace.create_name(_fx_name(gname), None)
        gn.meta.update(var_name=gname, role=ROLE_BACKWARD, op_type=None)
        out = block._find_var_recursive(lk.meta["var_name"])
        block.vars[gname] = Variable(block, gname, out.shape if out is not None else (), var.dtype, node=gn,
                                     stop_gradient=True)
        douts.append(gn)
        anchor = gn
    with g.inserting_after(anchor):
        sr = g.call_function(sparse_rows, ([lk.args[0] for lk in lookups], douts, int(var.shape[0])))
    sr.meta.update(var_name=var.name, role=ROLE_BACKWARD, op_type=None, selected_rows=True)
    n.meta["selected_rows_node"] = sr
    block.program._bump()
    return sr


def _seed_for(target: Variable) -> Variable:
    from paddle_compat.engine.framework.program import program_guard
    from paddle_compat.engine.ops.tensor.creation import fill_constant, full_like

    block = target.block
    name = _grad_name(block, target.name)
    with program_guard(block.program):
        if all(d >= 0 for d in target.shape):
            # a 0-D loss: a [1] seed at API level 2.4 (no 0-D variables there), 0-D at 2.6 (engine/core/api_level.py)
            seed = fill_constant(list(target.shape) or list(scalar_dims()), target.dtype, 1.0, name=name)
        else:
            seed = full_like(target, 1.0, name=name)
    seed.node.meta["role"] = ROLE_LOSS_GRAD
    seed.stop_gradient = True
    return seed


def _resolve_no_grad(no_grad_set: Any) -> set[str]:
    out: set[str] = set()
    for v in no_grad_set or ():
        out.add(v if isinstance(v, str) else v.name)
    return out


def _recompute_listing(block, nodes, deps, checkpoints) -> list[str]:
    """The op types Paddle's backward with recomputation (`append_backward(checkpoints=...)`, RecomputeOptimizer)
    appends after the loss@GRAD fill: per segment between checkpoints, the forward ops whose outputs are not kept
    are recomputed before their segment's `*_grad` ops (Paddle 1.8's _append_backward_ops_with_checkpoints_, op
    types only: numerically the gradients are the same, autograd keeps the activations). test_optimizer's
    TestRecomputeOptimizer shows the order."""
    ops = [(n.meta["op_type"], [a.meta["var_name"] for a in n.all_input_nodes if "var_name" in a.meta],
            list(n.meta.get("out_names", ())))
           for n in nodes if n in deps and n.op == "call_function" and n.meta.get("op_type")
           and n.meta.get("role") == ROLE_FORWARD]
    producers: dict[str, list[int]] = {}
    users: dict[str, list[int]] = {}
    for i, (_, ins, outs) in enumerate(ops):
        for nm in ins:
            users.setdefault(nm, []).append(i)
            producers.setdefault(nm, [])
        for nm in outs:
            producers.setdefault(nm, []).append(i)
            users.setdefault(nm, [])
    names = {c if isinstance(c, str) else c.name for c in checkpoints}
    ckpts = sorted(((nm, max(producers[nm]) if producers[nm] else -1) for nm in names if nm in producers),
                   key=lambda x: x[1])
    ckpts = [nm for nm, _ in ckpts]
    segments: list[list[int]] = []
    if len(ckpts) == 1:
        last = max(producers[ckpts[0]], default=-1)
        if last > 0:
            segments.append([0, last + 1])
    else:
        for a, b in zip(ckpts, ckpts[1:]):
            lo = min(users[a], default=len(ops))
            hi = max(producers[b], default=-1)
            if lo < hi:
                segments.append([lo, hi + 1])
    if segments and segments[0][0] != 0:
        segments = [[0, segments[0][0]]] + segments

    def persistable(nm):
        v = block.program.global_block().vars.get(nm) or block.vars.get(nm)
        return v is not None and v.persistable

    hold = set(names)
    for lo, hi in segments:
        hold.update(nm for i in range(lo, hi) for nm in ops[i][2] if any(j >= hi for j in users.get(nm, ())))
    hold.update(nm for nm in producers if not producers[nm] and users[nm] and not persistable(nm))
    hold.update(nm for t, _, outs in ops if t == "dropout" for nm in outs)
    listing: list[str] = []
    end = len(ops)
    if not segments:
        return [t + "_grad" for t, _, _ in reversed(ops)]
    for lo, hi in reversed(segments):
        listing += [t + "_grad" for t, _, _ in reversed(ops[hi:end])]
        end = lo
        listing += [t for t, _, outs in ops[lo:hi] if any(not persistable(nm) and nm not in hold for nm in outs)]
        listing += [t + "_grad" for t, _, _ in reversed(ops[lo:hi])]
    return listing


def append_backward(loss: Variable, parameter_list: Any = None, no_grad_set: Any = None, callbacks: Any = None,
                    checkpoints: Any = None, distop_context: Any = None) -> list[tuple[Parameter, Variable]]:
    """Append the backward of `loss`; returns (parameter, parameter@GRAD) pairs, in parameter order."""
    if not isinstance(loss, Variable):
        raise TypeError(f"append_backward: loss must be a static Variable, but received {type(loss).__name__}")
    block = loss.block
    program = block.program
    for cb in callbacks or ():  # fluid.clip.error_clip_callback rewrites the forward before it is differentiated
        prepare = getattr(cb, "before_backward", None)
        if prepare is not None:
            prepare(loss)
    skip = _resolve_no_grad(no_grad_set)
    if parameter_list is not None:
        names = [p if isinstance(p, str) else p.name for p in parameter_list]
        params = [block.program.global_block().var(n) for n in names]
    else:
        params = [p for p in program.global_block().all_parameters() if p.trainable]
    deps = _ancestors([loss.node])
    # Paddle: a parameter gets a gradient when trainable and not stop_gradient (PaddleDetection sets
    # param.stop_gradient = True on frozen stages after creating them; trainable stays True)
    params = [p for p in params if p.node in deps and p.name not in skip and p.trainable and not p.stop_gradient]
    seed = _seed_for(loss)
    grads = _append_grad_node(block, [loss], params, [seed]) if params else []
    if checkpoints and grads:
        node = grads[0].node.args[0]
        node.meta["op_listing"] = _recompute_listing(block, [n for n in block.graph.nodes if n is not node],
                                                     deps, checkpoints)
    program._appending_grad_times += 1
    return list(zip(params, grads))


def gradients(targets: Any, inputs: Any, target_gradients: Any = None, no_grad_set: Any = None) -> list[Variable]:
    """`paddle.static.gradients`: d(sum of targets)/d(inputs), seeded with `target_gradients` (ones)."""
    targets = list(targets) if isinstance(targets, (list, tuple)) else [targets]
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    if target_gradients is None:
        seeds = [_seed_for(t) for t in targets]
    else:
        tg = list(target_gradients) if isinstance(target_gradients, (list, tuple)) else [target_gradients]
        if len(tg) != len(targets):
            raise ValueError(
                f"gradients: target_gradients must have the same length as targets ({len(tg)} vs {len(targets)})"
            )
        seeds = [s if s is not None else _seed_for(t) for s, t in zip(tg, targets)]
    block = targets[0].block
    for v in inputs:
        _as_grad_input(v)
    return _append_grad_node(block, targets, inputs, seeds)
