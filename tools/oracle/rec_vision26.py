"""Record paddle.vision.transforms functional outputs (deterministic ones) on numpy HWC uint8 images (the
cv2 backend) and CHW float Tensors with real Paddle 2.6.2 -> tests/goldens/vision26.{npz,json}.
Run: cd /tmp && PYTHONPATH= /work/oracle/p26/bin/python <repo>/tools/oracle/rec_vision26.py"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import save  # noqa: E402

import paddle  # noqa: E402
import paddle.vision.transforms as T  # noqa: E402

rs = np.random.RandomState(0)
img = rs.randint(0, 256, (9, 12, 3)).astype("uint8")
timg = rs.rand(3, 9, 12).astype("float32")

CASES = {
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
}
TCASES = {
    "t_resize": lambda x: T.resize(x, (5, 7)),
    "t_pad": lambda x: T.pad(x, [1, 2, 3, 4], fill=0.5),
    "t_hflip": T.hflip,
    "t_brightness": lambda x: T.adjust_brightness(x, 1.3),
    "t_contrast": lambda x: T.adjust_contrast(x, 0.7),
    "t_saturation": lambda x: T.functional.adjust_saturation(x, 0.6),
    "t_hue": lambda x: T.adjust_hue(x, 0.2),
    "t_gray": lambda x: T.to_grayscale(x, 3),
    "t_rotate": lambda x: T.rotate(x, 30),
    "t_rotate_bilinear_expand": lambda x: T.rotate(x, 30, "bilinear", expand=True),
    "t_normalize": lambda x: T.normalize(x, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]),
    "t_center_crop": lambda x: T.center_crop(x, 6),
}
arrays = {"img": img, "timg": timg}
for k, f in CASES.items():
    arrays[k] = np.asarray(f(img.copy()))
for k, f in TCASES.items():
    arrays[k] = f(paddle.to_tensor(timg)).numpy()
save("vision26", arrays, {"paddle_version": paddle.__version__, "program": "paddle.vision.transforms functional",
                          "cases": sorted(CASES), "tensor_cases": sorted(TCASES)})
