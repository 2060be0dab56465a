"""Activation ops. One table for the argument-free ones; the rest are written out."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from paddle_compat.ops.common import tdtype, unary_body
from paddle_compat.ops.registry import op

# Paddle op type -> (torch body, exports)
SIMPLE = {
    "relu": (torch.relu, ("paddle.nn.functional.relu", "paddle.fluid.layers.relu", "paddle.Tensor.relu")),
    "tanh": (torch.tanh, ("paddle.tanh", "paddle.nn.functional.tanh", "paddle.fluid.layers.tanh",
                          "paddle.Tensor.tanh")),
    "sigmoid": (torch.sigmoid, ("paddle.nn.functional.sigmoid", "paddle.fluid.layers.sigmoid",
                                "paddle.Tensor.sigmoid")),
    "softsign": (F.softsign, ("paddle.nn.functional.softsign",)),
    "tanh_shrink": (lambda t: t - torch.tanh(t), ("paddle.nn.functional.tanhshrink",)),
    "logsigmoid": (F.logsigmoid, ("paddle.nn.functional.log_sigmoid",)),
    "swish": (F.silu, ("paddle.nn.functional.swish",)),
}


for _type, (_fn, _exports) in SIMPLE.items():
    _ip = {"relu": "relu_", "tanh": "tanh_"}.get(_type)
    globals()[_type] = op(_type, exports=_exports, inplace=_ip)(unary_body(_fn))


def _softmax_fast(x, axis=-1, dtype=None, name=None):
    return torch.softmax(x._t, axis) if dtype is None and type(axis) is int else None


@op("softmax", exports=("paddle.nn.functional.softmax",), inplace="softmax_", fast=_softmax_fast)
def softmax(x, axis=-1, dtype=None, name=None):
    return torch.softmax(x if dtype is None else x.to(tdtype(dtype)), axis)


@op("gelu", exports=("paddle.nn.functional.gelu",))
def gelu(x, approximate=False, name=None):
    return F.gelu(x, approximate="tanh" if approximate else "none")


@op("leaky_relu", exports=("paddle.nn.functional.leaky_relu",))
def leaky_relu(x, negative_slope=0.01, name=None):
    return F.leaky_relu(x, negative_slope)


@op("relu6", exports=("paddle.nn.functional.relu6",))
def relu6(x, name=None):
    """min(max(x, 0), 6); the gradient is 0 at exactly 0 and 6, as Paddle's kernel (clamp's would be 1)."""
    return F.relu6(x)


@op("elu", exports=("paddle.nn.functional.elu",), inplace="elu_")
def elu(x, alpha=1.0, name=None):
    return torch.where(x > 0, x, alpha * torch.expm1(x))


@op("selu", exports=("paddle.nn.functional.selu",))
def selu(x, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717, name=None):
    if scale <= 1.0:
        raise ValueError(f"paddle.nn.functional.selu: The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"paddle.nn.functional.selu: The alpha must be no less than zero. Received: {alpha}.")
    return scale * torch.where(x > 0, x, alpha * torch.expm1(x))


@op("hard_shrink", exports=("paddle.nn.functional.hardshrink",))
def hardshrink(x, threshold=0.5, name=None):
    return torch.where(torch.abs(x) > threshold, x, torch.zeros_like(x))


@op("softshrink", exports=("paddle.nn.functional.softshrink",))
def softshrink(x, threshold=0.5, name=None):
    if threshold < 0:
        raise ValueError("paddle.nn.functional.softshrink: The threshold must be no less than zero. "
                         f"Received: {threshold}.")
    return torch.where(x > threshold, x - threshold, torch.where(x < -threshold, x + threshold, torch.zeros_like(x)))


@op("hard_sigmoid", exports=("paddle.nn.functional.hardsigmoid",))
def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    return torch.clamp(x * slope + offset, 0.0, 1.0)


@op("hard_swish", exports=("paddle.nn.functional.hardswish",))
def hardswish(x, name=None):
    return x * torch.clamp(x + 3.0, 0.0, 6.0) / 6.0


@op("brelu", exports=("paddle.nn.functional.hardtanh",))
def hardtanh(x, min=-1.0, max=1.0, name=None):  # noqa: A002 - Paddle's names
    return torch.clamp(x, min, max)


@op("softplus", exports=("paddle.nn.functional.softplus",))
def softplus(x, beta=1, threshold=20, name=None):
    return torch.where(x * beta > threshold, x, torch.log1p(torch.exp(x * beta)) / beta)


@op("thresholded_relu", exports=("paddle.nn.functional.thresholded_relu",))
def thresholded_relu(x, threshold=1.0, name=None):
    return torch.where(x > threshold, x, torch.zeros_like(x))


@op("log_softmax", exports=("paddle.nn.functional.log_softmax",))
def log_softmax(x, axis=-1, dtype=None, name=None):
    from paddle_compat.ops.common import tdtype

    d = tdtype(dtype)
    return torch.log_softmax(x if d is None else x.to(d), dim=axis)


@op("maxout", exports=("paddle.nn.functional.maxout",))
def maxout(x, groups, axis=1, name=None):
    if axis not in (1, -1, 3):
        raise ValueError("paddle.nn.functional.maxout: Attr(axis) should be 1 when data format is NCHW, -1 or 3 "
                         f"when data format is NHWC. Received Attr(axis): {axis}.")
    axis = axis % x.dim()
    c = x.shape[axis]
    if groups <= 0 or c % groups:
        raise ValueError(f"paddle.nn.functional.maxout: the number of channels of x ({c}) must be divisible by "
                         f"groups ({groups})")
    shape = list(x.shape[:axis]) + [c // groups, groups] + list(x.shape[axis + 1:])
    return x.reshape(shape).amax(dim=axis + 1)


@op("prelu", exports=("paddle.nn.functional.prelu",))
def prelu(x, weight, data_format="NCHW", name=None):
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError("paddle.nn.functional.prelu: data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', "
                         f"'NLC', 'NHWC', 'NDHWC' but receive {data_format!r}")
    w = weight.reshape(-1)
    if w.numel() > 1:
        axis = 1 if data_format[1] == "C" else x.dim() - 1
        if x.shape[axis] != w.numel():
            raise ValueError(f"paddle.nn.functional.prelu: weight has {w.numel()} elements but x has "
                             f"{x.shape[axis]} channels (shape {list(x.shape)}, data_format {data_format})")
        shape = [1] * x.dim()
        shape[axis] = w.numel()
        w = w.reshape(shape)
    return torch.where(x > 0, x, x * w)


_ACTS = {
    "relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "softmax": lambda t: torch.softmax(t, -1),
    "gelu": F.gelu, "leaky_relu": F.leaky_relu, "relu6": F.relu6, "elu": F.elu, "softplus": F.softplus,
    "softsign": F.softsign, "swish": F.silu, "hard_swish": F.hardswish, "hard_sigmoid": F.hardsigmoid,
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


def act_layer(x, act: str | None):
    """Outside op bodies (fluid adapters): record / run the activation as its own Paddle op."""
    if not act:
        return x
    from paddle_compat.ops.registry import OPS

    if act not in OPS:
        raise ValueError(f"unsupported activation {act!r}")
    return OPS[act].public(x)
