"""The one place that branches on mode: run an op eagerly, or record it into the current Program.

`make_public(opdef)` builds the callable users get for an op. Dygraph: unwrap `paddle.Tensor` arguments
(also inside lists), call the torch body, wrap the result. Static: bind the arguments to the op's
signature, turn Variables into fx nodes, append a `call_function` node, infer the output shapes and
dtypes (engine/framework/infer.py) and return new Variables named the Paddle way (`mean_0.tmp_0`).

Dygraph per-call cost is the price of the wrapper, so an op may declare a shortcut (`@op(..., fast=f)`) for its
common call: `f` gets the raw arguments and returns a torch result, or None (or raises) to let the body run; the
body stays the one source of semantics and of Paddle's errors (tests/ops/test_fast_paths.py checks they agree).
`f` has the op's exact signature, and so does the public function built around it (`_shortcut_front`): a
`*args, **kwargs` wrapper would spend about as long packing arguments as the shortcut saves.
"""

from __future__ import annotations

import contextlib
import functools
import operator
from typing import Any, Callable, Iterator

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.errors import EnforceNotMet, InvalidArgumentError, InvalidTypeError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.core import native
from paddle_compat.engine.framework import fx_copy, unique_name
from paddle_compat.engine.framework.argcheck import blame
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.nan_inf import ENABLED as _NAN_CHECK
from paddle_compat.engine.framework.tensor import INT_GRAD, Tensor

# ------------------------------------------------------------------------------------------------
# dygraph


def unwrap(a: Any) -> Any:
    if isinstance(a, Tensor):
        return a._t
    if type(a) in (list, tuple):
        for x in a:
            if isinstance(x, Tensor) or type(x) in (list, tuple):
                out = [y._t if type(y) is Tensor else unwrap(y) for y in a]
                return out if type(a) is list else tuple(out)
    if type(a) is np.ndarray:
        _no_text(a)
    return a


def _no_text(a: np.ndarray) -> None:
    """A numpy array of strings or bytes is no op argument (an op body that reads only its .shape would take it):
    the TypeError names its type, so argcheck.blame words it as Paddle's wrong-type error for that argument."""
    if a.dtype.kind in "USV":
        raise TypeError(f"a numpy.ndarray of {a.dtype} is not a Tensor")


def wrap(r: Any) -> Any:
    if isinstance(r, torch.Tensor):
        return Tensor._wrap(r)
    if type(r) is tuple:
        return tuple(wrap(x) for x in r)
    if type(r) is list:
        return [wrap(x) for x in r]
    return r


def _api_name(opdef) -> str:
    """The public path of an op for its error messages: its first export, else the first path it was exported at
    by other means (an alias), else its op type."""
    if opdef.exports:
        return opdef.exports[0]
    from paddle_compat.engine.framework.registry import exported_path

    return exported_path(opdef.public) or opdef.type


def _reraise(opdef, exc: Exception, args: tuple = (), kwargs: dict | None = None) -> None:
    err = blame(_api_name(opdef), opdef.signature, args, kwargs or {}, exc)  # a wrong argument, in Paddle's words
    if err is not None:
        raise err from exc
    if isinstance(exc, EnforceNotMet):  # already Paddle's error (e.g. FLAGS_check_nan_inf's)
        raise exc
    if isinstance(exc, (RuntimeError, IndexError)) and not isinstance(exc, NotImplementedError):
        raise InvalidArgumentError(f"{_api_name(opdef)} (op {opdef.type}): {exc}") from exc
    if type(exc) is ValueError and _api_name(opdef) not in str(exc):  # a body's plain check: name the API
        raise InvalidArgumentError(f"{_api_name(opdef)} (op {opdef.type}): {exc}") from exc
    if type(exc) is TypeError and _api_name(opdef) not in str(exc):  # e.g. torch's argument parser
        raise InvalidTypeError(f"{_api_name(opdef)} (op {opdef.type}): {exc}") from exc
    raise exc


_SEQ = (list, tuple)


# ------------------------------------------------------------------------------------------------
# gradients of integer tensors (engine/framework/tensor.py: an integer Tensor with stop_gradient=False has a float64 shadow)


def _shadowed(a: Any) -> bool:
    if isinstance(a, Tensor):
        return getattr(a, "_shadow", None) is not None
    return type(a) in _SEQ and any(_shadowed(x) for x in a)


def _on_shadows(a: Any) -> Any:
    """An argument for the shadow run: Tensors with a shadow give it, others their value detached (their own
    gradient path is the ordinary run's)."""
    if isinstance(a, Tensor):
        s = getattr(a, "_shadow", None)
        return s if s is not None else a._t.detach()
    if type(a) in _SEQ:
        return type(a)(_on_shadows(x) for x in a)
    return a


class _Attach(torch.autograd.Function):
    """r's values, with the gradient passed to r and, unchanged, to s (the shadow run's output of r's shape)."""

    @staticmethod
    def forward(ctx, r, s):  # noqa: ANN001, ANN205 - torch's autograd.Function protocol
        ctx.s_dtype = s.dtype
        return r.clone()

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001, ANN205
        return g, g.to(ctx.s_dtype)


def _join(r: Any, s: Any) -> Any:
    """The result r of the ordinary run, with the shadow run's s attached: an integer / bool output gets a shadow of
    its own values carrying s's gradient path, a float output gains s's gradient path (same values)."""
    if isinstance(r, torch.Tensor):
        out = Tensor._wrap(r)
        if isinstance(s, torch.Tensor) and s.requires_grad and s.shape == r.shape:
            if r.is_floating_point() or r.is_complex():
                out._t = _Attach.apply(r, s)
            else:
                out._shadow = _Attach.apply(r.detach().to(torch.float64), s)
        return out
    if type(r) in _SEQ:
        ss = s if type(s) in _SEQ and len(s) == len(r) else [None] * len(r)
        return type(r)(_join(x, y) for x, y in zip(r, ss))
    return r


def shadow_call(opdef, impl: Callable, args: tuple, kwargs: dict) -> Any:
    """An op given an integer Tensor with stop_gradient=False: the ordinary run gives the values, a second run on
    the float64 shadows the gradient path (Paddle differentiates integer tensors; ops without a gradient, such as
    argmax or comparisons, give outputs with stop_gradient=True, as Paddle's)."""
    try:
        r = impl(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    except Exception as e:  # noqa: BLE001 - re-raised with the Paddle API named
        _reraise(opdef, e, args, kwargs)
    s = None
    if torch.is_grad_enabled():
        if opdef.type == "cast":  # its gradient casts back: the identity on the shadow (also to an integer dtype)
            s = _on_shadows(args[0] if args else kwargs.get("x"))
            return _join(r, s.to(r.dtype) if r.is_floating_point() or r.is_complex() else s)
        try:
            s = impl(*[_on_shadows(a) for a in args], **{k: _on_shadows(v) for k, v in kwargs.items()})
        except Exception:  # noqa: BLE001 - no float version of this op (e.g. bitwise): no gradient, as Paddle's
            s = None
    return _join(r, s)

# paddle.amp.auto_cast's custom white / black lists (paddle2/amp/__init__.py): Paddle op type -> the torch dtype its float
# inputs are cast to (black: float32 with autocast off, white: the amp dtype). Empty outside such an auto_cast, so
# the dygraph path pays one dict truth test; while it is not empty, op shortcuts step aside for the general path.
AMP_OP_DTYPES: dict[str, torch.dtype] = {}
_AMP_BUSY = [False]
if native.MODULE is not None:  # the native view ops check these objects in C (engine/core/native)
    native.MODULE.configure(tensor_type=Tensor, mode=MODE, amp_ops=AMP_OP_DTYPES, int_grad=INT_GRAD)


def _amp_run(opdef, public: Callable, args: tuple, kwargs: dict) -> Any:
    """Run a listed op with its float Tensor inputs cast to the list's dtype (ops it calls inside run as usual)."""
    target = AMP_OP_DTYPES[opdef.type]

    def cast(a: Any) -> Any:
        if isinstance(a, Tensor) and a._t.is_floating_point() and a._t.dtype != target:
            return Tensor._wrap(a._t.to(target))
        if type(a) in _SEQ:
            return type(a)(cast(x) for x in a)
        return a

    device = "cuda" if any(isinstance(a, Tensor) and a._t.is_cuda for a in args) else "cpu"
    _AMP_BUSY[0] = True
    try:
        with torch.autocast(device, enabled=target != torch.float32, dtype=target if target != torch.float32
                            else None):
            return public(*[cast(a) for a in args], **{k: cast(v) for k, v in kwargs.items()})
    finally:
        _AMP_BUSY[0] = False


def make_public(opdef) -> Callable:
    impl = opdef.impl

    mode = MODE
    eager1 = getattr(impl, "__paddle_eager__", None)
    new = object.__new__
    TensorT, TorchT = Tensor, torch.Tensor  # noqa: N806 - locals: the dygraph path is per-op overhead

    amp_ops = AMP_OP_DTYPES

    int_grad = INT_GRAD

    @functools.wraps(impl)
    def public(*args: Any, **kwargs: Any) -> Any:
        if mode.static:
            return record(opdef, args, kwargs)
        if amp_ops and opdef.type in amp_ops and not _AMP_BUSY[0]:
            return _amp_run(opdef, public, args, kwargs)
        if int_grad[0] and (_shadowed(args) or _shadowed(list(kwargs.values()))):
            return shadow_call(opdef, impl, args, kwargs)
        try:
            # fast paths for the common calls, one or two positional Tensors (bench/bench_dygraph_ops.py)
            if kwargs:  # a fresh dict per call: unwrap in place
                for k, v in kwargs.items():
                    if type(v) is TensorT:
                        kwargs[k] = v._t
                    elif type(v) in _SEQ or isinstance(v, TensorT):
                        kwargs[k] = unwrap(v)
            n = len(args)
            if n == 2:
                a, b = args
                r = impl(a._t if type(a) is TensorT else unwrap(a), b._t if type(b) is TensorT else unwrap(b),
                         **kwargs)
            elif n == 1:
                a = args[0]
                if eager1 is not None and not kwargs and type(a) is TensorT:
                    r = eager1(a._t)  # a table op's torch function, without its body frame
                else:
                    r = impl(a._t if type(a) is TensorT else unwrap(a), **kwargs)
            else:
                r = impl(*[unwrap(a) for a in args], **kwargs)
        except Exception as e:  # noqa: BLE001 - re-raised with the Paddle API named
            _reraise(opdef, e, args, kwargs)
        if type(r) is TorchT:  # inline Tensor._wrap
            out = new(TensorT)
            out._t = r
            out.name = None
            out.persistable = False
            return out
        return wrap(r)

    if opdef.fast is not None or eager1 is not None:
        public = _shortcut_front(opdef, public)
    public.__paddle_op__ = opdef  # type: ignore[attr-defined]
    return public


_FRONT = """
def front({params}):{native}
    if not mode.static and not amp_ops and not int_grad[0]:
        try:
            r = {shortcut}
        except Exception:  # the general path runs and raises Paddle's error
            r = None
        if r is not None:
            out = new(TensorT)
            out._t = r
            out.name = None
            out.persistable = False
            return out
    return general({call})
"""


def _shortcut_front(opdef, general: Callable) -> Callable:
    """The public function of an op with a dygraph shortcut: the op's own signature (taken from the body, which
    the shortcut must share), calling the shortcut first and the general path when it declines. Generated, so
    that no `*args` packing sits on the hot path."""
    import inspect

    fast, impl = opdef.fast, opdef.impl
    sig = inspect.signature(impl)
    if fast is not None and inspect.signature(fast) != sig:
        raise TypeError(f"op {opdef.type}: its shortcut {fast.__name__}{inspect.signature(fast)} must have the "
                        f"body's signature {sig}")
    kinds = {p.kind for p in sig.parameters.values()}
    if kinds - {inspect.Parameter.POSITIONAL_OR_KEYWORD}:
        raise TypeError(f"op {opdef.type}: a shortcut needs plain parameters, got {sig}")
    names = list(sig.parameters)
    call = ", ".join(names)
    if fast is not None:  # an `inline_fast` shortcut is its expression, evaluated in place (no call frame)
        shortcut = getattr(fast, "__paddle_inline__", None) or f"fast({call})"
    else:  # a unary table op (engine/ops/common.unary_body): its torch function on the one Tensor
        shortcut = f"eager1({names[0]}._t) if type({names[0]}) is TensorT else None"
    inline = getattr(fast, "__paddle_inline__", None) is not None  # its expression's names join the front's
    ns = {**(fast.__globals__ if inline else {}), "mode": MODE, "fast": fast,
          "eager1": getattr(impl, "__paddle_eager__", None), "general": general,
          "new": object.__new__, "TensorT": Tensor, "amp_ops": AMP_OP_DTYPES, "int_grad": INT_GRAD,
          "opdef": opdef, "torch": torch}  # opdef: names the op in errors (nan_inf.py)
    # a shortcut naming a native function (engine/core/native, `__paddle_native__`) calls it first: it takes the
    # op's arguments but `name`, checks the shortcut's preconditions in C and returns None where they do not hold
    nat = native.function(getattr(fast, "__paddle_native__", ""))
    first = "\n    r = nat({})\n    if r is not None:\n        return r".format(
        ", ".join(n for n in names if n != "name")) if nat is not None else ""
    ns["nat"] = nat
    src = _FRONT.format(params=", ".join(names), call=call, shortcut=shortcut, native=first)
    # a file name inside paddle_compat: program.user_frame() skips it when it looks for the user's line
    exec(compile(src, f"<paddle_compat front of {opdef.type}>", "exec"), ns)  # noqa: S102 - fixed template
    front = ns["front"]
    front.__defaults__ = impl.__defaults__
    functools.update_wrapper(front, impl)
    return front


def plain_dygraph(x: Any) -> bool:
    """Whether a paddle.nn layer may run its dygraph call on `x` as the torch calls its ops' bodies would make
    (a layer shortcut, e.g. conv.ConvShortcut): a dygraph Tensor, no AMP op list, no integer-gradient shadow, no
    FLAGS_check_nan_inf (whose dygraph check names the registry op on the stack). Otherwise the layer takes its
    ops, which handle all of these."""
    return (LAYER_SHORTCUTS[0] and not MODE.static and type(x) is Tensor and not AMP_OP_DTYPES and not INT_GRAD[0]
            and not _NAN_CHECK[0])


LAYER_SHORTCUTS = [True]  # off: every layer calls its functional form (tests compare the two)


def body_shortcut(public: Callable, x: Any, *args: Any, **kwargs: Any) -> Any:
    """A paddle.nn layer's dygraph call as `public` (a registry op's public function) computes it: the op's body
    on x's torch tensor and the other arguments (Tensors given as their torch tensors), the result wrapped,
    without the function / argument-check / dispatch layers around it. None where the layer must call its
    functional form instead: not `plain_dygraph(x)`, a result that is not one tensor, or a body that raises (the
    op path then raises Paddle's error). Same body, same bits (tests/nn/test_layer_shortcuts.py)."""
    if not plain_dygraph(x):
        return None
    args = [a._t if isinstance(a, Tensor) else a for a in args]
    for k, v in kwargs.items():
        if isinstance(v, Tensor):
            kwargs[k] = v._t
    try:
        r = public.__paddle_op__.impl(x._t, *args, **kwargs)
    except Exception:  # noqa: BLE001 - the op path raises Paddle's error
        return None
    return Tensor._wrap(r) if type(r) is torch.Tensor else None


def inline_fast(params: str, expr: str, **names: Any) -> Callable:
    """An op's shortcut written as one expression over its parameters (`params`, the body's parameter list) that
    may use `torch`, `TensorT` and the `names` given: a function like any shortcut (tests/ops/test_fast_paths.py
    calls it), whose expression the op's public function also evaluates in place, saving the call frame on the
    op's hot path."""
    ns = {"torch": torch, "TensorT": Tensor, **names}
    exec(compile(f"def fast({params}):\n    return {expr}\n", "<paddle_compat shortcut>", "exec"), ns)  # noqa: S102
    fast = ns["fast"]
    fast.__paddle_inline__ = expr
    return fast


def warn_static_inplace(name: str) -> None:
    """Paddle's `inplace_apis_in_dygraph_only`: in static mode `x.op_()` / `paddle.op_(x)` is the out-of-place op
    (a new variable; x keeps its value), with this warning (Paddle 2.4 and 2.6.2)."""
    import warnings

    warnings.warn(f"In static graph mode, {name}() is the same as {name.rstrip('_')}() and does not perform "
                  "inplace operation.", UserWarning, stacklevel=3)


def make_inplace(opdef, name: str) -> Callable:
    """The `x.op_()` variant: same body; the result replaces x's value (dygraph) or x's node (static)."""
    impl = opdef.impl

    @functools.wraps(impl)
    def inplace(x: Any, *args: Any, **kwargs: Any) -> Any:
        if MODE.static:
            warn_static_inplace(name)
            return record(opdef, (x,) + args, kwargs)
        if INT_GRAD[0] and (_shadowed(x) or _shadowed(args) or _shadowed(list(kwargs.values()))):
            return write_result(x, shadow_call(opdef, impl, (x,) + args, kwargs), f"paddle.Tensor.{name}")
        try:
            r = impl(x._t, *[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
        except Exception as e:  # noqa: BLE001
            _reraise(opdef, e, (x,) + args, kwargs)
        return write_result(x, r, f"paddle.Tensor.{name}")

    inplace.__name__ = name
    return inplace


def write_result(target: Any, result: Any, api: str, what: str = "Var", strict: bool = True) -> Any:
    """`target` now holds `result` (the in-place variant of an op, `x[i] = v`, an `out=` / `output=` argument):
    a dygraph Tensor takes the new value, a static Variable is renamed onto it (`rebind`). Returns `target`.

    Paddle's in-place ops (`strict`) refuse, while gradients are recorded, to overwrite a leaf Tensor that
    needs a gradient: the op would not be part of its gradient (it would be lost, as `x.grad` stays None).
    Under `no_grad` (an update written by hand), and for `output=` / `out=` (Paddle copies into it), the value
    is copied into the leaf, which stays the same parameter."""
    if not isinstance(target, Tensor):
        rebind(target, result)
        return target
    t = target._t
    r = result._t if isinstance(result, Tensor) else result
    if r is not t:  # retain_grads() keeps the gradient of the value before the op (Paddle's)
        old = t if t.requires_grad or not INT_GRAD[0] else getattr(target, "_shadow", None)
        if old is not None and old.retains_grad:
            target._retained = old
    if INT_GRAD[0] and getattr(result, "_shadow", None) is not None:
        target._shadow = result._shadow
    if t.requires_grad and t.is_leaf and r is not t:
        if strict and torch.is_grad_enabled():
            raise InvalidArgumentError(
                f"Leaf {what} ({target.name or ''}) that doesn't stop gradient can't use inplace strategy. {api} "
                "would overwrite a Tensor with stop_gradient=False that no op computed, and its gradient would be "
                "lost; use the out-of-place API, or write under paddle.no_grad()")
        if r.shape == t.shape:
            with torch.no_grad():
                t.copy_(r)
            return target
    target._t = r
    return target


def rebind(var: Any, out: Any) -> None:
    """Static SSA rename: `var` now denotes the value `out` holds; `out`'s temporary name disappears."""
    block = var.block
    node = out.node
    node.meta["var_name"] = var.name
    names = list(node.meta.get("out_names", ()))
    node.meta["out_names"] = [var.name if n == out.name else n for n in names]
    src = node.args[0] if node.target is operator.getitem else None
    if src is not None:
        src.meta["out_names"] = [var.name if n == out.name else n for n in src.meta.get("out_names", ())]
    var.node = node
    var._shape = out._shape
    var._dtype = out._dtype
    block.vars.pop(out.name, None)
    block.program._bump()


def rename_result(out: Any, name: str) -> Any:
    """A recorded one-output op's result renamed as Paddle names it outside any LayerHelper (`x[0]`: `x_slice_0`,
    `x.astype(...)`: `tmp_N`); returns it."""
    node, block = out.node, out.block
    node.meta["var_name"] = name
    node.meta["out_names"] = [name]
    block.vars.pop(out.name, None)
    out.name = name
    block.vars[name] = out
    return out


# ------------------------------------------------------------------------------------------------
# static recording

_helper_stack: list[str] = []
_role_stack: list[str] = []


@contextlib.contextmanager
def role_guard(role: str) -> Iterator[None]:
    """Ops recorded inside get this role (e.g. `optimize`, which clone(for_test=True) drops)."""
    _role_stack.append(role)
    try:
        yield
    finally:
        _role_stack.pop()


@contextlib.contextmanager
def layer_helper(layer_type: str, name: str | None = None) -> Iterator[str]:
    """Name outputs of the ops recorded inside after one layer (`fc_0.tmp_0`, `fc_0.tmp_1`, ...)."""
    prefix = name or unique_name.generate(layer_type)
    _helper_stack.append(prefix)
    try:
        yield prefix
    finally:
        _helper_stack.pop()


def in_layer_helper() -> bool:
    """Whether a layer_helper names the ops recorded now (the body of a fluid / static.nn layer)."""
    return bool(_helper_stack)


_CODEGEN_SAFE = (int, float, bool, str, type(None), torch.dtype, torch.device, slice, type(Ellipsis))


def _is_var(a: Any) -> bool:
    from paddle_compat.engine.framework.program import Variable

    return isinstance(a, Variable)


def _to_graph_arg(a: Any, block, consts_before) -> Any:
    """A recorded argument: Variables become their nodes; values fx cannot print become get_attr nodes."""
    if _is_var(a):
        return _node_in_block(a, block)
    if isinstance(a, _CODEGEN_SAFE):
        return a
    if isinstance(a, _dt.DType):
        return a.torch
    if type(a) in (list, tuple):
        return type(a)(_to_graph_arg(x, block, consts_before) for x in a)
    if isinstance(a, dict):
        return {k: _to_graph_arg(v, block, consts_before) for k, v in a.items()}
    if isinstance(a, Tensor):
        a = a._t.detach()
    elif type(a) is np.ndarray:
        _no_text(a)
    return consts_before(a)


def _node_in_block(v: Any, block) -> Any:
    if v.block is block or v.node.graph is block.graph:
        return v.node
    if v.persistable and v.block.program is not block.program:
        # a parameter of another Program: persistables are shared by name through the Scope, as in Paddle (hapi
        # records its train / eval / test programs around one network whose parameters live in the main program)
        return _node_in_block(_persistable_in(block.program.global_block(), v), block)
    # a variable of an ancestor block used inside a sub-block: the sub-block reads it as a free input
    return block._outer_input(v)


def _persistable_in(gb, v: Any) -> Any:
    """The variable named v.name in global block gb, declared there (same kind and attributes) when missing."""
    import copy

    own = gb.vars.get(v.name)
    if own is None:
        own = copy.copy(v)
        own.block = gb
        gb._add_placeholder(own)
        gb.vars[v.name] = own
    return own


def record(opdef, args: tuple, kwargs: dict, role: str | None = None) -> Any:
    """Append the op to the current block; a failure caused by a wrong argument is named in Paddle's words.
    An op Paddle's API composes from several (OpDef.compose) records those instead."""
    if opdef.compose is not None:
        from paddle_compat.engine.framework.infer import infer_outputs

        try:
            infer_outputs(opdef, args, kwargs)  # the op's own checks first: its errors name its API
        except Exception:  # noqa: BLE001 - recording the op raises it in Paddle's words
            return record_op(opdef, args, kwargs, role)
        got = opdef.compose(*args, **kwargs)
        if got is not NotImplemented:
            return got
    return record_op(opdef, args, kwargs, role)


def record_op(opdef, args: tuple, kwargs: dict, role: str | None = None) -> Any:
    """Append the op itself (not its OpDef.compose: a composition that ends with its own op calls this)."""
    try:
        return _record(opdef, args, kwargs, role)
    except Exception as e:  # noqa: BLE001 - other errors stay as they are
        err = blame(_api_name(opdef), opdef.signature, args, kwargs, e)
        if err is None:
            raise
        raise err from e


def _record(opdef, args: tuple, kwargs: dict, role: str | None = None) -> Any:
    from paddle_compat.engine.framework.infer import infer_outputs
    from paddle_compat.engine.framework.program import (_NAME_SCOPE, OP_DEVICE, Variable, default_main_program,
                                                 full_name_scope, user_frame)

    try:
        bound = opdef.signature.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{_api_name(opdef)}(): {e}") from None
    program = default_main_program()
    block = program.current_block()
    graph = block.graph

    def add_const(value: Any):
        key = f"_const_{len(block._consts)}"
        block._consts[key] = value
        n = graph.get_attr(key)
        n.meta["const"] = True
        return n

    g_args = tuple(_to_graph_arg(a, block, add_const) for a in args)
    g_kwargs = {k: _to_graph_arg(v, block, add_const) for k, v in kwargs.items()}
    outs = infer_outputs(opdef, args, kwargs)
    legacy = None
    if not LEVEL.zero_d and LEVEL.name != "2.4":  # a paddle.fluid API at level 2.6 (engine/core/api_level.py)
        # the body will run later, outside the fluid call: record its real (0-D) shapes, then reshape to [1] the
        # outputs whose shape rule gives 0-D at level 2.6 and [1] in fluid
        legacy = _flatten_outputs(outs)[0]
        LEVEL.zero_d = True
        try:
            outs = infer_outputs(opdef, args, kwargs)
        finally:
            LEVEL.zero_d = False
    flat, rebuild = _flatten_outputs(outs)
    single = isinstance(outs, Spec)

    name = bound.arguments.get("name") if "name" in opdef.signature.parameters else None
    prefix = _helper_stack[-1] if _helper_stack else None
    ptype = opdef.paddle_type(bound.arguments) if callable(opdef.paddle_type) else opdef.paddle_type
    if prefix is None and (len(flat) != 1 or not name):
        names = _helper_names(opdef, bound, len(flat), ptype)
    else:
        names = [name if (name and len(flat) == 1) else unique_name.generate_with_ignorable_key(f"{prefix}.tmp")
                 for _ in flat]

    from paddle_compat.engine.framework.program import _fx_name

    node = fx_copy.create_node(graph, "call_function", opdef.impl, g_args, g_kwargs,
                               name=_fx_name(names[0] if names else opdef.type))
    in_vars = [a for a in _iter_leaves(bound.arguments.values()) if _is_var(a)]
    attrs = {k: v for k, v in bound.arguments.items()
             if k != "name" and not any(_is_var(x) for x in _iter_leaves([v]))}
    node.meta.update(op_type=opdef.type, opdef=opdef, attrs=attrs, role=role or (_role_stack[-1] if _role_stack else opdef.role),
                     stack=user_frame(), out_names=names)
    if ptype and ptype != opdef.type:
        node.meta["paddle_type"] = ptype  # what Block.ops shows (OpDef.paddle_type)
    if OP_DEVICE[0]:
        node.meta["op_device"] = OP_DEVICE[0]
    if _NAME_SCOPE[0].parent is not None:
        node.meta["op_namescope"] = full_name_scope()
    stop = (not opdef.differentiable) or (bool(in_vars) and all(v.stop_gradient for v in in_vars))
    result_vars = []
    for i, ((shape, dtype), vname) in enumerate(zip(flat, names)):
        if single:
            vnode = node
        else:
            vnode = graph.call_function(operator.getitem, (node, i))
            vnode.meta.update(op_type=None, role=node.meta["role"])
        vnode.meta["var_name"] = vname
        v = Variable(block, vname, shape, dtype, node=vnode, stop_gradient=stop)
        block.vars[vname] = v
        result_vars.append(v)
    program._bump()
    if legacy is not None:
        fix = [len(v.shape) == 0 and tuple(s.shape) == (1,) for v, s in zip(result_vars, legacy)]
        if any(fix):
            from paddle_compat.engine.framework.registry import OPS

            result_vars = [record(OPS["reshape2"], (v, [1]), {}) if f else v for v, f in zip(result_vars, fix)]
    return rebuild(result_vars)


def _helper_names(opdef, bound, n: int, ptype: str | None = None) -> list[str]:
    """Output names as Paddle's LayerHelper gives them: `<helper>_<k>.tmp_<i>`, the helper type being the op's
    (OpDef.helper, default the type Paddle records: OpDef.paddle_type or the op type); where the Paddle API makes more temporaries than we have outputs, ours
    take the names of the ones it returns."""
    helper = opdef.helper
    if callable(helper):
        helper = helper(bound.arguments)
    count, picks = n, None
    if isinstance(helper, tuple):
        helper, count, picks = helper
        if len(picks) != n:
            count, picks = n, None
    prefix = unique_name.generate(helper or ptype or opdef.type)
    names = [unique_name.generate_with_ignorable_key(f"{prefix}.tmp") for _ in range(count)]
    return names if picks is None else [names[i] for i in picks]


def _iter_leaves(values) -> Iterator[Any]:
    for v in values:
        if type(v) in (list, tuple):
            yield from _iter_leaves(v)
        else:
            yield v


def _flatten_outputs(outs: Any):
    """(shape, dtype) specs flattened one level; `rebuild` restores tuple / list / single."""
    if isinstance(outs, Spec):
        return [outs], lambda vs: vs[0]
    if isinstance(outs, (list, tuple)):
        kind = type(outs)
        return list(outs), lambda vs: kind(vs)
    raise TypeError(outs)

