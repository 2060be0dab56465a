"""Pooling 1-D / 2-D / 3-D (max with return_mask, avg with exclusive / divisor_override) and adaptive pooling.

Paddle semantics kept here: padding in every Paddle form (asymmetric pairs, 'SAME', 'VALID'); `exclusive`
average pooling divides by the number of real (unpadded) elements; max-pool masks are flat indices into the
unpadded spatial plane (as Paddle's max_pool*_with_index); adaptive bins are [floor(i*L/o), ceil((i+1)*L/o)).
The fluid `pool2d` op keeps its 1.x signature and shares the same torch code.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from paddle_compat.engine.core import native
from paddle_compat.engine.ops.common import FORMATS as _FORMATS
from paddle_compat.engine.ops.common import as_int_list
from paddle_compat.engine.ops.common import ntuple as _ntuple
from paddle_compat.engine.ops.nn_functional.conv import check_format, padding_pairs, window_outputs
from paddle_compat.engine.framework.registry import OPS, export, op

_AVG = {1: lambda x, k, s, c: F.avg_pool2d(x.unsqueeze(2), [1] + k, [1] + s, 0, c, True, 1).squeeze(2),
        2: lambda x, k, s, c: F.avg_pool2d(x, k, s, 0, c, True, 1),
        3: lambda x, k, s, c: F.avg_pool3d(x, k, s, 0, c, True, 1)}


def pool_nd(x, n: int, pool_type: str, kernel, stride, padding, ceil_mode=False, exclusive=True,
            divisor_override=None, channel_last=False, return_mask=False, api="pool", full_window=False):
    """The torch body shared by every (non-adaptive) pooling op."""
    if x.dim() != n + 2:
        raise ValueError(f"{api}: input should be {n + 2}-D, but received shape {list(x.shape)}")
    if channel_last:
        x = x.movedim(-1, 1)
    k = _ntuple(kernel, n, "kernel_size", api)
    s = k if stride is None else _ntuple(stride, n, "stride", api)
    if return_mask:
        # NOTE: Paddle's max_pool*_with_index kernel gets neither ceil_mode nor the 'SAME' algorithm: with
        # return_mask=True, 'SAME' pads nothing and ceil_mode is ignored (same output shapes as real Paddle;
        # rows_functional.py max_pool2d/max_pool3d samples "x0").
        ceil_mode = False
        if isinstance(padding, str):
            padding = 0
    pairs = padding_pairs(padding, k, s, [1] * n, list(x.shape[2:]), channel_last)
    # a window wider than the map still gives Paddle's (C-division) output size: the window is clipped to the
    # input (tests/nn/test_windows26.py); `grown` holds the after-padding that makes every window exist
    grown = list(pairs)
    window_outputs(api, list(x.shape[2:]), k, s, grown, ceil_mode, allow_empty=False)
    if grown == pairs and all(a == b and 2 * a <= kk for (a, b), kk in zip(pairs, k)):
        out, idx = _pool_torch(x, n, pool_type, k, s, [a for a, _ in pairs], exclusive, return_mask)
    else:
        out, idx = _pool_padded(x, n, pool_type, k, s, pairs, grown, exclusive, return_mask, full_window)
    if divisor_override:  # Paddle rescales the pooled average: out * prod(kernel) / divisor_override
        out = out * (float(math.prod(k)) / float(divisor_override))
    if channel_last:
        out = out.movedim(1, -1)
        if return_mask:
            idx = idx.movedim(1, -1)
    return (out, idx) if return_mask else out


_MAX_POOL2D = native.function("max_pool2d")
_aten_max_pool2d = torch.ops.aten.max_pool2d_with_indices.default
# from this many input elements on, a 2-D max pool that records its gradient goes through _MaxPool2d: below it the
# autograd.Function's own cost (some 10 us) is more than the native kernel saves
_NATIVE_GRAD_MIN = 4096


def max_pool2d_with_indices(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """torch.ops.aten.max_pool2d_with_indices with its arguments, values and bits: through the native kernel
    (engine/core/native, `max_pool2d`: the same scan of each window, vectorized along an output row; 4-8x torch's
    NCHW kernel on a 2x2 or 3x3 pool) where it applies, torch's op otherwise. A joint graph's pool nodes call it
    (engine/static/joint.py)."""
    if _MAX_POOL2D is not None and not ceil_mode:
        k, s, p, d = (_ntuple(v, 2, what, "max_pool2d_with_indices") for v, what in (
            (kernel_size, "kernel_size"), (stride or kernel_size, "stride"), (padding, "padding"), (dilation, "dilation")))
        if d == [1, 1]:
            r = _MAX_POOL2D(x, k[0], k[1], s[0], s[1], p[0], p[1])
            if r is not None:
                return r
    return _aten_max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode)


class _MaxPool2d(torch.autograd.Function):
    """A 2-D max pool (NCHW, dilation 1, floor mode) whose forward is `max_pool2d_with_indices` and whose backward is
    torch's own max_pool2d_with_indices_backward on the same indices: torch's pool, values, gradient and bits."""

    @staticmethod
    def forward(ctx, x, k, s, pad):
        out, idx = max_pool2d_with_indices(x, k, s, pad)
        ctx.save_for_backward(x, idx)
        ctx.attrs = (k, s, pad)
        ctx.mark_non_differentiable(idx)
        return out, idx

    @staticmethod
    def backward(ctx, g, _g_idx):
        x, idx = ctx.saved_tensors
        k, s, pad = ctx.attrs
        return torch.ops.aten.max_pool2d_with_indices_backward(g, x, k, s, pad, [1, 1], False, idx), None, None, None


def _max_pool2d(x, k, s, pad, return_indices=False):
    """F.max_pool2d(x, k, s, pad, return_indices=...) with the native kernel's forward where it applies (a plain
    contiguous float CPU tensor outside a trace; one recording its gradient from `_NATIVE_GRAD_MIN` elements)."""
    if _MAX_POOL2D is not None and type(x) is torch.Tensor and x.is_cpu and not torch.compiler.is_compiling():
        if not (x.requires_grad and torch.is_grad_enabled()):
            r = _MAX_POOL2D(x, k[0], k[1], s[0], s[1], pad[0], pad[1])
            if r is not None:
                return r if return_indices else r[0]
        elif x.numel() >= _NATIVE_GRAD_MIN and x.dtype in (torch.float32, torch.float64) and x.dim() == 4 \
                and x.is_contiguous():
            out, idx = _MaxPool2d.apply(x, list(k), list(s), list(pad))
            return (out, idx) if return_indices else out
    return F.max_pool2d(x, k, s, pad, return_indices=return_indices)


_MAX = {1: F.max_pool1d, 2: _max_pool2d, 3: F.max_pool3d}


def _pool_torch(x, n, pool_type, k, s, pad, exclusive, return_mask):
    """Fast path: symmetric padding torch accepts and no ceil_mode, where torch's pooling is Paddle's
    (count_include_pad=not exclusive; indices already index the unpadded plane)."""
    if pool_type == "max":
        if return_mask:
            out, idx = _MAX[n](x, k, s, pad, return_indices=True)
            return out, idx.to(torch.int32)
        return _MAX[n](x, k, s, pad), None
    if n == 1:
        return F.avg_pool1d(x, k, s, pad, False, not exclusive), None
    fn = F.avg_pool2d if n == 2 else F.avg_pool3d
    return fn(x, k, s, pad, False, not exclusive), None


def _pool_padded(x, n, pool_type, k, s, pairs, grown, exclusive, return_mask, full_window=False):
    """General path: explicit (asymmetric / ceil-mode / window-wider-than-the-map) padding, then an unpadded
    torch pool. `pairs` is the user's padding, `grown` the same with every window's overhang added after."""
    flat = [v for a, b in reversed(grown) for v in (a, b)]
    idx = None
    if pool_type == "max":
        xp = F.pad(x, flat, value=float("-inf")) if any(flat) else x
        if not return_mask:
            return _MAX[n](xp, k, s, [0] * n), None
        out, pidx = _MAX[n](xp, k, s, [0] * n, return_indices=True)
        # flat index in the padded plane -> flat index in the unpadded plane
        coords, rem = [], pidx
        for dim in reversed(list(xp.shape[2:])):
            coords.append(rem % dim)
            rem = rem // dim
        idx = torch.zeros_like(pidx)
        for c, (a, _), size in zip(coords[::-1], pairs, list(x.shape[2:])):
            idx = idx * size + (c - a)
        return out, idx.to(torch.int32)
    xp = F.pad(x, flat) if any(flat) else x
    total = _AVG[n](xp, k, s, False)  # the window sums (divisor_override=1)
    if full_window and not exclusive:  # Paddle 1.8's pool2d op: the whole kernel, ceil overhang included
        return total / float(math.prod(k)), idx
    # the divisor, a product of one count per dim: the real cells of the window (exclusive), or the window
    # clipped to [-pad_before, size + pad_before) (Paddle's CPU kernel: hend = min(hstart + k, size + pad), with
    # only the before-padding kept, so a ceil overhang or the after-padding of asymmetric pairs does not count)
    counts = None
    for i, ((a, _), size) in enumerate(zip(pairs, list(x.shape[2:]))):
        start = torch.arange(total.shape[2 + i], dtype=torch.int64) * s[i] - a
        if exclusive:
            c = torch.minimum(start + k[i], torch.tensor(size)) - start.clamp(min=0)
        else:
            c = torch.minimum(start + k[i], torch.tensor(size + a)) - start
        shape = [1] * total.dim()
        shape[2 + i] = -1
        c = c.reshape(shape)
        counts = c if counts is None else counts * c
    return total / counts.to(device=x.device, dtype=x.dtype), idx


@op("pool2d")
def pool2d_op(x, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0, global_pooling=False,
              ceil_mode=False, exclusive=True, data_format="NCHW", full_window=False):
    """Paddle's pool2d op (fluid.layers.pool2d's attributes). full_window: Paddle 1.8's kernel, where a
    non-exclusive average divides every window by the whole kernel, ceil_mode overhang included (2.x's clips it
    to the padded input; a 2.x .pdmodel keeps that)."""
    if pool_type not in ("max", "avg"):
        raise ValueError(f"pool2d: pool_type should be 'max' or 'avg', but received {pool_type!r}")
    channel_last = data_format == "NHWC"
    if global_pooling:
        dims = (1, 2) if channel_last else (2, 3)
        return x.amax(dim=dims, keepdim=True) if pool_type == "max" else x.mean(dim=dims, keepdim=True)
    return pool_nd(x, 2, pool_type, pool_size, pool_stride, pool_padding, ceil_mode, exclusive,
                   channel_last=channel_last, api="pool2d", full_window=full_window)


def fluid_pool2d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,  # noqa: A002
                 global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
                 data_format="NCHW"):
    return pool2d_op(input, pool_size=pool_size, pool_type=pool_type, pool_stride=pool_stride,
                     pool_padding=pool_padding, global_pooling=global_pooling, ceil_mode=ceil_mode,
                     exclusive=exclusive, data_format=data_format, full_window=True)


export(fluid_pool2d, "paddle.fluid.layers.pool2d")


def _max_pool_body(n: int):
    api = f"paddle.nn.functional.max_pool{n}d"
    if n == 1:
        def body(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, name=None):
            return pool_nd(x, 1, "max", kernel_size, stride, padding, ceil_mode, return_mask=return_mask, api=api)
    else:
        def body(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format=_FORMATS[n][0], name=None):
            channel_last = check_format(api, n, data_format)
            if return_mask and channel_last:
                raise ValueError(f"{api}: When setting return_mask to true, data_format must be set to "
                                 f"{_FORMATS[n][0]}, but received: {data_format}")
            return pool_nd(x, n, "max", kernel_size, stride, padding, ceil_mode, channel_last=channel_last,
                           return_mask=return_mask, api=api)
    return body


def _avg_pool_body(n: int):
    api = f"paddle.nn.functional.avg_pool{n}d"
    if n == 1:
        def body(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
            return pool_nd(x, 1, "avg", kernel_size, stride, padding, ceil_mode, exclusive, api=api)
    else:
        def body(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
                 data_format=_FORMATS[n][0], name=None):
            channel_last = check_format(api, n, data_format)
            return pool_nd(x, n, "avg", kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                           channel_last=channel_last, api=api)
    return body


def _bins(size: int, out: int):
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


_ADAPTIVE_AVG = {1: F.adaptive_avg_pool1d, 2: torch._C._nn.adaptive_avg_pool2d, 3: torch._C._nn.adaptive_avg_pool3d}


def _adaptive_body(n: int, kind: str):
    api = f"paddle.nn.functional.adaptive_{kind}_pool{n}d"

    def run(x, output_size, channel_last=False, return_mask=False):
        if x.dim() != n + 2:
            raise ValueError(f"{api}: input should be {n + 2}-D, but received shape {list(x.shape)}")
        if channel_last:
            x = x.movedim(-1, 1)
        sizes = list(x.shape[2:])
        if isinstance(output_size, (list, tuple)):
            if len(output_size) != n:
                raise ValueError(f"{api}: output_size should be an int or a list of {n} ints, got {output_size}")
            outs = [sizes[i] if o is None else int(as_int_list(o)[0]) for i, o in enumerate(output_size)]
        else:
            outs = _ntuple(output_size, n, "output_size", api)
        if kind == "avg":  # torch's own kernels (F.adaptive_avg_pool{2,3}d's wrapper only fills None sizes: none here)
            out = _ADAPTIVE_AVG[n](x, outs)
        else:
            fn = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}[n]
            out, idx = fn(x, outs, return_indices=True)
        if channel_last:
            out = out.movedim(1, -1)
        if return_mask:
            return out, idx.to(torch.int32)
        return out

    if kind == "avg" and n == 1:
        def body(x, output_size, name=None):
            return run(x, output_size)
    elif kind == "avg":
        def body(x, output_size, data_format=_FORMATS[n][0], name=None):
            return run(x, output_size, check_format(api, n, data_format))
    else:
        def body(x, output_size, return_mask=False, name=None):
            return run(x, output_size, return_mask=return_mask)
    return body


def _max_pool_type(n: int):
    """Paddle's op (and LayerHelper) type of F.max_pool{n}d / adaptive_max_pool{n}d: pool2d, or
    max_pool2d_with_index with return_mask (adaptive max pooling always records the latter)."""
    def ptype(a: dict) -> str:
        return f"max_pool{n}d_with_index" if a.get("return_mask") else f"pool{n}d"

    return ptype


def _on_2d(x, pool2d, *args, return_mask=False, **kwargs):
    """unsqueeze2 of x to [N, C, 1, L], the 2-D pool, squeeze2 of its output (and of its mask)."""
    from paddle_compat.engine.framework.lookup import P

    if return_mask:
        kwargs["return_mask"] = True
    out = pool2d(P("unsqueeze")(x, axis=[2]), *args, **kwargs)
    if return_mask:
        return P("squeeze")(out[0], axis=[2]), P("squeeze")(out[1], axis=[2])
    return P("squeeze")(out, axis=[2])


def _pool1d_compose(kind: str):
    """F.max_pool1d / avg_pool1d in a Program as Paddle 2.4 / 2.6 record them: unsqueeze2, the 2-D op (pool2d, or
    max_pool2d_with_index with return_mask) on [N, C, 1, L] with a 1 prepended to the window, squeeze2; the 1-D op
    itself for a padding not translated (pad_1d_as_2d)."""
    api = f"paddle.nn.functional.{kind}_pool1d"

    def compose(x, kernel_size, stride=None, padding=0, *rest, **kw):
        from paddle_compat.engine.ops.nn_functional.conv import pad_1d_as_2d

        bound = OPS[f"{kind}_pool1d"].signature.bind(x, kernel_size, stride, padding, *rest, **kw).arguments
        pad = pad_1d_as_2d(padding)
        if pad is None:
            return NotImplemented
        try:
            k = [1] + _ntuple(kernel_size, 1, "kernel_size", api)
            s = None if stride is None else [1] + _ntuple(stride, 1, "stride", api)
        except Exception:  # noqa: BLE001 - a tensor window: the 1-D op
            return NotImplemented
        if kind == "max":
            return _on_2d(x, globals()["max_pool2d"], k, s, pad, return_mask=bound.get("return_mask", False),
                          ceil_mode=bound.get("ceil_mode", False))
        return _on_2d(x, globals()["avg_pool2d"], k, s, pad, ceil_mode=bound.get("ceil_mode", False),
                      exclusive=bound.get("exclusive", True))

    return compose


def _adaptive1d_compose(kind: str):
    """F.adaptive_avg_pool1d / adaptive_max_pool1d in a Program as Paddle 2.4 / 2.6 record them: unsqueeze2, the
    2-D adaptive op (pool2d / max_pool2d_with_index) with output size [1, L_out], squeeze2."""
    def compose(x, output_size, *rest, **kw):
        if not isinstance(output_size, int) and not (isinstance(output_size, (list, tuple)) and len(output_size) == 1
                                                     and isinstance(output_size[0], int)):
            return NotImplemented
        bound = OPS[f"adaptive_{kind}_pool1d"].signature.bind(x, output_size, *rest, **kw).arguments
        size = [1] + as_int_list(output_size)
        pool2d = globals()[f"adaptive_{kind}_pool2d"]
        if kind == "max":
            return _on_2d(x, pool2d, size, return_mask=bound.get("return_mask", False))
        return _on_2d(x, pool2d, size)

    return compose


# the op types Paddle 2.4 / 2.6 record (2-D and 3-D: one pool2d / pool3d op; 1-D goes through unsqueeze2 / squeeze2,
# OpDef.compose)
for _n in (2, 3, 1):
    _pool = f"pool{_n}d" if _n > 1 else None
    globals()[f"max_pool{_n}d"] = op(f"max_pool{_n}d", exports=(f"paddle.nn.functional.max_pool{_n}d",),
                                     differentiable=True, paddle_type=_max_pool_type(_n) if _pool else None,
                                     compose=None if _pool else _pool1d_compose("max"))(_max_pool_body(_n))
    globals()[f"avg_pool{_n}d"] = op(f"avg_pool{_n}d", exports=(f"paddle.nn.functional.avg_pool{_n}d",),
                                     paddle_type=_pool, compose=None if _pool else _pool1d_compose("avg")
                                     )(_avg_pool_body(_n))
    for _kind in ("avg", "max"):
        globals()[f"adaptive_{_kind}_pool{_n}d"] = op(
            f"adaptive_{_kind}_pool{_n}d", exports=(f"paddle.nn.functional.adaptive_{_kind}_pool{_n}d",),
            paddle_type=None if not _pool else _pool if _kind == "avg" else f"max_pool{_n}d_with_index",
            compose=None if _pool else _adaptive1d_compose(_kind),
        )(_adaptive_body(_n, _kind))


def _unpool_output_size(api: str, x, k, s, p, output_size) -> list[int]:
    n = len(k)
    default = [(x.shape[-n + i] - 1) * s[i] + k[i] - 2 * p[i] for i in range(n)]
    if output_size is None:
        return default
    if not isinstance(output_size, (list, tuple)):
        raise ValueError(f"{api}: Required output_size is None|list|tuple, but received {output_size}")
    size = [int(v) for v in output_size]
    if n == 1 and len(size) in (2, 4):  # Paddle unpools 1-D as 2-D: [1, L] or [N, C, 1, L]
        size = size[-1:]
    if len(size) == n + 2:
        size = size[2:]
    if len(size) != n:
        raise ValueError(f"{api}: output_size should be a sequence containing {n} or {n + 2} elements, but it has "
                         f"a length of '{len(size)}'")
    for i in range(n):
        if not default[i] - s[i] < size[i] < default[i] + s[i]:
            raise ValueError(f'{api}: invalid output_size "{size}" (dim {i} must be between {default[i] - s[i]} '
                             f"and {default[i] + s[i]})")
    return size


def _max_unpool_body(n: int):
    api = f"paddle.nn.functional.max_unpool{n}d"
    fmt = {1: "NCL", 2: "NCHW", 3: "NCDHW"}[n]

    def body(x, indices, kernel_size, stride=None, padding=0, data_format=fmt, output_size=None, name=None):
        """Place each value of x at its flat index (from max_pool's mask) in the output's spatial plane."""
        if data_format != fmt:
            raise ValueError(f"{api}: Attr(data_format) should be '{fmt}'. Received Attr(data_format): "
                             f"{data_format}.")
        for what, t in (("x", x), ("indices", indices)):
            if t.dim() != n + 2:
                raise ValueError(f"{api}: The {what} should have [N, C, {fmt[2:]}] format, but received "
                                 f"{list(t.shape)}.")
        k = _ntuple(kernel_size, n, "kernel_size", api)
        s = k if stride is None else _ntuple(stride, n, "stride", api)
        p = _ntuple(padding, n, "padding", api)
        size = _unpool_output_size(api, x, k, s, p, output_size)
        numel = math.prod(size)
        idx = indices.flatten(2).long()
        if idx.numel() and (int(idx.min()) < 0 or int(idx.max()) >= numel):
            raise ValueError(f"{api}: indices should be in [0, {numel}) for output size {size}, but got values in "
                             f"[{int(idx.min())}, {int(idx.max())}]")
        out = x.new_zeros(list(x.shape[:2]) + [numel])
        out = out.scatter(2, idx, x.flatten(2))
        return out.reshape(list(x.shape[:2]) + size)

    return body


for _n in (1, 2, 3):
    op(f"unpool{_n}d", exports=(f"paddle.nn.functional.max_unpool{_n}d",))(_max_unpool_body(_n))
