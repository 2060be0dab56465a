"""Statistics (python/paddle/tensor/stat.py): std, var, median, numel. Full reductions give shape [1] (0-D at API level 2.6)."""

from __future__ import annotations

import torch

from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.ops.common import as_int, norm_axes, reduce_result, scalar_shape
from paddle_compat.engine.framework.registry import op


def _moment(fn):
    def body(x, axis=None, unbiased=True, keepdim=False, name=None):
        axes = norm_axes(axis, x.dim())
        dims = axes if axes is not None else list(range(x.dim()))
        out = fn(x, dim=dims, correction=1 if unbiased else 0, keepdim=keepdim) if x.dim() else fn(x, correction=0)
        return reduce_result(out, axes, keepdim)

    return body


def _var_compose(x, axis=None, unbiased=True, keepdim=False, name=None):
    """paddle.var in a Program as Paddle's Python composes it (python/paddle/tensor/stat.py): mean, `x - u`, its
    square, sum, then the sample count n = numel(x) / numel(out) and, unbiased, where(n > 1, n - 1, 1), and out / n
    (`tmp_N`). Paddle 2.6: `paddle.pow(d, 2)`, int64 counts divided as float32 then cast; 2.4: `d ** 2`, counts
    cast to x's dtype. A named call, or a non-float x, is our one op."""
    from paddle_compat.engine.framework.lookup import P

    if name is not None or not x.dtype.torch.is_floating_point:
        return NotImplemented
    u = P("mean")(x, axis, True)
    if LEVEL.zero_d:  # API level 2.6 (not inside a paddle.fluid call)
        out = P("sum")(P("pow")(x - u, 2), axis, keepdim=keepdim)
        n = (P("cast")(P("numel")(x), "int64") / P("cast")(P("numel")(out), "int64")).astype(x.dtype)
    else:
        out = P("sum")((x - u) ** 2, axis, keepdim=keepdim)
        n = P("cast")(P("numel")(x), x.dtype) / P("cast")(P("numel")(out), x.dtype)
    if unbiased:
        one = P("ones")([] if LEVEL.zero_d else [1], x.dtype)
        n = P("where")(n > one, n - 1.0, one)
    n.stop_gradient = True
    return out / n


def _std_compose(x, axis=None, unbiased=True, keepdim=False, name=None):
    """paddle.std in a Program: paddle.var's ops (_var_compose), then sqrt."""
    from paddle_compat.engine.framework.lookup import P

    if name is not None or not x.dtype.torch.is_floating_point:
        return NotImplemented
    return P("sqrt")(_var_compose(x, axis, unbiased, keepdim))


std = op("std", exports=("paddle.std", "paddle.Tensor.std"), compose=_std_compose)(_moment(torch.std))
var = op("variance", exports=("paddle.var", "paddle.Tensor.var"), compose=_var_compose)(_moment(torch.var))


@op("median", exports=("paddle.median", "paddle.Tensor.median"))
def median(x, axis=None, keepdim=False, name=None):
    """Paddle's median averages the two middle values of an even count (numpy's definition)."""
    if axis is None:
        flat = x.flatten()
        out = torch.quantile(flat.to(torch.float64) if not flat.is_floating_point() else flat, 0.5)
        out = out.to(x.dtype if x.is_floating_point() else torch.float32)
        return out.reshape([1] * x.dim()) if keepdim and x.dim() else scalar_shape(out)
    ax = as_int(axis)
    src = x if x.is_floating_point() else x.to(torch.float32)
    return torch.quantile(src, 0.5, dim=ax, keepdim=keepdim)


@op("size", exports=("paddle.numel", "paddle.Tensor.numel"), differentiable=False, helper="numel")
def numel(x, name=None):
    return scalar_shape(torch.tensor(x.numel(), dtype=torch.int64, device=x.device))


def _moved(x: torch.Tensor, axis, api: str):
    """(x with the reduced axes flattened into one, that axis, the keepdim shape): Paddle's quantile / nanmedian
    treat a list of axes as one."""
    dims = x.dim()
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return x.flatten(), 0, [1] * dims
    axes = [axis] if isinstance(axis, int) else list(axis)
    for a in axes:
        if not isinstance(a, int) or not -dims <= a < dims:
            raise ValueError(f"{api}: axis should be None, an int or a list of ints in [-{dims}, {dims}), got {axis}")
    axes = [a % dims for a in axes]
    keep = [1 if i in axes else d for i, d in enumerate(x.shape)]
    dst = list(range(dims - len(axes), dims))
    x = torch.movedim(x, axes, dst).flatten(dst[0], dst[-1])
    return x, x.dim() - 1, keep


def _quantile(x, q, axis, keepdim, ignore_nan, api):
    """Paddle's algorithm: sort, then interpolate linearly between neighbours in float64 (its result dtype); without
    ignore_nan a slice holding NaN gives NaN."""
    if isinstance(q, (int, float)):
        qs = [q]
    elif isinstance(q, (list, tuple)) and q:
        qs = list(q)
    else:
        raise TypeError(f"{api}: q should be a float or a non-empty list / tuple of floats, got {q!r}")
    x, ax, keep = _moved(x, axis, api)
    mask = torch.isnan(x)
    valid = (~mask).sum(ax, keepdim=True).to(torch.float64)
    s = torch.sort(x, dim=ax)[0]
    outs = []
    for qv in qs:
        if not 0 <= qv <= 1:
            raise ValueError(f"{api}: q should be in [0, 1], got {qv}")
        index = qv * (valid - 1)
        if not ignore_nan:
            index = torch.where(mask.any(ax, keepdim=True), torch.full_like(index, x.shape[ax] - 1), index)
        lo, hi = index.floor().long().clamp(min=0), index.ceil().long().clamp(min=0)
        below = torch.gather(s, ax, lo).to(torch.float64)
        upper = torch.gather(s, ax, hi).to(torch.float64)
        out = torch.lerp(below, upper, index - lo.to(torch.float64))
        outs.append(out.reshape(keep) if keepdim else out.squeeze(ax))
    out = outs[0] if len(qs) == 1 else torch.stack(outs, 0)
    return reduce_result(out, None if axis is None else [0], keepdim)


@op("quantile", exports=("paddle.quantile", "paddle.Tensor.quantile"))
def quantile(x, q, axis=None, keepdim=False):
    return _quantile(x, q, axis, keepdim, False, "paddle.quantile")


@op("nanquantile", exports=("paddle.nanquantile", "paddle.Tensor.nanquantile"))
def nanquantile(x, q, axis=None, keepdim=False):
    return _quantile(x, q, axis, keepdim, True, "paddle.nanquantile")


@op("nanmedian", exports=("paddle.nanmedian", "paddle.Tensor.nanmedian"))
def nanmedian(x, axis=None, keepdim=False, name=None):
    """The median of the non-NaN values (the mean of the two middle ones for an even count), in x's dtype."""
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise ValueError("paddle.nanmedian: axis list should not be empty")
    y, ax, keep = _moved(x, axis, "paddle.nanmedian")
    valid = (~torch.isnan(y)).sum(ax, keepdim=True)
    s = torch.sort(y, dim=ax)[0]  # NaN sorts last
    lo = ((valid - 1).clamp(min=0) // 2)
    hi = (valid // 2).clamp(max=max(y.shape[ax] - 1, 0))
    src = s if s.is_floating_point() else s.to(torch.float64)
    out = (torch.gather(src, ax, lo) + torch.gather(src, ax, hi)) / 2
    out = torch.where(valid == 0, torch.full_like(out, float("nan")), out).to(x.dtype)
    out = out.reshape(keep) if keepdim else out.squeeze(ax)
    return reduce_result(out, None if axis is None else [0], keepdim)
