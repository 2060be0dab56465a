"""paddle.vision.transforms on paddle Tensors (CHW, or HWC where the function takes data_format): Paddle's
tensor backend in torch (grid_sample for rotate / affine / perspective with Paddle's grids and fill masks)."""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as tF

from paddle_compat.engine.framework.tensor import Tensor

_API = "paddle.vision.transforms"


def _t(img):
    if not isinstance(img, Tensor):
        raise TypeError(f"{_API}: static-graph Variables are not supported as images (got {type(img).__name__}); "
                        "run the transforms in dygraph mode")
    return img._t


def _w(t):
    return Tensor._wrap(t)


def from_numpy(arr):
    """to_tensor: uint8 scaled to float32 [0, 1], other dtypes kept."""
    t = torch.from_numpy(np.array(arr))
    return _w(t.float() / 255.0 if t.dtype == torch.uint8 else t)


def _check(img, data_format="CHW"):
    t = _t(img)
    if t.dim() not in (3, 4) or data_format.lower() not in ("chw", "hwc"):
        raise RuntimeError(f"not support [type={type(img)}, ndim={t.dim()}, data_format={data_format}] paddle image")
    return t


def _chw(t, data_format):
    return t if data_format.lower() == "chw" else t.movedim(-1, -3)


def _unchw(t, data_format):
    return t if data_format.lower() == "chw" else t.movedim(-3, -1)


def _blend(img1, img2, ratio):
    bound = 1.0 if img1.is_floating_point() else 255.0
    return torch.lerp(img2.to(img1.dtype), img1, float(ratio)).clamp(0, bound).to(img1.dtype)


def _gray(t):
    w = torch.tensor([0.2989, 0.587, 0.114], device=t.device).to(t.dtype).reshape(-1, 1, 1)
    return (t * w).sum(-3, keepdim=True)


def to_grayscale(img, num_output_channels=1, data_format="CHW"):
    t = _chw(_check(img, data_format), data_format)
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    g = _gray(t)
    return _w(_unchw(g.expand(*g.shape[:-3], num_output_channels, *g.shape[-2:]), data_format))


def normalize(img, mean, std, data_format="CHW"):
    t = _check(img, data_format)
    m = torch.tensor(mean, device=t.device).to(t.dtype)
    s = torch.tensor(std, device=t.device).to(t.dtype)
    if data_format.lower() == "chw":
        m, s = m.reshape(-1, 1, 1), s.reshape(-1, 1, 1)
    return _w((t - m) / s)


def hflip(img, data_format="CHW"):
    return _w(_check(img, data_format).flip(-1 if data_format.lower() == "chw" else -2))


def vflip(img, data_format="CHW"):
    return _w(_check(img, data_format).flip(-2 if data_format.lower() == "chw" else -3))


def crop(img, top, left, height, width, data_format="CHW"):
    t = _check(img, data_format)
    if data_format.lower() == "chw":
        return _w(t[..., top:top + height, left:left + width])
    return _w(t[..., top:top + height, left:left + width, :])


def image_size(img, data_format="CHW"):
    """(width, height)."""
    t = _t(img)
    return (t.shape[-1], t.shape[-2]) if data_format.lower() == "chw" else (t.shape[-2], t.shape[-3])


def pad(img, padding, fill=0, padding_mode="constant", data_format="CHW"):
    t = _chw(_check(img, data_format), data_format)
    left, top, right, bottom = padding
    if padding_mode == "symmetric":
        raise ValueError("Do not support symmetric mode")
    x = t.unsqueeze(0) if t.dim() == 3 else t
    if padding_mode == "constant":
        out = tF.pad(x, [left, right, top, bottom], value=float(fill))
    else:
        out = tF.pad(x, [left, right, top, bottom], mode={"edge": "replicate", "reflect": "reflect"}[padding_mode])
    return _w(_unchw(out[0] if t.dim() == 3 else out, data_format))


def resize(img, size, interpolation="bilinear", data_format="CHW"):
    from paddle_compat.paddle2.vision.transforms.functional_cv2 import output_size

    t = _chw(_check(img, data_format), data_format)
    h, w = t.shape[-2:]
    if isinstance(size, int) and (w <= 0 or h <= 0):
        raise NotImplementedError(f"Not support while w<=0 or h<=0, but received w={w}, h={h}")
    hw = output_size(h, w, size)
    if hw is None:
        return img
    if interpolation.lower() not in ("nearest", "bilinear", "bicubic"):
        raise ValueError(f"{_API}.resize: interpolation {interpolation!r} is not supported for Tensor images "
                         "(nearest, bilinear, bicubic)")
    x = t.unsqueeze(0) if t.dim() == 3 else t
    kw = {} if interpolation.lower() == "nearest" else {"align_corners": False}
    out = tF.interpolate(x.float(), size=hw, mode=interpolation.lower(), **kw).to(t.dtype)
    return _w(_unchw(out[0] if t.dim() == 3 else out, data_format))


def adjust_brightness(img, brightness_factor):
    t = _check(img)
    if brightness_factor < 0:
        raise AssertionError("brightness_factor should be non-negative.")
    return _w(_blend(t, torch.zeros_like(t), brightness_factor))


def adjust_contrast(img, contrast_factor):
    t = _check(img)
    if contrast_factor < 0:
        raise AssertionError("contrast_factor should be non-negative.")
    ft = t if t.is_floating_point() else t.float()
    if t.shape[-3] not in (1, 3):
        raise ValueError("channels of input should be either 1 or 3.")
    mean = (ft if t.shape[-3] == 1 else _gray(ft)).mean(dim=(-3, -2, -1), keepdim=True)
    return _w(_blend(t, mean, contrast_factor))


def adjust_saturation(img, saturation_factor):
    t = _check(img)
    if saturation_factor < 0:
        raise AssertionError("saturation_factor should be non-negative.")
    if t.shape[-3] == 1:
        return img
    if t.shape[-3] != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    return _w(_blend(t, _gray(t), saturation_factor))


def adjust_hue(img, hue_factor):
    t = _check(img)
    if not -0.5 <= hue_factor <= 0.5:
        raise AssertionError("hue_factor should be in range [-0.5, 0.5]")
    if t.shape[-3] == 1:
        return img
    if t.shape[-3] != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    x = t.float() / 255.0 if t.dtype == torch.uint8 else t
    r, g, b = x.unbind(-3)
    maxc, minc = x.amax(-3), x.amin(-3)
    eq = maxc == minc
    delta = maxc - minc
    s = delta / torch.where(eq, torch.ones_like(maxc), maxc)
    dd = torch.where(eq, torch.ones_like(delta), delta)
    rc, gc, bc = (maxc - r) / dd, (maxc - g) / dd, (maxc - b) / dd
    h = ((maxc == r).to(x.dtype) * (bc - gc) + ((maxc == g) & (maxc != r)).to(x.dtype) * (rc - bc + 2.0)
         + ((maxc != r) & (maxc != g)).to(x.dtype) * (gc - rc + 4.0))
    h = h / 6.0 + 1.0
    h = h - h.trunc() + hue_factor
    h = h - h.floor()
    i = torch.floor(h * 6.0)
    f = h * 6.0 - i
    i = i.long() % 6
    v = maxc
    p = (v * (1.0 - s)).clamp(0, 1)
    q = (v * (1.0 - s * f)).clamp(0, 1)
    u = (v * (1.0 - s * (1.0 - f))).clamp(0, 1)
    pick = lambda *c: torch.stack(c, 0).gather(0, i.unsqueeze(0))[0]  # noqa: E731
    out = torch.stack([pick(v, q, p, p, u, v), pick(u, v, v, q, p, p), pick(p, p, u, v, v, q)], -3)
    if t.dtype == torch.uint8:
        out = out * 255.0
    return _w(out.to(t.dtype))


def _base_grid(ow, oh, x0, y0, dtype, device):
    """[oh, ow, 3]: pixel centres (x0 + j, y0 + i, 1)."""
    xs = torch.linspace(x0, x0 + ow - 1, ow, dtype=dtype, device=device)
    ys = torch.linspace(y0, y0 + oh - 1, oh, dtype=dtype, device=device)
    return torch.stack([xs.expand(oh, ow), ys.unsqueeze(-1).expand(oh, ow), torch.ones(oh, ow, dtype=dtype,
                                                                                        device=device)], -1)


def _affine_grid(theta, w, h, ow, oh):
    base = _base_grid(ow, oh, -ow * 0.5 + 0.5, -oh * 0.5 + 0.5, theta.dtype, theta.device)
    scaled = theta.reshape(2, 3).T / torch.tensor([0.5 * w, 0.5 * h], dtype=theta.dtype, device=theta.device)
    return (base.reshape(-1, 3) @ scaled).reshape(1, oh, ow, 2)


def _nearest_sample(x, grid):
    """grid_sample 'nearest' (zeros outside, align_corners=False) rounding half away from zero, as Paddle's
    kernel does (torch rounds half to even)."""
    n, c, h, w = x.shape
    ix = ((grid[..., 0] + 1) * w - 1) / 2
    iy = ((grid[..., 1] + 1) * h - 1) / 2
    ix = (torch.sign(ix) * torch.floor(ix.abs() + 0.5)).long()
    iy = (torch.sign(iy) * torch.floor(iy.abs() + 0.5)).long()
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    idx = (iy.clamp(0, h - 1) * w + ix.clamp(0, w - 1)).reshape(n, 1, -1).expand(n, c, -1)
    out = torch.gather(x.reshape(n, c, h * w), 2, idx).reshape(n, c, *grid.shape[1:3])
    return out * inside.unsqueeze(1).to(x.dtype)


def _grid_sample(x, grid, mode, fill):
    """grid_sample with zeros outside; a fill (number or per-channel list) goes where the sampled mask says the
    point fell outside (nearest: mask < 0.5; others: blended by the mask), as Paddle does."""
    grid = grid.expand(x.shape[0], *grid.shape[1:])
    if fill is not None:
        x = torch.cat([x, torch.ones_like(x[:, :1])], 1)
    out = _nearest_sample(x, grid) if mode == "nearest" else tF.grid_sample(x, grid, mode=mode, padding_mode="zeros",
                                                                             align_corners=False)
    if fill is None:
        return out
    mask, out = out[:, -1:], out[:, :-1]
    fv = torch.tensor(fill if isinstance(fill, (list, tuple)) else [fill], device=out.device).to(out.dtype)
    fv = fv.reshape(1, -1, 1, 1).expand_as(out)
    if mode == "nearest":
        m = (mask < 0.5).to(out.dtype)
        return out * (1.0 - m) + m * fv
    return out * mask + (1.0 - mask) * fv


def _warp(img, grid_of, interpolation, fill, data_format, out_size=None):
    """Run `grid_of(w, h, x)` -> grid over a 3-D / 4-D image and sample it."""
    t = _chw(_check(img, data_format), data_format)
    x = t.unsqueeze(0) if t.dim() == 3 else t
    dtype = x.dtype if x.is_floating_point() else torch.float32
    h, w = x.shape[-2:]
    grid = grid_of(w, h, dtype, x.device)
    out = _grid_sample(x.to(dtype), grid, interpolation, fill).to(t.dtype)
    return _w(_unchw(out[0] if t.dim() == 3 else out, data_format))


def affine(img, matrix, interpolation="nearest", fill=None, data_format="CHW"):
    if isinstance(fill, int):
        fill = (fill,) * 3
    return _warp(img, lambda w, h, dt, dev: _affine_grid(torch.tensor(matrix, dtype=dt, device=dev), w, h, w, h),
                 interpolation, fill, data_format)


def rotation_matrix(angle, center, w, h):
    """Paddle's inverse rotation matrix about `center` (image-centred coordinates) for the tensor backend."""
    a = math.radians(-angle % 360)
    rc = [0.0, 0.0] if center is None else [p - s * 0.5 for p, s in zip(center, [w, h])]
    m = [math.cos(a), math.sin(a), 0.0, -math.sin(a), math.cos(a), 0.0]
    m[2] += m[0] * -rc[0] + m[1] * -rc[1] + rc[0]
    m[5] += m[3] * -rc[0] + m[4] * -rc[1] + rc[1]
    return m


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=None, data_format="CHW"):
    w, h = image_size(img, data_format)
    m = rotation_matrix(angle, center, w, h)
    ow, oh = w, h
    if expand:
        mat = torch.tensor(m, dtype=torch.float32).reshape(2, 3)
        corners = torch.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                                [0.5 * w, -0.5 * h, 1.0]])
        pos = corners @ mat.T
        npos = pos.amax(0).ceil() - pos.amin(0).floor()
        ow, oh = int(npos[0]), int(npos[1])
    return _warp(img, lambda w_, h_, dt, dev: _affine_grid(torch.tensor(m, dtype=dt, device=dev), w_, h_, ow, oh),
                 interpolation, fill, data_format)


def _perspective_grid(coeffs, ow, oh, dtype, device):
    c = torch.tensor(coeffs, dtype=dtype, device=device)
    theta1 = c[:6].reshape(2, 3)
    theta2 = torch.cat([c[6:].reshape(1, 2).expand(2, 2), torch.ones(2, 1, dtype=dtype, device=device)], 1)
    base = _base_grid(ow, oh, 0.5, 0.5, dtype, device).reshape(-1, 3)
    g1 = base @ (theta1.T / torch.tensor([0.5 * ow, 0.5 * oh], dtype=dtype, device=device))
    g2 = base @ theta2.T
    return (g1 / g2 - 1.0).reshape(1, oh, ow, 2)


def perspective(img, coeffs, interpolation="nearest", fill=None, data_format="CHW"):
    return _warp(img, lambda w, h, dt, dev: _perspective_grid(coeffs, w, h, dt, dev), interpolation, fill,
                 data_format)


def erase(img, i, j, h, w, v, inplace=False):
    t = _check(img)
    out = t if inplace else t.clone()
    val = v._t if isinstance(v, Tensor) else torch.as_tensor(np.asarray(v), device=t.device)
    with torch.no_grad():
        out[..., i:i + h, j:j + w] = val.to(t.dtype)
    if inplace:
        return img
    return _w(out)


def random_normal(shape, like):
    """RandomErasing's random value for a tensor image: paddle.normal in the image's dtype."""
    from paddle_compat.engine.framework.registry import EXPORTS

    return EXPORTS["paddle"]["normal"](shape=shape).astype(like.dtype)


def value_tensor(value, like):
    """RandomErasing's fill value [C, 1, 1] in the image's dtype."""
    return _w(torch.tensor(value, device=_t(like).device).to(_t(like).dtype)[:, None, None])
