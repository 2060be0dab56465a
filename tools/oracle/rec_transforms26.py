"""Record paddle.vision.transforms with real Paddle 2.6.2 (OpenCV and Pillow installed) ->
tests/goldens/transforms26.{npz,json}: every case of tests/vision/transforms_cases.py on each input kind it lists
(`<case>__<input>`); a call that raises records its error type (meta "errors").
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_transforms26.py"""
import os
import random
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "vision"))
from _common import save  # noqa: E402
from transforms_cases import CASES, SEED, make_inputs  # noqa: E402

import cv2  # noqa: E402
import paddle  # noqa: E402
import paddle.vision.transforms as T  # noqa: E402
import PIL  # noqa: E402
from PIL import Image  # noqa: E402


def as_input(kind, data):
    if kind == "pil":
        return Image.fromarray(data)
    if kind == "t":
        return paddle.to_tensor(data)
    return data.copy()


def as_array(out):
    if isinstance(out, Image.Image):
        return np.asarray(out)
    if isinstance(out, paddle.Tensor):
        return out.numpy()
    return np.asarray(out)


def main():
    arrays, errors = {}, {}
    inputs = make_inputs()
    for name, (kinds, fn, _random) in CASES.items():
        for k in kinds:
            kind, data = inputs[k]
            random.seed(SEED)
            np.random.seed(SEED)
            try:
                arrays[f"{name}__{k}"] = as_array(fn(T, as_input(kind, data)))
            except Exception as e:  # noqa: BLE001 - Paddle's error is recorded
                errors[f"{name}__{k}"] = [type(e).__name__, str(e)[:200]]
    save("transforms26", arrays, {"paddle_version": paddle.__version__, "opencv": cv2.__version__,
                                  "pillow": PIL.__version__, "errors": errors})


if __name__ == "__main__":
    main()
