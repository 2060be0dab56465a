"""paddle.vision.transforms on numpy HWC images: Paddle's OpenCV backend, calling OpenCV as Paddle does, so
pixels match exactly (OpenCV is the optional `paddle_compat[vision]` extra; a call that needs it raises an
ImportError naming the API and the package when it is missing). Crop, normalize, erase and to_tensor are plain
numpy, as in Paddle."""

from __future__ import annotations

import math

import numpy as np

from paddle_compat.engine.core.optional import require

_API = "paddle.vision.transforms"
INTERP = ("nearest", "bilinear", "area", "bicubic", "lanczos")


def _cv2(api):
    return require("cv2", f"{_API}.{api} on numpy images")


def _flag(cv2, interpolation, api):
    table = {"nearest": cv2.INTER_NEAREST, "bilinear": cv2.INTER_LINEAR, "area": cv2.INTER_AREA,
             "bicubic": cv2.INTER_CUBIC, "lanczos": cv2.INTER_LANCZOS4}
    if interpolation not in table:
        raise KeyError(f"{_API}.{api}: interpolation should be one of {INTERP} for numpy images, got "
                       f"{interpolation!r}")
    return table[interpolation]


def _keep_channel(img, out):
    """OpenCV drops a single trailing channel; Paddle puts it back (for the calls where it does)."""
    return out[:, :, np.newaxis] if img.ndim == 3 and img.shape[2] == 1 else out


def to_tensor(pic, data_format="CHW"):
    from paddle_compat.paddle2.vision.transforms.functional_tensor import from_numpy

    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    arr = pic[:, :, None] if pic.ndim == 2 else pic
    return from_numpy(arr.transpose((2, 0, 1)) if data_format == "CHW" else arr)


def output_size(h, w, size):
    """(oh, ow) for resize: an int resizes the short side (the long one keeps the aspect ratio, truncated), a
    pair is (h, w); None when the short side already has that size."""
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return None
        return (int(size * h / w), size) if w < h else (size, int(size * w / h))
    return int(size[0]), int(size[1])


def resize(img, size, interpolation="bilinear"):
    cv2 = _cv2("resize")
    hw = output_size(img.shape[0], img.shape[1], size)
    if hw is None:
        return img
    out = cv2.resize(img, dsize=(hw[1], hw[0]), interpolation=_flag(cv2, interpolation, "resize"))
    return _keep_channel(img, out)


def pad(img, padding, fill=0, padding_mode="constant"):
    cv2 = _cv2("pad")
    left, top, right, bottom = padding
    mode = {"constant": cv2.BORDER_CONSTANT, "edge": cv2.BORDER_REPLICATE, "reflect": cv2.BORDER_REFLECT_101,
            "symmetric": cv2.BORDER_REFLECT}[padding_mode]
    out = cv2.copyMakeBorder(img, top=top, bottom=bottom, left=left, right=right, borderType=mode, value=fill)
    return _keep_channel(img, out)


def crop(img, top, left, height, width):
    return img[top:top + height, left:left + width, :]


def hflip(img):
    return _cv2("hflip").flip(img, 1)


def vflip(img):
    return _keep_channel(img, _cv2("vflip").flip(img, 0))


def _lut(img, table, api):
    return _keep_channel(img, _cv2(api).LUT(img, np.array(table).clip(0, 255).astype("uint8")))


def adjust_brightness(img, brightness_factor):
    return _lut(img.astype(np.uint8), [i * brightness_factor for i in range(256)], "adjust_brightness")


def adjust_contrast(img, contrast_factor):
    # NOTE: Paddle's OpenCV backend pivots on 74, not on the image mean as its Pillow / tensor backends do
    return _lut(img, [(i - 74) * contrast_factor + 74 for i in range(256)], "adjust_contrast")


def adjust_saturation(img, saturation_factor):
    # NOTE: Paddle's OpenCV backend blends at a *random* alpha in [max(0, 1 - f), 1 + f] (numpy's global state)
    cv2 = _cv2("adjust_saturation")
    dtype = img.dtype
    x = img.astype(np.float32)
    alpha = np.random.uniform(max(0, 1 - saturation_factor), 1 + saturation_factor)
    gray = cv2.cvtColor(x, cv2.COLOR_BGR2GRAY)[..., np.newaxis]
    return (x * alpha + gray * (1 - alpha)).clip(0, 255).astype(dtype)


def adjust_hue(img, hue_factor):
    cv2 = _cv2("adjust_hue")
    dtype = img.dtype
    h, s, v = cv2.split(cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2HSV_FULL))
    # int(f * 255) is negative for a negative factor; the sum wraps modulo 256 in int32 as Paddle does
    h = ((h.astype(np.int32) + int(hue_factor * 255)) % 256).astype(np.uint8)
    return cv2.cvtColor(cv2.merge([h, s, v]), cv2.COLOR_HSV2BGR_FULL).astype(dtype)


def _warp(img, matrix, dsize, interpolation, fill, api, perspective=False):
    cv2 = _cv2(api)
    warp = cv2.warpPerspective if perspective else cv2.warpAffine
    out = warp(img, matrix, dsize, flags=_flag(cv2, interpolation, api), borderValue=fill)
    return _keep_channel(img, out)


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    cv2 = _cv2("affine")
    h, w = img.shape[0:2]
    if isinstance(fill, int):
        fill = (fill,) * 3
    if center is None:
        center = (w / 2.0, h / 2.0)
    R = cv2.getRotationMatrix2D(angle=angle, center=center, scale=scale)
    sx, sy = math.tan(math.radians(shear[0])), math.tan(math.radians(shear[1]))
    M = np.ones([2, 3])
    M[0] = R[0] + sy * R[1]
    M[1] = R[1] + sx * R[0]
    M[0, 2], M[1, 2] = translate  # NOTE: Paddle replaces (not adds to) the rotation's translation
    return _warp(img, M, (w, h), interpolation, fill, "affine")


def expanded_size(w, h, center, angle):
    """The (width, height) holding the whole image rotated by `angle` degrees about `center` (Paddle's rule:
    ceil / floor of the rotated corners, sines rounded to 15 digits)."""
    a = -math.radians(angle)
    cos, sin = round(math.cos(a), 15), round(math.sin(a), 15)
    tx = cos * -center[0] + sin * -center[1] + center[0]
    ty = -sin * -center[0] + cos * -center[1] + center[1]
    xs = [cos * x + sin * y + tx for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    ys = [-sin * x + cos * y + ty for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    return math.ceil(max(xs)) - math.floor(min(xs)), math.ceil(max(ys)) - math.floor(min(ys))


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    cv2 = _cv2("rotate")
    h, w = img.shape[0:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    M = cv2.getRotationMatrix2D(center, angle, 1)
    if expand:
        nw, nh = expanded_size(w, h, center, angle)
        M[0, 2] += (nw - w) * 0.5
        M[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    return _warp(img, M, (w, h), interpolation, fill, "rotate")


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    cv2 = _cv2("perspective")
    h, w = img.shape[0:2]
    matrix = cv2.getPerspectiveTransform(np.array(startpoints, dtype="float32"), np.array(endpoints, dtype="float32"))
    return _warp(img, matrix, (w, h), interpolation, fill, "perspective", perspective=True)


def to_grayscale(img, num_output_channels=1):
    cv2 = _cv2("to_grayscale")
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)[:, :, np.newaxis]
    return gray if num_output_channels == 1 else np.broadcast_to(gray, img.shape)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.float32(np.array(mean).reshape(shape))
    std = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - mean) / std


def erase(img, i, j, h, w, v, inplace=False):
    if not inplace:
        img = img.copy()
    img[i:i + h, j:j + w, ...] = v
    return img
