"""Gather / scatter family of python/paddle/tensor/manipulation.py (2.x): take_along_axis / put_along_axis
(with Paddle's broadcasting of indices), take, index_add / index_fill / index_put, masked_fill, select_scatter,
diagonal_scatter and fill_diagonal_ / fill_diagonal_tensor. In-place `_` variants share the bodies."""

from __future__ import annotations

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.common import as_int
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.ops.tensor._helpers import make_inplace_api


def _check_index(api: str, index: torch.Tensor, what: str = "index") -> None:
    if not isinstance(index, torch.Tensor):
        raise TypeError(f"{api}: {what} must be a Tensor, but got {type(index).__name__}")
    if index.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"{api}: the dtype of {what} must be int32 or int64, but got {str(index.dtype)[6:]}")


def _along_axis(api: str, arr: torch.Tensor, indices: torch.Tensor, axis) -> int:
    if arr.dim() != indices.dim():
        raise ValueError(f"{api}: indices (shape {list(indices.shape)}) and arr (shape {list(arr.shape)}) must have "
                         "the same number of dimensions")
    _check_index(api, indices, "indices")
    axis = as_int(axis)
    return axis + arr.dim() if axis < 0 else axis


def _broadcast_shape(arr, indices, axis):
    """Paddle's infer_broadcast_shape: arr's shape with indices' size at axis, unless indices is larger."""
    if any(a < i for a, i in zip(arr.shape, indices.shape)):
        return None
    shape = list(arr.shape)
    shape[axis] = indices.shape[axis]
    return shape


@op("take_along_axis", exports=("paddle.take_along_axis", "paddle.Tensor.take_along_axis"))
def take_along_axis(arr, indices, axis, broadcast=True):
    axis = _along_axis("paddle.take_along_axis", arr, indices, axis)
    if broadcast:
        shape = _broadcast_shape(arr, indices, axis) or list(indices.shape)
        indices = indices.broadcast_to(shape)
        shape = list(shape)
        shape[axis] = arr.shape[axis]
        arr = arr.broadcast_to(shape)
    return torch.gather(arr, axis, indices.long())


_REDUCE = {"add": "sum", "mul": "prod", "multiply": "prod", "mean": "mean", "amin": "amin", "amax": "amax"}


def _put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True):
    api = "paddle.put_along_axis"
    axis = _along_axis(api, arr, indices, axis)
    if not isinstance(values, torch.Tensor):
        values = torch.tensor(values, dtype=arr.dtype, device=arr.device)
    if broadcast:
        shape = _broadcast_shape(arr, indices, axis)
        if shape:
            indices = indices.broadcast_to(shape)
        values = values.broadcast_to(indices.shape)
    elif values.numel() == 1:
        values = values.reshape([1] * indices.dim()).broadcast_to(indices.shape)
    values = values.to(arr.dtype)
    if reduce == "assign":
        return arr.scatter(axis, indices.long(), values)
    if reduce not in _REDUCE:
        raise ValueError(f"{api}: reduce must be one of 'assign', {', '.join(map(repr, _REDUCE))}, got {reduce!r}")
    return arr.scatter_reduce(axis, indices.long(), values, _REDUCE[reduce], include_self=include_self)


put_along_axis = op("put_along_axis", exports=("paddle.put_along_axis", "paddle.Tensor.put_along_axis"))(
    _put_along_axis)


def put_along_axis_(arr, indices, values, axis, reduce="assign", include_self=True):
    return make_inplace_api(put_along_axis, "put_along_axis_")(arr, indices, values, axis, reduce, include_self)


export(put_along_axis_, "paddle.Tensor.put_along_axis_")


@op("take", exports=("paddle.take", "paddle.Tensor.take"))
def take(x, index, mode="raise", name=None):
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"paddle.take: mode must be 'raise', 'wrap' or 'clip', but received {mode!r}")
    _check_index("paddle.take", index)
    flat, idx, n = x.flatten(), index.flatten().long(), x.numel()
    if mode == "raise":
        if idx.numel() and (idx.min() < -n or idx.max() >= n):
            raise IndexError(f"paddle.take: index out of range [{-n}, {n}) for x with {n} elements")
        idx = torch.where(idx < 0, idx + n, idx)
    elif mode == "wrap":
        idx = idx.remainder(n)
    else:
        idx = idx.clamp(0, n - 1)
    return flat[idx].reshape(index.shape)


@op("index_add", exports=("paddle.index_add", "paddle.Tensor.index_add"), inplace="index_add_")
def index_add(x, index, axis, value, name=None):
    _check_index("paddle.index_add", index)
    return torch.index_add(x, as_int(axis), index.long(), value.to(x.dtype))


@op("index_fill", exports=("paddle.index_fill", "paddle.Tensor.index_fill"), inplace="index_fill_")
def index_fill(x, index, axis, value, name=None):
    _check_index("paddle.index_fill", index)
    if isinstance(value, torch.Tensor):
        if value.dim() > 0 and value.numel() != 1:
            raise ValueError(f"paddle.index_fill: value must be a scalar or a 0-D tensor, got shape "
                             f"{list(value.shape)}")
        value = value.reshape(()).to(x.dtype)
    axis = as_int(axis)
    if not -x.dim() <= axis < x.dim():
        raise ValueError(f"paddle.index_fill: axis {axis} must be in [-{x.dim()}, {x.dim()})")
    return torch.index_fill(x, axis, index.long(), value)


@op("index_put", exports=("paddle.index_put", "paddle.Tensor.index_put"), inplace="index_put_")
def index_put(x, indices, value, accumulate=False, name=None):
    idx = tuple(i if i.dtype == torch.bool else i.long() for i in indices)
    return torch.index_put(x, idx, value.to(x.dtype), accumulate=accumulate)


@op("masked_fill", exports=("paddle.masked_fill", "paddle.Tensor.masked_fill"), inplace="masked_fill_")
def masked_fill(x, mask, value, name=None):
    if mask.dtype != torch.bool:
        raise TypeError(f"paddle.masked_fill: mask must be a bool tensor, but got {str(mask.dtype)[6:]}")
    if not isinstance(value, torch.Tensor):
        value = torch.tensor(value, dtype=x.dtype, device=x.device)
    return torch.where(mask, value.to(x.dtype), x)


@op("select_scatter", exports=("paddle.select_scatter", "paddle.Tensor.select_scatter"))
def select_scatter(x, values, axis, index, name=None):
    axis, index = as_int(axis), as_int(index)
    want = list(x.shape[:axis % x.dim()]) + list(x.shape[axis % x.dim() + 1:])
    if list(values.shape) != want:
        raise InvalidArgumentError(f"paddle.select_scatter: values must have the shape of the slice of x, {want}, "
                                   f"but got {list(values.shape)}")
    return torch.select_scatter(x, values.to(x.dtype), axis, index)


def _fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    # Paddle's fill_diagonal_tensor_grad gives x's gradient only: y.grad stays None
    return torch.diagonal_scatter(x, y.detach().to(x.dtype), int(offset), int(dim1), int(dim2))


fill_diagonal_tensor = op("fill_diagonal_tensor", exports=("paddle.Tensor.fill_diagonal_tensor",),
                          inplace="fill_diagonal_tensor_")(_fill_diagonal_tensor)


def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    return fill_diagonal_tensor(x, y, offset, axis1, axis2)


export(diagonal_scatter, "paddle.diagonal_scatter", "paddle.Tensor.diagonal_scatter")


@op("fill_diagonal")
def fill_diagonal(x, value, offset=0, wrap=False, name=None):
    """Paddle's kernel: every `sum(strides)`-th flat element from `offset` (staying in its row); without wrap
    only the first `dims[1] ** 2` elements of a tall matrix. A tensor of rank > 2 always wraps."""
    wrap = wrap or x.dim() != 2
    cols = x.shape[1]
    step = sum(int(torch.tensor(x.shape[i + 1:]).prod()) for i in range(x.dim()))
    size = x.numel() if wrap else min(x.numel(), cols * cols)
    pos = torch.arange(0, size, step, device=x.device)
    col = pos % cols + offset
    pos = pos[(col >= 0) & (col < cols)] + offset
    out = x.flatten().clone()
    out[pos] = torch.tensor(value, dtype=x.dtype, device=x.device)
    return out.reshape(x.shape)


export(make_inplace_api(fill_diagonal, "fill_diagonal_"), "paddle.Tensor.fill_diagonal_")
