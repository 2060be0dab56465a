"""A static training plan run as one joint forward + backward + update graph (issue 29).

A plan's graph calls one Python body per Paddle op, and its `autograd_grad` node runs torch's autograd engine over
the forward it recorded: a small program pays for both on every `exe.run` (the seed program's fc + mean + SGD:
some 390 us where the same step written in torch takes 130 us). Here the plan's graph is traced once with
`make_fx` on fake tensors: the op bodies, the autograd engine's backward and the optimizer's updates all land as
aten calls in one flat graph, which later runs call under no_grad. The graph is kept per signature of the
arguments (shapes, strides, dtypes, which require grad); the plan itself is per program version, feeds and fetches.

Same bits: the traced graph calls the kernels the plan's own path calls, in the same order (the backward is the
one the autograd engine ran during the trace). Values computed outside torch's kernels stay opaque calls of the
graph: `eigen_reduce.settle` (Paddle's order of additions of a full sum / mean, through numpy) is traced as a
custom op and called as itself. The first time a signature's graph is built it is checked: the plan's own path
runs the step and the joint graph runs it on copies of the same arguments; any difference in any output or
updated argument, bit for bit, and the plan keeps its own path for good.

What keeps the plan's own path (`Plan.joint` None, or `JointPlan.reason` says why it gave up):
- a plan without a backward (inference), a plan run another way (memory_optimize's buffer pool,
  FLAGS_check_nan_inf, the compiler path, data-parallel stages; a CompiledProgram's graph after the BuildStrategy
  passes is traced as any other), a program with
  sub-blocks (control flow), SelectedRows variables (sparse gradients), ops that draw random numbers
  (uniform_random, gaussian_random, ...: OpDef.random; dropout only with the program's random_seed set or
  Paddle's own random stream on: otherwise it draws from torch's default generator, in the aten calls the graph
  makes in the same order, and the check runs both paths from the same generator state) or act outside tensors
  (print, py_func, load, tensor arrays, LoD ops);
- a feed holding LoD, a run under fluid.profiler;
- a trace that fails: an op reading values in Python (`.numpy()`, a Python branch or float on a value: fake
  tensors refuse them; a value passed on to torch, or a shape that depends on values, is traced symbolically),
  outputs that are not plain tensors;
- a check that finds different bits.
`PADDLE_COMPAT_JOINT=0` turns it off. A graph is traced once a signature has run `AFTER_CALLS` (50) times on the
plan's own path, and only for a plan whose fastest own-path run took under `LONG_STEP_S` (20 ms): plans that run
a few times (a startup program, a test's few steps) never pay for a trace, nor do the large models whose time is
all in their kernels (the first trace of a process imports torch._dynamo: some 4 s and 80 MiB).
"""

from __future__ import annotations

import operator
import os
import threading
import warnings
from typing import Any

import torch
import torch.fx as fx

from paddle_compat.engine.core import eigen_reduce, joint_trace, paddle_rng as _prng
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.framework.lod import LoDTensor
from paddle_compat.engine.framework.program import VarType
from paddle_compat.engine.ops.nn_functional.pooling import max_pool2d_with_indices
from paddle_compat.engine.ops.update_ops import _param_spec

ENABLED = [os.environ.get("PADDLE_COMPAT_JOINT", "1") != "0"]
# runs of one argument signature on the plan's own path before its joint graph is traced (tests set 0: traced at
# the first run). The first trace of a process imports torch._dynamo (FakeTensorMode needs it: some 4 s and 80 MiB
# of resident memory), and each trace costs 0.1 s (a small program) to seconds (a CNN): a script that runs a
# program a few dozen times gains nothing from it.
AFTER_CALLS = [int(os.environ.get("PADDLE_COMPAT_JOINT_AFTER", "50"))]
# a plan whose fastest own-path run took longer is left on its own path: its time is in the kernels (the
# Python per op that the joint graph saves is a few percent of a 20 ms step and a fraction of a percent of a CNN's)
LONG_STEP_S = [float(os.environ.get("PADDLE_COMPAT_JOINT_LONG_STEP", "0.02"))]
MAX_GRAPHS = 8  # signatures traced per plan (feeds of varying shapes: the others run the plan's own path)
_TRACE_LOCK = threading.Lock()

# op types whose work is not all in the tensors they return, or whose graph depends on values
_OUTSIDE_TENSORS = frozenset((
    "print", "py_func", "load", "load_combine", "save", "save_combine", "read_file", "while", "cond",
    "conditional_block", "select_input", "select_output", "create_array", "write_to_array", "read_from_array",
    "tensor_array_to_tensor", "array_elem_lod", "lod_array_length", "lod_rank_table", "lod_level_offsets",
    "lod_offsets_from_lengths", "merge_lod_tensor", "split_lod_tensor", "reorder_lod_tensor_by_rank",
    "beam_search", "beam_search_decode", "beam_search_decode_step", "feed", "fetch",
))


# random ops whose bodies draw from torch's default generator only, in the aten calls a trace records (unless
# Paddle's own stream is on: engine/core/paddle_rng.py); the fused `rnn` op's dropout between layers too
_TORCH_RANDOM = frozenset(("dropout", "rnn"))


def plan_reason(plan: Any, other_runner: bool) -> str | None:
    """Why `plan` cannot run as a joint graph, or None when it may (the trace and the check decide then).
    `other_runner`: the plan's graph is instrumented for nan/inf checks, or run by another runner (data-parallel
    stages). A CompiledProgram's plan runs its graph after the BuildStrategy passes: that graph is traced."""
    if not ENABLED[0]:
        return "PADDLE_COMPAT_JOINT=0"
    if not plan.grad:
        return "no backward"
    gm = plan.gm
    if other_runner:
        return "FLAGS_check_nan_inf or data-parallel stages"
    if not isinstance(gm, fx.GraphModule):
        return "the compiler path (torch.compile)"
    if plan.pool is not None:
        return "memory_optimize's buffer pool"
    program = plan.program
    if len(program.blocks) > 1:
        return "sub-blocks (control flow)"
    for v in program.global_block().vars.values():
        if v.type == VarType.SELECTED_ROWS:
            return f"SelectedRows variable {v.name!r}"
    for n in gm.graph.nodes:
        opdef = n.meta.get("opdef")
        t = n.meta.get("op_type")
        if opdef is not None and opdef.random and (t not in _TORCH_RANDOM or plan.seed):
            # (dropout draws from torch's default generator, as the graph's aten call does; a program's
            # random_seed gives each run a fresh generator, which the graph cannot)
            return f"random op {t}" + (" with the program's random_seed" if t in _TORCH_RANDOM else "")
        if t in _OUTSIDE_TENSORS or (t or "").startswith("c_") or n.meta.get("selected_rows"):
            return f"op {t}"
        if n.op not in ("placeholder", "output", "call_function", "get_attr"):
            return f"a {n.op} node"
    return None


class _Interp(fx.Interpreter):
    """fx's interpreter, remembering the node it runs (a failed trace names its op); an optimizer update (an op
    whose result is its parameter, updated in place: sgd, momentum, adam, ...) is recorded as an opaque call of
    its own body, which reads values (Adam's bias corrections in Python doubles) and writes in place without
    parameter-sized temporaries."""

    node: fx.Node | None = None

    def run_node(self, n: fx.Node) -> Any:
        self.node = n
        opdef = n.meta.get("opdef")
        if (n.op == "call_function" and opdef is not None and (opdef.infer is _param_spec or opdef.type in _UPDATES)
                and n.target is opdef.impl):
            args, kwargs = self.fetch_args_kwargs_from_env(n)
            first = args[0] if args else kwargs[next(iter(opdef.signature.parameters))]
            _trace_update(n.target, args, kwargs)
            return list(first) if isinstance(first, (list, tuple)) else first  # what the body returns
        return super().run_node(n)


# updates returning their parameters, updated in place, that have no Spec rule (the fuse_all_optimizer_ops and
# memory_optimize forms: engine/ops/fused.py)
_UPDATES = frozenset(("fused_sgd", "fused_momentum", "fused_adam", "sgd_reuse_grad", "fused_sgd_reuse_grad"))
_LEAVES: list = []  # during a trace: the update calls recorded, (body, args and kwargs with tensor slots)


class _Slot:
    __slots__ = ("i",)

    def __init__(self, i: int) -> None:
        self.i = i


def _slots(a: Any, tensors: list) -> Any:
    if isinstance(a, torch.Tensor):
        tensors.append(a)
        return _Slot(len(tensors) - 1)
    if isinstance(a, (list, tuple)):  # fx's immutable lists too (as plain lists: the body gets a list)
        return (tuple if isinstance(a, tuple) else list)(_slots(x, tensors) for x in a)
    if isinstance(a, dict):
        return {k: _slots(v, tensors) for k, v in a.items()}
    return a


def _unslot(a: Any, tensors: tuple) -> Any:
    if type(a) is _Slot:
        return tensors[a.i]
    if type(a) in (list, tuple):
        return type(a)(_unslot(x, tensors) for x in a)
    if type(a) is dict:
        return {k: _unslot(v, tensors) for k, v in a.items()}
    return a


_LITERALS = (int, float, bool, str, type(None), torch.dtype, _Slot)


def _literal(a: Any) -> bool:
    if type(a) in (list, tuple):
        return all(_literal(x) for x in a)
    if type(a) is dict:
        return all(type(k) is str and _literal(v) for k, v in a.items())
    return type(a) in _LITERALS


def _leaf_call(body: Any, targs: tuple, tkwargs: dict) -> Any:
    def update(*tensors):
        return body(*_unslot(targs, tensors), **{k: _unslot(v, tensors) for k, v in tkwargs.items()})

    update.__name__ = update.__qualname__ = f"update_{getattr(body, '__name__', 'op')}"
    return update


def _trace_update(body: Any, args: tuple, kwargs: dict) -> None:
    tensors: list = []
    targs, tkwargs = _slots(tuple(args), tensors), {k: _slots(v, tensors) for k, v in kwargs.items()}
    _LEAVES.append((body, targs, tkwargs))
    with torch.no_grad():
        _update_op()(len(_LEAVES) - 1, tensors)


def _settle_(out: torch.Tensor, x: torch.Tensor, kind: str) -> None:
    eigen_reduce.settle(out, x, kind)


_OPS: dict = {}


def _settle_op():
    """The custom op standing for `settle` in a trace (registered at the first trace)."""
    if "settle" not in _OPS:
        lib_op = torch.library.custom_op("paddle_compat::settle_", mutates_args=("out",))(_settle_)

        @lib_op.register_fake
        def _(out, x, kind):
            return None

        _OPS["settle"] = lib_op
    return _OPS["settle"]


def _update_(key: int, tensors: list[torch.Tensor]) -> None:
    raise RuntimeError("paddle_compat::update_ stands for an optimizer update in a traced graph only")


def _update_op():
    """The custom op standing for an optimizer update in a trace: it may write any tensor it is given."""
    if "update" not in _OPS:
        lib_op = torch.library.custom_op("paddle_compat::update_", mutates_args=("tensors",))(_update_)

        @lib_op.register_fake
        def _(key, tensors):
            return None

        _OPS["update"] = lib_op
    return _OPS["update"]


def _trace_settle(out: torch.Tensor, x: torch.Tensor, kind: str) -> bool:
    from torch._subclasses.fake_tensor import FakeTensor

    if not isinstance(x, FakeTensor):  # another thread's values, while this one traces
        return False
    _settle_op()(out.detach(), x.detach(), kind)
    return True


def _is_tensor(t: Any) -> bool:
    return type(t) is torch.Tensor


def _same_bits(a: Any, b: Any) -> bool:
    if not (_is_tensor(a) and _is_tensor(b)):
        return False
    if a.dtype != b.dtype or a.shape != b.shape or a.device != b.device:
        return False
    if a.numel() == 0:
        return True
    return torch.equal(a.detach().reshape(-1).contiguous().view(torch.uint8),
                       b.detach().reshape(-1).contiguous().view(torch.uint8))


class JointPlan:
    """The joint graphs of one plan, by argument signature; `reason` set once the plan keeps its own path."""

    def __init__(self, plan: Any) -> None:
        self.plan = plan
        self.seen: dict = {}  # signature -> runs on the plan's own path so far
        self.last: tuple | None = None  # (graph, argument signature) of the last call
        self.fastest = 0.0 if AFTER_CALLS[0] == 0 else float("inf")  # the shortest own-path run so far, seconds
        self.graphs: dict = {}
        self.reason: str | None = None
        self.random = any(n.meta.get("op_type") in _TORCH_RANDOM for n in plan.gm.graph.nodes)

    def usable_feed(self, feed: dict) -> bool:
        for v in feed.values():
            if isinstance(v, LoDTensor) and v.lod():
                return False
        return True

    def graph_for(self, args: list) -> Any:
        """The joint graph for these arguments: built (and checked by the caller) when the signature has run
        `AFTER_CALLS` times on the plan's own path; None to run the plan's own path this time (`reason` set when
        the trace failed)."""
        if self.random and _prng.ON:  # Paddle's random stream: drawn in the op bodies
            return None
        last = self.last
        if last is not None:  # the common call: arguments like the previous call's
            g, sig = last
            for a, (shape, dtype, grad) in zip(args, sig):
                if a.shape != shape or a.dtype is not dtype or a.requires_grad is not grad or not a.is_contiguous():
                    break
            else:
                return g
        key = tuple((a.shape, a.stride(), a.dtype, a.requires_grad, a.device) if isinstance(a, torch.Tensor)
                    else None for a in args)
        g = self.graphs.get(key)
        if g is not None:
            self._remember(g, args)
            return g
        seen = self.seen.get(key, 0)
        if seen < AFTER_CALLS[0] or len(self.graphs) >= MAX_GRAPHS or self.fastest > LONG_STEP_S[0]:
            if len(self.seen) < 4 * MAX_GRAPHS or key in self.seen:
                self.seen[key] = seen + 1
            return None
        g = self._trace(args)
        if g is not None:
            g = Unchecked(key, g)
        return g

    def _remember(self, g: Any, args: list) -> None:
        """The fast check's state: shape, dtype and grad flag of each argument, all contiguous on the plan's
        device (strides and device then follow)."""
        ok = all(a.is_contiguous() and a.device == self.plan.device for a in args)
        self.last = (g, tuple((a.shape, a.dtype, a.requires_grad) for a in args)) if ok else None

    def _trace(self, args: list) -> Any:
        from torch.fx.experimental.proxy_tensor import make_fx

        plan = self.plan
        if any(not isinstance(a, torch.Tensor) or type(a) is not torch.Tensor for a in args):
            self.reason = "an argument that is not a plain tensor"
            return None
        interp = _Interp(plan.gm)

        def step(*a):
            with torch.set_grad_enabled(plan.grad):
                return tuple(interp.run(*a))

        with _TRACE_LOCK:  # one trace at a time: the trace state is the process's
            return self._trace_locked(args, make_fx, interp, step)

    def _trace_locked(self, args: list, make_fx: Any, interp: "_Interp", step: Any) -> Any:
        plan = self.plan
        old_dev, old_gen = RUNTIME.device, RUNTIME.generator
        RUNTIME.device = plan.device
        joint_trace.SETTLE.append(_trace_settle)
        _LEAVES.clear()
        joint_trace.ACTIVE[0] = True
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gm = make_fx(step, tracing_mode="fake", _allow_non_fake_inputs=True)(*args)
        except Exception as e:  # noqa: BLE001 - any failure keeps the plan's own path
            at = interp.node.meta.get("op_type") or interp.node.name if interp.node is not None else "?"
            self.reason = f"trace failed at {at}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            return None
        finally:
            joint_trace.SETTLE.clear()
            joint_trace.ACTIVE[0] = False
            RUNTIME.device, RUNTIME.generator = old_dev, old_gen
        leaves = list(_LEAVES)
        _LEAVES.clear()
        graph = gm.graph
        settle = _OPS["settle"]._opoverload if "settle" in _OPS else None
        update = _OPS["update"]._opoverload if "update" in _OPS else None
        for n in graph.nodes:
            if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
                if torch.Tag.nondeterministic_seeded in n.target.tags and (
                        not self.random or any(isinstance(a, torch.Generator) for a in (*n.args, *n.kwargs.values()))):
                    self.reason = f"random aten op {n.target}"
                    return None
            elif n.op not in ("placeholder", "output", "get_attr") and n.target is not operator.getitem:
                self.reason = f"traced node {n.op} {n.target}"
                return None
        try:
            graph.eliminate_dead_code()
            _drop_detach(graph)
            _share_views(graph)
            _fold_constants(gm)
            graph.eliminate_dead_code()
            _reuse_dead_buffers(graph)
            for n in graph.nodes:
                if n.op == "call_function" and settle is not None and n.target is settle:
                    n.target = _settle_
                elif n.op == "call_function" and update is not None and n.target is update:
                    body, targs, tkwargs = leaves[n.args[0]]  # the body called as the plan calls it
                    tensors = tuple(n.args[1])
                    if _literal((targs, tkwargs)):
                        n.target = body
                        n.args = _unslot(targs, tensors)
                        n.kwargs = {k: _unslot(v, tensors) for k, v in tkwargs.items()}
                    else:  # constants the generated code cannot spell: kept by a function of the tensors
                        n.target, n.args = _leaf_call(body, targs, tkwargs), tensors
                elif n.op == "call_function":
                    n.target = _fast_target(n.target)
            gm.recompile()
        except Exception as e:  # noqa: BLE001 - the plan keeps its own path
            self.reason = f"graph cleanup failed: {type(e).__name__}: {e}"[:300]
            return None
        return gm

    def check(self, unchecked: "Unchecked", args: list, own_outs: Any, copies: list, joint_outs: Any) -> Any:
        """After the plan's own run on `args` and the joint graph's on `copies`: the graph when every output and
        every argument agree bit for bit, else None (and the plan keeps its own path)."""
        ok = isinstance(joint_outs, tuple) and len(joint_outs) == len(own_outs) and all(
            _same_bits(a, b) for a, b in zip(joint_outs, own_outs)) and all(
            _same_bits(a, b) for a, b in zip(copies, args))
        if not ok:
            self.reason = "the joint graph's bits differ from the plan's own path"
            return None
        self.graphs[unchecked.key] = unchecked.gm.forward  # the generated function itself: no Module call
        self._remember(unchecked.gm.forward, args)
        return unchecked.gm


def _is_op(n: fx.Node) -> bool:
    return n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)


def _drop_detach(graph: fx.Graph) -> None:
    """aten.detach nodes: the graph runs under no_grad, where a detached alias is the tensor itself."""
    for n in list(graph.nodes):
        if _is_op(n) and n.target is torch.ops.aten.detach.default:
            n.replace_all_uses_with(n.args[0])
            graph.erase_node(n)


def _returns_alias(target: Any) -> bool:
    return any(r.alias_info is not None for r in target._schema.returns)


def _share_views(graph: fx.Graph) -> None:
    """One node for equal view calls of the same tensor (the learning rate viewed as a scalar once per update):
    both are the same memory seen the same way."""
    seen: dict = {}
    for n in list(graph.nodes):
        if not _is_op(n) or not _returns_alias(n.target) or n.target._schema.is_mutable:
            continue
        try:
            key = (n.target, repr(n.args), repr(n.kwargs))
        except Exception:  # noqa: BLE001 - an argument without a stable repr: left alone
            continue
        first = seen.get(key)
        if first is None:
            seen[key] = n
        else:
            n.replace_all_uses_with(first)
            graph.erase_node(n)


def _inplace_forms() -> dict:
    aten = torch.ops.aten
    return {aten.add.Tensor: aten.add_.Tensor, aten.sub.Tensor: aten.sub_.Tensor, aten.mul.Tensor: aten.mul_.Tensor,
            aten.div.Tensor: aten.div_.Tensor, aten.relu.default: aten.relu_.default,
            aten.sigmoid.default: aten.sigmoid_.default, aten.tanh.default: aten.tanh_.default,
            aten.neg.default: aten.neg_.default}


def _fresh(x: fx.Node) -> bool:
    """x is memory of its own that the graph computed: the result of an op returning no alias (or an item of
    one's tuple of results), never an argument, a constant or a view."""
    if x.op != "call_function":
        return False
    if x.target is operator.getitem:
        x = x.args[0]
        return isinstance(x, fx.Node) and _is_op(x) and not _returns_alias(x.target) and not x.target._schema.is_mutable
    return _is_op(x) and not _returns_alias(x.target) and not x.target._schema.is_mutable


def _reuse_dead_buffers(graph: fx.Graph) -> None:
    """An elementwise op whose first input dies with it writes into that input (`add(conv, bias)` -> `add_`,
    `relu(add)` -> `relu_`): the graph is functional, so an input whose only reader is this op is dead after it.
    Kept out of place unless the input is fresh memory (`_fresh`), read by this op alone and only as its first
    argument, not an output of the graph, and the result has the input's shape, strides and dtype (no broadcast
    into it, no type promotion). Same kernels, same bits; what it saves is the fresh buffer's page faults (a
    1 MiB activation: about twice the time of the add itself)."""
    forms = _inplace_forms()
    outputs = _output_nodes(graph)
    reused: set = set()
    for n in graph.nodes:
        if not _is_op(n) or n.target not in forms or not n.args or not isinstance(n.args[0], fx.Node):
            continue
        x = n.args[0]
        if len(x.users) != 1 or x in outputs or not (x in reused or _fresh(x)) or any(
                a is x for a in (*n.args[1:], *n.kwargs.values())):
            continue
        xv, nv = x.meta.get("val"), n.meta.get("val")
        if not (isinstance(xv, torch.Tensor) and isinstance(nv, torch.Tensor) and xv.shape == nv.shape
                and xv.stride() == nv.stride() and xv.dtype == nv.dtype and xv.device == nv.device):
            continue
        n.target = forms[n.target]
        reused.add(n)  # its result is x's memory: fresh, for the next op to reuse in turn


def _output_nodes(graph: fx.Graph) -> set:
    found: set = set()
    for n in graph.nodes:
        if n.op == "output":
            fx.node.map_arg(n.args, found.add)
    return found


_FOLD_BYTES = 1 << 22  # constants kept by a graph: at most 4 MiB each


def _fold_constants(gm: fx.GraphModule) -> None:
    """Nodes computed from no input (the loss gradient's seed, its expansion and scaling: fill_constant and the
    mean's backward) run once here; the graph keeps their values. A value a later node writes into, returns or
    hands to a view that may be written stays computed per run (a value of the graph must not change between runs)."""
    graph = gm.graph
    const: dict = {}  # insertion order: the graph's (topological)
    for n in graph.nodes:
        if (_is_op(n) and not n.target._schema.is_mutable and torch.Tag.nondeterministic_seeded not in n.target.tags
                and all(a in const for a in n.all_input_nodes)):
            const[n] = None
    computable = list(const)
    changed = True
    while changed:  # a node some non-constant user writes into, returns or views stays computed per run; a
        changed = False  # view's base then has a user that views it, so it follows
        for n in list(const):
            if any(u not in const and (not _is_op(u) or u.target._schema.is_mutable or _returns_alias(u.target))
                   for u in n.users) or (_returns_alias(n.target) and any(a not in const for a in n.all_input_nodes)):
                del const[n]  # (a view of a value computed per run is computed per run)
                changed = True
    if not const:
        return
    values: dict = {}
    prev = torch.is_grad_enabled()
    torch._C._set_grad_enabled(False)
    try:
        for n in computable:  # those left computed per run too: the folded ones may read them
            args = fx.node.map_arg(n.args, lambda a: values[a])
            kwargs = fx.node.map_arg(n.kwargs, lambda a: values[a])
            values[n] = n.target(*args, **kwargs)
    finally:
        torch._C._set_grad_enabled(prev)
    k = 0
    for n in const:
        if any(u not in const for u in n.users):
            c = graph_constant(gm, n, values[n], f"_joint_const{k}")
            if c is None:
                continue
            k += 1
            n.replace_all_uses_with(c, delete_user_cb=lambda u: u not in const)


def graph_constant(gm: fx.GraphModule, before: fx.Node, value: Any, name: str) -> fx.Node | None:
    """`value` kept by gm (a non-persistent buffer `name`) and read by a get_attr node placed before `before`; None
    for a value that is not a tensor of at most _FOLD_BYTES (then it stays computed per run). Constant folding of
    the joint graph and of the compiler path (compile_backend._fold_constants)."""
    if not isinstance(value, torch.Tensor) or value.numel() * value.element_size() > _FOLD_BYTES:
        return None
    gm.register_buffer(name, value, persistent=False)
    gm.__dict__[name] = value  # found without nn.Module.__getattr__ (the buffer keeps state_dict & co right)
    with gm.graph.inserting_before(before):
        return gm.graph.get_attr(name)


def _fast_targets() -> dict:
    aten = torch.ops.aten
    T = torch.Tensor  # noqa: N806
    table = {
        aten.mm.default: torch.mm, aten.addmm.default: torch.addmm, aten.bmm.default: torch.bmm,
        aten.add.Tensor: torch.add, aten.sub.Tensor: torch.sub, aten.mul.Tensor: torch.mul,
        aten.div.Tensor: torch.div, aten.add_.Tensor: T.add_, aten.sub_.Tensor: T.sub_, aten.mul_.Tensor: T.mul_,
        aten.view.default: T.view, aten.t.default: torch.t, aten.expand.default: T.expand,
        aten.permute.default: torch.permute, aten.transpose.int: torch.transpose,
        aten.unsqueeze.default: torch.unsqueeze, aten.squeeze.dim: torch.squeeze,
        aten.sum.dim_IntList: torch.sum, aten.mean.default: torch.mean, aten.mean.dim: torch.mean,
        aten.relu.default: torch.relu, aten.clone.default: torch.clone, aten.neg.default: torch.neg,
        aten.exp.default: torch.exp, aten.log.default: torch.log, aten.tanh.default: torch.tanh,
        aten.sigmoid.default: torch.sigmoid, aten.where.self: torch.where, aten.div_.Tensor: T.div_,
        aten.relu_.default: torch.relu_, aten.sigmoid_.default: torch.sigmoid_, aten.tanh_.default: torch.tanh_,
        aten.neg_.default: torch.neg_,
        # the same values and bits through the native kernel where it applies (engine/ops/nn_functional/pooling.py)
        aten.max_pool2d_with_indices.default: max_pool2d_with_indices,
    }
    return table


_FAST: list = []


def _fast_target(target: Any) -> Any:
    """The Python binding calling the same aten overload with the same arguments, where one exists (a third less
    per call than the OpOverload's own __call__), or a function giving the same bits faster; the overload itself
    otherwise."""
    if not _FAST:
        _FAST.append(_fast_targets())
    return _FAST[0].get(target, target)


class Unchecked:
    __slots__ = ("key", "gm")

    def __init__(self, key: tuple, gm: Any) -> None:
        self.key, self.gm = key, gm


def for_plan(plan: Any, other_runner: bool) -> tuple[JointPlan | None, str | None]:
    """(the plan's JointPlan, None), or (None, why it keeps its own path)."""
    reason = plan_reason(plan, other_runner)
    return (JointPlan(plan) if reason is None else None), reason



def rng_state(device: torch.device) -> tuple:
    """torch's default generator's state for `device` (the check runs a random graph's step twice)."""
    if device.type == "cuda":
        return (torch.get_rng_state(), torch.cuda.get_rng_state(device))
    return (torch.get_rng_state(),)


def set_rng_state(device: torch.device, state: tuple) -> None:
    torch.set_rng_state(state[0])
    if device.type == "cuda":
        torch.cuda.set_rng_state(state[1], device)
