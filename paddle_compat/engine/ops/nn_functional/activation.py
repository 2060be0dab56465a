"""Activation ops. One table for the argument-free ones; the rest are written out."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.common import (paddle_hard_sigmoid, paddle_hard_swish, tdtype, unary_body,
                                             values_readable)
from paddle_compat.engine.framework.registry import export, op

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
    "silu": (F.silu, ("paddle.nn.functional.silu",)),
}


for _type, (_fn, _exports) in SIMPLE.items():
    _ip = {"relu": "relu_", "tanh": "tanh_"}.get(_type)
    globals()[_type] = op(_type, exports=_exports, inplace=_ip)(unary_body(_fn))


SOFTMAX_CLIP = -64.0  # Paddle's softmax kernels (1.8 and 2.x, CPU and GPU) clip the shifted logits here
_CLIP_RATIO = math.exp(SOFTMAX_CLIP)


class _PaddleSoftmax(torch.autograd.Function):
    """softmax as Paddle's kernel computes it: exp(max(x - max(x), -64)) / sum, so no probability underflows to
    0 (the smallest is about 1.6e-28 of the largest); the gradient is Paddle's y * (dy - sum(dy * y)) on that y.

    NOTE: without the clip, `cross_entropy(softmax(fc(x)))` of a confidently wrong sample is -log(0) = inf and its
    gradient inf / nan, where Paddle gives 64 and a finite gradient: Paddle's test_parallel_executor_fetch_feed
    (LeNet, Momentum 0.1) turned every parameter nan at its second step (tests/fluid/test_fluidtests18.py)."""

    @staticmethod
    def forward(ctx, x, axis, y=None):
        y = torch.softmax(x, axis) if y is None else y
        y = torch.maximum(y, y.amax(axis, keepdim=True) * _CLIP_RATIO)
        ctx.save_for_backward(y)
        ctx.axis = axis
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return torch._softmax_backward_data(dy, y, ctx.axis, y.dtype), None, None


def paddle_softmax(x: torch.Tensor, axis: int) -> torch.Tensor:
    """Paddle's softmax along `axis` (shifted logits clipped at -64; see _PaddleSoftmax). On CPU, when the clip
    changes no probability (the common case), torch's own softmax is the result: the same values, and its backward
    is _PaddleSoftmax's formula on the same y, in C++ rather than in a Python function."""
    axis = axis % max(x.dim(), 1)
    if x.dim() and x.numel() and values_readable(x):
        y = torch.softmax(x, axis)
        # a row's largest probability is at least 1 / its length: with no probability below exp(-64) at all, the
        # clip changes none (one reduction; NaN fails the test and takes the exact check below)
        if (y.detach() if y.requires_grad else y).min().item() >= _CLIP_RATIO:
            return y
        with torch.no_grad():
            # a row's probabilities are all kept when its smallest is (amin / amax: two reads of y, no mask)
            if not bool((y.amin(axis, keepdim=True) < y.amax(axis, keepdim=True) * _CLIP_RATIO).any()):
                return y
        return _PaddleSoftmax.apply(x, axis, y.detach())
    return _PaddleSoftmax.apply(x, axis)


def _check_softmax_axis(x: torch.Tensor, axis: int) -> None:
    """Paddle's SoftmaxInferMeta: axis in [-R, R-1] ([-1, 0] for a 0-D x); no wrap-around."""
    r = x.dim()
    if r > 0 and not -r <= axis < r:
        raise InvalidArgumentError(f"paddle.nn.functional.softmax: Attr(axis) value should be in range [-R, R-1], R "
                                   f"is the rank of Input(X). But received axis: {axis}, R: {r}.")
    if r == 0 and axis not in (-1, 0):
        raise InvalidArgumentError("paddle.nn.functional.softmax: Attr(axis) value should be in range [-1, 0] when "
                                   f"input is 0D Tensor, but received axis: {axis}")


def _softmax_fast(x, axis=-1, dtype=None, name=None):
    if dtype is None and type(axis) is int:
        _check_softmax_axis(x._t, axis)
        return paddle_softmax(x._t, axis)
    return None


@op("softmax", exports=("paddle.nn.functional.softmax",), inplace="softmax_", fast=_softmax_fast)
def softmax(x, axis=-1, dtype=None, name=None):
    _check_softmax_axis(x, int(axis))
    return paddle_softmax(x if dtype is None else x.to(tdtype(dtype)), int(axis))


@op("gelu", exports=("paddle.nn.functional.gelu",))
def gelu(x, approximate=False, name=None):
    return F.gelu(x, approximate="tanh" if approximate else "none")


@op("leaky_relu", exports=("paddle.nn.functional.leaky_relu",), inplace="leaky_relu_")
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
    return paddle_hard_sigmoid(x, slope, offset)


@op("hard_swish", helper="hardswish")
def hard_swish(x, threshold=6.0, scale=6.0, offset=3.0, name=None):
    """Paddle's hard_swish op (its attributes: fluid.layers.hard_swish, act='hard_swish', a .pdmodel)."""
    return paddle_hard_swish(x, threshold, scale, offset)


def hardswish(x, name=None):
    """paddle.nn.functional.hardswish: the hard_swish op with its default attributes."""
    return hard_swish(x, name=name)


export(hardswish, "paddle.nn.functional.hardswish")


@op("brelu", exports=("paddle.nn.functional.hardtanh",), inplace="hardtanh_")
def hardtanh(x, min=-1.0, max=1.0, name=None):  # noqa: A002 - Paddle's names
    return torch.clamp(x, min, max)


@op("softplus", exports=("paddle.nn.functional.softplus",))
def softplus(x, beta=1, threshold=20, name=None):
    return torch.where(x * beta > threshold, x, torch.log1p(torch.exp(x * beta)) / beta)


@op("thresholded_relu", exports=("paddle.nn.functional.thresholded_relu",), inplace="thresholded_relu_")
def thresholded_relu(x, threshold=1.0, name=None):
    return torch.where(x > threshold, x, torch.zeros_like(x))


@op("log_softmax", exports=("paddle.nn.functional.log_softmax",))
def log_softmax(x, axis=-1, dtype=None, name=None):
    from paddle_compat.engine.ops.common import tdtype

    d = tdtype(dtype)
    return torch.log_softmax(x if d is None else x.to(d), dim=axis)


@op("maxout", exports=("paddle.nn.functional.maxout",))
def maxout(x, groups, axis=1, name=None):
    if int(groups) <= 1:  # Paddle's MaxOutInferMeta: groups=1 would be the identity, and Paddle refuses it
        raise InvalidArgumentError(f"paddle.nn.functional.maxout: Attr(groups) of Op(maxout) should be larger than 1. "
                                   f"But received {groups}.")
    if axis not in (1, -1, 3):
        raise ValueError("paddle.nn.functional.maxout: Attr(axis) should be 1 when data format is NCHW, -1 or 3 "
                         f"when data format is NHWC. Received Attr(axis): {axis}.")
    if x.dim() != 4:
        raise InvalidArgumentError(f"paddle.nn.functional.maxout: x's dims should be 4, but received x's dims is: "
                                   f"{x.dim()}.")
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
    if w.numel() == 1:  # the out shape is x's (PReluInferMeta): a 0-D x stays 0-D (2.5+), not broadcast to [1]
        w = w.reshape(())
    else:
        axis = 1 if data_format[1] == "C" else x.dim() - 1
        if x.shape[axis] != w.numel():
            raise ValueError(f"paddle.nn.functional.prelu: weight has {w.numel()} elements but x has "
                             f"{x.shape[axis]} channels (shape {list(x.shape)}, data_format {data_format})")
        shape = [1] * x.dim()
        shape[axis] = w.numel()
        w = w.reshape(shape)
    return torch.where(x > 0, x, x * w)


@op("celu", exports=("paddle.nn.functional.celu",))
def celu(x, alpha=1.0, name=None):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if alpha == 0:
        raise ZeroDivisionError("paddle.nn.functional.celu: alpha cannot be 0 for celu")
    return torch.where(x > 0, x, alpha * torch.expm1(x / alpha))


@op("mish", exports=("paddle.nn.functional.mish",))
def mish(x, name=None):
    """x * tanh(softplus(x)); Paddle's kernel takes softplus(x) = x above its threshold 20."""
    return x * torch.tanh(torch.where(x > 20, x, torch.log1p(torch.exp(torch.clamp(x, max=20)))))


@op("glu", exports=("paddle.nn.functional.glu",))
def glu(x, axis=-1, name=None):
    """a * sigmoid(b), a and b the two halves of x along axis."""
    rank = x.dim()
    if not -rank <= axis < rank:
        raise ValueError(f"paddle.nn.functional.glu: Expected value range of `axis` is [{-rank}, {rank}), but "
                         f"received axis: {axis}")
    if x.shape[axis] % 2:
        raise ValueError(f"paddle.nn.functional.glu: the size of x along axis {axis} ({x.shape[axis]}) should be "
                         "even")
    a, b = torch.chunk(x, 2, dim=axis)
    return a * torch.sigmoid(b)


def _rrelu_check(lower, upper) -> None:
    api = "paddle.nn.functional.rrelu"
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(f"{api}: The lower and upper values must be float type. Received: lower {lower}, upper "
                        f"{upper}.")
    if lower < 0 or lower > 1:
        raise ValueError(f"{api}: The lower value must be no less than zero or greater than one. Received: {lower}.")
    if upper < lower:
        raise ValueError(f"{api}: The upper value must be greater than lower value. Received: lower {lower}, upper "
                         f"{upper}.")
    if upper > 1:
        raise ValueError(f"{api}: The upper value must be no greater than one. Received: {upper}.")


@op("rrelu", random=True, is_test_attr="is_test")
def rrelu_op(x, lower=0.125, upper=1.0 / 3.0, is_test=False):
    """Negative inputs scaled by a slope drawn from U(lower, upper) per element in training, by
    (lower + upper) / 2 at inference."""
    if is_test:
        return torch.where(x >= 0, x, x * ((lower + upper) / 2))
    from paddle_compat.engine.ops.tensor.creation import _gen

    slope = torch.empty_like(x).uniform_(lower, upper, generator=_gen())
    return torch.where(x >= 0, x, x * slope)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    _rrelu_check(lower, upper)
    return rrelu_op(x, lower, upper, is_test=not training)


export(rrelu, "paddle.nn.functional.rrelu")


@op("gumbel_softmax", exports=("paddle.nn.functional.gumbel_softmax",), random=True)
def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """softmax((x + g) / temperature), g ~ Gumbel(0, 1); hard=True gives the one-hot of the argmax with the
    soft gradient (straight-through)."""
    from paddle_compat.engine.ops.tensor.creation import _gen

    from paddle_compat.engine.core import paddle_rng

    if paddle_rng.ON:  # Paddle's own stream (use_paddle_rng): its draws in [1e-5, 1)
        u = paddle_rng.t_gumbel_uniform(x)
    else:
        u = torch.empty_like(x).uniform_(0.0, 1.0, generator=_gen())
    tiny = torch.finfo(x.dtype).tiny
    g = -torch.log((-torch.log(u.clamp_min(tiny))).clamp_min(tiny))
    soft = torch.softmax((x + g) / temperature, dim=axis)
    if not hard:
        return soft
    one_hot = torch.zeros_like(soft).scatter_(axis, soft.argmax(dim=axis, keepdim=True), 1.0)
    return one_hot - soft.detach() + soft


# An `act="name"` string makes Paddle append the op of that type with its C++ attribute defaults (1.8.5 and 2.x
# alike), which are not always the 2.x Python function's: hard_sigmoid's slope is 0.2 (F.hardsigmoid: 1/6),
# leaky_relu's alpha 0.02 (F.leaky_relu: 0.01), brelu clips to [0, 24]. MobileNetV3's squeeze-excitation uses
# conv2d(act='hard_sigmoid'). Golden: tests/goldens/zoo18_act_strings (tests/zoo18/test_zoo18_classes.py).
# engine/ops/common.py _ACTS (activations applied inside op bodies) follows the same defaults.
ACT_OP_DEFAULTS = {
    "hard_sigmoid": {"slope": 0.2, "offset": 0.5},
    "leaky_relu": {"negative_slope": 0.02},
    "brelu": {"min": 0.0, "max": 24.0},
}
# Activation ops that are fluid layers here, not registry ops: their exported fluid function.
ACT_FLUID = {"soft_relu": "paddle.fluid.layers.soft_relu"}


def act_layer(x, act: str | None):
    """Outside op bodies (fluid adapters): record / run the activation as its own Paddle op."""
    if not act:
        return x
    from paddle_compat.engine.framework.registry import EXPORTS, OPS

    if act in ACT_FLUID:
        mod, _, attr = ACT_FLUID[act].rpartition(".")
        return EXPORTS[mod][attr](x)
    if act not in OPS:
        raise ValueError(f"unsupported activation {act!r}")
    return OPS[act].public(x, **ACT_OP_DEFAULTS.get(act, {}))
