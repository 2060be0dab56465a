"""paddle.vision.transforms on PIL images: Paddle's Pillow backend (Pillow's own resampling, enhancers,
rotate / transform), so pixels match Pillow exactly. Pillow is the optional `paddle_compat[vision]` extra."""

from __future__ import annotations

import numpy as np

from paddle_compat.engine.core.optional import require

_API = "paddle.vision.transforms"
INTERP = ("nearest", "bilinear", "bicubic", "box", "lanczos", "hamming")


def _pil(module="PIL.Image"):
    return require(module, f"{_API} on PIL images")


def _flag(interpolation, api):
    image = _pil()
    if interpolation not in INTERP:
        raise KeyError(f"{_API}.{api}: interpolation should be one of {INTERP} for PIL images, got "
                       f"{interpolation!r}")
    return getattr(image.Resampling, interpolation.upper())


def _fill3(fill):
    """Paddle passes an int fill as a 3-tuple (an 'L' image then makes Pillow raise, as in Paddle)."""
    return (fill,) * 3 if isinstance(fill, int) else fill


def to_tensor(pic, data_format="CHW"):
    from paddle_compat.paddle2.vision.transforms.functional_tensor import from_numpy

    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if pic.mode in ("I", "I;16"):
        arr = np.asarray(pic, np.int32)
    elif pic.mode == "F":
        arr = np.asarray(pic, np.float32)
    elif pic.mode == "1":
        arr = 255 * np.asarray(pic, np.uint8)
    else:
        arr = np.asarray(pic)
    channels = 3 if pic.mode == "YCbCr" else 1 if pic.mode == "I;16" else len(pic.mode)
    arr = arr.reshape(pic.size[1], pic.size[0], channels)
    return from_numpy(arr.transpose((2, 0, 1)) if data_format == "CHW" else arr)


def resize(img, size, interpolation="bilinear"):
    from paddle_compat.paddle2.vision.transforms.functional_cv2 import output_size

    w, h = img.size
    hw = output_size(h, w, size)
    return img if hw is None else img.resize((hw[1], hw[0]), _flag(interpolation, "resize"))


def pad(img, padding, fill=0, padding_mode="constant"):
    ops = _pil("PIL.ImageOps")
    image = _pil()
    left, top, right, bottom = padding
    palette = img.getpalette() if img.mode == "P" else None
    if padding_mode == "constant":
        out = ops.expand(img, border=(left, top, right, bottom), fill=fill)
    else:
        arr = np.asarray(img)
        widths = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
        out = image.fromarray(np.pad(arr, widths, padding_mode))
    if palette is not None:
        out.putpalette(palette)
    return out


def crop(img, top, left, height, width):
    return img.crop((left, top, left + width, top + height))


def hflip(img):
    return img.transpose(_pil().Transpose.FLIP_LEFT_RIGHT)


def vflip(img):
    return img.transpose(_pil().Transpose.FLIP_TOP_BOTTOM)


def _enhance(kind, img, factor):
    return getattr(_pil("PIL.ImageEnhance"), kind)(img).enhance(factor)


def adjust_brightness(img, brightness_factor):
    return _enhance("Brightness", img, brightness_factor)


def adjust_contrast(img, contrast_factor):
    return _enhance("Contrast", img, contrast_factor)


def adjust_saturation(img, saturation_factor):
    return _enhance("Color", img, saturation_factor)


def adjust_hue(img, hue_factor):
    image = _pil()
    mode = img.mode
    if mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    np_h = (np.array(h, dtype=np.uint8).astype(np.int16) + int(hue_factor * 255)) % 256
    h = image.fromarray(np_h.astype(np.uint8), "L")
    return image.merge("HSV", (h, s, v)).convert(mode)


def affine(img, matrix, interpolation="nearest", fill=0):
    return img.transform(img.size, _pil().Transform.AFFINE, matrix, _flag(interpolation, "affine"), _fill3(fill))


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    return img.rotate(angle, _flag(interpolation, "rotate"), expand, center, fillcolor=_fill3(fill))


def perspective(img, coeffs, interpolation="nearest", fill=0):
    return img.transform(img.size, _pil().Transform.PERSPECTIVE, coeffs, _flag(interpolation, "perspective"),
                         _fill3(fill))


def to_grayscale(img, num_output_channels=1):
    gray = img.convert("L")
    if num_output_channels == 1:
        return gray
    g = np.array(gray, dtype=np.uint8)
    return _pil().fromarray(np.dstack([g, g, g]), "RGB")


def erase(img, i, j, h, w, v, inplace=False):
    arr = np.array(img, dtype=np.uint8)
    arr[i:i + h, j:j + w, ...] = v
    return _pil().fromarray(arr, "RGB")
