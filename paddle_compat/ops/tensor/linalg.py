"""Linear algebra (python/paddle/tensor/linalg.py): mm, bmm, dot, mv, cross, dist, norm, cholesky, inverse,
histogram. Full reductions give shape [1]; `dot` of 2-D inputs gives [N, 1] (Paddle 2.4's DotInferMeta)."""

from __future__ import annotations

import math

import torch

from paddle_compat.ops.common import as_int, as_int_list, scalar_shape
from paddle_compat.ops.registry import op


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ValueError(msg)


@op("mm", exports=("paddle.mm", "paddle.Tensor.mm"))
def mm(input, mat2, name=None):  # noqa: A002
    return torch.matmul(input, mat2)


@op("bmm", exports=("paddle.bmm", "paddle.Tensor.bmm"))
def bmm(x, y, name=None):
    _check(x.dim() == 3 and y.dim() == 3, f"paddle.bmm: x and y must be 3-D, got {list(x.shape)} and {list(y.shape)}")
    _check(x.shape[0] == y.shape[0] and x.shape[2] == y.shape[1],
           f"paddle.bmm: x {list(x.shape)} and y {list(y.shape)} must be [B, M, K] and [B, K, N]")
    return torch.bmm(x, y)


@op("dot", exports=("paddle.dot", "paddle.Tensor.dot"))
def dot(x, y, name=None):
    _check(x.dim() in (1, 2) and list(x.shape) == list(y.shape),
           f"paddle.dot: x and y must be 1-D or 2-D with the same shape, got {list(x.shape)} and {list(y.shape)}")
    return (x * y).sum(-1, keepdim=True)


@op("mv", exports=("paddle.mv", "paddle.Tensor.mv"))
def mv(x, vec, name=None):
    _check(x.dim() == 2 and vec.dim() == 1 and x.shape[1] == vec.shape[0],
           f"paddle.mv: x must be [M, N] and vec [N], got {list(x.shape)} and {list(vec.shape)}")
    return torch.mv(x, vec)


@op("cross", exports=("paddle.cross", "paddle.Tensor.cross"))
def cross(x, y, axis=9, name=None):
    _check(list(x.shape) == list(y.shape), f"paddle.cross: x {list(x.shape)} and y {list(y.shape)} must match")
    if axis == 9 or axis is None:  # Paddle's DEFAULT_AXIS: the first dim of size 3
        dims = [i for i, d in enumerate(x.shape) if d == 3]
        _check(bool(dims), f"paddle.cross: no dim of size 3 in shape {list(x.shape)}")
        axis = dims[0]
    axis = as_int(axis)
    _check(x.shape[axis] == 3, f"paddle.cross: dim {axis} of shape {list(x.shape)} must be 3")
    return torch.linalg.cross(x, y, dim=axis)


def _vector_norm(x, p, dims, keepdim):
    if p == "fro":
        p = 2.0
    return torch.linalg.vector_norm(x, ord=float(p), dim=dims, keepdim=keepdim)


@op("p_norm", exports=("paddle.norm", "paddle.Tensor.norm"))
def norm(x, p="fro", axis=None, keepdim=False, name=None):
    if isinstance(p, str) and p != "fro":
        raise ValueError(f"paddle.norm: p must be 'fro' or a number, got {p!r}")
    if axis is None:
        out = _vector_norm(x, p, None, keepdim)
        return out.reshape([1] * x.dim()) if keepdim else scalar_shape(out)
    axes = as_int_list(axis)
    _check(len(axes) in (1, 2), f"paddle.norm: axis must be an int or a list of 2 ints, got {axis}")
    if len(axes) == 2 and p != "fro":
        return torch.linalg.matrix_norm(x, ord=p, dim=tuple(axes), keepdim=keepdim)
    return _vector_norm(x, p, axes, keepdim)


@op("dist", exports=("paddle.dist", "paddle.Tensor.dist"))
def dist(x, y, p=2, name=None):
    d = (x - y).flatten()
    p = float(p)
    if p == 0:
        return scalar_shape((d != 0).sum().to(d.dtype) + 0 * d.sum())  # keeps the (zero) gradient path
    return scalar_shape(torch.linalg.vector_norm(d, ord=p if math.isfinite(p) else p))


@op("cholesky", exports=("paddle.cholesky", "paddle.Tensor.cholesky"))
def cholesky(x, upper=False, name=None):
    return torch.linalg.cholesky(x, upper=upper)


@op("inverse", exports=("paddle.inverse", "paddle.Tensor.inverse"))
def inverse(x, name=None):
    _check(x.dim() >= 2 and x.shape[-1] == x.shape[-2],
           f"paddle.inverse: x must be a (batch of) square matrix, got shape {list(x.shape)}")
    return torch.linalg.inv(x)


@op("histogram", exports=("paddle.histogram", "paddle.Tensor.histogram"), differentiable=False)
def histogram(input, bins=100, min=0, max=0, name=None):  # noqa: A002
    src = input.flatten().to(torch.float64)
    lo, hi = float(min), float(max)
    if lo == 0 and hi == 0 and src.numel():
        lo, hi = float(src.min()), float(src.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    _check(hi > lo, f"paddle.histogram: max ({max}) must be larger than min ({min})")
    return torch.histc(src, bins=int(bins), min=lo, max=hi).to(torch.int64)
