"""Static control flow with sub-blocks: cond, while_loop, While, Switch, IfElse, StaticRNN, tensor arrays.

Design. A branch / loop body is traced into a sub-Block (`Program._create_block`). A value of an outer
block read inside becomes an explicit input of the sub-graph (`Block._outer_input`: a placeholder plus a
frozen copy of the outer Variable in `block._captures`). An outer Variable *written* inside (1.x style:
`assign(x, output=v)`, `increment(i, in_place=True)`, `less_than(i, n, cond=c)`, `array_write`) is found
by comparing every outer Variable's node before and after the block; the write becomes an extra output
of the block, the outer Variable keeps its old value during tracing and is rebound afterwards to the
control-flow node's output (SSA, as `dispatch.rebind` does for in-place ops).

The sub-graph is compiled to an `fx.GraphModule` held by the control-flow node as a get_attr constant, so
the parent graph stays a straight-line fx graph: `conditional_block` calls one of two GraphModules,
`while` calls the body GraphModule in a Python loop, `recurrent` (StaticRNN) calls the step GraphModule
once per time step. torch autograd differentiates through those calls, so `append_backward` /
`minimize` work over control flow with no extra code. In dygraph mode cond / while_loop just run Python.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any, Callable, Iterator

import torch
import torch.fx as fx

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.argcheck import require_tensor, wrong_type
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.program import Variable, VarType, default_main_program
from paddle_compat.engine.framework.registry import EXPORTS, export, op


def P(name: str) -> Callable:
    """A public Paddle function by its exported name, looked up at call time (`P("paddle.logical_and")`)."""
    mod, _, attr = name.rpartition(".")
    fn = EXPORTS.get(mod, {}).get(attr)
    if fn is None:
        from paddle_compat.engine.core.errors import UnsupportedAPIError

        raise UnsupportedAPIError(name)
    return fn


# ------------------------------------------------------------------------------------------------
# tracing sub-blocks


_ACTIVE: list = []  # the SubBlocks being recorded, innermost last


def active_sub_block() -> Any:
    """The innermost SubBlock being recorded, or None."""
    return _ACTIVE[-1] if _ACTIVE else None


class SubBlock:
    """`with SubBlock() as sb:` records the ops inside into a new sub-block of the current program.

    After exit: `sb.block` (the Block), `sb.written` (outer Variables rebound inside, in first-write
    order) with `sb.new_nodes[var]` (their value at the end of the block, a node of the sub-graph); the
    outer Variables hold their old values again."""

    def __init__(self) -> None:
        self.program = default_main_program()
        self.block = None
        self.written: list[Variable] = []
        self.new_nodes: dict[Variable, fx.Node] = {}
        self.new_specs: dict[Variable, Spec] = {}

    def __enter__(self) -> "SubBlock":
        _ACTIVE.append(self)
        prog = self.program
        self._before: list[tuple[Variable, fx.Node, tuple, Any]] = []
        b = prog.current_block()
        while True:
            self._before += [(v, v.node, v._shape, v._dtype) for v in b.vars.values() if v.node is not None]
            if b.parent_idx < 0:
                break
            b = prog.blocks[b.parent_idx]
        self.block = prog._create_block()
        return self

    def track(self, vars_: list) -> None:
        """Outer variables made after the block began (recorded into an enclosing block from inside it, as
        fluid.contrib's BeamSearchDecoder does): writes to them inside the block are carried like the others'."""
        self._before += [(v, v.node, v._shape, v._dtype) for v in vars_]

    def __exit__(self, *exc: Any) -> None:
        if _ACTIVE and _ACTIVE[-1] is self:
            _ACTIVE.pop()
        self.program._rollback()
        for v, node, shape, dtype in self._before:
            if v.node is not node:
                self.written.append(v)
                self.new_nodes[v] = self.node_of(v)
                self.new_specs[v] = Spec(v._shape, v._dtype)
                v.node, v._shape, v._dtype = node, shape, dtype

    def node_of(self, v: Any) -> fx.Node:
        """The node holding `v`'s value inside this block (capturing it if it is an outer value)."""
        from paddle_compat.engine.framework.dispatch import _node_in_block

        if not isinstance(v, Variable):
            raise TypeError(f"control flow blocks must return static Variables, got {type(v).__name__}")
        return _node_in_block(v, self.block)

    def old_node(self, v: Variable) -> fx.Node:
        """A placeholder for the value `v` had before the block (for a pass-through or a loop input)."""
        snap = copy.copy(v)
        snap.node = next(n for w, n, _, _ in self._before if w is v)
        return self.block._outer_input(snap)


def compile_block(block, outputs: list[fx.Node]) -> tuple[fx.GraphModule, list[Variable], list[fx.Node]]:
    """The sub-graph as a GraphModule returning `outputs`; its inputs are the block's placeholders in
    order. Returns (module, outer Variables for the captured placeholders (None for others), placeholders)."""
    g = fx.Graph()
    val_map: dict[fx.Node, fx.Node] = {}
    g.graph_copy(block.graph, val_map)
    g.output(tuple(val_map[n] for n in outputs))
    root = torch.nn.Module()
    for k, c in block._consts.items():
        setattr(root, k, c)
    gm = fx.GraphModule(root, g, class_name=f"block_{block.idx}")
    captured = {ph: snap for snap, ph in block._captures}
    phs = [n for n in block.graph.nodes if n.op == "placeholder"]
    return gm, [captured.get(n) for n in phs], phs


def _compile_step(sb, seq_inputs: list, memories: list, outputs: list):
    """A recurrent step block (StaticRNN / DynamicRNN) compiled to a GraphModule returning the updated
    memories then the step outputs, and for each of its inputs where it comes from: (0, k) the k-th step
    input, (1, k) the k-th memory, (2, k) the k-th outer variable in `extras`."""
    outs = [sb.node_of(m["new"]) for m in memories] + [sb.node_of(o) for o in outputs]
    gm, outer, phs = compile_block(sb.block, outs)
    step_of = {v.node: k for k, (_, v) in enumerate(seq_inputs)}
    mem_of = {m["pre"].node: k for k, m in enumerate(memories)}
    extras, spec = [], []
    for snap, ph in zip(outer, phs):
        if ph in step_of:
            spec.append((0, step_of[ph]))
        elif ph in mem_of:
            spec.append((1, mem_of[ph]))
        else:
            extras.append(snap)
            spec.append((2, len(extras) - 1))
    return gm, extras, spec


def _flatten(x: Any) -> tuple[list, Callable]:
    if x is None:
        return [], lambda vs: None
    if isinstance(x, (list, tuple)):
        parts = [_flatten(e) for e in x]
        kind = type(x)

        def rebuild(vs):
            out, i = [], 0
            for (flat, rb) in parts:
                out.append(rb(vs[i:i + len(flat)]))
                i += len(flat)
            return kind(out)

        return [v for flat, _ in parts for v in flat], rebuild
    if isinstance(x, dict):
        keys = list(x)
        flat, rb = _flatten([x[k] for k in keys])
        return flat, lambda vs: dict(zip(keys, rb(vs)))
    return [x], lambda vs: vs[0]


def _has(seq: list, v: Any) -> bool:
    return any(x is v for x in seq)


def _merge_spec(a: Spec, b: Spec) -> Spec:
    if len(a.shape) != len(b.shape):
        return Spec(tuple(-1 for _ in a.shape), a.dtype)
    return Spec(tuple(x if x == y else -1 for x, y in zip(a.shape, b.shape)), a.dtype)


def _spec_of_node(block, node: fx.Node, fallback: Variable | None = None) -> Spec:
    for v in block.vars.values():
        if v.node is node:
            return Spec(v.shape, v.dtype)
    for snap, ph in block._captures:
        if ph is node:
            return Spec(snap.shape, snap.dtype)
    if fallback is not None:
        return Spec(fallback.shape, fallback.dtype)
    raise InvalidArgumentError(f"control flow: cannot find the variable of node {node.name}")


def _specs_attr(specs: list[Spec]) -> tuple:
    return tuple((tuple(s.shape), s.dtype.name) for s in specs)


def _infer_from_attr(*args: Any, **kwargs: Any) -> list[Spec]:
    specs = kwargs.get("out_specs", args[-1] if args else ())
    return [Spec(tuple(s), _dt.to_dtype(d)) for s, d in specs]


def _rebind_outputs(vars_: list[Variable], outs: list[Variable]) -> None:
    from paddle_compat.engine.framework.dispatch import rebind

    for v, o in zip(vars_, outs):
        typ, elem = v.type, getattr(v, "_elem_spec", None)
        rebind(v, o)
        v.type = typ
        if elem is not None:
            v._elem_spec = elem


# ------------------------------------------------------------------------------------------------
# conditional_block: cond, Switch


def _gather_args(values: list, spec: tuple, extra: list) -> list:
    return [values[i] if i >= 0 else extra[-i - 1] for i in spec]


@op("conditional_block", infer=_infer_from_attr)
def conditional_block(cond, true_block, false_block, true_inputs, false_inputs, out_specs=()):
    """Run `true_block(*true_inputs)` if the one-element `cond` is true, else `false_block(*false_inputs)`
    (a missing block passes its inputs through: the untaken case of a Switch keeps the old values)."""
    if cond.numel() != 1:
        raise InvalidArgumentError(
            f"cond: pred must hold exactly one boolean element, but its shape is {list(cond.shape)}")
    gm, ins = (true_block, true_inputs) if bool(cond.reshape(())) else (false_block, false_inputs)
    if gm is None:
        return list(ins)
    return list(gm(*ins))


def _check_pred(pred: Any, api: str) -> None:
    if not isinstance(pred, Variable):
        raise TypeError(f"{api}: pred must be a Variable, but received {type(pred).__name__}")
    if pred.dtype.name != "bool":
        raise TypeError(f"{api}: the dtype of pred must be bool, but received {pred.dtype.name}")
    n = 1
    for d in pred.shape:
        n *= d
    if n not in (1, -1) and not (n < 0):
        raise TypeError(f"{api}: pred must have exactly one element, but its shape is {list(pred.shape)}")


def _run_branches(pred: Variable, fns: list[Callable | None], api: str) -> Any:
    """Trace each branch into a sub-block; record one conditional_block node whose outputs are the
    branches' returned values followed by every outer variable either branch wrote."""
    traced = []
    for fn in fns:
        sb = SubBlock()
        with sb:
            ret = fn() if fn is not None else None
        traced.append((sb, ret))
    flats = [_flatten(r) for _, r in traced]
    n_ret = len(flats[0][0])
    if len(flats) == 2 and len(flats[1][0]) != n_ret:
        raise ValueError(
            f"{api}: true_fn and false_fn must return the same number of outputs, but true_fn returns "
            f"{n_ret} and false_fn returns {len(flats[1][0])}")
    written: list[Variable] = []
    for sb, _ in traced:
        written += [v for v in sb.written if not _has(written, v)]
    modules, inputs, specs = [], [], None
    for (sb, _), (flat, _) in zip(traced, flats):
        outs = [sb.node_of(v) for v in flat]
        outs += [sb.new_nodes[v] if v in sb.new_nodes else sb.old_node(v) for v in written]
        branch_specs = [_spec_of_node(sb.block, n) for n in outs[:n_ret]]
        branch_specs += [sb.new_specs.get(v, Spec(v.shape, v.dtype)) for v in written]
        specs = branch_specs if specs is None else [_merge_spec(a, b) for a, b in zip(specs, branch_specs)]
        gm, outer, _ = compile_block(sb.block, outs)
        modules.append(gm)
        inputs.append(outer)
    if len(modules) == 1:  # one-armed: the false side passes the old values of the written variables through
        modules.append(None)
        inputs.append(list(written))
    outs = conditional_block(pred, modules[0], modules[1], inputs[0], inputs[1], out_specs=_specs_attr(specs))
    _rebind_outputs(written, outs[n_ret:])
    return flats[0][1](outs[:n_ret]) if traced[0][1] is not None else None


def cond(pred, true_fn=None, false_fn=None, name=None):
    """paddle.static.nn.cond / fluid.layers.cond: `true_fn()` if pred else `false_fn()`."""
    require_tensor(pred, "paddle.static.nn.cond", "pred", 0)
    if not MODE.static:
        if true_fn is not None and not callable(true_fn):
            raise TypeError("cond: true_fn must be callable")
        p = bool(pred.numpy().reshape(-1)[0]) if hasattr(pred, "numpy") else bool(pred)
        fn = true_fn if p else false_fn
        return fn() if fn is not None else None
    for f, nm in ((true_fn, "true_fn"), (false_fn, "false_fn")):
        if f is not None and not callable(f):
            raise TypeError(f"cond: {nm} in cond must be callable, but received {type(f).__name__}")
    _check_pred(pred, "cond")
    if true_fn is None and false_fn is None:
        return None
    return _run_branches(pred, [true_fn, false_fn], "cond")


export(cond, "paddle.static.nn.cond", "paddle.fluid.layers.cond")


def case(pred_fn_pairs, default=None, name=None):
    """paddle.static.nn.case: the first pair whose pred is true; else default (else the last fn)."""
    pairs = list(pred_fn_pairs)
    if not pairs:
        raise TypeError("case: pred_fn_pairs must not be empty")
    if default is None:
        pairs, default = pairs[:-1], pairs[-1][1]
    fn = default
    for p, f in reversed(pairs):
        fn = (lambda p=p, f=f, rest=fn: cond(p, f, rest))
    return fn()


def switch_case(branch_index, branch_fns, default=None, name=None):
    """paddle.static.nn.switch_case: run branch_fns[branch_index] (a dict, or a list of (index, fn) / fns)."""
    if isinstance(branch_fns, dict):
        items = sorted(branch_fns.items())
    else:
        items = [(i, f) if not callable(f) else (i, f) for i, f in
                 (x if isinstance(x, (list, tuple)) else (k, x) for k, x in enumerate(branch_fns))]
    if default is None:
        default = items[-1][1]
    pairs = [(P("paddle.equal")(branch_index, P("paddle.full")([1], i, branch_index.dtype)), f) for i, f in items]
    return case(pairs, default)


export(case, "paddle.static.nn.case", "paddle.fluid.layers.case")
export(switch_case, "paddle.static.nn.switch_case", "paddle.fluid.layers.switch_case")


class Switch:
    """fluid.layers.Switch: `with switch.case(cond): ...` / `with switch.default(): ...`; the body of the
    first true case runs (its writes to outer variables, e.g. `assign(x, output=lr)`, take effect)."""

    def __init__(self, name=None):
        self.pre_not_conditions: list[Variable] = []
        self.inside_scope = False

    def __enter__(self):
        self.inside_scope = True
        return self

    def __exit__(self, *exc):
        self.inside_scope = False
        return False

    @contextlib.contextmanager
    def case(self, condition):
        if not self.inside_scope:
            raise ValueError("case should be called inside with")
        land, lnot = P("paddle.logical_and"), P("paddle.logical_not")
        if not self.pre_not_conditions:
            c = condition
            self.pre_not_conditions.append(lnot(condition))
        else:
            pre = self.pre_not_conditions[-1]
            self.pre_not_conditions.append(land(pre, lnot(condition)))
            c = land(pre, condition)
        with _one_armed(c):
            yield

    @contextlib.contextmanager
    def default(self):
        if not self.pre_not_conditions:
            raise ValueError("there should be at least one condition")
        with _one_armed(self.pre_not_conditions[-1]):
            yield


@contextlib.contextmanager
def _one_armed(pred: Variable) -> Iterator[None]:
    sb = SubBlock()
    with sb:
        yield
    written = sb.written
    outs = [sb.new_nodes[v] for v in written]
    gm, outer, _ = compile_block(sb.block, outs)
    specs = [_merge_spec(sb.new_specs[v], Spec(v.shape, v.dtype)) for v in written]
    res = conditional_block(pred, gm, None, outer, list(written), out_specs=_specs_attr(specs))
    _rebind_outputs(written, res)


class ConditionalBlock:
    """fluid.layers.control_flow.ConditionalBlock: `with cb.block(): ...` runs when inputs[0] is true."""

    def __init__(self, inputs, is_scalar_condition=False, name=None):
        self.inputs = list(inputs)

    def block(self):
        return _one_armed(self.inputs[0])


export(Switch, "paddle.fluid.layers.Switch")
export(ConditionalBlock, "paddle.fluid.layers.ConditionalBlock")


# ------------------------------------------------------------------------------------------------
# while


@op("while", infer=_infer_from_attr)
def while_op(body, cond_block, init, body_args, cond_args, cond_index, extra, max_iters=-1, out_specs=()):
    """Loop-carried values `init`; per iteration the condition is `cond_block(...)` (while_loop) or the
    carried value at `cond_index` (fluid While); `body_args` / `cond_args` say which carried values (>= 0)
    or invariant `extra` values (< 0) feed each block's placeholders."""
    vals = list(init)

    def check() -> bool:
        c = cond_block(*_gather_args(vals, cond_args, extra))[0] if cond_block is not None else vals[cond_index]
        if c.numel() != 1:
            raise InvalidArgumentError(f"while_loop: the condition must hold one element, got shape {list(c.shape)}")
        return bool(c.reshape(()))

    while check():
        vals = list(body(*_gather_args(vals, body_args, extra)))
    return vals


def _arg_spec(outer: list, carried: list[Variable], extra: list) -> tuple:
    """Map a block's placeholders (their outer Variables) to carried indices (>= 0) or extras (< 0)."""
    ids = {id(v.node): i for i, v in enumerate(carried)}
    spec = []
    for snap in outer:
        j = ids.get(id(snap.node))
        if j is None:
            extra.append(snap)
            j = -len(extra)
        spec.append(j)
    return tuple(spec)


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """paddle.static.nn.while_loop / fluid.layers.while_loop."""
    if not callable(cond):
        raise TypeError("while_loop: cond in while_loop should be callable")
    if not callable(body):
        raise TypeError("while_loop: body in while_loop should be callable")
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise TypeError("while_loop: loop_vars in while_loop should be a non-empty list or tuple")
    if not MODE.static:
        vars_ = list(loop_vars)
        while bool(cond(*vars_)):
            out = body(*vars_)
            vars_ = list(out) if isinstance(out, (list, tuple)) else [out]
            if len(vars_) != len(loop_vars):
                raise ValueError("while_loop: body in while_loop should return the same arity as loop_vars")
        return vars_
    flat_vars, rebuild = _flatten(list(loop_vars))
    loop_var_vars = [v for v in flat_vars if isinstance(v, Variable)]
    if len(loop_var_vars) != len(flat_vars):
        raise TypeError("while_loop: every loop_var must be a static Variable (use fill_constant for numbers)")
    pre = cond(*loop_vars)
    if not isinstance(pre, Variable) or pre.dtype.name != "bool":
        raise TypeError("while_loop: cond in while_loop should return a boolean Variable")
    csb = SubBlock()
    with csb:
        for v in flat_vars:
            csb.node_of(v)  # the loop vars are the first placeholders
        c = cond(*loop_vars)
        c_node = csb.node_of(c)
    bsb = SubBlock()
    with bsb:
        for v in flat_vars:
            bsb.node_of(v)
        out = body(*loop_vars)
        if not isinstance(out, (list, tuple)):
            out = [out]
        out_flat, _ = _flatten(list(out))
        if len(out_flat) != len(flat_vars):
            raise ValueError(
                f"while_loop: body in while_loop should return the same arity (length and structure) as "
                f"loop_vars: {len(out_flat)} vs {len(flat_vars)}")
        body_nodes = [bsb.node_of(o) if isinstance(o, Variable) else None for o in out_flat]
        if any(n is None for n in body_nodes):
            raise TypeError("while_loop: body must return static Variables")
    written = [v for v in bsb.written if not _has(flat_vars, v)]
    carried = list(flat_vars) + written
    outs = body_nodes + [bsb.new_nodes[v] for v in written]
    specs = []
    for v, n in zip(carried, outs):
        new = bsb.new_specs[v] if v in bsb.new_specs and not _has(flat_vars, v) else _spec_of_node(bsb.block, n, v)
        specs.append(_merge_spec(Spec(v.shape, v.dtype), new))
    for v in written:  # a written var the body never read still needs its placeholder for the loop input
        bsb.old_node(v)
    b_gm, b_outer, _ = compile_block(bsb.block, outs)
    c_gm, c_outer, _ = compile_block(csb.block, [c_node])
    extra: list = []
    b_spec = _arg_spec(b_outer, carried, extra)
    c_spec = _arg_spec(c_outer, carried, extra)
    res = while_op(b_gm, c_gm, carried, b_spec, c_spec, -1, extra, out_specs=_specs_attr(specs))
    n = len(flat_vars)
    _rebind_outputs(written, res[n:])
    result = rebuild(res[:n])
    return result


export(while_loop, "paddle.static.nn.while_loop", "paddle.fluid.layers.while_loop")


class While:
    """fluid.layers.While: `with loop.block(): ...` repeats while the bool variable `cond` is true; the
    body must update `cond` (e.g. `less_than(i, n, cond=cond)`) and the outer variables it carries."""

    def __init__(self, cond, is_test=False, name=None):
        if not isinstance(cond, Variable):
            raise TypeError(f"While: cond must be a Variable, but received {type(cond).__name__}")
        if cond.dtype.name != "bool":
            raise TypeError(f"While: the dtype of cond must be bool, but received {cond.dtype.name}")
        self.cond_var = cond
        self.is_test = is_test

    @contextlib.contextmanager
    def block(self):
        sb = SubBlock()
        with sb:
            yield
        carried = list(sb.written)
        if not _has(carried, self.cond_var):
            raise ValueError(
                f"While: the loop body never updates its condition {self.cond_var.name!r}; "
                "update it inside the block, e.g. fluid.layers.less_than(i, limit, cond=cond)")
        outs = [sb.new_nodes[v] for v in carried]
        for v in carried:
            sb.old_node(v)
        specs = [_merge_spec(Spec(v.shape, v.dtype), sb.new_specs[v]) for v in carried]
        gm, outer, _ = compile_block(sb.block, outs)
        extra: list = []
        spec = _arg_spec(outer, carried, extra)
        res = while_op(gm, None, carried, spec, (), next(k for k, v in enumerate(carried) if v is self.cond_var), extra,
                       out_specs=_specs_attr(specs))
        _rebind_outputs(carried, res)


export(While, "paddle.fluid.layers.While")


# ------------------------------------------------------------------------------------------------
# tensor arrays (LOD_TENSOR_ARRAY): a Python list of tensors as the node's value


def _elem_infer(array, i=None, *a, **k) -> Spec:
    s = getattr(array, "_elem_spec", None)
    if s is None:
        raise InvalidArgumentError(
            f"array_read: nothing has been written to the tensor array {array.name!r} before this read")
    return s


def _index(i) -> int:
    return int(i.reshape(-1)[0]) if isinstance(i, torch.Tensor) else int(i)


@op("create_array", differentiable=False, infer=lambda dtype, initialized_list=None: Spec((), _dt.to_dtype(dtype)))
def _create_array_op(dtype, initialized_list=None):
    return list(initialized_list or [])


# LoD through tensor arrays. Paddle's arrays hold LoDTensors: what array_read gives keeps the LoD it was written
# with. Our LoD rides on the runtime tensors as `_paddle_lod` (engine/ops/rnn_decoding.py: feeds and beam_search outputs carry
# it); a written element whose LoD exists only statically (an offsets variable, engine/ops/sequence.py) gets it attached
# here. An array once written with LoD marks its reads, and `sequence.lod_of` asks `array_elem_lod` for their
# offsets (tests/fluid/test_tensor_array_lod18.py).
LOD_ATTR = "_paddle_lod"


@op("write_to_array", infer=lambda x, i, array, offs=None: Spec((), x.dtype))
def _write_to_array(x, i, array, offs=None):
    if offs is not None and getattr(x, LOD_ATTR, None) is None:
        x = x.view_as(x)
        setattr(x, LOD_ATTR, [offs.reshape(-1).tolist()])
    out = list(array)
    k = _index(i)
    if k < len(out):
        out[k] = x
    else:
        out.extend([torch.zeros_like(x)] * (k - len(out)))
        out.append(x)
    return out


@op("read_from_array", infer=_elem_infer)
def _read_from_array(array, i):
    k = _index(i)
    if k >= len(array):
        raise InvalidArgumentError(f"array_read: index {k} is out of range for an array of length {len(array)}")
    return array[k]


@op("array_elem_lod", differentiable=False, infer=lambda x: Spec((-1,), _dt.to_dtype("int64")))
def _array_elem_lod(x):
    """The last-level offsets of an element read from a tensor array."""
    lod = getattr(x, LOD_ATTR, None)
    if not lod:
        raise InvalidArgumentError(
            "array_read: the element read from the tensor array carries no LoD (this step's array_write wrote a "
            "tensor without LoD), but a sequence op needs its LoD")
    return torch.tensor(lod[-1], dtype=torch.int64, device=x.device)


def _static_lod(x):
    """x's static offsets variable, or None (engine/ops/sequence.py lod_of)."""
    from paddle_compat.engine.ops.sequence import lod_of

    try:
        return lod_of(x, "")
    except InvalidArgumentError:
        return None


@op("lod_array_length", differentiable=False, infer=lambda array: Spec((1,), _dt.to_dtype("int64")))
def _array_length(array):
    return torch.tensor([len(array)], dtype=torch.int64)


def create_array(dtype, initialized_list=None):
    """fluid.layers.create_array: a LoDTensorArray (a Python list in dygraph mode)."""
    if not MODE.static:
        return list(initialized_list or [])
    arr = _create_array_op(dtype, initialized_list=list(initialized_list) if initialized_list else None)
    arr.type = VarType.LOD_TENSOR_ARRAY
    if initialized_list:
        arr._elem_spec = Spec(initialized_list[0].shape, initialized_list[0].dtype)
    return arr


def array_write(x, i, array=None):
    if not MODE.static:
        k = _index(i._t if hasattr(i, "_t") else i)
        if array is None:
            array = []
        if k < len(array):
            array[k] = x
        else:
            array.extend([None] * (k - len(array)))
            array.append(x)
        return array
    if array is None:
        array = create_array(x.dtype)
    fed = isinstance(x, Variable) and x.node is not None and x.node.op == "placeholder"
    # a fed variable's tensor carries its full LoD already (the Executor sets it); asking for its offsets variable
    # would make the LoD feed mandatory
    offs = _static_lod(x) if isinstance(x, Variable) and not fed else None
    out = _write_to_array(x, i, array, offs) if offs is not None else _write_to_array(x, i, array)
    if offs is not None or (fed and x.lod_level > 0):
        array._elem_lod = True
    spec = Spec(x.shape, x.dtype)
    old = getattr(array, "_elem_spec", None)
    from paddle_compat.engine.framework.dispatch import rebind

    rebind(array, out)
    array.type = VarType.LOD_TENSOR_ARRAY
    array._elem_spec = spec if old is None else _merge_spec(old, spec)
    return array


def array_read(array, i):
    if not MODE.static:
        return array[_index(i._t if hasattr(i, "_t") else i)]
    out = _read_from_array(array, i)
    if getattr(array, "_elem_lod", False):
        out.node.meta["lod_factory"] = lambda: _array_elem_lod(out)
    return out


def array_length(array):
    if array is None:
        raise wrong_type("paddle.tensor.array_length", "array", 0, array)
    if not MODE.static:
        from paddle_compat.engine.framework.tensor import Tensor

        return Tensor._wrap(torch.tensor([len(array)], dtype=torch.int64))
    return _array_length(array)


def _tata_infer(input, axis=1, use_stack=False, name=None):  # noqa: A002
    s = _elem_infer(input)
    shape = list(s.shape)
    ax = axis if axis >= 0 else axis + len(shape) + (1 if use_stack else 0)
    if use_stack:
        shape.insert(ax, -1)
    else:
        shape[ax] = -1
    return [Spec(tuple(shape), s.dtype), Spec((-1,), _dt.to_dtype("int32"))]


@op("tensor_array_to_tensor", infer=_tata_infer)
def _tensor_array_to_tensor(input, axis=1, use_stack=False, name=None):  # noqa: A002
    ts = list(input)
    out = torch.stack(ts, axis) if use_stack else torch.cat(ts, axis)
    # Paddle 1.8 records each input's size along `axis` even when stacking (an axis past the input's rank reads 0)
    idx = torch.tensor([t.shape[axis] if -t.dim() <= axis < t.dim() else 0 for t in ts], dtype=torch.int32,
                       device=out.device)
    return out, idx


def tensor_array_to_tensor(input, axis=1, name=None, use_stack=False):  # noqa: A002
    if not MODE.static:
        from paddle_compat.engine.framework.dispatch import unwrap, wrap

        return wrap(_tensor_array_to_tensor.__paddle_op__.impl(unwrap(list(input)), axis, use_stack))
    return _tensor_array_to_tensor(input, axis=axis, use_stack=use_stack)


for _f in (create_array, array_write, array_read, array_length, tensor_array_to_tensor):
    export(_f, f"paddle.fluid.layers.{_f.__name__}")
export(create_array, "paddle.tensor.create_array")
export(array_write, "paddle.tensor.array_write")
export(array_read, "paddle.tensor.array_read")
export(array_length, "paddle.tensor.array_length")


# ------------------------------------------------------------------------------------------------
# 1.x helpers that write an outer variable: increment(in_place), less_than(cond=...)


def increment(x, value=1.0, in_place=True):
    """fluid.layers.increment: in_place=True (the 1.x default) updates x itself."""
    if in_place:
        return P("paddle.increment")(x, value)
    from paddle_compat.engine.framework.registry import OPS

    return OPS["increment"].public(x, value)


def _compare_with_cond(name: str):
    def f(x, y, force_cpu=None, cond=None, name=None):
        out = P(f"paddle.{name_}")(x, y)
        if cond is None:
            return out
        return P("paddle.assign")(out, output=cond)

    name_ = name
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"fluid.layers.{name}: with `cond=` the result is written into that variable (While loops)."
    return f


export(increment, "paddle.fluid.layers.increment")
for _n in ("less_than", "less_equal", "greater_than", "greater_equal", "equal", "not_equal"):
    export(_compare_with_cond(_n), f"paddle.fluid.layers.{_n}")


# ------------------------------------------------------------------------------------------------
# IfElse: rows of a batch routed by a [N, 1] bool mask (split / merge, no sub-block needed)


def _split_infer(input, mask, level=0):  # noqa: A002
    s = Spec((-1,) + tuple(input.shape[1:]), input.dtype)
    return [s, s]


@op("split_lod_tensor", infer=_split_infer)
def split_lod_tensor(input, mask, level=0):  # noqa: A002
    m = mask.reshape(-1).bool()
    return input[m], input[~m]


def _merge_infer(in_true, in_false, x, mask, level=0):
    src = in_true if in_true is not None else in_false
    return Spec((-1,) + tuple(src.shape[1:]), src.dtype)


@op("merge_lod_tensor", infer=_merge_infer)
def merge_lod_tensor(in_true, in_false, x, mask, level=0):
    m = mask.reshape(-1).bool()
    ref = in_true if in_true is not None else in_false
    out = ref.new_zeros((m.shape[0],) + tuple(ref.shape[1:]))
    out = out.index_put((m.nonzero().reshape(-1),), in_true) if in_true is not None else out
    out = out.index_put(((~m).nonzero().reshape(-1),), in_false) if in_false is not None else out
    return out


class IfElse:
    """fluid.layers.IfElse: `ie.input(x)` inside `true_block()` / `false_block()` gives the rows of x whose
    cond is true / false; `ie.output(...)` collects per-branch results; `ie()` merges them back by row."""

    OUT_IF_ELSE_BLOCKS, IN_IF_ELSE_TRUE_BLOCKS, IN_IF_ELSE_FALSE_BLOCKS = 0, 1, 2

    def __init__(self, cond, name=None):
        if not isinstance(cond, Variable):
            raise TypeError(f"IfElse: cond must be a Variable, but received {type(cond).__name__}")
        self.cond = cond
        self.status = IfElse.OUT_IF_ELSE_BLOCKS
        self.input_table: dict[int, tuple] = {}
        self.output_table: list[list] = [[], []]

    @contextlib.contextmanager
    def _branch(self, status):
        if self.status != IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("IfElse: true_block / false_block cannot be nested")
        self.status = status
        try:
            yield
        finally:
            self.status = IfElse.OUT_IF_ELSE_BLOCKS

    def true_block(self):
        return self._branch(IfElse.IN_IF_ELSE_TRUE_BLOCKS)

    def false_block(self):
        return self._branch(IfElse.IN_IF_ELSE_FALSE_BLOCKS)

    def input(self, x):
        if self.status == IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("IfElse.input must be called inside true_block or false_block")
        if id(x) not in self.input_table:
            self.input_table[id(x)] = split_lod_tensor(x, self.cond)
        t, f = self.input_table[id(x)]
        return t if self.status == IfElse.IN_IF_ELSE_TRUE_BLOCKS else f

    def output(self, *outs):
        if self.status == IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("IfElse.output must be called inside true_block or false_block")
        self.output_table[0 if self.status == IfElse.IN_IF_ELSE_TRUE_BLOCKS else 1].extend(outs)

    def __call__(self):
        t, f = self.output_table
        if t and f and len(t) != len(f):
            raise ValueError("IfElse: true_block and false_block must output the same number of variables")
        n = max(len(t), len(f))
        return [merge_lod_tensor(t[i] if t else None, f[i] if f else None, self.cond, self.cond) for i in range(n)]


export(IfElse, "paddle.fluid.layers.IfElse")


# ------------------------------------------------------------------------------------------------
# StaticRNN: the step block runs once per time step of the [seq_len, batch, ...] inputs


@op("recurrent", infer=_infer_from_attr)
def recurrent(step, seq_inputs, init_mems, extras, arg_spec, n_mem, out_specs=()):
    """arg_spec per step placeholder: (0, k) step slice of seq_inputs[k], (1, k) memory k, (2, k) extras[k].
    The step returns n_mem new memories then the step outputs; outputs are stacked on a new dim 0."""
    seq_len = seq_inputs[0].shape[0]
    mems = list(init_mems)
    steps: list[list] = []
    for t in range(seq_len):
        args = [seq_inputs[k][t] if kind == 0 else mems[k] if kind == 1 else extras[k] for kind, k in arg_spec]
        r = list(step(*args))
        mems = r[:n_mem]
        steps.append(r[n_mem:])
    n_out = len(out_specs)
    return [torch.stack([s[i] for s in steps], 0) for i in range(n_out)]


class StaticRNN:
    """fluid.layers.StaticRNN over inputs of shape [seq_len, batch, ...]."""

    def __init__(self, name=None):
        self.seq_inputs: list[tuple[Variable, Variable]] = []  # (outer x, per-step var)
        self.memories: list[dict] = []
        self.outputs: list[Variable] = []
        self.seq_len = None
        self._sb = None
        self._result = None

    @contextlib.contextmanager
    def step(self):
        self._sb = SubBlock()
        with self._sb:
            yield
        self._complete()

    def _check(self, api):
        if self._sb is None or self._sb.block is None or default_main_program().current_block() is not self._sb.block:
            raise ValueError(f"StaticRNN.{api} must be called inside `with rnn.step():`")

    def _new_placeholder(self, name, shape, dtype):
        from paddle_compat.engine.framework import unique_name
        from paddle_compat.engine.framework.program import _fx_name

        block = self._sb.block
        name = unique_name.generate(name)
        g = block.graph
        first = next((n for n in g.nodes if n.op != "placeholder"), None)
        with g.inserting_before(first) if first is not None else contextlib.nullcontext():
            ph = g.placeholder(_fx_name(name))
        ph.meta.update(var_name=name, op_type=None, role="forward")
        v = Variable(block, name, shape, dtype, node=ph)
        block.vars[name] = v
        return v

    def step_input(self, x):
        self._check("step_input")
        if not isinstance(x, Variable):
            raise TypeError(f"StaticRNN.step_input: x must be a Variable, got {type(x).__name__}")
        if self.seq_len is None:
            self.seq_len = x.shape[0]
        elif x.shape[0] != -1 and self.seq_len != -1 and x.shape[0] != self.seq_len:
            raise ValueError(f"StaticRNN.step_input: static RNN only takes fix seq_len input, "
                             f"got {x.shape[0]} and {self.seq_len}")
        v = self._new_placeholder("rnn_step_in", x.shape[1:], x.dtype)
        v.stop_gradient = x.stop_gradient
        self.seq_inputs.append((x, v))
        return v

    def memory(self, init=None, shape=None, batch_ref=None, init_value=0.0, init_batch_dim_idx=0,
               ref_batch_dim_idx=1):
        self._check("memory")
        if init is None:
            if shape is None or batch_ref is None:
                raise ValueError("StaticRNN.memory: if init is None, memory at least need shape and batch_ref")
            outer_ref = next((x for x, v in self.seq_inputs if v is batch_ref), batch_ref)
            prog = default_main_program()
            cur = prog.current_block_idx
            prog.current_block_idx = self._sb.block.parent_idx
            try:
                init = P("paddle.fluid.layers.fill_constant_batch_size_like")(
                    outer_ref, shape=list(shape), dtype=outer_ref.dtype, value=init_value,
                    input_dim_idx=ref_batch_dim_idx, output_dim_idx=init_batch_dim_idx)
            finally:
                prog.current_block_idx = cur
        v = self._new_placeholder("rnn_mem", init.shape, init.dtype)
        v.stop_gradient = False
        self.memories.append({"init": init, "pre": v, "new": None})
        return v

    def update_memory(self, mem, var):
        for m in self.memories:
            if m["pre"] is mem:
                m["new"] = var
                return
        raise ValueError("StaticRNN.update_memory: mem is not a memory of this StaticRNN")

    def step_output(self, o):
        self._check("step_output")
        self.outputs.append(o)

    def output(self, *outputs):
        for o in outputs:
            self.step_output(o)

    def _complete(self):
        sb = self._sb
        if not self.seq_inputs:
            raise ValueError("StaticRNN: call step_input at least once inside step()")
        for m in self.memories:
            if m["new"] is None:
                raise ValueError(f"StaticRNN: memory {m['pre'].name!r} is never updated (call update_memory)")
        gm, extras, spec = _compile_step(sb, self.seq_inputs, self.memories, self.outputs)
        seq_len = self.seq_len if self.seq_len is not None else -1
        specs = [Spec((seq_len,) + tuple(o.shape), o.dtype) for o in self.outputs]
        self._result = recurrent(gm, [x for x, _ in self.seq_inputs], [m["init"] for m in self.memories], extras,
                                 tuple(spec), len(self.memories), out_specs=_specs_attr(specs))

    def __call__(self, *args, **kwargs):
        if self._result is None:
            raise ValueError("StaticRNN output can only be retrieved after rnn block")
        return self._result[0] if len(self._result) == 1 else self._result


export(StaticRNN, "paddle.fluid.layers.StaticRNN")


# ------------------------------------------------------------------------------------------------
# DynamicRNN: the step block over LoD sequences (padded batch, finished sequences keep their memory)


@op("dynamic_recurrent", infer=_infer_from_attr)
def dynamic_recurrent(step, seq_inputs, offs, init_mems, mem_specs, extras, arg_spec, n_mem, out_specs=()):
    """Sequences of the packed `seq_inputs` rows (LoD `offs`) advance together; at step t the block sees row t
    of every sequence (zeros past its end) and memories of finished sequences stop changing. mem_specs per
    memory: ("init", j, need_reorder) -> init_mems[j] (NOTE: without need_reorder, row i belongs to the i-th
    longest sequence, as in Paddle's length-sorted batch), or ("zeros", shape, value, dtype). Outputs come back packed."""
    lens = offs[1:] - offs[:-1]
    b = lens.numel()
    n = seq_inputs[0].shape[0]
    seg = torch.repeat_interleave(torch.arange(b, device=offs.device), lens, output_size=n)
    pos = torch.arange(n, device=offs.device) - offs[seg]
    t_max = int(lens.max()) if b else 0
    padded = [x.new_zeros((b, t_max) + tuple(x.shape[1:])).index_put((seg, pos), x) for x in seq_inputs]
    mems = []
    for ms in mem_specs:
        if ms[0] == "init":
            m = init_mems[ms[1]]
            if not ms[2]:  # need_reorder=False: row i initializes the i-th longest sequence (Paddle's batch order)
                order = torch.sort(-lens, stable=True).indices
                rank = torch.empty_like(order)
                rank[order] = torch.arange(b, device=order.device)
                m = m[rank]
            mems.append(m)
        else:
            mems.append(torch.full((b,) + tuple(ms[1]), ms[2], dtype=_dt.to_dtype(ms[3]).torch,
                                   device=offs.device))
    steps: list[list] = []
    for t in range(t_max):
        args = [padded[k][:, t] if kind == 0 else mems[k] if kind == 1 else extras[k] for kind, k in arg_spec]
        r = list(step(*args))
        active = t < lens
        mems = [torch.where(active.reshape((-1,) + (1,) * (nm.dim() - 1)), nm, om) for nm, om in zip(r[:n_mem], mems)]
        steps.append(r[n_mem:])
    outs = []
    for i, (shape, dtype) in enumerate(out_specs):
        if not steps:
            outs.append(torch.zeros((0,) + tuple(shape[1:]), dtype=_dt.to_dtype(dtype).torch, device=offs.device))
            continue
        outs.append(torch.stack([s[i] for s in steps], 1)[seg, pos])
    return outs


class DynamicRNN(StaticRNN):
    """fluid.layers.DynamicRNN over LoD inputs: `with drnn.block():` step_input / static_input / memory /
    update_memory / output; `drnn()` returns the outputs as LoD tensors with the input's LoD."""

    BEFORE_RNN, IN_RNN, AFTER_RNN = 0, 1, 2

    def __init__(self, name=None):
        super().__init__(name)
        self._offs = None
        self._zero_mems: dict[int, tuple] = {}

    def block(self):
        return self.step()

    def step_input(self, x, level=0):
        from paddle_compat.engine.ops.sequence import lod_of

        self._check("step_input")
        offs = lod_of(x, "fluid.layers.DynamicRNN.step_input")
        if self._offs is None:
            self._offs = offs
        v = self._new_placeholder("dynamic_rnn_in", (-1,) + tuple(x.shape[1:]), x.dtype)
        v.stop_gradient = x.stop_gradient
        self.seq_inputs.append((x, v))
        return v

    def static_input(self, x):
        self._check("static_input")
        # a captured outer value (one row per sequence, in the input's order) whose batch dim is unknown
        # inside the block, like the step inputs'
        v = self._new_placeholder("dynamic_rnn_static", (-1,) + tuple(x.shape[1:]), x.dtype)
        v.stop_gradient = x.stop_gradient
        snap = copy.copy(x)
        self._sb.block._captures.append((snap, v.node))
        return v

    def memory(self, init=None, shape=None, value=0.0, need_reorder=False, dtype="float32"):
        self._check("memory")
        if init is None:
            if shape is None:
                raise ValueError("DynamicRNN.memory: if init is None, shape must be given")
            v = self._new_placeholder("dynamic_rnn_mem", (-1,) + tuple(shape), dtype)
            self._zero_mems[len(self.memories)] = (tuple(int(s) for s in shape), float(value),
                                                   _dt.to_dtype(dtype).name)
            self.memories.append({"init": None, "pre": v, "new": None})
            return v
        v = self._new_placeholder("dynamic_rnn_mem", (-1,) + tuple(init.shape[1:]), init.dtype)
        v.stop_gradient = False
        self.memories.append({"init": init, "pre": v, "new": None, "reorder": bool(need_reorder)})
        return v

    def output(self, *outputs):
        for o in outputs:
            self.outputs.append(o)

    def _complete(self):
        from paddle_compat.engine.ops.sequence import _attach

        sb = self._sb
        if not self.seq_inputs:
            raise ValueError("DynamicRNN: call step_input at least once inside block()")
        for m in self.memories:
            if m["new"] is None:
                raise ValueError(f"DynamicRNN: memory {m['pre'].name!r} is never updated (call update_memory)")
        gm, extras, spec = _compile_step(sb, self.seq_inputs, self.memories, self.outputs)
        inits, mem_specs = [], []
        for k, m in enumerate(self.memories):
            if m["init"] is None:
                mem_specs.append(("zeros",) + self._zero_mems[k])
            else:
                mem_specs.append(("init", len(inits), m["reorder"]))
                inits.append(m["init"])
        specs = [Spec((-1,) + tuple(o.shape[1:]), o.dtype) for o in self.outputs]
        res = dynamic_recurrent(gm, [x for x, _ in self.seq_inputs], self._offs, inits, tuple(mem_specs), extras,
                                tuple(spec), len(self.memories), out_specs=_specs_attr(specs))
        self._result = [_attach(r, self._offs) for r in res]


export(DynamicRNN, "paddle.fluid.layers.DynamicRNN")


# ------------------------------------------------------------------------------------------------
# select_input: the merge after a dy2static `if` (the value of the branch that ran)


def _select_infer(inputs, mask):
    specs = [Spec(tuple(x.shape), x.dtype) for x in inputs]
    out = specs[0]
    for s in specs[1:]:
        out = _merge_spec(out, s)
    return out


@op("select_input", differentiable=False, infer=_select_infer)
def select_input(inputs, mask):
    """inputs[mask]: mask is a one-element int tensor (Paddle's select_input op)."""
    return inputs[int(mask.reshape(-1)[0])]
