"""Shape manipulation ops needed by the static core (reshape, flatten, transpose, concat, ...)."""

from __future__ import annotations

import builtins

import numpy as np
import torch

from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.errors import InvalidArgumentError, InvalidTypeError, OutOfRangeError
from paddle_compat.engine.framework.dispatch import inline_fast
from paddle_compat.engine.ops.common import as_int, as_int_list, require_kernel_dtype, runs_on_cpu
from paddle_compat.engine.framework.registry import op


def _paddle_reshape_shape(x: torch.Tensor, shape) -> list[int]:
    """Paddle's reshape: 0 copies the input dim at that position, -1 is inferred."""
    dims = as_int_list(shape)
    return [x.shape[i] if d == 0 else d for i, d in enumerate(dims)] if 0 in dims else dims


def _reshape_infer(x, shape, name=None):
    """Static rule: with an unknown input dim the target shape is taken as given (Paddle checks the element
    count when the program runs), so `reshape(x, [32, 10])` of a [-1, 10] input records [32, 10]."""
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.tensor._helpers import default_infer, is_tensorlike, static_dims

    dims = static_dims(shape)
    if dims is None:  # the whole shape is a Variable
        n = shape.shape[0] if len(shape.shape) == 1 and shape.shape[0] >= 0 else None
        if n is None:
            raise ValueError(f"paddle.reshape: the shape tensor {shape.name} must be 1-D with a known length")
        return Spec((-1,) * n, x.dtype)
    if -1 not in x.shape and not any(is_tensorlike(d) for d in (shape if isinstance(shape, (list, tuple)) else ())):
        return default_infer(OPS["reshape2"], (x, shape), {})
    out = [x.shape[i] if d == 0 and i < len(x.shape) else d for i, d in enumerate(dims)]
    return Spec(tuple(out), x.dtype)


# The common call: a list of ints, none of them 0 (Paddle's "copy this dim"); torch's function is cheaper than the
# method. Inline shortcuts (dispatch.inline_fast) run in the public function's own frame.
_reshape_fast = inline_fast("x, shape, name=None",
                            "torch.reshape(x._t, shape) if type(shape) is list and 0 not in shape else None")
_reshape_fast.__paddle_native__ = "reshape"  # engine/core/native: the same common call, in C, when built


@op("reshape2", exports=("paddle.reshape", "paddle.Tensor.reshape"), inplace="reshape_", infer=_reshape_infer,
    fast=_reshape_fast)
def reshape(x, shape, name=None):
    return torch.reshape(x, _paddle_reshape_shape(x, shape))


@op("flatten_contiguous_range", exports=("paddle.flatten", "paddle.Tensor.flatten"), inplace="flatten_",
    helper="flatten")
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"paddle.flatten: the input x should be a Tensor, but received {type(x).__name__}")
    for k, v in (("start_axis", start_axis), ("stop_axis", stop_axis)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise ValueError(f"paddle.flatten: {k} should be an int in [-rank(x), rank(x)), but received {v!r}")
    if x.dim() == 0:
        for k, v in (("start_axis", start_axis), ("stop_axis", stop_axis)):
            if v not in (0, -1):
                raise ValueError(f"paddle.flatten: {k} should be 0 or -1 when the input tensor is a 0-D Tensor, but "
                                 f"received {v!r}")
        return x.reshape(1)
    return torch.flatten(x, as_int(start_axis), as_int(stop_axis))


@op("flatten2", helper="flatten")
def flatten2(x, axis=1, name=None):
    """fluid.layers.flatten: a 2-D result [prod(shape[:axis]), prod(shape[axis:])]."""
    outer = 1
    for d in x.shape[:axis]:
        outer *= d
    return x.reshape(outer, -1) if x.numel() else x.reshape(outer, 0)


_transpose_fast = inline_fast("x, perm, name=None", "torch.permute(x._t, perm) if type(perm) is list else None")
_transpose_fast.__paddle_native__ = "transpose"


@op("transpose2", exports=("paddle.transpose", "paddle.Tensor.transpose"), fast=_transpose_fast, helper="transpose")
def transpose(x, perm, name=None):
    return torch.permute(x, as_int_list(perm))


def _concat_fast(x, axis=0, name=None):
    if type(axis) is not int or type(x) is not list:
        return None
    if len(x) == 2:  # the common call; unpacking skips the comprehension's frame (Python < 3.12)
        a, b = x
        return torch.cat((a._t, b._t), axis)
    return torch.cat([v._t for v in x], axis)


def _concat_spec(x, axis=0, name=None):
    """Static shape rule (Paddle's concat InferShape): an unknown (-1) dim of one input takes the size another input
    knows, as a runtime size recorded as -1 meets a known one (`F.interpolate(x, paddle.shape(y)[2:])` concatenated
    with y: PaddleSeg's UNet, DeepLabV3P, PP-LiteSeg); the concat axis is their sum, or -1 when one is unknown."""
    from paddle_compat.engine.framework.infer import _run, _specs
    from paddle_compat.engine.framework.registry import OPS

    xs = list(x)
    shapes = [list(v.shape) for v in xs]
    if (not isinstance(axis, (int, np.integer)) or not any(-1 in s for s in shapes)
            or len({len(s) for s in shapes}) != 1):
        return _specs(_run(OPS["concat"], (x, axis), {}, 12))
    rank = len(shapes[0])
    ax = int(axis) + rank if axis < 0 else int(axis)
    out = []
    for d in range(rank):
        sizes = [s[d] for s in shapes]
        known = {n for n in sizes if n >= 0}
        if d == ax:
            out.append(-1 if -1 in sizes else builtins.sum(sizes))
        elif len(known) > 1:
            raise InvalidArgumentError(f"paddle.concat (op concat): the input shapes do not fit: dim {d} is "
                                       f"{sorted(known)} in the inputs {shapes}; all dims but axis {ax} must agree")
        else:
            out.append(known.pop() if known else -1)
    dtype = torch.cat([torch.zeros(1, dtype=v.dtype.torch) for v in xs]).dtype
    return Spec(tuple(out), _dt.from_torch(dtype))


@op("concat", exports=("paddle.concat",), fast=_concat_fast, infer=_concat_spec)
def concat(x, axis=0, name=None):
    return torch.cat(list(x), dim=as_int(axis))


@op("squeeze2", exports=("paddle.squeeze", "paddle.Tensor.squeeze"), inplace="squeeze_", helper="squeeze")
def squeeze(x, axis=None, name=None):
    if axis is None:
        return x.squeeze()
    n = max(x.dim(), 1)
    axes = []
    for a in as_int_list(axis):
        cur = a + n if a < 0 else a
        if not 0 <= cur < n:  # Paddle's squeeze2 check, and its words (it reports a negative axis plus the rank)
            raise InvalidArgumentError(
                f"Each axis in Attr(axes) should be in the range of [{-n}, {n - 1}]But current axis is:{cur}, input "
                f"tensor's shape = {list(x.shape)}. (paddle.squeeze: axis={axis})")
        axes.append(cur)
    keep = [d for i, d in enumerate(x.shape) if not (i in axes and d == 1)]
    return x.reshape(keep)


def _unsqueeze_seq(t, axis):
    """A list of int axes, one after the other as the body does."""
    if type(axis) is not list:
        return None
    for a in axis:
        if type(a) is not int:
            return None
        t = torch.unsqueeze(t, a)
    return t


# torch counts a negative axis as the body does (a + dim + 1)
_unsqueeze_fast = inline_fast("x, axis, name=None",
                              "torch.unsqueeze(x._t, axis) if type(axis) is int else _unsqueeze_seq(x._t, axis)",
                              _unsqueeze_seq=_unsqueeze_seq)
_unsqueeze_fast.__paddle_native__ = "unsqueeze"


@op("unsqueeze2", exports=("paddle.unsqueeze", "paddle.Tensor.unsqueeze"), inplace="unsqueeze_", fast=_unsqueeze_fast)
def unsqueeze(x, axis, name=None):
    out = x
    for a in as_int_list(axis):
        out = out.unsqueeze(a if a >= 0 else a + out.dim() + 1)
    return out


# --- python/paddle/tensor/manipulation.py (2.x breadth) -------------------------------------------
from paddle_compat.engine.core import dtype as _dt  # noqa: E402
from paddle_compat.engine.framework.infer import Spec  # noqa: E402
from paddle_compat.engine.framework.registry import export  # noqa: E402
from paddle_compat.engine.ops.tensor._helpers import make_inplace_api  # noqa: E402, F401

export(concat, "paddle.Tensor.concat")


def _expand_shape(x: torch.Tensor, shape, api: str) -> list[int]:
    """Paddle's expand checks (C++ infermeta, so InvalidArgument): at most 6 dims, every target dim positive or -1
    (-1 only on x's own dims), x's dims of size 1 only may change."""
    dims = as_int_list(shape)
    if len(dims) > 6:
        raise InvalidArgumentError(f"{api}: the target shape {dims} has {len(dims)} dims; at most 6 are supported")
    if len(dims) < x.dim():
        raise InvalidArgumentError(f"{api}: the target shape {dims} has fewer dims than x's shape {list(x.shape)}")
    lead = len(dims) - x.dim()
    out = []
    for i, d in enumerate(dims):
        src = x.shape[i - lead] if i >= lead else 1
        if d == -1:
            if i < lead:
                raise InvalidArgumentError(f"{api}: -1 is only allowed for the existing dims of x, got shape {dims}")
            d = src
        elif d <= 0 and not (d == 0 and src == 0):
            raise InvalidArgumentError(f"{api}: dim {i} of the target shape {dims} must be positive (or -1)")
        if src != 1 and src != d:
            raise InvalidArgumentError(f"{api}: dim {i} of x ({src}) cannot be expanded to {d} (x shape "
                                       f"{list(x.shape)}, target shape {dims})")
        out.append(d)
    return out


def _expand_infer(x, shape, name=None):
    """Static rule: explicit target dims hold even where x's dim is unknown; -1 keeps x's dim."""
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.tensor._helpers import default_infer, entry_value, is_tensorlike

    if is_tensorlike(shape):
        n = shape.shape[0] if len(shape.shape) == 1 and shape.shape[0] >= 0 else None
        if n is None:
            raise ValueError(f"paddle.expand: the shape tensor {shape.name} must be 1-D with a known length")
        return Spec((-1,) * n, x.dtype)
    entries = list(shape) if isinstance(shape, (list, tuple)) else [shape]
    if -1 not in x.shape and not any(is_tensorlike(d) for d in entries):
        return default_infer(OPS["expand_v2"], (x, shape), {})
    lead = len(entries) - len(x.shape)
    out = []
    for i, n in enumerate(entry_value(d) for d in entries):
        if n is None:  # a runtime size
            out.append(-1)
        elif n == -1 and i >= lead:
            out.append(x.shape[i - lead])
        else:
            out.append(n)
    return Spec(tuple(out), x.dtype)


@op("expand_v2", exports=("paddle.expand", "paddle.Tensor.expand"), infer=_expand_infer, helper="expand")
def expand(x, shape, name=None):
    return x.expand(_expand_shape(x, shape, "paddle.expand"))


@op("broadcast_to", exports=("paddle.broadcast_to", "paddle.Tensor.broadcast_to"),
    infer=lambda x, shape, name=None: _expand_infer(x, shape))
def broadcast_to(x, shape, name=None):
    return x.expand(_expand_shape(x, shape, "paddle.broadcast_to"))


@op("expand_as_v2", exports=("paddle.expand_as", "paddle.Tensor.expand_as"))
def expand_as(x, y, name=None):
    return x.expand(_expand_shape(x, list(y.shape), "paddle.expand_as"))


@op("tile", exports=("paddle.tile", "paddle.Tensor.tile"))
def tile(x, repeat_times, name=None):
    reps = as_int_list(repeat_times)
    if len(reps) < x.dim():
        reps = [1] * (x.dim() - len(reps)) + reps
    return x.repeat(reps)


@op("split", exports=("paddle.split", "paddle.Tensor.split"))
def split(x, num_or_sections, axis=0, name=None):
    if isinstance(num_or_sections, (bool, float, np.floating)):
        raise TypeError(f"paddle.split: num_or_sections must be an int, a list or a tuple, but received "
                        f"{num_or_sections!r}")
    if isinstance(axis, (float, np.floating)):
        # Paddle 2.6: the dygraph argument parser's (InvalidArgument) ValueError, static's TypeError
        from paddle_compat.engine.core.mode import in_static_mode

        if in_static_mode():
            raise TypeError(f"paddle.split: the type of 'dim' in split must be int or a Tensor, but received "
                            f"{type(axis).__name__}")
        raise InvalidArgumentError(f"paddle.split(): argument 'axis' (position 3) must be int, but got "
                                   f"{type(axis).__name__}")
    axis = as_int(axis)
    n = x.shape[axis]
    # the shape checks are Paddle's C++ ones: (InvalidArgument)
    if isinstance(num_or_sections, int):
        if n % num_or_sections:
            raise InvalidArgumentError(f"paddle.split: dim {axis} of x (size {n}) is not divisible by "
                                       f"{num_or_sections}")
        return list(torch.split(x, n // num_or_sections, dim=axis))
    secs = as_int_list(num_or_sections)
    if secs.count(-1) > 1:
        raise InvalidArgumentError(f"paddle.split: at most one section may be -1, got {secs}")
    if -1 in secs:
        secs[secs.index(-1)] = n - (sum(secs) + 1)
    if sum(secs) != n:
        raise InvalidArgumentError(f"paddle.split: the sections {secs} must add up to dim {axis} of x (size {n})")
    return list(torch.split(x, secs, dim=axis))


@op("chunk", exports=("paddle.chunk", "paddle.Tensor.chunk"), helper="split", paddle_type="split")
def chunk(x, chunks, axis=0, name=None):
    return _split_equal(x, int(chunks), as_int(axis))


def _split_equal(x, chunks, axis):
    n = x.shape[axis]
    if n % chunks:
        raise ValueError(f"paddle.chunk: dim {axis} of x (size {n}) is not divisible by chunks={chunks}")
    return list(torch.split(x, n // chunks, dim=axis))


@op("stack", exports=("paddle.stack",))
def stack(x, axis=0, name=None):
    return torch.stack(list(x), dim=as_int(axis))


@op("unstack", exports=("paddle.unstack", "paddle.Tensor.unstack"))
def unstack(x, axis=0, num=None):
    return list(torch.unbind(x, dim=axis))


@op("unbind", exports=("paddle.unbind", "paddle.Tensor.unbind"))
def unbind(input, axis=0):  # noqa: A002
    return list(torch.unbind(input, dim=as_int(axis)))


@op("flip", exports=("paddle.flip", "paddle.Tensor.flip"))
def flip(x, axis, name=None):
    return torch.flip(x, as_int_list(axis))


@op("roll", exports=("paddle.roll", "paddle.Tensor.roll"))
def roll(x, shifts, axis=None, name=None):
    if isinstance(axis, str) or isinstance(shifts, str):
        raise TypeError(f"paddle.roll: shifts and axis must be ints, lists / tuples of ints or Tensors, but received "
                        f"shifts={shifts!r}, axis={axis!r}")
    if axis is None:
        return torch.roll(x.flatten(), as_int_list(shifts)[0]).reshape(x.shape)
    return torch.roll(x, as_int_list(shifts), as_int_list(axis))


@op("t", exports=("paddle.t", "paddle.Tensor.t"))
def t(input, name=None):  # noqa: A002
    if input.dim() > 2:
        raise ValueError(f"paddle.t: the input must be at most 2-D, got shape {list(input.shape)}; "
                         "use paddle.transpose")
    return input.t() if input.dim() == 2 else input.clone()


def _index(index: torch.Tensor, api: str) -> torch.Tensor:
    if index.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"{api}: index must be an int32 or int64 tensor, got {_dt.from_torch(index.dtype).name}")
    return index.long()


@op("gather", exports=("paddle.gather", "paddle.Tensor.gather"))
def gather(x, index, axis=None, name=None):
    idx = _index(index, "paddle.gather")
    if idx.dim() > 1:
        idx = idx.reshape(-1)
    ax = as_int(axis) if axis is not None else 0
    if idx.dim() == 0 and LEVEL.zero_d:  # a 0-D index drops the axis (2.5+); 2.4 kept it as size 1
        return torch.index_select(x, ax, idx.reshape(1)).squeeze(ax)
    return torch.index_select(x, ax, idx)


@op("gather_nd", exports=("paddle.gather_nd", "paddle.Tensor.gather_nd"))
def gather_nd(x, index, name=None):
    idx = _index(index, "paddle.gather_nd")
    k = idx.shape[-1]
    return x[tuple(idx[..., i] for i in range(k))]


_INDEX_SELECT_CPU = ("float32", "float64", "int32", "int64", "complex64", "complex128", "bfloat16")


@op("index_select", exports=("paddle.index_select", "paddle.Tensor.index_select"))
def index_select(x, index, axis=0, name=None):
    """Paddle's kernel checks are C++ ones: a non-integer index or axis is (InvalidArgument), an axis outside
    [-rank, rank) is (OutOfRange) IndexError."""
    api = "paddle.index_select"
    if not isinstance(x, torch.Tensor):
        raise InvalidArgumentError(f"{api}: x must be a Tensor, but received {type(x).__name__}")
    if not isinstance(index, torch.Tensor) or index.dtype not in (torch.int32, torch.int64):
        got = _dt.from_torch(index.dtype).name if isinstance(index, torch.Tensor) else type(index).__name__
        raise InvalidArgumentError(f"{api}: index must be an int32 or int64 Tensor, but received {got}")
    if isinstance(axis, (bool, float, np.floating)):
        raise InvalidArgumentError(f"{api}: axis must be an int, but received {axis!r}")
    if runs_on_cpu(x):  # 2.6.2's CPU kernel (2.4's: float32 / float64 / int32 / int64; we keep 2.6.2's additions)
        require_kernel_dtype(api, "index_select", x.dtype, _INDEX_SELECT_CPU, "CPU")
    axis = as_int(axis)
    if not -max(x.dim(), 1) <= axis < max(x.dim(), 1):
        raise OutOfRangeError(f"{api}: axis {axis} is out of range [-{x.dim()}, {x.dim()}) of x (shape "
                              f"{list(x.shape)})")
    return torch.index_select(x, axis, index.long().reshape(-1))


@op("index_sample", exports=("paddle.index_sample", "paddle.Tensor.index_sample"))
def index_sample(x, index):
    if x.dim() != 2 or index.dim() != 2 or x.shape[0] != index.shape[0]:
        raise ValueError(f"paddle.index_sample: x and index must be 2-D with the same first dim, got x shape "
                         f"{list(x.shape)} and index shape {list(index.shape)}")
    return torch.gather(x, 1, _index(index, "paddle.index_sample"))


def _first_dim_unknown(x, mask, name=None):
    return Spec((-1,), x.dtype)


@op("masked_select", exports=("paddle.masked_select", "paddle.Tensor.masked_select"), infer=_first_dim_unknown)
def masked_select(x, mask, name=None):
    if mask.dtype != torch.bool:
        raise InvalidTypeError(f"paddle.masked_select: mask must be a bool tensor, got "
                               f"{_dt.from_torch(mask.dtype).name}")  # Paddle's kernel check: (InvalidArgument)
    return torch.masked_select(x, mask)


@op("scatter", exports=("paddle.scatter", "paddle.Tensor.scatter"), inplace="scatter_")
def scatter(x, index, updates, overwrite=True, name=None):
    idx = _index(index, "paddle.scatter").reshape(-1)
    if overwrite:
        return x.index_put((idx,), updates)
    return x.index_put((idx,), torch.zeros_like(updates)).index_put((idx,), updates, accumulate=True)


def _scatter_nd_add(x, idx, updates):
    k = idx.shape[-1]
    return x.index_put(tuple(idx[..., i] for i in range(k)), updates, accumulate=True)


@op("scatter_nd_add", exports=("paddle.scatter_nd_add", "paddle.Tensor.scatter_nd_add"))
def scatter_nd_add(x, index, updates, name=None):
    return _scatter_nd_add(x, _index(index, "paddle.scatter_nd_add"), updates)


@op("scatter_nd", exports=("paddle.scatter_nd", "paddle.Tensor.scatter_nd"))
def scatter_nd(index, updates, shape, name=None):
    zeros = torch.zeros(as_int_list(shape), dtype=updates.dtype, device=updates.device)
    return _scatter_nd_add(zeros, _index(index, "paddle.scatter_nd"), updates)


def _clamp_range(start: int, end: int, n: int) -> tuple[int, int]:
    start = start + n if start < 0 else start
    end = end + n if end < 0 else end
    return min(max(start, 0), n), min(max(end, 0), n)


_COLONS = tuple((builtins.slice(None),) * k for k in range(8))


def _slice_fast(input, axes, starts, ends):  # noqa: A002
    """One axis in [0, 8) given by lists of ints: torch's basic slicing clamps the bounds as the body's
    `_clamp_range` does (a negative bound counts from the end, then both are clamped into the dim, an end before
    the start is empty), and costs less than the body's narrow; torch raises for an axis past x's dims."""
    if type(axes) is list and len(axes) == 1 and type(starts) is list and type(ends) is list:
        a = axes[0]
        if type(a) is int and 0 <= a < 8 and len(starts) == 1 and len(ends) == 1:
            s, e = starts[0], ends[0]
            if type(s) is int and type(e) is int:
                return input._t[_COLONS[a] + (builtins.slice(s, e),)] if a else input._t[s:e]
    return None


_slice_fast.__paddle_native__ = "slice"


@op("slice", exports=("paddle.slice", "paddle.Tensor.slice"), fast=_slice_fast)
def slice(input, axes, starts, ends):  # noqa: A001, A002
    out = input
    for a, s, e in zip(as_int_list(axes), as_int_list(starts), as_int_list(ends)):
        s, e = _clamp_range(s, e, input.shape[a])
        out = out.narrow(a, s, max(e - s, 0))
    return out


@op("strided_slice", exports=("paddle.strided_slice", "paddle.Tensor.strided_slice"))
def strided_slice(x, axes, starts, ends, strides, name=None):
    out = x
    for a, s, e, st in zip(as_int_list(axes), as_int_list(starts), as_int_list(ends), as_int_list(strides)):
        if st == 0:
            raise ValueError("paddle.strided_slice: strides must not be 0")
        idx = list(range(*_strided_range(s, e, st, x.shape[a])))
        out = torch.index_select(out, a, torch.tensor(idx, dtype=torch.long, device=x.device))
    return out


def _strided_range(s: int, e: int, st: int, n: int) -> tuple[int, int, int]:
    """Paddle's strided_slice bounds: negatives count from the end; with a negative stride an end of -1
    means "through index 0"; everything is clamped into the dim."""
    s = s + n if s < 0 else s
    if e < 0 and not (e == -1 and st < 0):
        e = max(e + n, 0)
    if st > 0:
        return min(max(s, 0), n), min(e, n), st
    return min(s, n - 1), max(e, -1), st


@op("shard_index", exports=("paddle.shard_index",), differentiable=False)
def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):  # noqa: A002
    if not 0 <= shard_id < nshards:
        raise ValueError(f"paddle.shard_index: shard_id ({shard_id}) must be in [0, nshards={nshards})")
    size = (index_num + nshards - 1) // nshards
    inside = torch.div(input, size, rounding_mode="floor") == shard_id
    return torch.where(inside, input - shard_id * size, torch.full_like(input, ignore_value))


def _unique_infer(x, return_index=False, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                  name=None):
    d = _dt.to_dtype(dtype)
    shape = (-1,) if axis is None else tuple(-1 if i == axis % len(x.shape) else s for i, s in enumerate(x.shape))
    outs = [Spec(shape, x.dtype)]
    if return_index:
        outs.append(Spec((-1,), d))
    if return_inverse:
        outs.append(Spec((x.shape[axis] if axis is not None else -1,) if axis is not None else (
            int(np.prod(x.shape)) if all(s >= 0 for s in x.shape) else -1,), d))
    if return_counts:
        outs.append(Spec((-1,), d))
    return outs[0] if len(outs) == 1 else tuple(outs)


@op("unique", exports=("paddle.unique", "paddle.Tensor.unique"), differentiable=False, infer=_unique_infer)
def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    d = _dt.to_dtype(dtype).torch
    flat = x.flatten() if axis is None else x
    ax = 0 if axis is None else as_int(axis)
    out, inverse, counts = torch.unique(flat, sorted=True, return_inverse=True, return_counts=True, dim=ax)
    res = [out]
    if return_index:
        n = flat.shape[ax]
        first = torch.full((out.shape[ax],), n, dtype=torch.long, device=x.device)
        first = first.scatter_reduce(0, inverse, torch.arange(n, device=x.device), reduce="amin")
        res.append(first.to(d))
    if return_inverse:
        res.append(inverse.to(d))
    if return_counts:
        res.append(counts.to(d))
    return res[0] if len(res) == 1 else tuple(res)



def _transposed(self):
    """`x.T`: all dims reversed (dygraph Tensor defines its own; this serves static Variables)."""
    return transpose(self, list(reversed(range(len(self.shape)))))


export(property(_transposed), "paddle.Tensor.T")


def _unique_consecutive_infer(x, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    return _unique_infer(x, False, return_inverse, return_counts, axis, dtype)


@op("unique_consecutive", exports=("paddle.unique_consecutive", "paddle.Tensor.unique_consecutive"),
    differentiable=False, infer=_unique_consecutive_infer)
def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    """Collapse runs of equal consecutive values (slices along axis); inverse and counts in dtype."""
    d = _dt.to_dtype(dtype)
    if d.name not in ("int32", "int64"):
        raise ValueError(f"paddle.unique_consecutive: dtype must be int32 or int64, but got {d.name}")
    out, inverse, counts = torch.unique_consecutive(x, return_inverse=True, return_counts=True, dim=axis)
    outs = [out]
    if return_inverse:
        outs.append(inverse.to(d.torch).reshape(-1) if axis is None else inverse.to(d.torch))
    if return_counts:
        outs.append(counts.to(d.torch))
    return outs[0] if len(outs) == 1 else tuple(outs)
