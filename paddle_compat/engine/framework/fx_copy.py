"""Node creation and graph copies for our hot paths, without torch.fx's per-node walk over the arguments.

`fx.Graph.create_node` (torch 2.13) walks every argument of a call node with pytree, only to warn about raw
SymInt / SymFloat / SymBool values, which a recorded Paddle program never holds (its shapes are plain ints). That
walk was about a tenth of building and first-running a small program (issue 15 item 1): recording appends one
node per op, and each new plan copies the program's graph. Here the node is created without arguments and gets
them by assignment (fx's own `node.args = ...`, which keeps the users and input-node bookkeeping): the same node,
the same name, the same users order.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import torch.fx as fx
from torch.fx.node import map_arg


def create_node(graph: fx.Graph, op: str, target: Any, args: tuple = (), kwargs: dict | None = None,
                name: str | None = None, type_expr: Any = None) -> fx.Node:
    """graph.create_node(op, target, args, kwargs, name, type_expr) at the graph's insert point."""
    node = graph.create_node(op, target, None, None, name, type_expr)
    if args:  # inputs are recorded args first, then kwargs, as Node.__init__ does
        node.args = tuple(args)
    if kwargs:
        node.kwargs = kwargs
    return node


def node_copy(graph: fx.Graph, node: fx.Node, arg_transform: Callable[[fx.Node], Any]) -> fx.Node:
    """graph.node_copy(node, arg_transform)."""
    new = create_node(graph, node.op, node.target, map_arg(node.args, arg_transform),
                      map_arg(node.kwargs, arg_transform), node.name, node.type)
    new.meta = copy.copy(node.meta)
    return new


def graph_copy(graph: fx.Graph, src: fx.Graph, val_map: dict) -> Any:
    """graph.graph_copy(src, val_map): copies src's nodes into graph, returns the copy of its output value."""
    for node in src.nodes:
        if node in val_map:
            continue
        if node.op == "output":
            return map_arg(node.args[0], lambda n: val_map[n])
        val_map[node] = node_copy(graph, node, lambda n: val_map[n])
    return None
