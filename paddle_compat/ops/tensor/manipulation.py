"""Shape manipulation ops needed by the static core (reshape, flatten, transpose, concat, ...)."""

from __future__ import annotations

import torch

from paddle_compat.ops.common import as_int, as_int_list
from paddle_compat.ops.registry import op


def _paddle_reshape_shape(x: torch.Tensor, shape) -> list[int]:
    """Paddle's reshape: 0 copies the input dim at that position, -1 is inferred."""
    dims = as_int_list(shape)
    return [x.shape[i] if d == 0 else d for i, d in enumerate(dims)]


@op("reshape2", exports=("paddle.reshape", "paddle.Tensor.reshape"), inplace="reshape_")
def reshape(x, shape, name=None):
    return x.reshape(_paddle_reshape_shape(x, shape))


@op("flatten_contiguous_range", exports=("paddle.flatten", "paddle.Tensor.flatten"), inplace="flatten_")
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    if x.dim() == 0:
        return x.reshape(1)
    return torch.flatten(x, as_int(start_axis), as_int(stop_axis))


@op("flatten2")
def flatten2(x, axis=1, name=None):
    """fluid.layers.flatten: a 2-D result [prod(shape[:axis]), prod(shape[axis:])]."""
    outer = 1
    for d in x.shape[:axis]:
        outer *= d
    return x.reshape(outer, -1) if x.numel() else x.reshape(outer, 0)


@op("transpose2", exports=("paddle.transpose", "paddle.Tensor.transpose"))
def transpose(x, perm, name=None):
    return x.permute(*as_int_list(perm))


@op("concat", exports=("paddle.concat",))
def concat(x, axis=0, name=None):
    return torch.cat(list(x), dim=as_int(axis))


@op("squeeze2", exports=("paddle.squeeze", "paddle.Tensor.squeeze"), inplace="squeeze_")
def squeeze(x, axis=None, name=None):
    if axis is None:
        return x.squeeze()
    axes = [a % max(x.dim(), 1) for a in as_int_list(axis)]
    keep = [d for i, d in enumerate(x.shape) if not (i in axes and d == 1)]
    return x.reshape(keep)


@op("unsqueeze2", exports=("paddle.unsqueeze", "paddle.Tensor.unsqueeze"), inplace="unsqueeze_")
def unsqueeze(x, axis, name=None):
    out = x
    for a in as_int_list(axis):
        out = out.unsqueeze(a if a >= 0 else a + out.dim() + 1)
    return out
