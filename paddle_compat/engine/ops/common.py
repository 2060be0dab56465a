"""Small helpers shared by op bodies (never user-facing)."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.errors import InvalidArgumentError, NotFoundError
from paddle_compat.engine.core.joint_trace import ACTIVE as _JOINT_TRACE
from paddle_compat.engine.core import native


def as_int(v: Any) -> int:
    if isinstance(v, torch.Tensor):
        return int(v.reshape(-1)[0].item())
    if isinstance(v, np.ndarray):
        return int(v.reshape(-1)[0])
    return int(v)


def as_int_list(v: Any) -> list[int]:
    """A shape / axis argument: int, list of ints or 1-element tensors, or a 1-D int tensor."""
    if v is None:
        return []
    if type(v) is list:  # the common case (a list of ints), cheaply
        for d in v:
            if type(d) is not int:
                break
        else:
            return list(v)
    if isinstance(v, torch.Tensor):
        return [int(x) for x in v.reshape(-1).tolist()]
    if isinstance(v, np.ndarray):
        return [int(x) for x in v.reshape(-1).tolist()]
    if isinstance(v, (list, tuple)):
        return [as_int(x) for x in v]
    return [as_int(v)]


def norm_axes(axis: Any, ndim: int) -> list[int] | None:
    """Paddle reduce axes: None or [] means all dims; negatives count from the end."""
    if axis is None:
        return None
    if type(axis) is int and -ndim <= axis < ndim:  # the common case, cheaply
        return [axis % ndim]
    axes = as_int_list(axis)
    if not axes:
        return None
    for a in axes:
        if not -max(ndim, 1) <= a < max(ndim, 1):
            raise ValueError(f"axis {a} is out of range for a tensor of rank {ndim}")
    return sorted({a % ndim if ndim else 0 for a in axes})


def scalar_shape(t: torch.Tensor) -> torch.Tensor:
    """The shape rule of a scalar result (full reductions, losses, metrics, one-element indexing): Paddle 2.4 /
    1.8 give shape [1]; at API level 2.6 (engine/core/api_level.py) it stays 0-D, as in Paddle 2.5+."""
    return t.reshape(1) if t.dim() == 0 and not LEVEL.zero_d else t


def scalar_dims() -> tuple:
    """The shape of a scalar result, for explicit inference rules: (1,), or () at API level 2.6 (scalar_shape)."""
    return () if LEVEL.zero_d else (1,)


def reduce_result(t: torch.Tensor, axes: list[int] | None, keepdim: bool) -> torch.Tensor:
    if not keepdim:
        return scalar_shape(t)
    return t


def lr_value(learning_rate: Any) -> Any:
    """An update op's learning rate as its kernels take it: a 0-d tensor from a [1] LearningRate variable, or the
    number."""
    return learning_rate.reshape(()) if isinstance(learning_rate, torch.Tensor) else learning_rate


def tdtype(d: Any) -> torch.dtype | None:
    return _dt.to_torch_dtype(d)


def current_device() -> torch.device:
    """Device for tensors an op creates: the running Executor's place, else paddle.set_device's."""
    from paddle_compat.engine.core.runtime import RUNTIME

    dev = RUNTIME.device
    if dev is not None:
        return dev
    from paddle_compat.engine.core.place import get_device_place

    return get_device_place().torch_device()


class ShapeElementError(InvalidArgumentError, TypeError):
    """A float in a 2.x creation API's shape (Paddle: ValueError in dygraph, TypeError in static mode)."""


def shape_list(shape: Any, api: str | None = None) -> list[int]:
    """A shape argument as ints. With `api` (a 2.x creation API), a float element is an error, as in Paddle 2.x;
    fluid 1.x's ops truncated it, so they pass no `api`."""
    if api is not None and isinstance(shape, (float, np.floating)):  # a float shape (not in a list): Paddle 2.x's
        raise ShapeElementError(f"{api}(): argument 'shape' (position 1) must be list or int, but got float: "
                                f"shape={shape!r}")
    if api is not None and type(shape) in (list, tuple):
        for i, d in enumerate(shape):
            if isinstance(d, (float, np.floating)) or (isinstance(d, torch.Tensor) and d.is_floating_point()):
                raise ShapeElementError(f"{api}(): argument 'shape' (position 1) must be list of int, but got "
                                        f"{type(d).__name__} at pos {i}: shape={list(shape)}")
    return as_int_list(shape)


def broadcast_align(x: torch.Tensor, y: torch.Tensor, axis: int) -> torch.Tensor:
    """Paddle 1.x elementwise `axis`: y's dims line up with x's dims starting at `axis`."""
    if axis == -1 or axis is None or y.dim() >= x.dim():
        return y
    if axis < 0:
        axis += x.dim()
    trailing = x.dim() - axis - y.dim()
    if trailing == 0:  # y lines up with x's last dims: plain broadcasting already aligns it
        return y
    if trailing < 0:
        raise ValueError(
            f"elementwise op: axis={axis} with x shape {list(x.shape)} and y shape {list(y.shape)}: "
            "y does not fit inside x starting at axis"
        )
    # Paddle also drops trailing 1s of y when they do not fit (e.g. y [C, 1] against x [N, C])
    return y.reshape(list(y.shape) + [1] * trailing)


def seq(x: Any) -> Sequence:
    return x if isinstance(x, (list, tuple)) else [x]


# channel-first / channel-last layouts by spatial rank (conv and pooling)
FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def ntuple(v: Any, n: int, what: str, api: str) -> list[int]:
    """An int or a list of n ints (kernel size, stride, dilation) as a list of n ints."""
    vals = as_int_list(v)
    if len(vals) == 1:
        return vals * n
    if len(vals) != n:
        raise ValueError(f"{api}: {what} should be an int or a list of {n} ints, but received {v}")
    return vals


def unary_body(fn: Any) -> Any:
    """The body of a one-tensor op with no attributes: `fn(x)`. Dygraph calls `fn` directly
    (`__paddle_eager__`, see engine/framework/dispatch.make_public) to skip this frame."""

    def body(x, name=None):
        return fn(x)

    body.__paddle_eager__ = fn
    return body


def require_kernel_dtype(api: str, kernel: str, dtype: Any, supported: Sequence[str], device: str = "") -> None:
    """Paddle's NotFound error where it registers `kernel` only for the `supported` dtype names (on `device`)."""
    name = _dt.to_dtype(dtype).name
    if name not in supported:
        where = f" on {device}" if device else ""
        raise NotFoundError(f"{api}: the kernel `{kernel}` is not registered for dtype {name}{where}; supported: "
                            f"{', '.join(supported)}")


def runs_on_cpu(t: Any = None) -> bool:
    """Whether the kernel for `t` (a tensor; None: a tensor the op creates) runs on CPU: its device, or for a meta
    tensor (static shape inference) and for a creation op the device the program / dygraph runs on."""
    dev = t.device if isinstance(t, torch.Tensor) and t.device.type != "meta" else current_device()
    return dev.type == "cpu"


def check_clip_bounds(api: str, lo: Any, hi: Any) -> None:
    """Paddle 2.6.2's clip kernel check: max >= min where both are given."""
    if lo is not None and hi is not None and lo > hi:
        raise InvalidArgumentError(f"{api}: max should be greater than or equal to min. But received "
                                   f"min = {float(lo):f}, max = {float(hi):f}")


def holds_variable(v: Any) -> bool:
    """Whether a shape-like argument is, or holds, a static Variable (its value is known only when the program
    runs: shape inference gives -1 for the dims it decides)."""
    from paddle_compat.engine.framework.program import Variable

    return isinstance(v, Variable) or (isinstance(v, (list, tuple)) and any(isinstance(d, Variable) for d in v))


def spatial_unknown(spec: Any, c_axis: int) -> Any:
    """A static output Spec with its batch (0) and channel (c_axis) dims kept and the spatial ones unknown (-1)."""
    from paddle_compat.engine.framework.infer import Spec

    return Spec(tuple(d if i in (0, c_axis) else -1 for i, d in enumerate(spec.shape)), spec.dtype)


def values_readable(t: torch.Tensor) -> bool:
    """Whether a data-dependent shortcut may look at t's values: a CPU tensor (reading costs no device sync)
    outside a torch.compile trace. Such shortcuts only skip ops that would change nothing: the same bits."""
    return t.is_cpu and not torch.compiler.is_compiling() and not _JOINT_TRACE[0]


_SCALARS: dict = {}  # (value, dtype) -> its 0-d CPU tensor, never written
_SCALAR_DTYPES = (torch.float32, torch.float64)


def scalar_operand(v: Any, like: torch.Tensor) -> Any:
    """A Python float operand of an elementwise op on `like`, a float32 / float64 CPU tensor, as a 0-d tensor of its
    dtype (made once): torch rounds a Python float to the tensor's dtype as this tensor holds it and runs the same
    kernel, so the same bits, without the 0-d copy of the float to the dtype that torch makes at every call (a
    MobileNetV3-small training step made 348). Eager code only (a traced graph would hold the tensor as a
    constant); anything else is returned as it is."""
    dtype = like.dtype
    if type(v) is not float or dtype not in _SCALAR_DTYPES or like.device.type != "cpu":
        return v
    key = (v, dtype) if v else (v, dtype, math.copysign(1.0, v))  # 0.0 == -0.0: a key each
    t = _SCALARS.get(key)
    if t is None:
        if len(_SCALARS) >= 64:  # bounded whatever the schedule (a NaN key never hits)
            _SCALARS.clear()
        t = _SCALARS[key] = torch.tensor(v, dtype=dtype)
    return t


_HSW_GRAD = native.function("hard_swish_grad")
_HSG_GRAD = native.function("hard_sigmoid_grad")


class _HardSwish(torch.autograd.Function):
    """Paddle's hard_swish. Forward: x * min(max(x + offset, 0), threshold) / scale; with the default attributes
    (3, 6, 6) that is torch's fused hardswish kernel, the same operations in the same order. Backward: Paddle's
    HardSwishGradFunctor (1.8.5 and 2.6.2), dout * ((x + offset > 0) * (2x + offset) / scale * t + (1 - t)) with
    t = (x + offset < threshold): 0 where x + offset <= 0 and the whole dout where x + offset >= threshold (torch's
    kernel gives -dout / 2 and 3 dout / 2 at the kinks), and (2x + offset) / scale rounded as Paddle rounds it.
    A NaN x gives a NaN gradient on both. Golden: act26_grads (tests/nn/test_act26_grads.py)."""

    @staticmethod
    def forward(ctx, x, threshold, scale, offset):
        ctx.save_for_backward(x)
        ctx.attrs = (threshold, scale, offset)
        if (threshold, scale, offset) == (6.0, 6.0, 3.0):
            return F.hardswish(x)
        return x * torch.clamp(x + offset, 0.0, threshold) / scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        threshold, scale, offset = ctx.attrs
        if _HSW_GRAD is not None:  # the same operations in one pass (engine/core/native), where it applies
            dx = _HSW_GRAD(g, x, threshold, scale, offset)
            if dx is not None:
                return dx, None, None, None
        a = x + offset
        slope = x.mul(2.0).add_(offset).div_(scale)
        slope.masked_fill_(a <= 0.0, 0.0).masked_fill_(a >= threshold, 1.0)
        return g * slope, None, None, None


def _hard_sigmoid(x: torch.Tensor, slope, offset, into: bool = False) -> torch.Tensor:
    """min(max(x * slope + offset, 0), 1): the product's buffer takes the add and the clip (no temporaries), the
    float operands as scalar_operand's tensors; `into`: x's own buffer (paddle_hard_sigmoid_)."""
    s = scalar_operand(slope, x)
    return (x.mul_(s) if into else torch.mul(x, s)).add_(scalar_operand(offset, x)).clamp_(0.0, 1.0)


def paddle_hard_sigmoid_(x: torch.Tensor, slope=0.1666667, offset=0.5) -> torch.Tensor:
    """paddle_hard_sigmoid's value without gradient, written into x (a float tensor nothing else reads)."""
    return _hard_sigmoid(x, slope, offset, into=True)


class _HardSigmoid(torch.autograd.Function):
    """Paddle's hard_sigmoid: min(max(x * slope + offset, 0), 1); its gradient dout * (0 < out < 1) * slope is 0
    where the output is exactly 0 or 1 (torch's clamp passes the gradient there)."""

    @staticmethod
    def forward(ctx, x, slope, offset):
        out = _hard_sigmoid(x, slope, offset)
        ctx.save_for_backward(out)
        ctx.slope = slope
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        if _HSG_GRAD is not None:  # the same operations in one pass (engine/core/native), where it applies
            dx = _HSG_GRAD(g, out, ctx.slope)
            if dx is not None:
                return dx, None, None
        return g * ((out > 0.0) & (out < 1.0)).to(g.dtype) * ctx.slope, None, None


def paddle_hard_swish(x: torch.Tensor, threshold=6.0, scale=6.0, offset=3.0) -> torch.Tensor:
    """Paddle's hard_swish with its gradient (`_HardSwish`); under torch.compile the same formula through autograd."""
    if x.is_floating_point() and not torch.compiler.is_compiling():
        if x.requires_grad and torch.is_grad_enabled():
            return _HardSwish.apply(x, float(threshold), float(scale), float(offset))
        if (threshold, scale, offset) == (6.0, 6.0, 3.0):  # no gradient: the forward alone (_HardSwish's)
            return F.hardswish(x)
    return x * torch.clamp(x + offset, 0.0, threshold) / scale


def paddle_hard_sigmoid(x: torch.Tensor, slope=0.1666667, offset=0.5) -> torch.Tensor:
    """Paddle's hard_sigmoid with its gradient (`_HardSigmoid`)."""
    if torch.compiler.is_compiling() or not x.is_floating_point():  # a traced graph's ops; integers promote
        return torch.clamp(x * slope + offset, 0.0, 1.0)
    if x.requires_grad and torch.is_grad_enabled():
        return _HardSigmoid.apply(x, slope, offset)
    return _hard_sigmoid(x, slope, offset)  # _HardSigmoid's forward


_ACTS = {
    "relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "softmax": lambda t: torch.softmax(t, -1),
    "gelu": F.gelu, "leaky_relu": lambda t: F.leaky_relu(t, 0.02), "relu6": F.relu6, "elu": F.elu,
    "softplus": F.softplus, "softsign": F.softsign, "swish": F.silu, "hard_swish": paddle_hard_swish,
    "hard_sigmoid": lambda t: paddle_hard_sigmoid(t, 0.2, 0.5),
    "log_softmax": lambda t: torch.log_softmax(t, -1), "abs": torch.abs, "exp": torch.exp,
    "square": torch.square, "sqrt": torch.sqrt,
}


def apply_act(t: torch.Tensor, act: str | None) -> torch.Tensor:
    """Inside an op body: apply an activation given by its Paddle name."""
    if not act:
        return t
    try:
        return _ACTS[act](t)
    except KeyError:
        raise ValueError(f"unsupported activation {act!r}; expected one of {sorted(_ACTS)}") from None
