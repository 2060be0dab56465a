"""FLAGS_check_nan_inf: stop at the first op that produces a NaN or an Inf, naming the op and the variable.

Paddle checks every op's float outputs after it runs and raises PreconditionNotMet (2.6.2's words, which we
use in every mode: "There are NAN or INF (num_nan=1, num_inf=0, num_zero=0) in [device=cpu, op=log,
tensor=log_0.tmp_0, dtype=fp32]"; 1.8.5 said "===ERROR: in [op=log] [tensor=log_0.tmp_0] find nan or inf===").

- Static programs (Executor, CompiledProgram, data-parallel replicas and stages): when the flag is on, the
  Executor's plan is built with `instrument(gm)`, which wraps each recorded op's target so its outputs are
  checked, with the op type and output variable names from the node (backward: the `autograd_grad` node and
  the `x@GRAD` names; optimizer updates: the parameter names). The plan caches are keyed by the flag, so the
  graph an unchecked run executes is the plain one: nothing is added to it while the flag is off.
- Dygraph: while the flag is on, a torch dispatch mode is active on the thread that set it (the main thread)
  and checks the output of every torch operation, forward and backward. Paddle's check sits at its op
  boundaries, ours below them (our op bodies and torch's composite functions are made of several torch
  operations), so a NaN / Inf is reported by the operation that *creates* it: one whose floating inputs are
  all finite and that was given no non-finite Python number (an intentional `-inf` mask or padding passes,
  as do uninitialised `empty` buffers). The Paddle op is named from the Python stack (the registry op whose
  call is running), and the verdict waits for that op to return (a one-frame Python trace hook): only a
  result holding NaN / Inf raises, so an Inf an op body makes and then removes (a clamped log) does not. In
  the backward the torch autograd node is named. With the flag off no mode is installed.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable

import torch
import torch.fx as fx

from paddle_compat.engine.core import flags
from paddle_compat.engine.core.errors import PreconditionNotMetError
from paddle_compat.engine.core.mode import MODE

ENABLED = [False]  # FLAGS_check_nan_inf; read once per Executor.run (the plan cache key)

_DTYPE_NAMES = {torch.float32: "fp32", torch.float64: "fp64", torch.float16: "fp16", torch.bfloat16: "bf16",
                torch.complex64: "complex64", torch.complex128: "complex128"}


def _checkable(t: Any) -> bool:
    return isinstance(t, torch.Tensor) and (t.is_floating_point() or t.is_complex()) and t.device.type != "meta"


def _finite(t: torch.Tensor) -> bool:
    return t.numel() == 0 or bool(torch.isfinite(t).all())


def nan_inf_error(t: torch.Tensor, op: str, tensor: str = "", detail: str = "") -> PreconditionNotMetError:
    """Paddle 2.6's error for a tensor holding NaN or Inf, with its counts."""
    t = t.detach()
    num_nan = int(torch.isnan(t).sum())
    num_inf = int(torch.isinf(t).sum())
    num_zero = int((t == 0).sum())
    dev = "cpu" if t.device.type == "cpu" else f"gpu:{t.device.index or 0}"
    dtype = _DTYPE_NAMES.get(t.dtype, str(t.dtype).replace("torch.", ""))
    msg = (f"There are NAN or INF (num_nan={num_nan}, num_inf={num_inf}, num_zero={num_zero}) in [device={dev}, "
           f"op={op}, tensor={tensor}, dtype={dtype}]. FLAGS_check_nan_inf is set, so the run stops at the first op "
           "that produces one")
    return PreconditionNotMetError(msg + (f" ({detail})" if detail else ""))


def _check_outputs(out: Any, op: str, names: list[str], where: str, args: tuple = (),
                   arg_names: tuple = ()) -> None:
    items = out if type(out) in (tuple, list) else (out,)
    for i, t in enumerate(items):
        for x in (t if type(t) in (tuple, list) else (t,)):  # a list: a LoDTensorArray
            if _checkable(x) and not _finite(x):
                # an op that updates an input in place (an optimizer's parameter) returns it: name the input
                name = next((n for a, n in zip(args, arg_names) if a is x and n), None)
                raise nan_inf_error(x, op, name or (names[i] if i < len(names) else ""), where)


# --- static programs -----------------------------------------------------------------------------------------
def _checked(fn: Callable, op: str, names: list[str], where: str, arg_names: tuple) -> Callable:
    def checked(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        _check_outputs(out, op, names, where, args, arg_names)
        return out

    checked.__name__ = checked.__qualname__ = f"{op}_checked"
    return checked


def instrument(gm: fx.GraphModule) -> fx.GraphModule:
    """Check the outputs of every recorded op of `gm` (a plan's own copy, changed in place)."""
    changed = False
    for n in gm.graph.nodes:
        op = n.meta.get("op_type")
        if n.op != "call_function" or not op:
            continue
        names = list(n.meta.get("out_names") or ())
        if len(names) <= 1:  # a single output: var_name follows renames (an optimizer's parameter update)
            names = [n.meta.get("var_name") or (names[0] if names else n.name)]
        frame = n.meta.get("stack")
        where = f"the op was recorded at {frame}" if frame else ""
        arg_names = tuple(a.meta.get("var_name") if isinstance(a, fx.Node) else None for a in n.args)
        n.target = _checked(n.target, op, names, where, arg_names)
        changed = True
    if changed:
        gm.recompile()
    return gm


# --- dygraph -------------------------------------------------------------------------------------------------
_UNINITIALISED = ("empty", "new_empty", "empty_like", "empty_strided", "new_empty_strided", "empty_permuted",
                  "resize_", "set_")


def _tensors(args: Any, kwargs: dict) -> list[torch.Tensor]:
    out: list[torch.Tensor] = []
    stack = list(args) + list(kwargs.values())
    while stack:
        a = stack.pop()
        if isinstance(a, torch.Tensor):
            out.append(a)
        elif type(a) in (list, tuple):
            stack.extend(a)
    return out


def _explicit_nonfinite(args: Any, kwargs: dict) -> bool:
    stack = list(args) + list(kwargs.values())
    while stack:
        a = stack.pop()
        if isinstance(a, float) and not (a - a == 0):  # inf or nan
            return True
        if type(a) in (list, tuple):
            stack.extend(a)
    return False


def _inputs_finite(args: Any, kwargs: dict) -> bool:
    return all(_finite(t) for t in _tensors(args, kwargs) if _checkable(t))


def op_frame(depth: int = 2, limit: int = 40) -> tuple[Any, str] | None:
    """(frame, op type) of the innermost registry op call running, from the Python stack."""
    f = sys._getframe(depth)
    while f is not None and limit > 0:
        loc = f.f_locals
        od = loc.get("opdef")
        if od is None and f.f_code.co_name == "front":
            od = f.f_globals.get("opdef")
        if od is not None and hasattr(od, "impl") and isinstance(getattr(od, "type", None), str):
            return f, od.type
        for v in loc.values():
            od = getattr(v, "__paddle_op__", None) if callable(v) else None
            if od is not None:
                return f, od.type
        f = f.f_back
        limit -= 1
    return None


def _grad_op_name(node: Any) -> str:
    name = re.sub(r"Backward\d*$", "", node.name())
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() + "_grad"


def _first_bad(value: Any) -> torch.Tensor | None:
    """The first tensor of an op's result (paddle Tensors, torch tensors, tuples / lists) holding NaN or Inf."""
    items = value if type(value) in (tuple, list) else (value,)
    for v in items:
        t = getattr(v, "_t", v)
        if type(t) in (tuple, list):
            bad = _first_bad(t)
            if bad is not None:
                return bad
        elif _checkable(t) and not _finite(t):
            return t
    return None


def _defer(frame: Any, op: str, detail: str) -> bool:
    """Decide when the op running in `frame` returns: raise if its result holds NaN or Inf (a torch operation
    inside an op body may make an Inf that the body then removes, e.g. a clamped log). False when the Python
    trace hook is taken (a debugger, coverage): then the caller raises at once."""
    if frame.f_trace is not None:
        return getattr(frame.f_trace, "__paddle_nan_check__", False)
    if sys.gettrace() is not None:
        return False

    def on_event(fr: Any, event: str, arg: Any) -> Any:
        if event == "return":
            sys.settrace(None)
            bad = _first_bad(arg)
            if bad is not None:
                raise nan_inf_error(bad, op, "", detail)
        return on_event

    on_event.__paddle_nan_check__ = True  # type: ignore[attr-defined]
    frame.f_trace = on_event
    frame.f_trace_lines = False
    sys.settrace(_no_trace)  # the frame's own hook runs only while a thread trace function is set
    return True


def _no_trace(frame: Any, event: str, arg: Any) -> None:
    return None


class DygraphCheck(torch.utils._python_dispatch.TorchDispatchMode):
    """The dygraph check (see the module docstring)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        kwargs = kwargs or {}
        if MODE.static or func.__name__.split(".")[0] in _UNINITIALISED:
            return func(*args, **kwargs)
        mutable = func._schema.is_mutable
        before = _inputs_finite(args, kwargs) if mutable else None
        out = func(*args, **kwargs)
        bad = _first_bad(out)
        if bad is None or _explicit_nonfinite(args, kwargs):
            return out
        if not (before if mutable else _inputs_finite(args, kwargs)):
            return out  # the NaN / Inf came in: the op that made it was reported, or it was put there on purpose
        node = torch._C._current_autograd_node()
        if node is not None:
            raise nan_inf_error(bad, _grad_op_name(node), "", f"torch {func} in the backward of {node.name()}")
        found = op_frame()
        if found is None:
            raise nan_inf_error(bad, str(func.overloadpacket).replace("aten.", ""), "", f"torch {func}")
        frame, op = found
        if not _defer(frame, op, f"torch {func} made it"):
            raise nan_inf_error(bad, op, "", f"torch {func}")
        return out


_MODE: list[DygraphCheck] = []


def _on_flag(value: Any) -> None:
    on = bool(value)
    ENABLED[0] = on
    if on and not _MODE:
        m = DygraphCheck()
        m.__enter__()
        _MODE.append(m)
    elif not on and _MODE:
        _MODE.pop().__exit__(None, None, None)


flags.watch("FLAGS_check_nan_inf", _on_flag)
