"""Split one compiled program graph at the gradient reduction: `pre` (forward + backward) and `post`
(everything that reads a reduced gradient or belongs to the optimizer).

The Executor's GraphModule takes (feeds + Scope persistables) and returns (fetches + write-backs). For data
parallelism we cut it in two, on the graph itself:
- `post` = every node that depends on a reduced `param@GRAD` (the getitem outputs of the `autograd_grad`
  node) plus every optimizer-role node, and everything downstream of those. SSA makes this exact: a node that
  reads a parameter *after* its update reads the update's node, so it lands in `post` too.
- `pre` = the rest (closed under inputs, so it can run first). Its outputs are the "boundary": the values
  of `pre` nodes that `post` or the final output reads, the reduced gradients among them.
`pre` keeps all placeholders, so both stages are called with the same argument list; `post` takes those
arguments followed by the boundary values and returns the original output tuple.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import torch.fx as fx

from paddle_compat.engine.framework import fx_copy
from paddle_compat.engine.framework.program import ROLE_OPTIMIZE
from paddle_compat.engine.framework.fx_copy import new_gm


@dataclass
class Stages:
    pre: fx.GraphModule
    post: fx.GraphModule | None  # None: nothing to reduce, `pre` returns the full outputs
    boundary_names: list[str]  # var_name (or node name) of each boundary value
    reduced: list[tuple[int, str]]  # (boundary index, grad var name) of each gradient to reduce


def grad_nodes(gm: fx.GraphModule, grad_names: set[str]) -> list[fx.Node]:
    """The `autograd_grad` outputs named in `grad_names` (in graph order)."""
    out = []
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target is operator.getitem and n.meta.get("var_name") in grad_names:
            src = n.args[0]
            if isinstance(src, fx.Node) and src.meta.get("op_type") == "autograd_grad":
                out.append(n)
    return out


def split(gm: fx.GraphModule, grad_names: set[str]) -> Stages:
    g = gm.graph
    nodes = list(g.nodes)
    out_node = next(n for n in reversed(nodes) if n.op == "output")
    reduced = grad_nodes(gm, grad_names)
    if not reduced:
        return Stages(gm, None, [], [])
    post: set[fx.Node] = set()
    stack = [u for r in reduced for u in r.users]
    stack += [n for n in nodes if n.op == "call_function" and n.meta.get("role") == ROLE_OPTIMIZE]
    while stack:
        n = stack.pop()
        if n in post or n.op in ("output", "placeholder"):
            continue
        post.add(n)
        stack.extend(n.users)
    placeholders = [n for n in nodes if n.op == "placeholder"]
    pre_nodes = [n for n in nodes if n.op not in ("placeholder", "output") and n not in post]
    pre_set = set(pre_nodes)
    boundary: list[fx.Node] = []
    seen: set[fx.Node] = set()

    def want(n: fx.Node) -> None:
        if n in pre_set and n not in seen:
            seen.add(n)
            boundary.append(n)

    for n in nodes:
        if n in post or n is out_node:
            for a in n.all_input_nodes:
                want(a)

    # pre graph
    pg = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    for n in placeholders + pre_nodes:
        env[n] = fx_copy.node_copy(pg, n, lambda a: env[a])
    pg.output(tuple(env[b] for b in boundary))
    # post graph
    qg = fx.Graph()
    env2: dict[fx.Node, fx.Node] = {}
    for n in placeholders:
        env2[n] = fx_copy.node_copy(qg, n, lambda a: env2[a])
    for i, b in enumerate(boundary):
        ph = qg.placeholder(f"boundary_{i}")
        ph.meta.update(b.meta)
        env2[b] = ph
    for n in nodes:
        if n in post:
            env2[n] = fx_copy.node_copy(qg, n, lambda a: env2[a])
    qg.output(fx.map_arg(out_node.args[0], lambda a: env2[a]))
    # code generated when they keep running (engine/framework/fx_interp.py warm_forward)
    pre = new_gm(gm, pg)
    postm = new_gm(gm, qg)
    index = {b: i for i, b in enumerate(boundary)}
    red = [(index[r], r.meta["var_name"]) for r in reduced if r in index]
    names = [b.meta.get("var_name", b.name) for b in boundary]
    return Stages(pre, postm, names, red)


def bypass_updates(post: fx.GraphModule, skip_params: set[str]) -> fx.GraphModule:
    """A copy of `post` without the optimizer updates of `skip_params` (Reduce mode: another place owns
    them) and without the optimizer-role nodes that only fed those updates (their regularization, ...)."""
    g = fx.Graph()
    val_map: dict[fx.Node, fx.Node] = {}
    out = fx_copy.graph_copy(g, post.graph, val_map)
    g.output(out)
    dead: list[fx.Node] = []
    for n in list(g.nodes):
        if n.op != "call_function" or n.meta.get("role") != ROLE_OPTIMIZE or not n.args:
            continue
        p = n.args[0]
        if isinstance(p, fx.Node) and p.op == "placeholder" and p.meta.get("var_name") in skip_params:
            dead.extend(n.all_input_nodes)
            n.replace_all_uses_with(p)
            g.erase_node(n)
    while dead:  # optimizer-role producers that only fed a bypassed update (regularization, ...)
        n = dead.pop()
        if n.op == "call_function" and not n.users and n.meta.get("role") == ROLE_OPTIMIZE and n in g.nodes:
            dead.extend(n.all_input_nodes)
            g.erase_node(n)
    return new_gm(post, g)
