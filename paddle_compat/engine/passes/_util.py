"""Helpers shared by the passes: reading the Paddle view of nodes and building replacement nodes."""

from __future__ import annotations

from typing import Any, Iterable

import torch.fx as fx

from paddle_compat.engine.framework.program import ROLE_BACKWARD


def op_type(n: fx.Node) -> str | None:
    return n.meta.get("op_type") if n.op == "call_function" else None


def op_nodes(gm: fx.GraphModule, types: Iterable[str] | None = None) -> list[fx.Node]:
    want = set(types) if types is not None else None
    return [n for n in gm.graph.nodes if op_type(n) and (want is None or op_type(n) in want)]


def count_ops(gm: fx.GraphModule) -> dict[str, int]:
    out: dict[str, int] = {}
    for n in op_nodes(gm):
        out[n.meta["op_type"]] = out.get(n.meta["op_type"], 0) + 1
    return out


def names_of(n: fx.Node) -> set[str]:
    s = set(n.meta.get("out_names") or ())
    if "var_name" in n.meta:
        s.add(n.meta["var_name"])
    return s


def is_protected(n: fx.Node, protected: set[str]) -> bool:
    """A value whose buffer must survive: a feed / persistable placeholder, a constant, a fetch target or
    persistable write-back (graph output), or anything carrying a protected name."""
    if n.op in ("placeholder", "get_attr"):
        return True
    if any(u.op == "output" for u in n.users):
        return True
    return bool(names_of(n) & protected)


def sole_user(n: fx.Node) -> fx.Node | None:
    return next(iter(n.users)) if len(n.users) == 1 else None


def has_backward(gm: fx.GraphModule) -> bool:
    return any(n.meta.get("role") == ROLE_BACKWARD and op_type(n) == "autograd_grad" for n in gm.graph.nodes)


def attrs(n: fx.Node) -> dict[str, Any]:
    return dict(n.meta.get("attrs") or {})


def arg(n: fx.Node, idx: int, name: str, default: Any = None) -> Any:
    """The value of parameter `name` (positional index `idx`) of an op node."""
    if name in n.kwargs:
        return n.kwargs[name]
    if len(n.args) > idx:
        return n.args[idx]
    return n.meta.get("attrs", {}).get(name, default)


def new_op_node(graph: fx.Graph, type_: str, args: tuple, kwargs: dict, like: fx.Node,
                attrs_: dict | None = None, fused_from: list[str] | None = None) -> fx.Node:
    """A call_function node for registry op `type_` that takes over `like`'s variable name and role."""
    from paddle_compat.engine.ops import fused  # noqa: F401 - registers the fused ops
    from paddle_compat.engine.framework.registry import OPS

    opdef = OPS[type_]
    node = graph.create_node("call_function", opdef.impl, args, kwargs, name=like.name + "_f")
    node.meta.update({k: v for k, v in like.meta.items() if k in ("var_name", "out_names", "role", "stack")})
    node.meta.update(op_type=type_, opdef=opdef, attrs=attrs_ if attrs_ is not None else dict(kwargs))
    if fused_from:
        node.meta["fused_from"] = fused_from
    return node


def var_shape(n: fx.Node, program: Any) -> tuple[int, ...] | None:
    """Static shape of the variable a node holds (-1 for unknown dims), when the program is known."""
    if program is None or "var_name" not in n.meta:
        return None
    for b in program.blocks:
        v = b.vars.get(n.meta["var_name"])
        if v is not None:
            return tuple(v.shape)
    return None


def replace(old: fx.Node, new: fx.Node, dead: Iterable[fx.Node] = ()) -> None:
    """Route old's users to new, then erase old and the now-unused intermediate nodes in `dead`."""
    old.replace_all_uses_with(new)
    g = old.graph
    g.erase_node(old)
    for d in dead:
        if not d.users:
            g.erase_node(d)


def bound(n: fx.Node) -> dict[str, Any]:
    """All parameters of an op node by name (defaults applied), as the op's signature binds them."""
    sig = n.meta["opdef"].signature
    b = sig.bind(*n.args, **n.kwargs)
    b.apply_defaults()
    return dict(b.arguments)
