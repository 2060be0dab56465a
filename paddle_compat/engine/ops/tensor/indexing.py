"""Tensor indexing: `x[idx]` (op `getitem`: slices, ints, None, Ellipsis, int / bool tensors, lists) and
`x[idx] = v` (Paddle's `set_value` op: the new value replaces x's value in dygraph, x's node in static mode).

The index is encoded into plain tuples so a static Program can record it: a slice becomes
("S", start, stop, step) whose bounds may be Variables; lists and numpy arrays become tensors.
As in Paddle 2.4, indexing every dim with an int gives shape [1], not a 0-D tensor (0-D at API level 2.6:
engine/ops/common.scalar_shape).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import native
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.program import Variable
from paddle_compat.engine.framework.tensor import INT_GRAD, Tensor
from paddle_compat.engine.ops.common import scalar_shape
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.ops.tensor._helpers import is_tensorlike


def _encode_item(it: Any) -> Any:
    if isinstance(it, slice):
        return ("S", it.start, it.stop, it.step)
    if isinstance(it, (list, np.ndarray)):
        arr = np.asarray(it)
        if arr.dtype.kind in "iu":
            arr = arr.astype(np.int64)
        return torch.from_numpy(np.ascontiguousarray(arr))
    if isinstance(it, (np.integer,)):
        return int(it)
    if it is None or it is Ellipsis or isinstance(it, (int, bool)) or is_tensorlike(it):
        return it
    raise TypeError(f"paddle.Tensor.__getitem__: unsupported index item {it!r} of type {type(it).__name__}; "
                    "expected int, slice, None, Ellipsis, list, numpy array or Tensor")


def encode_index(item: Any) -> tuple:
    items = item if isinstance(item, tuple) else (item,)
    return tuple(_encode_item(it) for it in items)


def _bound(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return int(v.reshape(-1)[0].item())
    return v


def _decode(index: tuple, x: torch.Tensor) -> tuple[tuple, list[int]]:
    """The torch index, and the output dims to flip: a negative-step slice is taken as the positive slice
    over the same elements, then flipped (torch slices only step forward)."""
    out, neg = [], []
    for it in index:
        if type(it) is tuple and len(it) == 4 and it[0] == "S":
            sl = slice(_bound(it[1]), _bound(it[2]), _bound(it[3]))
            if sl.step is not None and sl.step < 0:
                neg.append(len(out))
            out.append(sl)
        elif isinstance(it, torch.Tensor):
            t = it.to(x.device)
            out.append(t if t.dtype == torch.bool else t.long())
        else:
            out.append(it)
    if not neg:
        return tuple(out), []
    if any(isinstance(i, torch.Tensor) for i in out):
        raise ValueError("paddle.Tensor.__getitem__: a negative slice step cannot be combined with tensor "
                         "indices; use paddle.flip")
    consumed = sum(1 for i in out if i is not None and i is not Ellipsis)
    flips, dim, pos = [], 0, 0
    for k, it in enumerate(out):
        if it is Ellipsis:
            span = x.dim() - consumed
            dim, pos = dim + span, pos + span
        elif it is None:
            pos += 1
        elif isinstance(it, slice):
            if k in neg:
                idx = range(*it.indices(x.shape[dim]))
                out[k] = slice(idx[-1], idx[0] + 1, -it.step) if len(idx) else slice(0, 0)
                flips.append(pos)
            dim, pos = dim + 1, pos + 1
        else:  # an int removes the dim
            dim += 1
    return tuple(out), flips


def _mask_dims_unknown(x, index):
    """Static shape rule: a bool-mask index selects a data-dependent number of elements, and a slice whose
    bounds are Variables a data-dependent length; dims of x that are unknown stay unknown."""
    from paddle_compat.engine.framework.infer import _run, _specs
    from paddle_compat.engine.framework.registry import OPS

    spec = _specs(_run(OPS["getitem"], (x, index), {}, 12))
    shape = [-1 if (d == 12 and -1 in x.shape) else d for d in spec.shape]
    if any(is_tensorlike(i) and i.dtype.name == "bool" for i in index):
        shape = [-1 if d == 0 else d for d in shape]
    var_slices = {k for k, it in enumerate(index) if type(it) is tuple and len(it) == 4 and it[0] == "S"
                  and any(is_tensorlike(b) for b in it[1:])}
    if var_slices:
        if any(is_tensorlike(i) or isinstance(i, torch.Tensor) for i in index):
            return Spec(tuple(-1 for _ in shape), spec.dtype)
        consumed = sum(1 for i in index if i is not None and i is not Ellipsis)
        pos = 0
        for k, it in enumerate(index):
            if it is Ellipsis:
                pos += len(x.shape) - consumed
            elif it is None:
                pos += 1
            elif type(it) is tuple:
                if k in var_slices:
                    shape[pos] = -1
                pos += 1
    return Spec(tuple(shape), spec.dtype)


# exports name the API in errors; the public methods are the wrappers below (exported later, so they win)
@op("getitem", exports=("paddle.Tensor.__getitem__",), infer=_mask_dims_unknown)
def getitem(x, index):
    idx, flips = _decode(index, x)
    out = x[idx]
    if flips:
        out = out.flip(flips)
    return scalar_shape(out)


@op("set_value", exports=("paddle.Tensor.__setitem__",))
def set_value(x, index, value):
    out = x.clone()
    v = value.to(out.dtype) if isinstance(value, torch.Tensor) else value
    idx, flips = _decode(index, x)
    if flips:  # write the value flipped into the positive slice
        v = torch.as_tensor(v, dtype=out.dtype, device=out.device)
        target = out[idx]
        v = v.expand_as(target).flip(flips)
    out[idx] = v
    return out


_BASIC = (int, slice, type(None), type(Ellipsis))  # index items torch takes exactly as the body does
if native.MODULE is not None:  # engine/core/native: the fast path below, in C (its 0-D results take this rule)
    native.MODULE.configure(zero_d=scalar_shape)
_native_getitem = native.function("getitem")


def __getitem__(self, item):  # noqa: N807
    # dygraph fast path for x[i], x[a:b], x[:, a:b, None, ...] (bench/bench_dygraph_ops.py): torch's basic indexing
    # is the body's, and torch raises for what the body must handle (a negative step) or reject, which then takes
    # the op path; a tuple holding anything else (tensors, lists, bools) takes it at once
    if _native_getitem is not None:
        res = _native_getitem(self, item)
        if res is not None:
            return res
    cls = item.__class__
    if MODE.static and isinstance(self, Variable) and (
            cls in _BASIC or (cls is tuple and all(i.__class__ in _BASIC for i in item))):
        return _static_basic_getitem(self, item)
    if cls is tuple:
        for i in item:
            if i.__class__ not in _BASIC:
                return getitem(self, encode_index(item))
    elif cls is not int and cls is not slice:
        return getitem(self, encode_index(item))
    if self.__class__ is Tensor and not MODE.static and not INT_GRAD[0]:
        try:
            out = self._t[item]
        except Exception:  # noqa: BLE001
            return getitem(self, encode_index(item))
        res = new(Tensor)  # Tensor._wrap, inlined
        res._t, res.name, res.persistable = (scalar_shape(out) if out.dim() == 0 else out), None, False
        return res
    return getitem(self, encode_index(item))


_MAX_INT = 2147483647  # Paddle's "to the end" bound


def _static_basic_getitem(x, item):
    """`x[i, a:b, ::s, ..., None]` in a Program as Paddle 1.8 / 2.4 / 2.6 record it: one `slice` op (or
    `strided_slice` when a step is not 1) with Paddle's attributes (`axes`, `starts`, `ends`, `strides`,
    `decrease_axis` for the int items, `infer_flags`), named `<x>_slice_<n>` (`<x>_strided_slice_<n>`), then
    `unsqueeze2` for the None items; nothing for `x[:]` (x itself). The recorded node is the getitem op (its body
    is the semantics); Block.ops shows it under Paddle's type (node.meta['paddle_type'],
    tests/api2x/test_static26_names.py indexing)."""
    items = item if item.__class__ is tuple else (item,)
    for it in items:
        if it.__class__ is slice and not all(b is None or b.__class__ is int for b in (it.start, it.stop, it.step)):
            return getitem(x, encode_index(item))
    ndim = len(x.shape)
    consumed = sum(1 for it in items if it is not None and it is not Ellipsis)
    axes, starts, ends, strides, decrease, none_axes = [], [], [], [], [], []
    dim = pos = 0
    for it in items:
        if it is Ellipsis:
            dim, pos = dim + ndim - consumed, pos + ndim - consumed
        elif it is None:
            none_axes.append(pos)
            pos += 1
        elif it.__class__ is int:
            axes.append(dim)
            starts.append(it)
            ends.append(it + 1 if it != -1 else _MAX_INT)
            strides.append(1)
            decrease.append(dim)
            dim += 1
        else:
            step = 1 if it.step is None else it.step
            if it.start is not None or it.stop is not None or step != 1:
                axes.append(dim)
                starts.append(it.start if it.start is not None else (0 if step > 0 else _MAX_INT))
                ends.append(it.stop if it.stop is not None else (_MAX_INT if step > 0 else -1))
                strides.append(step)
            dim, pos = dim + 1, pos + 1
    out = x
    if axes:
        out = getitem(x, encode_index(tuple(it for it in items if it is not None)))
        op_type = "strided_slice" if any(st != 1 for st in strides) else "slice"
        attrs = {"axes": axes, "starts": starts, "ends": ends, "decrease_axis": decrease,
                 "infer_flags": [1] * len(axes)}
        if op_type == "strided_slice":
            attrs["strides"] = strides
        from paddle_compat.engine.framework import unique_name
        from paddle_compat.engine.framework.dispatch import rename_result

        out.node.meta.update(paddle_type=op_type, attrs=attrs)
        rename_result(out, unique_name.generate_with_ignorable_key(f"{x.name}_{op_type}"))
    if none_axes:
        from paddle_compat.engine.ops.tensor.manipulation import unsqueeze

        out = unsqueeze(out, none_axes)
    return out


new = object.__new__


def __setitem__(self, item, value):  # noqa: N807
    from paddle_compat.engine.framework.dispatch import write_result

    if isinstance(value, (np.ndarray, list)):
        value = torch.from_numpy(np.ascontiguousarray(np.asarray(value)))
    write_result(self, set_value(self, encode_index(item), value), "paddle.Tensor.__setitem__", what="Tensor")


export(__getitem__, "paddle.Tensor.__getitem__")
export(__setitem__, "paddle.Tensor.__setitem__")
