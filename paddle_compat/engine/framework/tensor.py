"""`paddle.Tensor` for dygraph mode: a thin wrapper over one `torch.Tensor`.

Why a wrapper and not a torch.Tensor subclass: Paddle's Tensor API clashes with torch's on most common
names (`shape` is a list, `dtype` is a Paddle dtype, `reshape`/`sum`/`max` take `axis`, `stop_gradient`
inverts `requires_grad`), and `__torch_function__` subclasses pay torch's slow Python dispatch on every
op. A slotted wrapper keeps the per-op cost to one attribute read per argument.

`stop_gradient` is `not requires_grad`: Paddle and torch propagate it the same way (an op's result
needs a gradient when any input does). Setting `stop_gradient=True` on a non-leaf detaches it, which is
what Paddle's gradient pruning does.

Integer and bool tensors: Paddle lets them say `stop_gradient=False` and differentiates them (the gradient of an
int32 tensor is int32: `paddle.sum(x).backward()` gives x.grad = [1, 1, 1]). Torch cannot make an integer tensor
require a gradient, so such a Tensor carries a float64 *shadow* (`_shadow`): a leaf with the same values that does
require one. Ops given a Tensor with a shadow (engine/framework/dispatch.py `shadow_call`) also run on the shadows and
hand their outputs one (integer outputs) or a gradient path to them (float outputs, e.g. `cast`); `backward()`,
`grad` and `gradient()` of an integer Tensor go through its shadow, the gradient cast to its dtype as Paddle's
integer kernels give it. `INT_GRAD[0]` turns on once such a Tensor exists, so ordinary programs never look.
Not followed: Paddle refuses to accumulate integer gradients (an integer tensor used twice, `(x * x).sum()`, or
a second backward() into the same leaf raise (Unimplemented) there); the shadows add them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import autograd_engine
from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core import numpy_scalars
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.mode import TENSOR_TYPES
from paddle_compat.engine.core.place import CPUPlace, CUDAPlace, Place, get_device_place, to_place
from paddle_compat.engine.framework.lookup import P


# set once an integer / bool Tensor gets stop_gradient=False (a shadow): only then do ops look for shadows
INT_GRAD = [False]

numpy_scalars.install()  # float(x.numpy()) of shape [1] values under numpy 2, as legacy code does

# numpy print options for Tensor reprs, set by paddle.set_printoptions (engine/ops/tensor/framework_api.py)
PRINT_OPTIONS: dict = {}


# How a Tensor over a torch DTensor prints: registered by paddle2/distributed/auto_parallel.py (framework sits below it).
DIST_REPR: list[Any] = []


class TensorMethods:
    """Methods shared by dygraph `Tensor` and static `Variable`; registry ops attach themselves here."""

    __slots__ = ()


class Tensor(TensorMethods):
    # _shadow: the float64 stand-in of an integer Tensor with stop_gradient=False (module docstring); _retained:
    # the value whose gradient retain_grads() keeps after an in-place op replaced `_t` (dispatch.write_result)
    __slots__ = ("_t", "name", "persistable", "_retained", "_shadow", "_zeroed", "__weakref__")

    def __init__(self, value: Any = None, dtype: Any = None, place: Any = None, persistable: bool = False,
                 zero_copy: bool = False, name: str | None = None, stop_gradient: bool = True) -> None:
        t = _as_torch(value if value is not None else [], dtype, place)
        self._t = t
        self.name = name or _tmp_name()
        self.persistable = persistable
        if not stop_gradient:
            self.stop_gradient = False

    # --- construction helpers ------------------------------------------------------------------
    @classmethod
    def _wrap(cls, t: torch.Tensor) -> "Tensor":
        obj = object.__new__(cls)
        obj._t = t
        obj.name = None
        obj.persistable = False
        return obj

    # --- attributes -----------------------------------------------------------------------------
    @property
    def shape(self) -> list[int]:
        return list(self._t.shape)

    @property
    def dtype(self) -> _dt.DType:
        return _dt.from_torch(self._t.dtype)

    @property
    def place(self) -> Place:
        d = self._t.device
        return CUDAPlace(d.index or 0) if d.type == "cuda" else CPUPlace()

    @property
    def ndim(self) -> int:
        return self._t.dim()

    def dim(self) -> int:
        return self._t.dim()

    def ndimension(self) -> int:
        return self._t.dim()

    @property
    def size(self) -> int:
        return self._t.numel()

    @property
    def stop_gradient(self) -> bool:
        # `_shadow` is unset on almost every Tensor (ops wrap results without it): getattr's default then
        return not self._t.requires_grad and getattr(self, "_shadow", None) is None

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        t = self._t
        if value:
            self._shadow = None
            if t.requires_grad:
                self._t = t.detach() if t.grad_fn is not None else t.requires_grad_(False)
        elif not t.requires_grad:
            if not (t.is_floating_point() or t.is_complex()):
                if getattr(self, "_shadow", None) is None:  # an integer / bool leaf: its float64 shadow
                    self._shadow = t.detach().to(torch.float64).requires_grad_(True)
                    INT_GRAD[0] = True
                return
            if t.grad_fn is not None:
                raise RuntimeError("stop_gradient=False can only be set on a leaf Tensor")
            t.requires_grad_(True)

    def _diff_t(self) -> torch.Tensor:
        """The torch tensor that is differentiated for this Tensor's value: its own, or an integer Tensor's shadow."""
        if not self._t.requires_grad:
            s = getattr(self, "_shadow", None)
            if s is not None:
                return s
        return self._t

    def _autograd_t(self) -> torch.Tensor:
        """The torch tensor that carries this Tensor's gradient: what retain_grads() kept before an in-place op,
        else `_diff_t()`."""
        r = getattr(self, "_retained", None)
        return r if r is not None else self._diff_t()

    @property
    def is_leaf(self) -> bool:
        return self._autograd_t().is_leaf

    @property
    def grad(self) -> "Tensor | None":
        t = self._autograd_t()
        if not t.is_leaf and not t.retains_grad:
            return None  # Paddle: no gradient kept for an intermediate (torch would warn here)
        g = self._grad_tensor()
        if g is None:
            return None
        return Tensor._wrap(g if g.dtype == self._t.dtype else g.to(self._t.dtype))  # a shadow's: Paddle's dtype

    def _grad_tensor(self) -> "torch.Tensor | None":
        """The torch gradient the optimizers update with: `_autograd_t().grad`, or, after clear_gradient() with
        set_to_zero, Paddle's zero gradient, made now (a parameter the last backward did not reach)."""
        t = self._autograd_t()
        if t.grad is None and getattr(self, "_zeroed", False):
            t.grad = torch.zeros_like(t)
        return t.grad

    @grad.setter
    def grad(self, value: Any) -> None:
        t = self._autograd_t()
        self._zeroed = False
        t.grad = None if value is None else _as_torch(value, None, None).to(t.dtype)

    @property
    def T(self) -> "Tensor":  # noqa: N802 - Paddle's name
        return Tensor._wrap(self._t.permute(*reversed(range(self._t.dim()))))

    @property
    def type(self) -> str:
        return "VarType.LOD_TENSOR"

    @property
    def block(self) -> Any:
        """As Paddle 2.6's eager Tensor: the global block of the default main program."""
        from paddle_compat.engine.framework.program import default_main_program

        return default_main_program().global_block()

    # Paddle 2.6's auto-parallel attributes (dist_attr, placements, process_mesh, is_dist) are defined with
    # paddle.distributed.shard_tensor (paddle2/distributed/auto_parallel.py): None on a dense tensor
    num_shard = property(lambda self: None, doc="None: a dense (not distributed) tensor")

    # --- conversions ----------------------------------------------------------------------------
    def numpy(self, *args: Any) -> np.ndarray:
        """A numpy copy of the value (as Paddle's: writing into it leaves the tensor alone; torch's numpy() would
        share the memory). Paddle's C++ method takes (and ignores) positional arguments: legacy code calls
        `x.numpy(False)`. Shape [1] results convert with float() / int() as under numpy 1.x
        (engine/core/numpy_scalars.py)."""
        t = self._t.detach()
        if type(t) is not torch.Tensor and hasattr(t, "full_tensor"):  # a distributed tensor: the global value
            t = t.full_tensor()
        if t.is_conj() or t.is_neg():  # lazy conj / neg views (conj, fft results): numpy needs the values
            t = t.resolve_conj().resolve_neg()
        if t.dtype == torch.bfloat16:
            return t.float().cpu().numpy()
        if t.device.type != "cpu":
            return t.cpu().numpy()
        return t.numpy().copy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.numpy()
        return a.astype(dtype) if dtype is not None else a

    def item(self, *args: int) -> Any:
        if args:
            return self._t.detach()[args].item() if len(args) > 1 else self._t.detach().flatten()[args[0]].item()
        if self._t.numel() != 1:
            raise ValueError(f"Tensor.item(): only a Tensor with one element can be converted, got shape {self.shape}")
        return self._t.item()

    def tolist(self) -> list:
        t = self._t
        if type(t) is not torch.Tensor and hasattr(t, "full_tensor"):  # a distributed tensor: the global value
            t = t.full_tensor()
        return t.tolist()

    def __len__(self) -> int:
        if self._t.dim() == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._t.shape[0]

    def __bool__(self) -> bool:
        return bool(self._t.detach())

    def __float__(self) -> float:
        return float(self._t.detach())

    def __int__(self) -> int:
        return int(self._t.detach())

    def __index__(self) -> int:
        return int(self._t.detach())

    def __hash__(self) -> int:
        return id(self)

    def __iter__(self):
        for i in range(len(self)):
            yield Tensor._wrap(self._t[i])

    def __repr__(self) -> str:
        if type(self._t) is not torch.Tensor and hasattr(self._t, "full_tensor") and DIST_REPR:
            return DIST_REPR[0](self)  # paddle.distributed.shard_tensor's tensors (paddle2/distributed/auto_parallel.py)
        with np.printoptions(**PRINT_OPTIONS):
            body = np.array2string(self.numpy(), separator=", ", prefix="       ")
        return (f"Tensor(shape={self.shape}, dtype={self.dtype.name}, place={self.place}, "
                f"stop_gradient={self.stop_gradient},\n       {body})")

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> "Tensor":
        new = type(self)._wrap(self._t.detach().clone().requires_grad_(self._t.requires_grad))
        new.name = self.name
        new.persistable = self.persistable
        if getattr(self, "_shadow", None) is not None:  # an integer Tensor with stop_gradient=False: a new leaf
            new.stop_gradient = False
        return new

    def __reduce_ex__(self, proto: int):
        return (_rebuild, (self.numpy(), self.stop_gradient, self.name))

    # --- autograd -------------------------------------------------------------------------------
    def backward(self, grad_tensor: Any = None, retain_graph: bool = False) -> None:
        s = self._diff_t()
        if s is not self._t:  # an integer loss: through its shadow
            g = None if grad_tensor is None else _as_torch(grad_tensor, None, None).to(s.dtype)
            autograd_engine.backward([s], [torch.ones_like(s) if g is None else g], retain_graph=retain_graph)
            return
        if not self._t.requires_grad:
            raise RuntimeError(
                "Tensor.backward(): this Tensor has stop_gradient=True, so it has no gradient graph; "
                "set stop_gradient=False on the inputs that need gradients"
            )
        if type(grad_tensor).__name__ == "BackwardStrategy":  # fluid 1.7/1.8: loss.backward(backward_strategy)
            grad_tensor = None
        g = None if grad_tensor is None else _as_torch(grad_tensor, None, None)
        if g is None and self._t.numel() != 1:
            g = torch.ones_like(self._t)  # Paddle seeds a non-scalar loss with ones
        node = self._t.grad_fn
        if node is not None and node.metadata.get("paddle_freed"):
            raise _backward_twice_error()  # torch would allow it where nothing was saved ((x + 1).sum()); Paddle not
        if g is None:  # torch's checks of an implicit seed
            autograd_errors("Tensor.backward", self._t.backward, retain_graph=retain_graph)
        else:
            autograd_errors("Tensor.backward", autograd_engine.backward, [self._t], [g], retain_graph=retain_graph)
        if node is not None and not retain_graph:
            node.metadata["paddle_freed"] = True

    def gradient(self) -> np.ndarray | None:
        g = self.grad
        return None if g is None else g._t.detach().cpu().numpy()

    def clear_gradient(self, set_to_zero: bool = True) -> None:
        """Paddle's clear_gradient: with set_to_zero the gradient reads as zeros (`grad`, the optimizers) until a
        backward writes one. The zeros are not stored: the next backward then hands its gradient over as torch's
        does after zero_grad(), instead of adding it into a zero-filled buffer (a fill and an add per parameter per
        step); `_grad_tensor` makes them for a parameter that backward does not reach."""
        t = self._autograd_t()
        if t.grad is not None or not set_to_zero:
            self._zeroed = set_to_zero
            t.grad = None

    clear_grad = clear_gradient

    def retain_grads(self) -> None:
        """Keep this intermediate's gradient after backward() (Tensor.grad); a no-op on leaves."""
        t = self._autograd_t()
        if t.requires_grad and not t.is_leaf:
            t.retain_grad()

    def detach(self) -> "Tensor":
        return Tensor._wrap(self._t.detach())

    def register_hook(self, hook):
        def _h(g):
            r = hook(Tensor._wrap(g))
            return None if r is None else _as_torch(r, None, None)

        return self._t.register_hook(_h)

    # --- placement ------------------------------------------------------------------------------
    def cpu(self) -> "Tensor":
        return Tensor._wrap(self._t.cpu())

    def cuda(self, device_id: int | None = None, blocking: bool = True) -> "Tensor":
        return Tensor._wrap(self._t.to(CUDAPlace(device_id or 0).torch_device()))

    def pin_memory(self) -> "Tensor":
        return Tensor._wrap(self._t.pin_memory() if torch.cuda.is_available() else self._t)

    def _copy_to(self, place: Any, blocking: bool = True) -> "Tensor":
        return Tensor._wrap(self._t.to(to_place(place).torch_device()))

    def set_value(self, value: Any) -> None:
        src = _as_torch(value, None, None)
        if isinstance(value, (np.ndarray, Tensor)) and src.dtype != self._t.dtype:
            # Paddle 1.8 and 2.6 refuse a numpy array / Tensor of another dtype (an AssertionError) rather than cast
            raise AssertionError(
                f"Variable dtype not match, Variable [ {self.name} ] need tensor with dtype {self.dtype}  but load "
                f"tensor with dtype {_dt.from_torch(src.dtype)} (Tensor.set_value: cast the value first, e.g. "
                f"value.astype('{self.dtype.name}'))")
        if list(src.shape) != list(self._t.shape):
            raise ValueError(
                f"Tensor.set_value: the shape of the new value {list(src.shape)} must equal the tensor's "
                f"shape {list(self._t.shape)} (tensor {self.name})"
            )
        with torch.no_grad():
            self._t.copy_(src.to(self._t.dtype))

    def value(self) -> "Tensor":
        return self

    def get_tensor(self) -> "Tensor":
        return self

    def _numel(self) -> int:
        return self._t.numel()

    def element_size(self) -> int:
        return self._t.element_size()

    def data_ptr(self) -> int:
        return self._t.data_ptr()

    def is_tensor(self) -> bool:
        return True


def _rebuild(array: np.ndarray, stop_gradient: bool, name: str | None) -> Tensor:
    return Tensor(array, stop_gradient=stop_gradient, name=name)


_counter = [0]


def _tmp_name() -> str:
    _counter[0] += 1
    return f"generated_tensor_{_counter[0] - 1}"


def _as_torch(value: Any, dtype: Any, place: Any) -> torch.Tensor:
    """Convert anything `paddle.to_tensor` accepts into a torch tensor (copying numpy data)."""
    from paddle_compat.engine.framework.lod import LoDTensor

    tdtype = _dt.to_torch_dtype(dtype)
    device = to_place(place).torch_device() if place is not None else None
    if isinstance(value, Tensor):
        t = value._t.detach()
    elif isinstance(value, LoDTensor):
        t = value._t.detach()
    elif isinstance(value, torch.Tensor):
        t = value.detach()
    elif isinstance(value, np.ndarray):
        t = torch.from_numpy(np.array(value, copy=True))
    else:
        if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in _flatten(value)):
            value = _nested_numpy(value)
            t = torch.from_numpy(np.ascontiguousarray(value))
        else:
            arr = np.asarray(value)
            if tdtype is not None:
                pass  # Paddle casts the float64 / complex128 array straight to the dtype asked for
            elif arr.dtype == np.float64 and not isinstance(value, np.floating):
                arr = arr.astype(_dt.default_float().numpy or np.float32)  # Python floats -> default dtype
            elif arr.dtype == np.complex128 and not isinstance(value, np.complexfloating):
                # Python complex numbers -> the complex dtype of the default float dtype (complex64 for float32)
                arr = arr.astype(np.complex128 if _dt.default_float().numpy == np.float64 else np.complex64)
            elif arr.dtype.kind in "iu" and arr.dtype != np.int64 and not isinstance(value, np.generic):
                arr = arr.astype(np.int64)
            # np.ascontiguousarray makes a scalar shape [1] (Paddle 2.4); at API level 2.6 it stays 0-D
            t = torch.from_numpy(np.ascontiguousarray(arr) if arr.ndim or not LEVEL.zero_d else arr.copy())
    if tdtype is not None and t.dtype != tdtype:
        t = t.to(tdtype)
    if device is None and t.device.type == "cpu":
        device = get_device_place().torch_device()
    if device is not None and t.device != device:
        t = t.to(device)
    return t


def _flatten(v: Any):
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from _flatten(x)
    else:
        yield v


def _nested_numpy(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return np.stack([np.asarray(_nested_numpy(x)) for x in v])
    if isinstance(v, Tensor):
        return v.numpy()
    return v


def _nested_shape(v: Any, path: str) -> tuple:
    """The shape of nested lists / arrays `v`; raises ValueError naming the first element whose shape differs."""
    if isinstance(v, (list, tuple)):
        if not v:
            return (0,)
        shapes = [_nested_shape(x, f"{path}[{i}]") for i, x in enumerate(v)]
        for i, s in enumerate(shapes[1:], 1):
            if s != shapes[0]:
                raise ValueError(f"{path}[{i}] has shape {list(s)} but {path}[0] has shape {list(shapes[0])}")
        return (len(v),) + shapes[0]
    shape = getattr(v, "shape", None)
    return tuple(shape) if isinstance(shape, (tuple, list, torch.Size)) else ()


def ragged_error(data: Any, api: str, arg: str) -> Exception | None:
    """Paddle's words for nested lists of unequal lengths given to `api` (numpy's own message speaks of an
    "inhomogeneous shape" and names no API), or None if `data` is not ragged."""
    from paddle_compat.engine.core.errors import InvalidArgumentError

    if not isinstance(data, (list, tuple)):
        return None
    try:
        _nested_shape(data, arg)
    except ValueError as e:
        return InvalidArgumentError(f"{api}(): argument '{arg}' is a nested list of unequal lengths: {e}. A Tensor "
                                    "is rectangular: every list at one depth must have the same length")
    return None


def to_tensor(data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True) -> Tensor:
    """`paddle.to_tensor`. Python floats become the default dtype (float32), ints int64, as in Paddle."""
    try:
        return _to_tensor(data, dtype, place, stop_gradient)
    except ValueError as e:
        err = ragged_error(data, "paddle.to_tensor", "data")
        if err is None:
            raise
        raise err from e


def _to_tensor(data: Any, dtype: Any, place: Any, stop_gradient: bool) -> Tensor:
    from paddle_compat.engine.core.mode import MODE

    if MODE.static:
        return _to_tensor_static(data, dtype, stop_gradient)
    try:
        t = _as_torch(data, dtype, place)
    except TypeError as e:  # strings, objects: Paddle's tensor.set() raises (InvalidArgument) ValueError
        from paddle_compat.engine.core.errors import InvalidTypeError

        raise InvalidTypeError(f"paddle.to_tensor: unsupported data {type(data).__name__} ({e}); expected bool, "
                               "int, float or complex data, a numpy array of them or a Tensor") from e
    if isinstance(data, (Tensor, torch.Tensor)) and t.data_ptr() == _raw(data).data_ptr():
        t = t.clone()
    out = Tensor._wrap(t)
    if not stop_gradient:
        out.stop_gradient = False
    return out


def _to_tensor_static(data: Any, dtype: Any, stop_gradient: bool) -> Any:
    """Paddle 2.6's static to_tensor: an `assign` of the data, then a `cast` to dtype (given, else the array's;
    Python floats take the default dtype, Python ints int64); a Variable passes through (cast if asked)."""
    from paddle_compat.engine.framework.program import Variable

    assign, cast, stack = P("assign"), P("cast"), P("stack")

    if isinstance(data, Variable):
        out = data if dtype is None or _dt.to_dtype(dtype) == _dt.to_dtype(data.dtype) else cast(data, dtype)
    else:
        if isinstance(data, Tensor):
            data = data.numpy()
        if isinstance(data, (list, tuple)) and any(isinstance(d, (Variable, list, tuple)) for d in data):
            arr = None
            try:
                arr = np.array(data)
            except Exception:  # noqa: BLE001 - Variables inside: stacked as Paddle does
                pass
            if arr is None or arr.dtype == object:
                out = stack([_to_tensor_static(d, dtype, stop_gradient) for d in data])
                out.stop_gradient = stop_gradient
                return out
            data = arr
        if not isinstance(data, np.ndarray):
            data = np.array(data)
            if data.dtype.kind == "f":
                data = data.astype(_dt.default_float().numpy)
            elif data.dtype == np.int32:
                data = data.astype(np.int64)
        target = _dt.to_dtype(dtype if dtype is not None else data.dtype)
        # NOTE: Paddle's static assign stores float64 values as float32 (its protobuf limitation) and casts back.
        out = assign(data.astype(np.float32) if data.dtype == np.float64 else data)
        if _dt.to_dtype(out.dtype) != target:
            out = cast(out, target)
    out.stop_gradient = stop_gradient
    return out


def _raw(x: Any) -> torch.Tensor:
    return x._t if isinstance(x, Tensor) else x


def is_tensor(x: Any) -> bool:
    return isinstance(x, TensorMethods)  # dygraph Tensor or static Variable


def _backward_twice_error(api: str = "Tensor.backward") -> Exception:
    from paddle_compat.engine.core.errors import FatalError

    return FatalError(
        f"{api}: the gradient graph of this Tensor was already released by an earlier backward(). This "
        "may be because:\nYou calculate backward twice for the same subgraph without setting retain_graph=True. "
        "Please set retain_graph=True in the first backward/grad call.")


def autograd_errors(api: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """fn(*args, **kwargs) (a backward or grad of the autograd engine), with torch's "backward through the graph a
    second time" raised as Paddle's (Fatal) error naming `api` and retain_graph (tests/hardening/test_dygraph_errors)."""
    try:
        return fn(*args, **kwargs)
    except RuntimeError as e:
        if "backward through the graph a second time" in str(e):
            raise _backward_twice_error(api) from e
        raise

TENSOR_TYPES.append(Tensor)  # core.mode's scan for live dygraph Tensors
