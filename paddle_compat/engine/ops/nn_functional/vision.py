"""Resampling and layout ops: interpolate / upsample, grid_sample, affine_grid, pixel_shuffle, temporal_shift.

interpolate follows Paddle's kernels: linear modes use src = (dst + 0.5) * ratio - 0.5 clamped at 0
(align_corners=False, align_mode=0), src = dst * ratio (align_mode=1) or the corner-aligned ratio; nearest
takes floor(dst * ratio); ratio is 1 / scale_factor when a scale is given, else in / out, and 0 for an output
dim of 1. A scale gives the output size int(in * scale) computed in float32 (the scale is a float32 attribute).
"""

from __future__ import annotations

import functools
import math
import struct

import numpy as np
import torch
import torch.nn.functional as F

from paddle_compat.engine.ops.common import as_int_list, holds_variable, spatial_unknown
from paddle_compat.engine.framework.registry import op

_F32 = struct.Struct("f")
_INTERP_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}
_MODE_RANK = {"linear": (3,), "bilinear": (4,), "trilinear": (5,), "bicubic": (4,), "nearest": (4, 5),
              "area": (3, 4, 5)}


def _scales(scale_factor, n: int, api: str) -> list[float]:
    if isinstance(scale_factor, torch.Tensor):
        vals = [float(v) for v in scale_factor.reshape(-1).tolist()]
    elif isinstance(scale_factor, (list, tuple)):
        vals = [float(v.reshape(-1)[0]) if isinstance(v, torch.Tensor) else float(v) for v in scale_factor]
    else:
        vals = [float(scale_factor)]
    if len(vals) == 1:
        vals = vals * n
    if len(vals) != n:
        raise ValueError(f"{api}: scale_factor should have {n} values for this input, but got {scale_factor}")
    if any(v <= 0 for v in vals):
        raise ValueError(f"{api}: Attr(scale) should be greater than zero.")
    return vals


@functools.lru_cache(maxsize=256)
def _linear_weights(n_in: int, out: int, ratio: float, align_mode: int, dtype: torch.dtype, device: torch.device):
    """Source indices and weights of one axis (align_corners=False): src = (dst + 0.5) * ratio - 0.5 clamped at 0
    (align_mode 0) or dst * ratio (1). Cached: a gradient check calls one configuration many times."""
    k = np.arange(out, dtype=np.float64)
    src = np.maximum((k + 0.5) * ratio - 0.5, 0.0) if align_mode == 0 else k * ratio
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    lam = torch.from_numpy(src - i0).to(dtype=dtype, device=device)
    return torch.from_numpy(i0).to(device), torch.from_numpy(i1).to(device), lam


def _linear_axis(x: torch.Tensor, dim: int, out: int, ratio: float, align_mode: int):
    i0, i1, lam = _linear_weights(x.shape[dim], out, ratio, align_mode, x.dtype, x.device)
    shape = [1] * x.dim()
    shape[dim] = out
    lam = lam.reshape(shape)
    return x.index_select(dim, i0) * (1 - lam) + x.index_select(dim, i1) * lam


@functools.lru_cache(maxsize=256)
def _nearest_index(n_in: int, out: int, ratio: float, device: torch.device) -> torch.Tensor:
    """Paddle's nearest: source index int(ratio * dst) in float32."""
    idx = np.minimum((np.arange(out, dtype=np.float32) * np.float32(ratio)).astype(np.int64), n_in - 1)
    return torch.from_numpy(idx).to(device)


def _interp_infer(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                  data_format="NCHW", name=None):
    """A size or scale_factor given as a Variable makes the spatial output dims unknown (-1), as in Paddle."""
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.tensor._helpers import default_infer

    kwargs = dict(size=size, scale_factor=scale_factor, mode=mode, align_corners=align_corners,
                  align_mode=align_mode, data_format=data_format)
    if not (holds_variable(size) or holds_variable(scale_factor)):
        return default_infer(OPS["interp_v2"], (x,), kwargs)
    # the checks of the body on a stand-in size (the input's own), then the spatial dims unknown
    spatial = list(x.shape[2:] if data_format[1] == "C" else x.shape[1:-1])
    kwargs.update(size=[d if d > 0 else 1 for d in spatial], scale_factor=None)
    out = default_infer(OPS["interp_v2"], (x,), kwargs)
    return spatial_unknown(out, 1 if data_format[1] == "C" else len(x.shape) - 1)


def _f32(v: float) -> float:
    """v rounded to float32."""
    return _F32.unpack(_F32.pack(v))[0]


@op("interp_v2", exports=("paddle.nn.functional.interpolate", "paddle.nn.functional.upsample"),
    infer=_interp_infer, helper=lambda a: f"{str(a.get('mode', 'nearest')).lower()}_interp_v2",
    paddle_type=lambda a: None if str(a.get("mode", "nearest")).lower() == "area"
    else f"{str(a.get('mode', 'nearest')).lower()}_interp_v2")
def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                data_format="NCHW", name=None):
    api = "paddle.nn.functional.interpolate"
    mode = str(mode).lower()
    if mode not in _MODE_RANK:
        raise ValueError(f"{api}: The 'resample' of image_resize can only be 'area', 'linear', 'bilinear', "
                         f"'trilinear', 'bicubic' or 'nearest' currently, but got {mode!r}.")
    nd = x.dim()
    if nd not in _MODE_RANK[mode]:
        raise ValueError(f"{api}: mode {mode!r} only supports {'-D or '.join(map(str, _MODE_RANK[mode]))}-D "
                         f"tensors, but x has shape {list(x.shape)}")
    if data_format not in _INTERP_FORMATS.get(nd, ()):
        raise ValueError(f"{api}: Got wrong value for param `data_format`: {data_format} received but only "
                         f"{' or '.join(_INTERP_FORMATS.get(nd, ()))} supported for a {nd}-D input.")
    if align_mode not in (0, 1):
        raise ValueError(f"{api}: align_mode can only be 0 or 1")
    if align_corners and mode in ("nearest", "area"):
        raise ValueError(f"{api}: align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if size is None and scale_factor is None:
        raise ValueError(f"{api}: One of size and scale_factor must not be None.")
    if size is not None and scale_factor is not None and mode != "area":  # area pools to `size` before the check
        raise ValueError(f"{api}: Only one of size or scale_factor should be defined.")
    channel_last = data_format[-1] == "C"
    if channel_last:
        x = x.movedim(-1, 1)
    n = nd - 2
    in_sizes = list(x.shape[2:])
    if size is not None:
        outs = as_int_list(size)
        if len(outs) != n:
            raise ValueError(f"{api}: size should have {n} values for a {nd}-D input, but got {size}")
        scales = None
    else:
        scales, outs = _scaled_sizes(tuple(in_sizes), tuple(_scales(scale_factor, n, api)))
        outs = list(outs)
    for name_, o in zip("wh" if n < 3 else "dhw", outs[::-1] if n < 3 else outs):
        if o <= 0:
            raise ValueError(f"{api}: out_{name_} in Attr(out_shape) of Op(interpolate) should be greater than 0, "
                             f"but the output size is {outs}")
    if mode == "area":
        out = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}[n](x, outs)
    elif mode == "nearest":
        out = x
        for i, o in enumerate(outs):
            ratio = _f32(1.0 / scales[i]) if scales else _f32(in_sizes[i] / o)
            # any dtype (torch has no integer kernel)
            out = out.index_select(2 + i, _nearest_index(in_sizes[i], o, ratio if o > 1 else 0.0, x.device))
    elif mode == "bicubic" or align_corners or align_mode == 0:
        # torch's kernels are Paddle's here: linear / cubic half-pixel (clamped at 0 for linear) or corner-aligned
        # sources; given the output size and the scales both (Paddle's size rule is not torch's), a scale sets the
        # ratio 1 / scale as in Paddle; an output dim of 1 has Paddle's ratio 0 (torch's 1 / inf)
        fn = {"linear": torch._C._nn.upsample_linear1d, "bilinear": torch._C._nn.upsample_bilinear2d,
              "trilinear": torch._C._nn.upsample_trilinear3d, "bicubic": torch._C._nn.upsample_bicubic2d}[mode]
        tscales = [math.inf if o == 1 else (scales[i] if scales else None) for i, o in enumerate(outs)]
        out = fn(x, outs, bool(align_corners), *tscales)
    else:  # align_mode=1: src = dst * ratio, which torch's upsample kernels have no mode for
        # Paddle's float32 ratio: float(1. / scale), or float(in) / out in float32
        ratios = _align1_ratios(tuple(in_sizes), tuple(outs), scales)
        if x.dtype in (torch.float32, torch.float64):
            out = _sample_linear(x, tuple(in_sizes), tuple(outs), ratios)
        else:
            out = x
            for i, o in enumerate(outs):
                out = _linear_axis(out, 2 + i, o, ratios[i], align_mode)
    return out.movedim(1, -1) if channel_last else out


@functools.lru_cache(maxsize=1024)
def _scaled_sizes(in_sizes: tuple, scale_factor: tuple) -> tuple[tuple, tuple]:
    """(float32 scales, output sizes): Paddle's scale attribute is float32, and its kernel sizes the output as
    static_cast<int>(in * scale) in float32 (exact in float64 for an in below 2**24, then rounded to float32).
    Cached, as the ratios below: PaddleTest's numeric gradients call one configuration thousands of times."""
    scales = tuple(_f32(v) for v in scale_factor)
    return scales, tuple(int(_f32(s * f)) for s, f in zip(in_sizes, scales))


@functools.lru_cache(maxsize=1024)
def _align1_ratios(in_sizes: tuple, outs: tuple, scales: tuple | None) -> tuple:
    """Paddle's float32 ratio per axis: float(1. / scale), or float(in) / out in float32; 0 for an output of 1."""
    return tuple(0.0 if o == 1 else _f32(1.0 / scales[i]) if scales else _f32(in_sizes[i] / o)
                 for i, o in enumerate(outs))


@functools.lru_cache(maxsize=256)
def _align1_grid(in_sizes: tuple, outs: tuple, ratios: tuple, dtype: torch.dtype, device: torch.device):
    """grid_sample's grid (align_corners=True coordinates, last axis x, y[, z]) for the sources src = dst * ratio
    of every output point; a source past the last input clamps to it (padding_mode='border'), as Paddle's kernel
    clamps its index. Cached: PaddleTest's numeric gradient calls one configuration thousands of times."""
    axes = []
    for n_in, o, r in zip(in_sizes, outs, ratios):
        # Paddle's source in float32: ratio (float32) * dst (float32), its lambda the fraction of that
        src = (np.float32(r) * np.arange(o, dtype=np.float32)).astype(np.float64)
        axes.append(torch.from_numpy(src / (n_in - 1) * 2 - 1 if n_in > 1 else np.zeros(o)))
    mesh = torch.meshgrid(*axes, indexing="ij")
    return torch.stack(mesh[::-1], -1).unsqueeze(0).to(dtype=dtype, device=device)


def _sample_linear(x: torch.Tensor, in_sizes: tuple, outs: tuple, ratios: tuple) -> torch.Tensor:
    """Linear / bilinear / trilinear interpolation at src = dst * ratio per axis (align_mode=1) in one fused
    grid_sample (forward and backward), instead of two index_selects and a blend per axis: PaddleTest's
    nn/test_upsample trilinear cases ran 3x slower than Paddle 2.6.2 that way."""
    one_d = x.dim() == 3
    if one_d:  # [N, C, W] as [N, C, 1, W]
        x, in_sizes, outs, ratios = x.unsqueeze(2), (1,) + in_sizes, (1,) + outs, (0.0,) + ratios
    grid = _align1_grid(in_sizes, outs, ratios, x.dtype, x.device)
    out = F.grid_sample(x, grid.expand((x.shape[0],) + tuple(grid.shape[1:])), mode="bilinear",
                        padding_mode="border", align_corners=True)
    return out.squeeze(2) if one_d else out


@op("grid_sampler", exports=("paddle.nn.functional.grid_sample",))
def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True, name=None):
    api = "paddle.nn.functional.grid_sample"
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"{api}: The mode of grid sample function should be in ['bilinear', 'nearest'], "
                         f"but got: {mode}")
    if padding_mode not in ("zeros", "reflection", "border"):
        raise ValueError(f"{api}: The padding mode of grid sample function should be in ['zeros', 'reflection', "
                         f"'border'], but got: {padding_mode}")
    if not isinstance(align_corners, bool):
        raise ValueError(f"{api}: The align corners should be bool, but got: {align_corners}")
    if x.dim() != 4 or grid.dim() != 4 or grid.shape[-1] != 2 or grid.shape[0] != x.shape[0]:
        raise ValueError(f"{api}: x should be [N, C, H, W] and grid [N, H_out, W_out, 2], but received "
                         f"{list(x.shape)} and {list(grid.shape)}")
    return F.grid_sample(x, grid.to(x.dtype), mode=mode, padding_mode=padding_mode, align_corners=align_corners)


def _affine_grid_infer(theta, out_shape, align_corners=True, name=None):
    """out_shape given as a Variable: the grid is [N, -1, -1, 2] until the program runs."""
    from paddle_compat.engine.framework.infer import Spec
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.tensor._helpers import default_infer

    if not holds_variable(out_shape):
        return default_infer(OPS["affine_grid"], (theta, out_shape), {"align_corners": align_corners})
    if len(theta.shape) != 3 or tuple(theta.shape[1:]) != (2, 3):
        raise ValueError(f"paddle.nn.functional.affine_grid: theta should be [N, 2, 3], but received "
                         f"{list(theta.shape)}")
    return Spec((theta.shape[0], -1, -1, 2), theta.dtype)


@op("affine_grid", exports=("paddle.nn.functional.affine_grid",), infer=_affine_grid_infer)
def affine_grid(theta, out_shape, align_corners=True, name=None):
    api = "paddle.nn.functional.affine_grid"
    shape = as_int_list(out_shape)
    if theta.dim() != 3 or tuple(theta.shape[1:]) != (2, 3) or len(shape) != 4 or shape[0] != theta.shape[0]:
        raise ValueError(f"{api}: theta should be [N, 2, 3] and out_shape [N, C, H, W], but received "
                         f"{list(theta.shape)} and {shape}")
    return F.affine_grid(theta, shape, align_corners=bool(align_corners))


@op("pixel_shuffle", exports=("paddle.nn.functional.pixel_shuffle",))
def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    api = "paddle.nn.functional.pixel_shuffle"
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): "
                         f"{data_format}.")
    if x.dim() != 4:
        raise ValueError(f"{api}: Input x should be 4D tensor, but received x with the shape of {list(x.shape)}")
    r = int(upscale_factor)
    if data_format == "NHWC":
        x = x.movedim(-1, 1)
    if x.shape[1] % (r * r):
        raise ValueError(f"{api}: The square of upscale_factor[{r}] should divide the number of channel[{x.shape[1]}]")
    out = F.pixel_shuffle(x, r)
    return out.movedim(1, -1) if data_format == "NHWC" else out


@op("temporal_shift", exports=("paddle.nn.functional.temporal_shift",))
def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """x [N*T, C, H, W]: channels [0, C*r) take frame t-1, [C*r, 2*C*r) frame t+1, the rest stay."""
    api = "paddle.nn.functional.temporal_shift"
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): "
                         f"{data_format}.")
    if x.dim() != 4 or x.shape[0] % seg_num:
        raise ValueError(f"{api}: x should be 4-D with a first dim divisible by seg_num ({seg_num}), but received "
                         f"shape {list(x.shape)}")
    if data_format == "NHWC":
        x = x.movedim(-1, 1)
    nt, c, h, w = x.shape
    v = x.reshape(nt // seg_num, seg_num, c, h, w)
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    zero = torch.zeros_like(v[:, :1])
    back = torch.cat([zero[:, :, :c1], v[:, :-1, :c1]], dim=1)
    fwd = torch.cat([v[:, 1:, c1:c2], zero[:, :, c1:c2]], dim=1)
    out = torch.cat([back, fwd, v[:, :, c2:]], dim=2).reshape(nt, c, h, w)
    return out.movedim(1, -1) if data_format == "NHWC" else out


def _check_4d_format(api: str, x, data_format) -> None:
    if x.dim() != 4:
        raise ValueError(f"{api}: Input x should be 4D tensor, but received x with the shape of {list(x.shape)}")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: Attr(data_format) should be 'NCHW' or 'NHWC'.But recevie Attr(data_format): "
                         f"{data_format} ")


def _positive_int(api: str, v, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"{api}: {what} must be int type, but received {type(v).__name__}")
    if v <= 0:
        raise ValueError(f"{api}: {what} must be positive, but received {v}")
    return v


@op("pixel_unshuffle", exports=("paddle.nn.functional.pixel_unshuffle",))
def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W] (the inverse of pixel_shuffle)."""
    api = "paddle.nn.functional.pixel_unshuffle"
    _check_4d_format(api, x, data_format)
    r = _positive_int(api, downscale_factor, "Downscale factor")
    if data_format == "NHWC":
        x = x.movedim(-1, 1)
    if x.shape[2] % r or x.shape[3] % r:
        raise ValueError(f"{api}: the height and width of x ({list(x.shape[2:])}) should be divisible by "
                         f"downscale_factor {r}")
    out = F.pixel_unshuffle(x, r)
    return out.movedim(1, -1) if data_format == "NHWC" else out


@op("channel_shuffle", exports=("paddle.nn.functional.channel_shuffle",))
def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """Split the channels into `groups` groups and interleave them ([g, C/g] -> [C/g, g])."""
    api = "paddle.nn.functional.channel_shuffle"
    _check_4d_format(api, x, data_format)
    g = _positive_int(api, groups, "groups")
    axis = 1 if data_format == "NCHW" else 3
    c = x.shape[axis]
    if c % g:
        raise ValueError(f"{api}: The number of channels ({c}) should be divisible by groups ({g})")
    shape = list(x.shape)
    split = shape[:axis] + [g, c // g] + shape[axis + 1:]
    return x.reshape(split).transpose(axis, axis + 1).reshape(shape)
