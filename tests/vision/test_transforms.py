"""paddle.vision.transforms against real Paddle 2.6.2 goldens (tests/goldens/vision26, numpy cv2 backend and
CHW Tensors), plus the classes, the random transforms' invariants and errors."""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

from tests.conftest import load_golden  # noqa: F401 - path helper

GOLD = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "vision26")
META = json.load(open(GOLD + ".json"))
ARR = dict(np.load(GOLD + ".npz"))

# uint8 results may differ by one level where OpenCV's fixed-point arithmetic rounds differently; hue goes
# through OpenCV's 8-bit HSV quantization (we convert in float), a few levels
ATOL = {"resize_bilinear": 1, "resize_up": 1, "resize_int": 1, "rotate_bilinear": 1, "hue": 6}


def _cases():
    import paddle.vision.transforms as T

    return {
        "resize_bilinear": lambda x: T.resize(x, (5, 7)),
        "resize_up": lambda x: T.resize(x, (13, 17)),
        "resize_int": lambda x: T.resize(x, 6),
        "resize_nearest": lambda x: T.resize(x, (5, 7), "nearest"),
        "pad_const": lambda x: T.pad(x, [1, 2, 3, 4], fill=7),
        "pad_edge": lambda x: T.pad(x, 2, padding_mode="edge"),
        "pad_reflect": lambda x: T.pad(x, (1, 2), padding_mode="reflect"),
        "pad_symmetric": lambda x: T.pad(x, 2, padding_mode="symmetric"),
        "crop": lambda x: T.crop(x, 1, 2, 4, 5),
        "center_crop": lambda x: T.center_crop(x, (4, 5)),
        "hflip": T.hflip,
        "vflip": T.vflip,
        "brightness": lambda x: T.adjust_brightness(x, 1.3),
        "contrast": lambda x: T.adjust_contrast(x, 0.7),
        "hue": lambda x: T.adjust_hue(x, 0.2),
        "gray1": lambda x: T.to_grayscale(x),
        "gray3": lambda x: T.to_grayscale(x, 3),
        "rotate": lambda x: T.rotate(x, 30),
        "rotate_bilinear": lambda x: T.rotate(x, -20, "bilinear"),
        "rotate_expand": lambda x: T.rotate(x, 45, expand=True),
        "to_tensor": lambda x: T.to_tensor(x).numpy(),
        "normalize_hwc": lambda x: T.normalize(x.astype("float32"), [10, 20, 30], [2, 3, 4], "HWC"),
        "t_resize": lambda x: T.resize(x, (5, 7)),
        "t_pad": lambda x: T.pad(x, [1, 2, 3, 4], fill=0.5),
        "t_hflip": T.hflip,
        "t_brightness": lambda x: T.adjust_brightness(x, 1.3),
        "t_contrast": lambda x: T.adjust_contrast(x, 0.7),
        "t_saturation": lambda x: T.adjust_saturation(x, 0.6),
        "t_hue": lambda x: T.adjust_hue(x, 0.2),
        "t_gray": lambda x: T.to_grayscale(x, 3),
        "t_rotate": lambda x: T.rotate(x, 30),
        "t_rotate_bilinear_expand": lambda x: T.rotate(x, 30, "bilinear", expand=True),
        "t_normalize": lambda x: T.normalize(x, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]),
        "t_center_crop": lambda x: T.center_crop(x, 6),
    }


@pytest.mark.parametrize("case", META["cases"] + META["tensor_cases"])
def test_functional_matches_paddle26(case):
    import paddle

    fn = _cases()[case]
    if case.startswith("t_"):
        out = fn(paddle.to_tensor(ARR["timg"])).numpy()
    else:
        out = np.asarray(fn(ARR["img"].copy()))
    want = ARR[case]
    assert out.shape == want.shape and out.dtype == want.dtype, (out.shape, want.shape, out.dtype, want.dtype)
    if out.dtype == np.uint8:
        diff = np.abs(out.astype(int) - want.astype(int))
        assert diff.max() <= ATOL.get(case, 0), diff.max()
    else:
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_classes_compose_and_keys():
    import paddle.vision.transforms as T

    img = ARR["img"]
    tf = T.Compose([T.Resize((6, 8)), T.CenterCrop(4), T.Pad(1), T.Transpose(), T.Normalize(127.5, 127.5,
                                                                                             data_format="CHW")])
    out = tf(img)
    assert out.shape == (3, 6, 6) and out.dtype == np.float32
    t = T.Compose([T.Grayscale(3), T.ToTensor()])(img)
    assert t.shape == [3, 9, 12]
    both = T.Resize((4, 4), keys=("image", "image"))((img, img))
    assert isinstance(both, tuple) and both[0].shape == (4, 4, 3)
    with pytest.raises(NotImplementedError, match="unsupported"):
        T.Resize(4, keys=("boxes",))


def test_random_transforms_invariants():
    import paddle.vision.transforms as T

    random.seed(0)
    np.random.seed(0)
    img = ARR["img"]
    assert T.RandomCrop(5)(img).shape == (5, 5, 3)
    assert T.RandomCrop(12, pad_if_needed=True)(img).shape == (12, 12, 3)
    assert T.RandomResizedCrop(6)(img).shape == (6, 6, 3)
    flips = {T.RandomHorizontalFlip(0.5)(img).tobytes() for _ in range(20)}
    assert flips == {img.tobytes(), img[:, ::-1].tobytes()}
    assert T.RandomVerticalFlip(1.0)(img).tobytes() == img[::-1].tobytes()
    assert T.RandomRotation(10)(img).shape == img.shape
    for tfm in (T.ColorJitter(0.4, 0.4, 0.4, 0.1), T.BrightnessTransform(0.5), T.ContrastTransform(0.5),
                T.SaturationTransform(0.5), T.HueTransform(0.3)):
        out = tfm(img)
        assert out.shape == img.shape and out.dtype == np.uint8
    assert T.BrightnessTransform(0)(img) is img


def test_errors():
    import paddle.vision.transforms as T

    with pytest.raises(TypeError, match="PIL Image or Tensor Image or ndarray"):
        T.hflip([1, 2, 3])
    with pytest.raises(ValueError, match="hue_factor"):
        T.adjust_hue(ARR["img"], 0.7)
    with pytest.raises(ValueError, match="Padding must be"):
        T.pad(ARR["img"], [1, 2, 3])
    with pytest.raises(ValueError, match="num_output_channels"):
        T.to_grayscale(ARR["img"], 2)
