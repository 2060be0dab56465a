"""The compiler path's narrowing of values to the positions that are read (no BuildStrategy flag: Paddle has no
such pass; engine/static/compiler.py runs it on the compiler path only, after the BuildStrategy passes).

A classifier on a transformer reads one position of its last layer: BERT's pooler `h[:, 0]`, a ViT's class token
`x[:, 0]`. Every op between that read and the attention that mixes the positions computes each position from the
same position of its inputs, so the last layer's feed-forward block, its output projection, its query projection
and its attention rows need to run for that position only: 10 of the 12 [tokens x hidden x hidden] products of the
layer (BERT-base, ViT-S: 1/14 of the step's multiply-adds, forward and backward). Eager torch and real Paddle compute
them all and drop them. The values read, and every gradient, are the same numbers up to the order of floating-point
additions (the products run with fewer rows), which is the compiler path's tolerance already. In
bench/bench_models.py's compiler rows, timed in one process against the same program compiled without it (paired
blocks, 9 repeats): ViT-S 0.947 of its time, BERT-base 0.951. `PADDLE_COMPAT_NARROW=0` turns it off.

Algorithm, `narrow_read_positions(gm, program, protected)`:
1. Demand, walking the graph backwards: a value is "read in window (axis, start, length)" when every reader either
   takes that window with a constant index (a `getitem` of a full slice on each axis before it and an int or a
   constant slice on it, or a `slice` op on that one axis), or is itself narrowed to a window that maps to this one
   through its operand. A value is narrowed when it is read in one window, is not protected (fed, fetched,
   persistable), is computed in the forward, and its op computes each position of that axis from the same position
   of its operands (`_operand_axes`: elementwise ops with Paddle's broadcasting `axis`, activations, layer_norm
   and softmax across other axes, a product's rows, reshape2 keeping the leading dims, transpose2).
2. Rewrite: each narrowed op reads its operands' windows (the operand narrowed itself, or a `torch.narrow` view
   inserted after it), and each window-taking reader of a narrowed value takes all of it (from position 0).

What stops the narrowing: an op not in the table, a value read whole by anything (the attention's keys and values,
the residual stream read by the next layer), a shape the program does not give statically (a broadcast operand's
size on the axis), a random op (dropout: its draws would move).
"""

from __future__ import annotations

import torch
import torch.fx as fx

from paddle_compat.engine.passes._util import bound, is_protected, op_type, var_shape

# elementwise ops of one tensor operand `x` (the shape kept, each element from the same element)
_UNARY = frozenset({"relu", "relu6", "gelu", "tanh", "sigmoid", "silu", "swish", "hard_swish", "hard_sigmoid",
                    "leaky_relu", "elu", "softplus", "softsign", "exp", "sqrt", "rsqrt", "square", "abs", "erf",
                    "scale", "cast", "sin", "cos", "log", "mish", "logsigmoid"})
_BINARY = frozenset({"elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "elementwise_max",
                     "elementwise_min", "elementwise_pow", "fused_elemwise_activation"})


def _shape(n, program) -> tuple | None:
    return var_shape(n, program) if isinstance(n, fx.Node) else None


def _operand_axes(n: fx.Node, axis: int, program) -> dict[str, int | None] | None:
    """For op node n narrowed on output `axis`: {parameter name: the operand's axis to narrow, or None (read
    whole)} for its tensor operands, when every position of that axis is computed from the same position of the
    operands; None when n's op does not compute position by position there (or the shapes do not say)."""
    t = op_type(n)
    kw = bound(n)
    if t in _UNARY:
        return {"x": axis} if isinstance(kw.get("x"), fx.Node) else None
    out = _shape(n, program)
    if out is None or not 0 <= axis < len(out):
        return None
    if t in _BINARY:
        sx, sy = _shape(kw["x"], program), _shape(kw["y"], program)
        if sx is None or len(sx) != len(out) or out[axis] <= 1:
            return None
        if not isinstance(kw["y"], fx.Node):  # a number
            return {"x": axis}
        if sy is None:
            return None
        ax = kw.get("axis", -1)
        if ax is None or ax == -1 or len(sy) >= len(sx):
            y_axis = axis - (len(out) - len(sy))  # numpy's trailing alignment
        else:
            ax = ax + len(sx) if ax < 0 else ax
            if ax + len(sy) > len(sx):
                return None
            y_axis = axis - ax
        if sx[axis] != out[axis]:
            return None
        if not 0 <= y_axis < len(sy) or sy[y_axis] == 1:
            return {"x": axis, "y": None}
        return {"x": axis, "y": y_axis} if sy[y_axis] == out[axis] else None
    if t == "layer_norm":
        norm = kw.get("normalized_shape")
        dims = 1 if isinstance(norm, int) else len(norm) if isinstance(norm, (list, tuple)) else None
        return {"x": axis} if dims is not None and axis < len(out) - dims else None
    if t == "softmax":
        a = kw.get("axis", -1)
        return {"x": axis} if isinstance(a, int) and axis != a % len(out) else None
    if t == "matmul_v2":
        sx, sy = _shape(kw["x"], program), _shape(kw["y"], program)
        if sx is None or sy is None or kw.get("transpose_x") or len(sx) != len(out) or len(sy) < 2:
            return None
        rows = axis == len(out) - 2  # a row of x times all of y
        batch_of_x = len(sy) == 2 and axis < len(out) - 1  # y one matrix: any leading axis of x
        return {"x": axis, "y": None} if rows or batch_of_x else None
    if t == "mul":
        k = kw.get("x_num_col_dims", 1)
        return {"x": axis, "y": None} if axis < k else None
    if t == "reshape2":
        shape = kw.get("shape")
        if not isinstance(shape, (list, tuple)) or len(shape) <= axis or any(d != 0 for d in shape[:axis + 1]):
            return None  # only leading dims copied as they are (0) keep their positions
        return {"x": axis}
    if t == "transpose2":
        perm = kw.get("perm")
        return {"x": perm[axis] % len(out)} if isinstance(perm, (list, tuple)) and len(perm) == len(out) else None
    return None


def _slice_item(item) -> bool:
    """Whether a getitem index item is a slice ("S", start, stop, step) (an index tensor or Variable in the index is
    told apart by type before any value is compared)."""
    return type(item) is tuple and len(item) == 4 and item[0] == "S"


def _full(item) -> bool:
    """Whether a getitem index item takes its whole axis."""
    return _slice_item(item) and all(b is None for b in item[1:])


def _window(reader: fx.Node, value: fx.Node, program) -> tuple | None:
    """(axis, start, length) when `reader` takes a constant window of one axis of `value` (module docstring)."""
    t = op_type(reader)
    if t not in ("getitem", "slice") or reader.meta.get("role") != "forward":
        return None
    kw = bound(reader)
    shape = _shape(value, program)
    if t == "getitem":
        index = kw.get("index")
        if kw.get("x") is not value or not isinstance(index, tuple) or shape is None:
            return None
        for a, it in enumerate(index):
            if _full(it):
                continue
            if not all(_full(rest) for rest in index[a + 1:]) or a >= len(shape) or shape[a] <= 0:
                return None
            if type(it) is int:
                k = it + shape[a] if it < 0 else it
                return (a, k, 1) if 0 <= k < shape[a] else None
            if _slice_item(it) and (it[3] is None or type(it[3]) is int and it[3] == 1):
                s, e = 0 if it[1] is None else it[1], shape[a] if it[2] is None else it[2]
                if type(s) is int and type(e) is int and 0 <= s < e <= shape[a]:
                    return a, s, e - s
            return None
        return None
    axes, starts, ends = kw.get("axes"), kw.get("starts"), kw.get("ends")
    if kw.get("input") is not value or shape is None or not all(isinstance(v, (list, tuple)) and len(v) == 1
                                                                for v in (axes, starts, ends)):
        return None
    a, s, e = axes[0], starts[0], ends[0]
    if not all(type(v) is int for v in (a, s, e)) or not 0 <= a < len(shape) or shape[a] <= 0:
        return None
    e = min(e, shape[a])
    return (a, s, e - s) if 0 <= s < e else None


def _retarget(reader: fx.Node, window: tuple) -> None:
    """A window-taking reader of a value now narrowed to that window: it takes the window's every position."""
    axis, _, length = window
    if op_type(reader) == "getitem":
        index = list(bound(reader)["index"])
        index[axis] = 0 if type(index[axis]) is int else ("S", 0, length, None)
        _set_arg(reader, "index", tuple(index))
    else:
        _set_arg(reader, "starts", [0])
        _set_arg(reader, "ends", [length])


def _set_arg(n: fx.Node, name: str, value) -> None:
    if name in n.kwargs:
        n.update_kwarg(name, value)
        return
    params = list(n.meta["opdef"].signature.parameters)
    n.update_arg(params.index(name), value)


def narrow_read_positions(gm: fx.GraphModule, program, protected: set[str]) -> int:
    """Narrow gm's values to the positions read (module docstring); returns the number of ops narrowed."""
    plan: dict[fx.Node, tuple[tuple, dict]] = {}  # op node -> (its window, _operand_axes)
    for n in reversed(list(gm.graph.nodes)):
        if op_type(n) is None or n.meta.get("role") != "forward" or not n.users or is_protected(n, protected) \
                or n.meta.get("opdef") is None or n.meta["opdef"].random:
            continue
        demands = set()
        for u in n.users:
            w = _window(u, n, program)
            if w is None and u in plan:
                (axis, start, length), axes = plan[u]
                reads = {axes.get(name, None) for name, v in bound(u).items() if v is n}
                w = (reads.pop(), start, length) if len(reads) == 1 and None not in reads else None
            demands.add(w)
            if w is None or len(demands) > 1:
                break
        if len(demands) != 1 or None in demands:
            continue
        window = demands.pop()
        axes = _operand_axes(n, window[0], program)
        if axes is not None:
            plan[n] = (window, axes)
    views: dict[tuple, fx.Node] = {}
    first = next(n for n in gm.graph.nodes if n.op != "placeholder")
    for n, (window, axes) in plan.items():
        _, start, length = window
        for name, axis in axes.items():
            v = bound(n)[name]
            if axis is None or not isinstance(v, fx.Node):
                continue
            if v in plan and plan[v][0] == (axis, start, length):
                continue  # narrowed itself
            key = (v, axis, start, length)
            if key not in views:
                with gm.graph.inserting_after(v) if v.op != "placeholder" else \
                        gm.graph.inserting_before(first):
                    views[key] = gm.graph.call_function(torch.narrow, (v, axis, start, length))
                views[key].meta["role"] = "forward"
            _set_arg(n, name, views[key])
        n.meta["narrowed"] = window
        for u in list(n.users):
            if u not in plan:
                _retarget(u, window)
    if plan:
        gm.graph.lint()
        gm.recompile()
    return len(plan)
