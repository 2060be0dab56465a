"""Run a GraphModule's graph node by node for its first calls, generating its Python code only if it keeps running.

torch.fx turns a graph into Python source and compiles it (`GraphModule.recompile`): about 2 ms for the ~80
nodes of a small training program, more than the first runs of that program cost. Many plans run only a few
times: the startup program once, and Paddle's pass tests fetch every variable of a program in turn (each
new fetch list is a new plan, run four times). `warm_forward(gm, owner)` returns a function that interprets the
graph for its first `INTERPRETED_CALLS` calls and then switches to the generated code (issue 15 item 1).

The interpreter does what the generated code does, in the same order: each node's target is called with the
same arguments (the values of earlier nodes, the same constants), values are dropped after their last use as
the generated code drops them (`x = None`), and the output structure is built the same way; so results are the
same bits. A graph it cannot take as it is (a placeholder with a default, a code generator other than fx's
plain one) gets its code generated at once. An error raised by a node is traced back to it from the interpreter's frame
(`node_of_frame`), as `engine/static/executor.py op_run_error` does from a generated-code frame.
"""

from __future__ import annotations

import operator
import threading
import weakref
from typing import Any, Callable

import torch.fx as fx

from paddle_compat.engine.framework import fx_sources

# calls interpreted before the code is generated
INTERPRETED_CALLS = 8

class _Ref:
    __slots__ = ("i",)

    def __init__(self, i: int) -> None:
        self.i = i


def _template(a: Any, index: dict) -> tuple[Any, bool]:
    """`a` with each Node replaced by a _Ref to its slot (fx's immutable lists and dicts as plain ones); and
    whether it holds a container: those are built anew for every call, as the generated code's literals are."""
    if isinstance(a, fx.Node):
        return _Ref(index[a]), False
    if isinstance(a, (list, tuple)):
        kind = list if isinstance(a, list) else tuple
        if kind is tuple and type(a) is not tuple:
            raise _NotPlain  # a named tuple or another tuple kind: left to the generated code
        return kind(_template(x, index)[0] for x in a), True
    if isinstance(a, dict):
        return {k: _template(v, index)[0] for k, v in a.items()}, True
    return a, False


class _NotPlain(Exception):
    pass


_CONTAINERS = (list, tuple, dict)


def _fill(a: Any, env: list) -> Any:
    t = type(a)
    if t is _Ref:
        return env[a.i]
    if t is list or t is tuple:
        out = [env[x.i] if type(x) is _Ref else _fill(x, env) if type(x) in _CONTAINERS else x for x in a]
        return out if t is list else tuple(out)
    if t is dict:
        return {k: env[v.i] if type(v) is _Ref else _fill(v, env) if type(v) in _CONTAINERS else v
                for k, v in a.items()}
    return a


def _program(gm: fx.GraphModule) -> tuple[int, list, Any] | None:
    """(number of placeholders, steps, output template); None when the graph needs its generated code."""
    graph = gm.graph
    if type(graph._codegen) is not fx.graph.CodeGen:
        return None
    nodes = list(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    last: dict[fx.Node, fx.Node] = {}
    for n in nodes:
        for a in n.all_input_nodes:
            last[a] = n
    frees: dict[fx.Node, list[int]] = {}
    for a, user in last.items():
        frees.setdefault(user, []).append(index[a])
    n_ph = 0
    steps = []
    out = None
    try:
        for n in nodes:
            if n.op == "placeholder":
                if n.args or n.target.startswith("*") or index[n] != n_ph:
                    return None
                n_ph += 1
                continue
            if n.op == "output":
                out = _template(n.args[0], index)[0]
                break
            drop = frees.get(n, [])
            if not n.users:
                drop = drop + [index[n]]
            args = tuple(_template(x, index) for x in n.args)
            kwargs = {key: _template(v, index) for key, v in n.kwargs.items()}
            nested = any(c for _, c in args) or any(c for _, c in kwargs.values())
            args = [x for x, _ in args]
            kwargs = {key: x for key, (x, _) in kwargs.items()}
            if n.op == "call_function":
                fn = n.target
            elif n.op == "get_attr":
                fn = operator.attrgetter(n.target)
            elif n.op == "call_method":
                fn = None  # getattr(self_arg, target) per call
            elif n.op == "call_module":
                fn = gm.get_submodule(n.target)
            else:
                return None
            steps.append((index[n], n, n.op, fn, args, kwargs, nested, tuple(drop)))
    except _NotPlain:
        return None
    return n_ph, steps, out


def _run(gm: fx.GraphModule, program: tuple, args: tuple) -> Any:
    n_ph, steps, out = program
    env: list = [None] * (steps[-1][0] + 1 if steps else n_ph)
    if len(args) != n_ph:
        raise TypeError(f"forward() takes {n_ph} positional arguments but {len(args)} were given")
    env[:n_ph] = args
    for i, node, kind, fn, a, k, nested, drop in steps:
        if nested:
            a, k = _fill(a, env), _fill(k, env)
        else:
            a = [env[x.i] if type(x) is _Ref else x for x in a]
            if k:
                k = {key: env[v.i] if type(v) is _Ref else v for key, v in k.items()}
        if kind == "get_attr":
            env[i] = fn(gm)
        elif kind == "call_method":
            env[i] = getattr(a[0], node.target)(*a[1:], **k)
        else:  # call_function, call_module
            env[i] = fn(*a, **k)
        for j in drop:
            env[j] = None
    return _fill(out, env)


def warm_forward(gm: fx.GraphModule, owner: Any = None, calls: int | None = None,
                 attr: str | None = None) -> Callable[..., Any]:
    """A function calling gm: interpreted for the first `calls` (INTERPRETED_CALLS) calls, then gm's generated
    code (generated then; its source is released with `owner`, see fx_sources). With `attr`, the generated
    forward then replaces this function as `owner.<attr>`, so that later calls go straight to it. A graph the
    interpreter cannot take gets its code now."""
    n = INTERPRETED_CALLS if calls is None else calls
    program = _program(gm) if n > 0 else None
    if program is None:
        _generate(gm, owner)
        return gm.forward
    # the owner (a plan that holds this function) is held weakly: no reference cycle keeps it alive
    ref = weakref.ref(owner) if owner is not None else None
    state: list = [n, None]  # calls left to interpret, the generated forward
    lock = threading.Lock()  # data-parallel replicas may call it from several threads

    def forward(*args: Any) -> Any:
        fwd = state[1]
        if fwd is not None:
            return fwd(*args)
        with lock:
            interpret = state[0] > 0
            if interpret:
                state[0] -= 1
            elif state[1] is None:
                own = ref() if ref is not None else None
                _generate(gm, own)
                state[1] = gm.forward
                if attr is not None and own is not None:
                    setattr(own, attr, state[1])
        if interpret:
            return _run(gm, program, args)
        return state[1](*args)

    return forward


def _generate(gm: fx.GraphModule, owner: Any) -> None:
    from paddle_compat.engine.passes import materialize

    start = fx_sources.mark()
    materialize(gm)
    if owner is not None:
        fx_sources.release_with(owner, start)


def node_of_frame(frame: Any) -> fx.Node | None:
    """The node an interpreter frame was running (None for any other frame)."""
    return frame.f_locals.get("node") if frame.f_code is _run.__code__ else None
