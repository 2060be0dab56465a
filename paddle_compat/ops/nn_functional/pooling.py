"""Pooling: Paddle's `pool2d` op and its 2.x spellings."""

from __future__ import annotations

import torch.nn.functional as F

from paddle_compat.ops.common import as_int_list
from paddle_compat.ops.nn_functional.conv import conv_padding
from paddle_compat.ops.registry import export, op


def _pair(v):
    vals = as_int_list(v)
    return vals * 2 if len(vals) == 1 else vals


@op("pool2d")
def pool2d_op(x, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0, global_pooling=False,
              ceil_mode=False, exclusive=True, data_format="NCHW"):
    channel_last = data_format == "NHWC"
    if channel_last:
        x = x.permute(0, 3, 1, 2)
    if pool_type not in ("max", "avg"):
        raise ValueError(f"pool2d: pool_type should be 'max' or 'avg', but received {pool_type!r}")
    if global_pooling:
        out = x.amax(dim=(2, 3), keepdim=True) if pool_type == "max" else x.mean(dim=(2, 3), keepdim=True)
    else:
        k, s = _pair(pool_size), _pair(pool_stride)
        pad, extra = conv_padding(pool_padding, k, s, [1, 1], list(x.shape[2:]))
        if extra is not None:
            x = F.pad(x, extra, value=float("-inf") if pool_type == "max" else 0.0)
        if pool_type == "max":
            out = F.max_pool2d(x, k, s, pad, ceil_mode=ceil_mode)
        else:
            out = F.avg_pool2d(x, k, s, pad, ceil_mode=ceil_mode, count_include_pad=not exclusive)
    return out.permute(0, 2, 3, 1) if channel_last else out


def fluid_pool2d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,  # noqa: A002
                 global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
                 data_format="NCHW"):
    return pool2d_op(input, pool_size=pool_size, pool_type=pool_type, pool_stride=pool_stride,
                     pool_padding=pool_padding, global_pooling=global_pooling, ceil_mode=ceil_mode,
                     exclusive=exclusive, data_format=data_format)


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCHW",
               name=None):
    if return_mask:
        from paddle_compat.core.errors import UnsupportedAPIError

        raise UnsupportedAPIError("paddle.nn.functional.max_pool2d(return_mask=True)")
    return pool2d_op(x, pool_size=kernel_size, pool_type="max",
                     pool_stride=kernel_size if stride is None else stride, pool_padding=padding,
                     ceil_mode=ceil_mode, data_format=data_format)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCHW", name=None):
    return pool2d_op(x, pool_size=kernel_size, pool_type="avg",
                     pool_stride=kernel_size if stride is None else stride, pool_padding=padding,
                     ceil_mode=ceil_mode, exclusive=exclusive, data_format=data_format)


export(fluid_pool2d, "paddle.fluid.layers.pool2d")
export(max_pool2d, "paddle.nn.functional.max_pool2d")
export(avg_pool2d, "paddle.nn.functional.avg_pool2d")
