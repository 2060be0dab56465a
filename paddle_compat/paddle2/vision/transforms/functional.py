"""paddle.vision.transforms.functional: each function checks the image type and runs the backend Paddle runs for
it: PIL images -> functional_pil (Pillow), numpy HWC arrays -> functional_cv2 (OpenCV), paddle Tensors ->
functional_tensor. Argument checks and the shared geometry (affine matrices, perspective coefficients, padding
amounts) live here, once."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence

import numpy as np

from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.paddle2.vision.transforms import functional_cv2 as F_cv2
from paddle_compat.paddle2.vision.transforms import functional_pil as F_pil
from paddle_compat.paddle2.vision.transforms import functional_tensor as F_t

_API = "paddle.vision.transforms"


def _is_pil_image(img):
    from sys import modules

    image = modules.get("PIL.Image")
    return image is not None and isinstance(img, image.Image)


def _is_tensor_image(img):
    from paddle_compat.engine.framework.program import Variable

    return isinstance(img, (Tensor, Variable))


def _is_numpy_image(img):
    return isinstance(img, np.ndarray) and img.ndim in {2, 3}


def _backend(img, what="img"):
    """The backend module for img (PIL, then tensor, then numpy, as Paddle checks)."""
    if _is_pil_image(img):
        return F_pil
    if _is_tensor_image(img):
        return F_t
    if _is_numpy_image(img):
        return F_cv2
    raise TypeError(f"{what} should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. Got {type(img)}")


def to_tensor(pic, data_format="CHW"):
    backend = _backend(pic, "pic")
    if backend is F_t:
        return pic if data_format.lower() == "chw" else pic.transpose((1, 2, 0))
    return backend.to_tensor(pic, data_format)


def resize(img, size, interpolation="bilinear"):
    backend = _backend(img)
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    return backend.resize(img, size, interpolation)


def _padding(padding, fill, padding_mode):
    """(left, top, right, bottom) from an int, (left/right, top/bottom) or (left, top, right, bottom)."""
    if not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, Sequence) and len(padding) not in (2, 4):
        raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a " + f"{len(padding)} element tuple")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise AssertionError("Padding mode should be either constant, edge, reflect or symmetric")
    if isinstance(padding, numbers.Number):
        return (int(padding),) * 4
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    return tuple(padding)


def pad(img, padding, fill=0, padding_mode="constant"):
    backend = _backend(img)
    return backend.pad(img, _padding(padding, fill, padding_mode), fill, padding_mode)


def crop(img, top, left, height, width):
    return _backend(img).crop(img, top, left, height, width)


def _image_size(img):
    """(width, height) of any image kind."""
    if _is_pil_image(img):
        return img.size
    if _is_numpy_image(img):
        return img.shape[1], img.shape[0]
    if _is_tensor_image(img):
        if len(img.shape) not in (3, 4):
            raise ValueError(f"The dim for input Tensor should be 3-D or 4-D, but received {len(img.shape)}")
        return img.shape[-1], img.shape[-2]
    raise TypeError(f"Unexpected type {type(img)}")


def center_crop(img, output_size):
    _backend(img)
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = _image_size(img)
    th, tw = output_size
    return crop(img, int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw)


def hflip(img):
    return _backend(img).hflip(img)


def vflip(img):
    return _backend(img).vflip(img)


def adjust_brightness(img, brightness_factor):
    return _backend(img).adjust_brightness(img, brightness_factor)


def adjust_contrast(img, contrast_factor):
    return _backend(img).adjust_contrast(img, contrast_factor)


def adjust_saturation(img, saturation_factor):
    return _backend(img).adjust_saturation(img, saturation_factor)


def adjust_hue(img, hue_factor):
    backend = _backend(img)
    if backend is not F_t and not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    return backend.adjust_hue(img, hue_factor)


def _get_affine_matrix(center, angle, translate, scale, shear):
    """The inverse affine matrix (6 values) of rotation about center, translation, scale and shear (degrees)."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    cx, cy = center
    tx, ty = translate
    m = [x / scale for x in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    backend = _backend(img)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    if not isinstance(interpolation, str):
        raise TypeError("Argument interpolation should be a string")
    angle, translate = float(angle), list(translate)
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if backend is F_pil:
        w, h = img.size
        center = [w * 0.5, h * 0.5] if center is None else center
        return F_pil.affine(img, _get_affine_matrix(center, angle, translate, scale, shear), interpolation, fill)
    if backend is F_cv2:
        # NOTE: Paddle builds the numpy default center from (shape[0], shape[1]) * 0.5, i.e. (h / 2, w / 2)
        h, w = img.shape[0:2]
        center = (h * 0.5, w * 0.5) if center is None else center
        return F_cv2.affine(img, angle, translate, scale, shear, interpolation, fill, center)
    w, h = img.shape[-1], img.shape[-2]
    center_f = [0.0, 0.0] if center is None else [c - s * 0.5 for c, s in zip(center, [h, w])]
    matrix = _get_affine_matrix(center_f, angle, [1.0 * t for t in translate], scale, shear)
    return F_t.affine(img, matrix, interpolation, fill)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    backend = _backend(img)
    center = tuple(center) if isinstance(center, list) else center
    fill = tuple(fill) if isinstance(fill, list) else fill
    return backend.rotate(img, angle, interpolation, expand, center, fill)


def _get_perspective_coeffs(startpoints, endpoints):
    """The 8 coefficients mapping endpoints back to startpoints (least squares, as Paddle)."""
    a = np.zeros((2 * len(startpoints), 8))
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a[2 * i, :] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a[2 * i + 1, :] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    return list(np.linalg.lstsq(a, np.array(startpoints).reshape([8]), rcond=None)[0])


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    backend = _backend(img)
    if backend is F_cv2:
        return F_cv2.perspective(img, startpoints, endpoints, interpolation, fill)
    return backend.perspective(img, _get_perspective_coeffs(startpoints, endpoints), interpolation, fill)


def to_grayscale(img, num_output_channels=1):
    backend = _backend(img)
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    return backend.to_grayscale(img, num_output_channels)


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    if _is_tensor_image(img):
        return F_t.normalize(img, mean, std, data_format)
    if _is_pil_image(img):
        img = np.array(img).astype(np.float32)
    return F_cv2.normalize(img, mean, std, data_format, to_rgb)


def erase(img, i, j, h, w, v, inplace=False):
    return _backend(img).erase(img, i, j, h, w, v, inplace=inplace)
