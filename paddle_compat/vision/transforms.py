"""paddle.vision.transforms with Paddle 2.4 semantics, without OpenCV.

Inputs: numpy HWC images (Paddle's cv2 backend: we reproduce OpenCV's arithmetic in numpy: INTER_LINEAR
with half-pixel centers and uint8 rounding, INTER_NEAREST, LUT brightness / contrast, the fixed-point
RGB2GRAY, warpAffine for rotate), paddle Tensors CHW / HWC (Paddle's tensor backend, in torch), and PIL
images when Pillow is installed (converted through numpy; results can differ from Pillow's own filters
by rounding). Random transforms draw from Python's `random` / numpy, as Paddle's do.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Iterable, Sequence

import numpy as np
import torch

from paddle_compat.framework.tensor import Tensor
from paddle_compat.ops.registry import export

try:  # optional
    from PIL import Image as _PILImage
except ImportError:  # pragma: no cover - Pillow is not a dependency
    _PILImage = None

_API = "paddle.vision.transforms"


def _is_pil(img) -> bool:
    return _PILImage is not None and isinstance(img, _PILImage.Image)


def _is_numpy(img) -> bool:
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _is_tensor(img) -> bool:
    return isinstance(img, Tensor)


def _check(img, api):
    if not (_is_pil(img) or _is_numpy(img) or _is_tensor(img)):
        raise TypeError(f"{_API}.{api}: img should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. "
                        f"Got {type(img)}")


def _via_numpy(fn, img, *args):
    """PIL image -> numpy -> fn -> PIL image."""
    out = fn(np.asarray(img), *args)
    if out.ndim == 3 and out.shape[2] == 1:
        out = out[:, :, 0]
    return _PILImage.fromarray(out)


def _keep_channel(img, out):
    if img.ndim == 3 and out.ndim == 2:
        out = out[:, :, None]
    return out


# ------------------------------------------------------------------------------------------------
# numpy (OpenCV-equivalent) kernels


def _cv_round_cast(x: np.ndarray, dtype) -> np.ndarray:
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.clip(np.rint(x), info.min, info.max).astype(dtype)
    return x.astype(dtype)


def _np_resize(img: np.ndarray, oh: int, ow: int, interpolation: str) -> np.ndarray:
    h, w = img.shape[:2]
    src = img if img.ndim == 3 else img[:, :, None]
    if interpolation == "nearest":
        ys = np.minimum((np.arange(oh) * (h / oh)).astype(np.int64), h - 1)
        xs = np.minimum((np.arange(ow) * (w / ow)).astype(np.int64), w - 1)
        out = src[ys][:, xs]
    elif interpolation in ("bilinear", "area", "bicubic", "lanczos"):
        mode = {"bilinear": "bilinear", "bicubic": "bicubic", "area": "area", "lanczos": "bicubic"}[interpolation]
        t = torch.from_numpy(np.ascontiguousarray(src, dtype=np.float64)).permute(2, 0, 1).unsqueeze(0)
        kw = {} if mode == "area" else {"align_corners": False}
        r = torch.nn.functional.interpolate(t, size=(oh, ow), mode=mode, **kw)
        out = _cv_round_cast(r[0].permute(1, 2, 0).numpy(), img.dtype)
    else:
        raise ValueError(f"{_API}.resize: unsupported interpolation {interpolation!r}")
    return out if img.ndim == 3 else out[:, :, 0]


def _np_warp_affine(img: np.ndarray, M: np.ndarray, ow: int, oh: int, interpolation: str, fill) -> np.ndarray:
    """cv2.warpAffine(img, M, (ow, oh)): dst(x, y) = src(M^-1 [x, y, 1]), constant border `fill`."""
    A = np.vstack([M, [0, 0, 1]])
    inv = np.linalg.inv(A)
    ys, xs = np.meshgrid(np.arange(oh, dtype=np.float64), np.arange(ow, dtype=np.float64), indexing="ij")
    sx = inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]
    sy = inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]
    src = img if img.ndim == 3 else img[:, :, None]
    h, w, c = src.shape
    fillv = np.broadcast_to(np.asarray(fill if not isinstance(fill, (list, tuple)) else fill[:c], np.float64), (c,))
    if interpolation == "nearest":
        xi, yi = np.floor(sx + 0.5).astype(np.int64), np.floor(sy + 0.5).astype(np.int64)
        ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        out = np.empty((oh, ow, c), np.float64)
        out[:] = fillv
        out[ok] = src[yi[ok], xi[ok]]
    else:
        x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
        fx, fy = (sx - x0)[..., None], (sy - y0)[..., None]

        def px(yy, xx):
            ok = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
            v = np.empty((oh, ow, c), np.float64)
            v[:] = fillv
            v[ok] = src[yy[ok], xx[ok]]
            return v

        out = (px(y0, x0) * (1 - fx) * (1 - fy) + px(y0, x0 + 1) * fx * (1 - fy)
               + px(y0 + 1, x0) * (1 - fx) * fy + px(y0 + 1, x0 + 1) * fx * fy)
    out = _cv_round_cast(out, img.dtype)
    return out if img.ndim == 3 else out[:, :, 0]


def _rotation_matrix(center, angle, scale=1.0) -> np.ndarray:
    """cv2.getRotationMatrix2D."""
    a = math.radians(angle)
    alpha, beta = scale * math.cos(a), scale * math.sin(a)
    cx, cy = center
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def _np_gray(img: np.ndarray) -> np.ndarray:
    """cv2.COLOR_RGB2GRAY (fixed point for uint8)."""
    r, g, b = (img[..., k].astype(np.int64 if img.dtype == np.uint8 else np.float64) for k in range(3))
    if img.dtype == np.uint8:
        return ((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14).astype(np.uint8)
    return (0.299 * r + 0.587 * g + 0.114 * b).astype(img.dtype)


def _np_rgb_to_hsv_full(img: np.ndarray) -> np.ndarray:
    x = img.astype(np.float64)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = x.max(-1)
    mn = x.min(-1)
    d = v - mn
    s = np.where(v > 0, d * 255.0 / np.where(v > 0, v, 1), 0)
    dd = np.where(d > 0, d, 1)
    h = np.where(v == r, (g - b) / dd, np.where(v == g, 2 + (b - r) / dd, 4 + (r - g) / dd)) * 60.0
    h = np.where(d > 0, h, 0)
    h = np.where(h < 0, h + 360, h) * 256.0 / 360.0
    return np.stack([np.rint(h) % 256, np.rint(s), v], -1)


def _np_hsv_full_to_rgb(hsv: np.ndarray) -> np.ndarray:
    h, s, v = hsv[..., 0] * 360.0 / 256.0 / 60.0, hsv[..., 1] / 255.0, hsv[..., 2]
    i = np.floor(h).astype(np.int64) % 6
    f = h - np.floor(h)
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    sel = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    out = np.zeros(hsv.shape, np.float64)
    for k, (r, g, b) in enumerate(sel):
        m = i == k
        out[..., 0][m], out[..., 1][m], out[..., 2][m] = r[m], g[m], b[m]
    return np.clip(np.rint(out), 0, 255)


# ------------------------------------------------------------------------------------------------
# tensor kernels (CHW / HWC float or uint8), Paddle's functional_tensor in torch


def _t(img: Tensor) -> torch.Tensor:
    return img._t


def _w(t: torch.Tensor) -> Tensor:
    return Tensor._wrap(t)


def _chw(t: torch.Tensor, data_format: str) -> torch.Tensor:
    return t if data_format.lower() == "chw" else t.movedim(-1, -3)


def _unchw(t: torch.Tensor, data_format: str) -> torch.Tensor:
    return t if data_format.lower() == "chw" else t.movedim(-3, -1)


def _blend(img1: torch.Tensor, img2: torch.Tensor, ratio: float) -> torch.Tensor:
    bound = 1.0 if img1.is_floating_point() else 255.0
    out = (ratio * img1.float() + (1.0 - ratio) * img2.float()).clamp(0, bound)
    return out.to(img1.dtype)


def _t_gray(t: torch.Tensor) -> torch.Tensor:
    w = torch.tensor([0.2989, 0.5870, 0.1140], dtype=torch.float32, device=t.device).reshape(-1, 1, 1)
    return (t.float() * w).sum(-3, keepdim=True)


# ------------------------------------------------------------------------------------------------
# functional API


def to_tensor(pic, data_format="CHW"):
    _check(pic, "to_tensor")
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if _is_tensor(pic):
        return pic if data_format.lower() == "chw" else _w(_t(pic).permute(1, 2, 0))
    arr = np.asarray(pic)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if data_format == "CHW":
        arr = arr.transpose((2, 0, 1))
    t = torch.from_numpy(np.ascontiguousarray(arr))
    if t.dtype == torch.uint8:
        return _w(t.float() / 255.0)
    return _w(t.clone())


def resize(img, size, interpolation="bilinear"):
    _check(img, "resize")
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    if _is_tensor(img):
        t = _t(img)
        h, w = t.shape[-2], t.shape[-1]
    else:
        arr = np.asarray(img)
        h, w = arr.shape[:2]
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        oh, ow = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    else:
        oh, ow = int(size[0]), int(size[1])
    if _is_tensor(img):
        x = t.unsqueeze(0) if t.dim() == 3 else t
        mode = {"bilinear": "bilinear", "nearest": "nearest", "bicubic": "bicubic"}.get(interpolation)
        if mode is None:
            raise ValueError(f"{_API}.resize: interpolation {interpolation!r} is not supported for Tensor images")
        kw = {} if mode == "nearest" else {"align_corners": False}
        out = torch.nn.functional.interpolate(x.float(), size=(oh, ow), mode=mode, **kw).to(t.dtype)
        return _w(out[0] if t.dim() == 3 else out)
    if _is_pil(img):
        return _via_numpy(lambda a: _np_resize(a, oh, ow, interpolation), img)
    return _keep_channel(arr, _np_resize(arr, oh, ow, interpolation))


def _pad_amounts(padding):
    if not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError("Got inappropriate padding arg")
    if isinstance(padding, Sequence) and len(padding) not in (2, 4):
        raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a "
                         f"{len(padding)} element tuple")
    if isinstance(padding, numbers.Number):
        return (int(padding),) * 4
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    return tuple(padding)


def pad(img, padding, fill=0, padding_mode="constant"):
    _check(img, "pad")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    left, top, right, bottom = _pad_amounts(padding)
    if _is_tensor(img):
        t = _t(img)
        x = t.unsqueeze(0).float() if t.dim() == 3 else t.float()
        mode = {"constant": "constant", "edge": "replicate", "reflect": "reflect", "symmetric": "symmetric"}
        if padding_mode == "symmetric":
            out = torch.from_numpy(np.pad(x.numpy(), ((0, 0), (0, 0), (top, bottom), (left, right)), "symmetric"))
        elif padding_mode == "constant":
            out = torch.nn.functional.pad(x, [left, right, top, bottom], value=float(fill))
        else:
            out = torch.nn.functional.pad(x, [left, right, top, bottom], mode=mode[padding_mode])
        out = out.to(t.dtype)
        return _w(out[0] if t.dim() == 3 else out)

    def np_pad(a):
        widths = ((top, bottom), (left, right)) + (((0, 0),) if a.ndim == 3 else ())
        if padding_mode == "constant":
            fl = fill
            if isinstance(fl, numbers.Number) and a.ndim == 3 and a.shape[2] > 1:
                fl = (fl, 0, 0, 0)  # NOTE: cv2.copyMakeBorder reads a scalar as Scalar(v, 0, 0, 0), as Paddle does
            if isinstance(fl, (list, tuple)) and a.ndim == 3:
                chans = [np.pad(a[..., k], widths[:2], constant_values=fl[k] if k < len(fl) else 0)
                         for k in range(a.shape[2])]
                return np.stack(chans, -1)
            return np.pad(a, widths, constant_values=fill)
        return np.pad(a, widths, {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[padding_mode])

    if _is_pil(img):
        return _via_numpy(np_pad, img)
    return np_pad(np.asarray(img))


def crop(img, top, left, height, width):
    _check(img, "crop")
    if _is_tensor(img):
        t = _t(img)
        return _w(t[..., top:top + height, left:left + width])
    if _is_pil(img):
        return img.crop((left, top, left + width, top + height))
    return img[top:top + height, left:left + width, ...] if img.ndim == 2 else img[top:top + height,
                                                                                   left:left + width, :]


def center_crop(img, output_size):
    _check(img, "center_crop")
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    if _is_tensor(img):
        h, w = _t(img).shape[-2:]
    elif _is_pil(img):
        w, h = img.size
    else:
        h, w = img.shape[:2]
    th, tw = output_size
    i = int(round((h - th) / 2.0))
    j = int(round((w - tw) / 2.0))
    return crop(img, i, j, th, tw)


def hflip(img):
    _check(img, "hflip")
    if _is_tensor(img):
        return _w(_t(img).flip(-1))
    if _is_pil(img):
        return _via_numpy(lambda a: a[:, ::-1].copy(), img)
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    _check(img, "vflip")
    if _is_tensor(img):
        return _w(_t(img).flip(-2))
    if _is_pil(img):
        return _via_numpy(lambda a: a[::-1].copy(), img)
    return np.ascontiguousarray(img[::-1])


def _lut(img: np.ndarray, table: np.ndarray) -> np.ndarray:
    return table[img.astype(np.uint8)]


def adjust_brightness(img, brightness_factor):
    _check(img, "adjust_brightness")
    if _is_tensor(img):
        t = _t(img)
        return _w(_blend(t, torch.zeros_like(t), brightness_factor))
    table = np.array([i * brightness_factor for i in range(256)]).clip(0, 255).astype("uint8")
    if _is_pil(img):
        return _via_numpy(lambda a: _lut(a, table), img)
    return _lut(img, table)


def adjust_contrast(img, contrast_factor):
    _check(img, "adjust_contrast")
    if _is_tensor(img):
        t = _t(img)
        mean = _t_gray(_chw(t, "chw")).mean(dim=(-3, -2, -1), keepdim=True)
        return _w(_blend(t, mean.to(t.dtype) if not t.is_floating_point() else mean, contrast_factor))
    table = np.array([(i - 74) * contrast_factor + 74 for i in range(256)]).clip(0, 255).astype("uint8")
    if _is_pil(img):
        return _via_numpy(lambda a: _lut(a, table), img)
    return _lut(img, table)


def adjust_saturation(img, saturation_factor):
    """numpy: Paddle's cv2 backend blends with the gray image at a *random* alpha in
    [max(0, 1 - f), 1 + f] (np.random), as Paddle 2.4 does; Tensor: exact blend with factor f."""
    _check(img, "adjust_saturation")
    if _is_tensor(img):
        t = _t(img)
        return _w(_blend(t, _t_gray(t).to(t.dtype) if not t.is_floating_point() else _t_gray(t), saturation_factor))

    def f(a):
        dtype = a.dtype
        x = a.astype(np.float32)
        alpha = np.random.uniform(max(0, 1 - saturation_factor), 1 + saturation_factor)
        gray = (0.114 * x[..., 0] + 0.587 * x[..., 1] + 0.299 * x[..., 2])[..., None]  # cv2 BGR2GRAY on float
        return (x * alpha + gray * (1 - alpha)).clip(0, 255).astype(dtype)

    return _via_numpy(f, img) if _is_pil(img) else f(img)


def adjust_hue(img, hue_factor):
    _check(img, "adjust_hue")
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    if _is_tensor(img):
        t = _t(img)
        x = t.float() / (255.0 if not t.is_floating_point() else 1.0)
        r, g, b = x.unbind(-3)
        maxc, minc = x.max(-3).values, x.min(-3).values
        eq = maxc == minc
        delta = maxc - minc
        s = delta / torch.where(eq, torch.ones_like(maxc), maxc)
        dd = torch.where(eq, torch.ones_like(delta), delta)
        rc, gc, bc = (maxc - r) / dd, (maxc - g) / dd, (maxc - b) / dd
        h = ((maxc == r).float() * (bc - gc) + ((maxc == g) & (maxc != r)).float() * (rc - bc + 2.0)
             + ((maxc != r) & (maxc != g)).float() * (gc - rc + 4.0))
        h = h / 6.0 + 1.0
        h = h - h.trunc()
        h = (h + hue_factor) % 1.0
        i = torch.floor(h * 6.0)
        fr = h * 6.0 - i
        i = i.long() % 6
        v = maxc
        p = (v * (1 - s)).clamp(0, 1)
        q = (v * (1 - s * fr)).clamp(0, 1)
        tt = (v * (1 - s * (1 - fr))).clamp(0, 1)
        rs = torch.stack([v, q, p, p, tt, v], 0).gather(0, i.unsqueeze(0))[0]
        gs = torch.stack([tt, v, v, q, p, p], 0).gather(0, i.unsqueeze(0))[0]
        bs = torch.stack([p, p, tt, v, v, q], 0).gather(0, i.unsqueeze(0))[0]
        out = torch.stack([rs, gs, bs], -3)
        if not t.is_floating_point():
            out = (out * 255.0).round().clamp(0, 255)
        return _w(out.to(t.dtype))

    def f(a):
        dtype = a.dtype
        bgr = a.astype(np.uint8)[..., ::-1]  # Paddle converts with COLOR_BGR2HSV_FULL on the RGB array
        hsv = _np_rgb_to_hsv_full(bgr)
        hsv[..., 0] = (hsv[..., 0].astype(np.int64) + np.uint8(hue_factor * 255)) % 256
        return _np_hsv_full_to_rgb(hsv)[..., ::-1].astype(dtype)

    return _via_numpy(f, img) if _is_pil(img) else f(img)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    _check(img, "rotate")
    if _is_tensor(img):
        t = _t(img)
        x = t.unsqueeze(0).float()
        h, w = x.shape[-2:]
        a = math.radians(-angle % 360)
        rc = [0.0, 0.0] if center is None else [p - s * 0.5 for p, s in zip(center, [w, h])]
        m = [math.cos(a), math.sin(a), 0.0, -math.sin(a), math.cos(a), 0.0]
        m[2] += m[0] * -rc[0] + m[1] * -rc[1] + rc[0]
        m[5] += m[3] * -rc[0] + m[4] * -rc[1] + rc[1]
        mat = torch.tensor(m, dtype=torch.float32).reshape(1, 2, 3)
        ow, oh = w, h
        if expand:
            corners = torch.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                                    [0.5 * w, -0.5 * h, 1.0]])
            pos = corners @ mat[0].T
            npos = pos.max(0).values.ceil() - pos.min(0).values.floor()
            ow, oh = int(npos[0]), int(npos[1])
        xs = torch.linspace(-ow * 0.5 + 0.5, ow * 0.5 + 0.5 - 1, ow)
        ys = torch.linspace(-oh * 0.5 + 0.5, oh * 0.5 + 0.5 - 1, oh)
        base = torch.stack([xs.expand(oh, ow), ys.unsqueeze(-1).expand(oh, ow), torch.ones(oh, ow)], -1)
        grid = (base.reshape(1, -1, 3) @ (mat.transpose(1, 2) / torch.tensor([0.5 * w, 0.5 * h]))).reshape(1, oh, ow, 2)
        grid = grid.to(x.device)
        fill_t = fill if fill is not None else None
        if fill_t is not None:
            x = torch.cat([x, torch.ones_like(x[:, :1])], 1)
        out = torch.nn.functional.grid_sample(x, grid, mode=interpolation, padding_mode="zeros", align_corners=False)
        if fill_t is not None:
            mask, out = out[:, -1:], out[:, :-1]
            fv = torch.tensor(fill_t if isinstance(fill_t, (list, tuple)) else [fill_t], dtype=out.dtype,
                              device=out.device)
            fv = fv.reshape(1, -1, 1, 1).expand_as(out)
            if interpolation == "nearest":
                mk = (mask < 0.5).to(out.dtype)
                out = out * (1.0 - mk) + mk * fv
            else:
                out = out * mask + (1.0 - mask) * fv
        return _w(out[0].to(t.dtype))

    def f(a):
        h, w = a.shape[:2]
        c = (w / 2.0, h / 2.0) if center is None else center
        M = _rotation_matrix(c, angle, 1.0)
        ow, oh = w, h
        if expand:
            ang = -math.radians(angle)
            em = [round(math.cos(ang), 15), round(math.sin(ang), 15), 0.0, round(-math.sin(ang), 15),
                  round(math.cos(ang), 15), 0.0]

            def tr(x, y, m):
                return m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]

            em[2], em[5] = tr(-c[0], -c[1], em)
            em[2] += c[0]
            em[5] += c[1]
            pts = [tr(x, y, em) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
            nw = math.ceil(max(p[0] for p in pts)) - math.floor(min(p[0] for p in pts))
            nh = math.ceil(max(p[1] for p in pts)) - math.floor(min(p[1] for p in pts))
            M[0, 2] += (nw - w) * 0.5
            M[1, 2] += (nh - h) * 0.5
            ow, oh = int(nw), int(nh)
        return _np_warp_affine(a, M, ow, oh, interpolation, 0 if fill is None else fill)

    return _via_numpy(f, img) if _is_pil(img) else f(img)


def to_grayscale(img, num_output_channels=1):
    _check(img, "to_grayscale")
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if _is_tensor(img):
        t = _t(img)
        g = _t_gray(t).to(t.dtype)
        shape = list(g.shape)
        shape[-3] = num_output_channels
        return _w(g.expand(shape))

    def f(a):
        g = _np_gray(a)[:, :, None]
        return g if num_output_channels == 1 else np.broadcast_to(g, a.shape)

    return _via_numpy(f, img) if _is_pil(img) else f(img)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    if _is_tensor(img):
        t = _t(img)
        m = torch.tensor(mean, dtype=t.dtype, device=t.device)
        s = torch.tensor(std, dtype=t.dtype, device=t.device)
        if data_format.upper() == "CHW":
            m, s = m.reshape(-1, 1, 1), s.reshape(-1, 1, 1)
        return _w((t - m) / s)
    if _is_pil(img):
        img = np.array(img).astype(np.float32)
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    m = np.float32(np.array(mean).reshape(shape))
    s = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - m) / s


# ------------------------------------------------------------------------------------------------
# transform classes


def _image_size(img):
    """(width, height)."""
    if _is_pil(img):
        return img.size
    if _is_numpy(img):
        return img.shape[:2][::-1]
    if _is_tensor(img):
        s = _t(img).shape
        if len(s) not in (3, 4):
            raise ValueError(f"The dim for input Tensor should be 3-D or 4-D, but received {len(s)}")
        return tuple(s[-2:])[::-1]
    raise TypeError(f"Unexpected type {type(img)}")


def _check_input(value, name, center=1, bound=(0, float("inf")), clip_first_on_zero=True):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"If {name} is a single number, it must be non negative.")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}")
    else:
        raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
    if value[0] == value[1] == center:
        value = None
    return value


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, data):
        for f in self.transforms:
            data = f(data)
        return data

    def __repr__(self):
        return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class BaseTransform:
    """Applies `_apply_<key>` to each input of a tuple according to `keys` (default ("image",))."""

    def __init__(self, keys=None):
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence):
            raise ValueError(f"keys should be a sequence, but got keys={keys}")
        for k in keys:
            if self._get_apply(k) is None:
                raise NotImplementedError(f"{k} is unsupported data structure")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        pass

    def __call__(self, inputs):
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        outputs = []
        for i in range(min(len(inputs), len(self.keys))):
            fn = self._get_apply(self.keys[i])
            outputs.append(inputs[i] if fn is None else fn(inputs[i]))
        if len(inputs) > len(self.keys):
            outputs.extend(inputs[len(self.keys):])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image):
        raise NotImplementedError


class ToTensor(BaseTransform):
    def __init__(self, data_format="CHW", keys=None):
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return to_tensor(img, self.data_format)


class Resize(BaseTransform):
    def __init__(self, size, interpolation="bilinear", keys=None):
        super().__init__(keys)
        if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
            raise TypeError(f"Resize: size should be an int or a sequence of 2 ints, got {size}")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3), interpolation="bilinear", keys=None):
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else size
        if scale[0] > scale[1]:
            raise ValueError("scale should be of kind (min, max)")
        if ratio[0] > ratio[1]:
            raise ValueError("ratio should be of kind (min, max)")
        self.scale, self.ratio, self.interpolation = scale, ratio, interpolation

    def _get_param(self, image, attempts=10):
        width, height = _image_size(image)
        area = height * width
        for _ in range(attempts):
            target_area = np.random.uniform(*self.scale) * area
            log_ratio = tuple(math.log(x) for x in self.ratio)
            aspect_ratio = math.exp(np.random.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                return random.randint(0, height - h), random.randint(0, width - w), h, w
        in_ratio = float(width) / float(height)
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            h, w = height, int(round(height * max(self.ratio)))
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        i, j, h, w = self._get_param(img)
        return resize(crop(img, i, j, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    def __init__(self, size, keys=None):
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size

    def _apply_image(self, img):
        return center_crop(img, self.size)


class RandomHorizontalFlip(BaseTransform):
    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError("probability must be between 0 and 1")
        self.prob = prob

    def _apply_image(self, img):
        return hflip(img) if random.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError("probability must be between 0 and 1")
        self.prob = prob

    def _apply_image(self, img):
        return vflip(img) if random.random() < self.prob else img


class Normalize(BaseTransform):
    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        super().__init__(keys)
        self.mean = [mean] * 3 if isinstance(mean, numbers.Number) else mean
        self.std = [std] * 3 if isinstance(std, numbers.Number) else std
        self.data_format, self.to_rgb = data_format, to_rgb

    def _apply_image(self, img):
        return normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Transpose(BaseTransform):
    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img):
        if _is_tensor(img):
            return _w(_t(img).permute(*self.order))
        if _is_pil(img):
            img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        return img.transpose(self.order)


class _ColorTransform(BaseTransform):
    _fn = None
    _name = ""
    _center, _bound, _clip = 1, (0, float("inf")), True

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _check_input(value, self._name, self._center, self._bound, self._clip)

    def _apply_image(self, img):
        if self.value is None:
            return img
        return type(self)._fn(img, random.uniform(self.value[0], self.value[1]))


class BrightnessTransform(_ColorTransform):
    _fn, _name = staticmethod(adjust_brightness), "brightness"


class ContrastTransform(_ColorTransform):
    _fn, _name = staticmethod(adjust_contrast), "contrast"

    def __init__(self, value, keys=None):
        if value < 0:
            raise ValueError("contrast value should be non-negative")
        super().__init__(value, keys)


class SaturationTransform(_ColorTransform):
    _fn, _name = staticmethod(adjust_saturation), "saturation"


class HueTransform(_ColorTransform):
    _fn, _name = staticmethod(adjust_hue), "hue"
    _center, _bound, _clip = 0, (-0.5, 0.5), False


class ColorJitter(BaseTransform):
    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None):
        super().__init__(keys)
        self.brightness, self.contrast, self.saturation, self.hue = brightness, contrast, saturation, hue

    def _apply_image(self, img):
        ts = []
        if self.brightness is not None:
            ts.append(BrightnessTransform(self.brightness, self.keys))
        if self.contrast is not None:
            ts.append(ContrastTransform(self.contrast, self.keys))
        if self.saturation is not None:
            ts.append(SaturationTransform(self.saturation, self.keys))
        if self.hue is not None:
            ts.append(HueTransform(self.hue, self.keys))
        random.shuffle(ts)
        return Compose(ts)(img)


class RandomCrop(BaseTransform):
    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant", keys=None):
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = padding, pad_if_needed, fill, padding_mode

    def _apply_image(self, img):
        if self.padding is not None:
            img = pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _image_size(img)
        if self.pad_if_needed and w < self.size[1]:
            img = pad(img, (self.size[1] - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < self.size[0]:
            img = pad(img, (0, self.size[0] - h), self.fill, self.padding_mode)
        w, h = _image_size(img)
        th, tw = self.size
        if w == tw and h == th:
            return crop(img, 0, 0, h, w)
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: crop size {self.size} is larger than the image ({h}, {w})")
        return crop(img, random.randint(0, h - th), random.randint(0, w - tw), th, tw)


class Pad(BaseTransform):
    def __init__(self, padding, fill=0, padding_mode="constant", keys=None):
        if not isinstance(padding, (numbers.Number, list, tuple)):
            raise TypeError("Pad: padding should be a number or a sequence")
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise ValueError("Pad: padding_mode should be constant, edge, reflect or symmetric")
        if isinstance(padding, Sequence) and len(padding) not in (2, 4):
            raise ValueError(f"Padding must be an int or a 2, or 4 element tuple, not a {len(padding)} element tuple")
        super().__init__(keys)
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.fill = tuple(fill) if isinstance(fill, list) else fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return pad(img, self.padding, self.fill, self.padding_mode)


class RandomRotation(BaseTransform):
    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0, keys=None):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("If degrees is a single number, it must be positive.")
            self.degrees = (-degrees, degrees)
        else:
            if len(degrees) != 2:
                raise ValueError("If degrees is a sequence, it must be of len 2.")
            self.degrees = degrees
        super().__init__(keys)
        self.interpolation, self.expand, self.center, self.fill = interpolation, expand, center, fill

    def _apply_image(self, img):
        angle = random.uniform(self.degrees[0], self.degrees[1])
        return rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class Grayscale(BaseTransform):
    def __init__(self, num_output_channels=1, keys=None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return to_grayscale(img, self.num_output_channels)


for _o in (to_tensor, resize, pad, crop, center_crop, hflip, vflip, adjust_brightness, adjust_contrast,
           adjust_saturation, adjust_hue, rotate, to_grayscale, normalize, Compose, BaseTransform, ToTensor, Resize,
           RandomResizedCrop, CenterCrop, RandomHorizontalFlip, RandomVerticalFlip, Normalize, Transpose,
           BrightnessTransform, ContrastTransform, SaturationTransform, HueTransform, ColorJitter, RandomCrop, Pad,
           RandomRotation, Grayscale):
    export(_o, f"{_API}.{_o.__name__}")
    if not isinstance(_o, type):
        export(_o, f"{_API}.functional.{_o.__name__}")
