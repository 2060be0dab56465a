"""Statistics (python/paddle/tensor/stat.py): std, var, median, numel. Full reductions give shape [1]."""

from __future__ import annotations

import torch

from paddle_compat.ops.common import as_int, norm_axes, reduce_result
from paddle_compat.ops.registry import op


def _moment(fn):
    def body(x, axis=None, unbiased=True, keepdim=False, name=None):
        axes = norm_axes(axis, x.dim())
        dims = axes if axes is not None else list(range(x.dim()))
        out = fn(x, dim=dims, correction=1 if unbiased else 0, keepdim=keepdim) if x.dim() else fn(x, correction=0)
        return reduce_result(out, axes, keepdim)

    return body


std = op("std", exports=("paddle.std", "paddle.Tensor.std"))(_moment(torch.std))
var = op("variance", exports=("paddle.var", "paddle.Tensor.var"))(_moment(torch.var))


@op("median", exports=("paddle.median", "paddle.Tensor.median"))
def median(x, axis=None, keepdim=False, name=None):
    """Paddle's median averages the two middle values of an even count (numpy's definition)."""
    if axis is None:
        flat = x.flatten()
        out = torch.quantile(flat.to(torch.float64) if not flat.is_floating_point() else flat, 0.5)
        out = out.to(x.dtype if x.is_floating_point() else torch.float32)
        return out.reshape([1] * x.dim()) if keepdim and x.dim() else out.reshape(1)
    ax = as_int(axis)
    src = x if x.is_floating_point() else x.to(torch.float32)
    return torch.quantile(src, 0.5, dim=ax, keepdim=keepdim)


@op("size", exports=("paddle.numel", "paddle.Tensor.numel"), differentiable=False)
def numel(x, name=None):
    return torch.tensor([x.numel()], dtype=torch.int64, device=x.device)
