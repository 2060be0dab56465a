"""paddle.vision.transforms against real Paddle 2.6.2 (tests/goldens/transforms26, tools/oracle/rec_transforms26.py,
cases in tests/vision/transforms_cases.py): every case on numpy images (OpenCV), PIL images (Pillow) and tensors,
pixel for pixel, random transforms included (same seeds); Paddle's errors where it raises; the optional extras."""

import random
import sys

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.vision.transforms_cases import CASES, SEED, make_inputs

META, ARR = load_golden("transforms26")
INPUTS = make_inputs()
# numpy cases that run without OpenCV (Paddle does them in numpy too)
NO_CV2 = {"crop", "center_crop", "center_crop_int", "normalize_hwc", "normalize_to_rgb", "to_tensor", "to_tensor_hwc",
          "erase", "CenterCrop", "Transpose", "ToTensor", "RandomCrop", "RandomErasing", "RandomErasing_scale"}


def _have(mod):
    try:
        __import__(mod)
        return True
    except ImportError:
        return False


HAVE_CV2, HAVE_PIL = _have("cv2"), _have("PIL")


def _params():
    out = []
    for name, (kinds, _fn, _random) in CASES.items():
        for k in kinds:
            kind = INPUTS[k][0]
            skip = (kind == "pil" and not HAVE_PIL) or (kind == "np" and name not in NO_CV2 and not HAVE_CV2)
            marks = [pytest.mark.skip(reason="needs the paddle_compat[vision] extra (Pillow / OpenCV)")] if skip else []
            out.append(pytest.param(name, k, marks=marks, id=f"{name}-{k}"))
    return out


def _pil_ties(size, coeffs):
    """[h, w] mask of the output pixels whose source coordinate under Pillow's nearest perspective mapping,
    ((a x + b y + c) / (g x + h y + 1), (d x + e y + f) / (...)) at the pixel centre, is an integer within 1e-9:
    Pillow truncates it, so the last bits of the coefficients decide the pixel. Paddle computes them with
    np.linalg.lstsq, whose LAPACK kernels round differently on different CPUs."""
    a, b, c, d, e, f, g, h = coeffs
    x, y = np.meshgrid(np.arange(size[0]) + 0.5, np.arange(size[1]) + 0.5)
    den = g * x + h * y + 1
    near = [np.abs(v - np.round(v)) < 1e-9 for v in ((a * x + b * y + c) / den, (d * x + e * y + f) / den)]
    return near[0] | near[1]


def _run(name, k, seen=None):
    import paddle
    import paddle.vision.transforms as T

    kind, data = INPUTS[k]
    if kind == "pil":
        from PIL import Image

        x = Image.fromarray(data)
    else:
        x = paddle.to_tensor(data) if kind == "t" else data.copy()
    random.seed(SEED)
    np.random.seed(SEED)
    if seen is not None and kind == "pil":
        from paddle_compat.paddle2.vision.transforms import functional_pil

        persp = functional_pil.perspective

        def seen_call(img, coeffs, interpolation="nearest", fill=0):
            if interpolation == "nearest":
                seen.append(_pil_ties(img.size, coeffs))
            return persp(img, coeffs, interpolation, fill)

        functional_pil.perspective = seen_call
        try:
            out = CASES[name][1](T, x)
        finally:
            functional_pil.perspective = persp
    else:
        out = CASES[name][1](T, x)
    if isinstance(out, paddle.Tensor):
        return out.numpy()
    return np.asarray(out)


@pytest.mark.parametrize("name, k", _params())
def test_transform_matches_paddle(name, k):
    key = f"{name}__{k}"
    if key in META["errors"]:
        err = META["errors"][key][0]
        with pytest.raises(Exception) as info:
            _run(name, k)
        assert type(info.value).__name__ == err, info.value
        return
    ties = []
    out, want = _run(name, k, ties), ARR[key]
    assert out.shape == want.shape and out.dtype == want.dtype, (out.shape, want.shape, out.dtype, want.dtype)
    if want.dtype == np.uint8:
        if ties:  # a nearest perspective on PIL: a pixel on a tie may take either neighbour
            differ = (out != want).reshape(out.shape[0], out.shape[1], -1).any(axis=-1)
            assert not (differ & ~ties[0]).any() and ties[0].mean() < 0.1, (np.argwhere(differ & ~ties[0]),
                                                                           ties[0].mean())
        else:
            np.testing.assert_array_equal(out, want)
    else:
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


def test_without_the_extras(monkeypatch):
    """Without OpenCV the numpy calls that need it raise an ImportError naming the API and the extra; numpy-only
    ones keep working; PIL images are simply not recognised without Pillow."""
    import paddle.vision.transforms as T

    img = INPUTS["np"][1]
    monkeypatch.setitem(sys.modules, "cv2", None)
    with pytest.raises(ImportError, match=r"paddle.vision.transforms.resize on numpy images needs the optional "
                                          r"package opencv-python.*paddle_compat\[vision\]"):
        T.resize(img, 4)
    with pytest.raises(ImportError, match="RandomHorizontalFlip|hflip"):
        T.RandomHorizontalFlip(1.0)(img)
    np.testing.assert_array_equal(T.crop(img, 1, 1, 2, 2), img[1:3, 1:3])
    assert T.ToTensor()(img).shape == [3, 9, 12]


@pytest.mark.parametrize("call, err, match", [
    (lambda T, x: T.hflip([1, 2, 3]), TypeError, "PIL Image or Tensor Image or ndarray"),
    (lambda T, x: T.adjust_hue(x, 0.7), ValueError, r"hue_factor:0.7 is not in \[-0.5, 0.5\]"),
    (lambda T, x: T.pad(x, [1, 2, 3]), ValueError, "Padding must be an int or a 2, or 4 element tuple"),
    (lambda T, x: T.to_grayscale(x, 2), ValueError, "num_output_channels should be either 1 or 3"),
    (lambda T, x: T.resize(x, (1, 2, 3)), TypeError, "Got inappropriate size arg"),
    (lambda T, x: T.affine(x, "10", (0, 0), 1.0, 0), TypeError, "angle should be int or float"),
    (lambda T, x: T.affine(x, 10, (0, 0), 0.0, 0), ValueError, "scale should be positive"),
    (lambda T, x: T.RandomErasing(value="x"), ValueError, "value must be 'random'"),
    (lambda T, x: T.RandomAffine(10, translate=(2, 0)), ValueError, "translation values should be between 0 and 1"),
    (lambda T, x: T.Resize(4, keys=("label",)), NotImplementedError, "label is unsupported data structure"),
])
def test_errors(call, err, match):
    import paddle.vision.transforms as T

    with pytest.raises(err, match=match):
        call(T, INPUTS["np"][1])


def test_keys_and_paths():
    """Several inputs by keys; the names sit at Paddle's paths (functional, transforms, paddle.vision)."""
    import paddle
    import paddle.vision.transforms as T
    from paddle.vision.transforms import functional, transforms

    t = paddle.to_tensor(INPUTS["t"][1])
    both = T.Resize((4, 4), keys=("image", "image"))((t, t))
    assert isinstance(both, tuple) and both[0].shape == [3, 4, 4]
    assert functional.rotate is T.rotate and transforms.RandomErasing is T.RandomErasing
    assert paddle.vision.Resize is T.Resize and paddle.vision.to_tensor is T.to_tensor
