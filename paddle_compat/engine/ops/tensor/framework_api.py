"""`paddle.*` functions that are not ops (python/paddle/framework/*, python/paddle/tensor/to_string.py): grad mode
switches, dtype limits (finfo / iinfo), print options, RNG state, `paddle.dtype`, `tolist`, and the Tensor
properties and storage queries of Paddle 2.x (strides, offset, is_contiguous, grad_fn, inplace_version, ...)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.framework.registry import alias, export, partial
from paddle_compat.engine.ops.tensor._helpers import is_tensorlike


def tolist(x):
    """The tensor's values as nested Python lists."""
    if not is_tensorlike(x):
        raise TypeError(f"paddle.tolist: x must be a Tensor, but got {type(x).__name__}")
    return x.tolist()


export(tolist, "paddle.tolist")
export(_dt.DType, "paddle.dtype")


# --- grad mode --------------------------------------------------------------------------------------
def is_grad_enabled() -> bool:
    """False in static mode (Paddle asks the dygraph tracer, which static mode does not have)."""
    from paddle_compat.engine.core.mode import in_static_mode

    return torch.is_grad_enabled() and not in_static_mode()


class enable_grad:  # noqa: N801 - Paddle's name
    """paddle.enable_grad: gradients are recorded inside (even under paddle.no_grad); also a decorator."""

    def __enter__(self) -> None:
        self._prev = torch.is_grad_enabled()
        torch.set_grad_enabled(True)

    def __exit__(self, *exc: Any) -> None:
        torch.set_grad_enabled(self._prev)

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with enable_grad():
                return fn(*args, **kwargs)

        return wrapper


class set_grad_enabled:  # noqa: N801 - Paddle's name
    """paddle.set_grad_enabled(mode): sets grad mode now (a plain call) and restores it on leaving a `with`."""

    def __init__(self, mode: bool) -> None:
        self._prev = torch.is_grad_enabled()
        torch.set_grad_enabled(bool(mode))

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        torch.set_grad_enabled(self._prev)


export(is_grad_enabled, "paddle.is_grad_enabled")
export(enable_grad, "paddle.enable_grad")
export(set_grad_enabled, "paddle.set_grad_enabled")


# --- dtype limits -----------------------------------------------------------------------------------
class finfo:  # noqa: N801 - Paddle's name
    """paddle.finfo(dtype): bits, eps, min, max, tiny, smallest_normal, resolution and dtype of a float dtype."""

    def __init__(self, dtype: Any) -> None:
        d = _dt.to_dtype(dtype)
        if not (d.torch.is_floating_point or d.torch.is_complex):
            raise TypeError(f"paddle.finfo: dtype must be a floating point or complex dtype, but got {d.name}")
        f = torch.finfo(d.torch)
        self.bits, self.eps, self.min, self.max = f.bits, f.eps, f.min, f.max
        self.tiny = self.smallest_normal = f.tiny
        self.resolution = f.resolution
        self.dtype = f.dtype.__str__().replace("torch.", "") if not d.torch.is_complex else d.name

    def __repr__(self) -> str:
        return (f"paddle.finfo(min={self.min}, max={self.max}, eps={self.eps}, resolution={self.resolution}, "
                f"smallest_normal={self.smallest_normal}, tiny={self.tiny}, bits={self.bits}, dtype={self.dtype})")


class iinfo:  # noqa: N801 - Paddle's name
    """paddle.iinfo(dtype): bits, min, max and dtype of an integer dtype."""

    def __init__(self, dtype: Any) -> None:
        d = _dt.to_dtype(dtype)
        if d.torch.is_floating_point or d.torch.is_complex:
            raise TypeError(f"paddle.iinfo: dtype must be an integer dtype, but got {d.name}")
        i = torch.iinfo(d.torch)
        self.bits, self.min, self.max, self.dtype = i.bits, i.min, i.max, d.name

    def __repr__(self) -> str:
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


export(finfo, "paddle.finfo")
export(iinfo, "paddle.iinfo")


# --- printing -----------------------------------------------------------------------------------------
def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None, linewidth=None):
    """How Tensors print (engine/framework/tensor.PRINT_OPTIONS, numpy's option names); numpy's own printing is left
    alone, as Paddle leaves it."""
    from paddle_compat.engine.framework.tensor import PRINT_OPTIONS

    for k, v in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                 ("linewidth", linewidth)):
        if v is not None:
            if not isinstance(v, int):
                raise TypeError(f"paddle.set_printoptions: {k} must be an int, but got {type(v).__name__}")
            PRINT_OPTIONS[k] = v
    if sci_mode is not None:
        if not isinstance(sci_mode, bool):
            raise TypeError(f"paddle.set_printoptions: sci_mode must be a bool, but got {type(sci_mode).__name__}")
        PRINT_OPTIONS.pop("formatter", None)
        PRINT_OPTIONS["suppress"] = not sci_mode
        if sci_mode:
            p = PRINT_OPTIONS.get("precision", 8)
            PRINT_OPTIONS["formatter"] = {"float_kind": lambda v: np.format_float_scientific(v, precision=p)}


export(set_printoptions, "paddle.set_printoptions")


# --- RNG state ----------------------------------------------------------------------------------------
def get_rng_state(device=None):
    """The generator states (CPU, then every CUDA device) as a list, for set_rng_state. Under use_paddle_rng(True)
    the CPU entry also holds the Paddle engine's state."""
    from paddle_compat.engine.core import paddle_rng

    states = [paddle_rng.get_state(torch.get_rng_state()) if paddle_rng.ON else torch.get_rng_state()]
    if torch.cuda.is_available() and (device is None or "gpu" in str(device) or "cuda" in str(device)):
        states += list(torch.cuda.get_rng_state_all())
    return states


def set_rng_state(state_list, device=None):
    if not isinstance(state_list, (list, tuple)) or not state_list:
        raise ValueError("paddle.set_rng_state: state_list must be the non-empty list get_rng_state returned")
    from paddle_compat.engine.core import paddle_rng

    if isinstance(state_list[0], paddle_rng.PaddleRNGState):
        paddle_rng.set_state(state_list[0])
        torch.set_rng_state(state_list[0].torch_state)
    else:
        torch.set_rng_state(state_list[0])
    if len(state_list) > 1:
        torch.cuda.set_rng_state_all(list(state_list[1:]))


export(get_rng_state, "paddle.get_rng_state")
export(set_rng_state, "paddle.set_rng_state")


def disable_signal_handler() -> None:
    """Paddle removes its C++ signal handlers here; there are none to remove on torch."""


export(disable_signal_handler, "paddle.disable_signal_handler")


class LazyGuard:
    """paddle.LazyGuard: Paddle defers parameter initialisation of Layers built inside; here they are initialised
    at once, which gives the same parameters (the guard only saves memory in Paddle)."""

    def __enter__(self) -> "LazyGuard":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


export(LazyGuard, "paddle.LazyGuard")


def check_shape(shape, op_name, expected_shape_type=(list, tuple), expected_element_type=(int,),
                expected_tensor_dtype=("int32", "int64")):
    """Paddle's static-mode argument check for a `shape`: a list / tuple of ints (or Variables), or an int32 /
    int64 Variable. Dygraph skips it, as Paddle does."""
    from paddle_compat.engine.core.mode import MODE

    if not MODE.static:
        return
    if is_tensorlike(shape):
        if expected_tensor_dtype is not None and shape.dtype.name not in expected_tensor_dtype:
            raise TypeError(f"{op_name}: the dtype of shape must be one of {list(expected_tensor_dtype)}, but got "
                            f"{shape.dtype.name}")
        return
    if not isinstance(shape, tuple(t for t in expected_shape_type if isinstance(t, type))):
        raise TypeError(f"{op_name}: shape must be a list or tuple, but got {type(shape).__name__}")
    for s in shape if expected_element_type is not None else ():
        if is_tensorlike(s):
            if expected_tensor_dtype is not None and s.dtype.name not in expected_tensor_dtype:
                raise TypeError(f"{op_name}: an element of shape that is a Tensor must be "
                                f"{' or '.join(expected_tensor_dtype)}, but got {s.dtype.name}")
        elif not isinstance(s, tuple(t for t in expected_element_type if isinstance(t, type))):
            raise TypeError(f"{op_name}: the elements of shape must be ints, but got {type(s).__name__}")


export(check_shape, "paddle.check_shape")


# --- Tensor storage and autograd properties ------------------------------------------------------------
def _strides(self) -> list:
    return list(self._t.stride())


def _offset(self) -> int:
    """The storage offset in bytes, as Paddle reports it."""
    return self._t.storage_offset() * self._t.element_size()


def _grad_fn(self):
    """The node that produced this tensor (torch's autograd node; a leaf that needs grad gives its accumulator)."""
    t = self._t
    if t.grad_fn is not None or not t.requires_grad:
        return t.grad_fn
    return t.view_as(t).grad_fn.next_functions[0][0]


def _data(self):
    return self


def _set_data(self, value) -> None:
    self.set_value(value)


export(property(_strides), "paddle.Tensor.strides")
export(property(_offset), "paddle.Tensor.offset")
export(property(_grad_fn), "paddle.Tensor.grad_fn")
export(property(lambda self: self._t._version), "paddle.Tensor.inplace_version")
partial("paddle.Tensor.inplace_version", "counts torch's in-place writes to the tensor's storage; Paddle's "
        "`x.add_(y)`-style methods rebind x to a new value here, which the count does not include")
export(property(lambda self: "NCHW"), "paddle.Tensor.layout")  # what Paddle reports for a dense tensor
export(property(_data, _set_data), "paddle.Tensor.data")
export(property(lambda self: self.grad), "paddle.Tensor.grad_")


def _method(name: str):
    def deco(fn):
        fn.__name__ = fn.__qualname__ = name
        export(fn, f"paddle.Tensor.{name}")
        return fn

    return deco


@_method("get_strides")
def _get_strides(self) -> list:
    return list(self._t.stride())


@_method("is_contiguous")
def _is_contiguous(self) -> bool:
    return self._t.is_contiguous()


@_method("contiguous")
def _contiguous(self):
    from paddle_compat.engine.framework.tensor import Tensor

    return self if self._t.is_contiguous() else Tensor._wrap(self._t.contiguous())


@_method("is_dense")
def _is_dense(self) -> bool:
    return self._t.layout == torch.strided


@_method("is_selected_rows")
def _is_selected_rows(self) -> bool:
    return False


@_method("detach_")
def _detach_(self):
    self._t = self._t.detach()
    return self


@_method("copy_")
def _copy_(self, src, blocking=True):
    """Copy src's values into this tensor (its dtype and place kept)."""
    with torch.no_grad():
        self._t.copy_(src._t if is_tensorlike(src) else torch.as_tensor(np.asarray(src)))
    return self


@_method("to")
def _to(self, *args, **kwargs):
    """Tensor.to(device), .to(dtype), .to(device, dtype, blocking) or .to(other_tensor): a converted copy (or the
    tensor itself when nothing changes)."""
    from paddle_compat.engine.core.place import Place, to_place

    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    kwargs.pop("blocking", None)
    if kwargs:
        raise TypeError(f"paddle.Tensor.to: unexpected arguments {sorted(kwargs)}")
    for a in args:
        if is_tensorlike(a):
            device, dtype = a.place, a.dtype
        elif isinstance(a, bool) or a is None:
            continue  # blocking
        elif isinstance(a, Place) or (isinstance(a, str) and a.split(":")[0] in ("cpu", "gpu", "cuda")):
            device = a
        else:
            dtype = a
    out = self
    if dtype is not None and _dt.to_dtype(dtype) is not self.dtype:
        out = out.astype(dtype)
    if device is not None:
        place = to_place(device)
        if place.torch_device() != out._t.device:
            out = out._copy_to(place)
    return out


@_method("reconstruct_from_")
def _reconstruct_from_(self, other) -> None:
    """This tensor takes other's value (shared storage), as Paddle's reconstruct_from_ does."""
    self._t = other._t


# paddle.Tensor lists these creation functions as methods (they take no tensor first: the same functions)
alias("paddle.create_parameter", "paddle.Tensor.create_parameter")
alias("paddle.fluid.layers.create_tensor", "paddle.Tensor.create_tensor")
