"""Batch normalization with Paddle's semantics.

Paddle's `momentum` weighs the *old* running value (running = m * running + (1 - m) * batch), the
opposite of torch, and the running variance is updated with the biased batch variance. The momentum is a float32
attribute: a float64 model's running statistics use float32(0.9), not 0.9 (tests/nn/test_hgnet26.py).
"""

from __future__ import annotations

import struct

import torch

from paddle_compat.engine.core import native
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.common import as_int_list
from paddle_compat.engine.framework.dispatch import body_shortcut
from paddle_compat.engine.framework.registry import export, op


@op("batch_norm", is_test_attr="is_test", helper=("batch_norm", 3, (2,)))  # saved mean, saved variance, Y
def batch_norm_op(x, running_mean, running_var, weight=None, bias=None, is_test=False, momentum=0.9,
                  epsilon=1e-05, data_format="NCHW", use_global_stats=False):
    channel_last = data_format not in ("NCHW", "NCL", "NC", "NCDHW") and x.dim() > 2
    if channel_last:
        x = x.movedim(-1, 1)
    weight, bias = _param_as(weight, x.dtype), _param_as(bias, x.dtype)
    if is_test or use_global_stats:  # torch's kernel as F.batch_norm calls it in eval, without its Python wrapper
        y = torch.batch_norm(x, weight, bias, _param_as(running_mean, x.dtype), _param_as(running_var, x.dtype),
                             False, 0.0, epsilon, torch.backends.cudnn.enabled)
    elif x.numel() == x.shape[1]:
        y = x.clone()  # one element per channel: Paddle's kernel copies x to y and keeps the running statistics
    else:
        y = train_batch_norm(x, running_mean, running_var, weight, bias, momentum, epsilon)
    return y.movedim(1, -1) if channel_last else y


def _param_as(t, dtype):
    """A scale / shift / running statistic in the dtype torch's kernel takes with an input of `dtype`: its own for a
    float32 one with a float16 / bfloat16 input (the mixed form), else the input's (a float32 input with the
    float16 parameters a layer made under paddle.set_default_dtype('float16'): Paddle computes in the input's)."""
    if t is None or t.dtype == dtype or (t.dtype == torch.float32 and dtype in (torch.float16, torch.bfloat16)):
        return t
    return t.to(dtype)


_BN_STATS = native.function("batch_norm_stats_update")


def train_batch_norm(x, running_mean, running_var, weight, bias, momentum, epsilon):
    """Training-mode batch norm over dim 1 through torch's fused kernel (forward and backward a few times faster than
    the same formula in separate ops: torch's var over the non-channel dims alone is slower than the whole kernel),
    with Paddle's running-stat update: running = m * running + (1 - m) * batch, the variance biased. The kernel
    gives the batch mean and 1 / sqrt(var + epsilon); the variance is recovered from the latter (its statistics
    are accumulated in double)."""
    y, mean, invstd = torch.native_batch_norm(x, weight, bias, None, None, True, 0.0, epsilon)
    momentum = _f32(momentum)
    # the update below in one call (engine/core/native), where it applies: the same bits (not in a torch.compile
    # trace, which cannot see into it: dynamo would break the graph at every batch norm)
    if _BN_STATS is not None and not torch.compiler.is_compiling() and \
            _BN_STATS(running_mean, running_var, mean, invstd, momentum, epsilon):
        return y
    with torch.no_grad():
        var = invstd.double().pow(-2).sub_(epsilon).clamp_(min=0).to(running_var.dtype)
        running_mean.mul_(momentum).add_(mean.to(running_mean.dtype) * (1.0 - momentum))
        running_var.mul_(momentum).add_(var * (1.0 - momentum))
    return y


def _f32(v) -> float:
    """v rounded to float32 (Paddle's float attributes)."""
    return struct.unpack("f", struct.pack("f", float(v)))[0]


def normalize_with_batch_stats(x, mean, var, shape, running_mean, running_var, weight, bias, momentum, epsilon):
    """Training-mode batch norm given the batch statistics (local, or synced across places by
    sync_batch_norm): Paddle's running-stat update, then normalize, scale and shift."""
    momentum = _f32(momentum)
    with torch.no_grad():
        running_mean.mul_(momentum).add_(mean.detach() * (1.0 - momentum))
        running_var.mul_(momentum).add_(var.detach() * (1.0 - momentum))
    y = (x - mean.reshape(shape)) * torch.rsqrt(var.reshape(shape) + epsilon)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


_BN_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9, epsilon=1e-05,
               data_format="NCHW", use_global_stats=None, name=None):
    """paddle.nn.functional.batch_norm"""
    if data_format not in _BN_FORMATS:
        raise ValueError("paddle.nn.functional.batch_norm: data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', "
                         f"'NLC', 'NHWC', 'NDHWC' but receive {data_format}")
    return batch_norm_op(x, running_mean, running_var, weight, bias, is_test=not training, momentum=momentum,
                         epsilon=epsilon, data_format=data_format, use_global_stats=bool(use_global_stats))


export(batch_norm, "paddle.nn.functional.batch_norm")


def batch_norm_shortcut(x, running_mean, running_var, weight, bias, training, momentum, epsilon, data_format,
                        use_global_stats):
    """A paddle.nn BatchNorm layer's dygraph call as F.batch_norm computes it (dispatch.body_shortcut of its
    batch_norm op), or None: the layer then calls F.batch_norm."""
    if data_format not in _BN_FORMATS:
        return None
    return body_shortcut(batch_norm_op, x, running_mean, running_var, weight, bias, is_test=not training,
                         momentum=momentum, epsilon=epsilon, data_format=data_format,
                         use_global_stats=bool(use_global_stats))


@op("layer_norm", exports=("paddle.nn.functional.layer_norm",), helper=("layer_norm", 3, (2,)))  # mean, var, Y
def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalize over the trailing dims given by normalized_shape; weight / bias may be flattened."""
    shape = as_int_list(normalized_shape)
    if list(x.shape[x.dim() - len(shape):]) != shape:
        raise ValueError(f"paddle.nn.functional.layer_norm: Given normalized_shape is {shape}, expected input "
                         f"with shape [*, {str(shape)[1:]}, but got input shape {list(x.shape)}")
    if len(shape) == x.dim() and LEVEL.name == "2.6":
        # 2.6.2's LayerNormInferMeta requires begin_norm_axis (rank - len(normalized_shape)) > 0; 2.4's only
        # requires it < rank, so normalizing over every dim of the input computes there (tests/api_level)
        raise InvalidArgumentError(f"paddle.nn.functional.layer_norm: 'begin_norm_axis' in Op(LayerNorm) should be "
                                   f"greater than zero. But received [{x.dim() - len(shape)}]: normalized_shape "
                                   f"{shape} covers every dim of the input (shape {list(x.shape)}); Paddle 2.5+ "
                                   "normalizes over trailing dims after at least one leading dim")
    w = weight.reshape(shape) if weight is not None else None
    b = bias.reshape(shape) if bias is not None else None
    return torch.nn.functional.layer_norm(x, shape, w, b, epsilon)


@op("instance_norm", exports=("paddle.nn.functional.instance_norm",))
def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Per-sample, per-channel normalization over the spatial dims (Paddle always uses the input stats). Paddle's
    instance_norm kernel takes dim 1 as the channels whatever data_format says (an 'NLC' / 'NHWC' input is
    normalized as if it were 'NCL' / 'NCHW'), and so does this."""
    c = x.shape[1]
    for what, t in (("scale", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.shape[0] != c):
            raise InvalidArgumentError(f"paddle.nn.functional.instance_norm: ShapeError: the shape of {what} must "
                                       f"equal to [{c}]But received: the shape of {what} is {list(t.shape)}")
    axes = list(range(2, x.dim()))
    mean = x.mean(dim=axes, keepdim=True)
    var = x.var(dim=axes, unbiased=False, keepdim=True)
    y = (x - mean) * torch.rsqrt(var + eps)
    shape = [1, c] + [1] * (x.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


@op("local_response_norm", exports=("paddle.nn.functional.local_response_norm",))
def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels) ** beta."""
    api = "paddle.nn.functional.local_response_norm"
    if data_format not in ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"):
        raise ValueError(f"{api}: data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, NDHWC], "
                         f"but got {data_format}")
    if x.dim() < 3:
        raise ValueError(f"{api}: Expected 3D or higher dimensionality input, but got {x.dim()} dimensions")
    channel_last = data_format[-1] == "C"
    if channel_last:
        x = x.movedim(-1, 1)
    out = torch.nn.functional.local_response_norm(x, int(size), alpha, beta, k)
    return out.movedim(1, -1) if channel_last else out


def _normalize_compose(x, p=2, axis=1, epsilon=1e-12, name=None):
    """F.normalize in a Program as Paddle 2.4 / 2.6 record it: p_norm (keepdim), fill_constant of epsilon,
    elementwise_max, elementwise_div (named elementwise_div_0)."""
    from paddle_compat.engine.framework.lookup import P

    if len(x.shape) == 1 and axis not in (0, -1):
        return NotImplemented  # the body raises Paddle's error
    norm = P("norm")(x, p=float(p), axis=axis, keepdim=True)
    return P("divide")(x, P("maximum")(norm, P("full")([1], epsilon, x.dtype)), name=name)


@op("p_norm_normalize", exports=("paddle.nn.functional.normalize",), compose=_normalize_compose)
def normalize(x, p=2, axis=1, epsilon=1e-12, name=None):
    """x / max(||x||_p along axis, epsilon)."""
    if x.dim() == 1 and axis not in (0, -1):
        raise ValueError(f"paddle.nn.functional.normalize: Axis must be 0 or -1 when x is a 1-D tensor, "
                         f"but received axis = {axis}")
    norm = torch.linalg.vector_norm(x, ord=float(p), dim=axis, keepdim=True)
    return x / torch.clamp(norm, min=epsilon)
