"""paddle.dataset.image: the OpenCV image helpers of Paddle 1.x's image datasets (load, resize_short, crops,
flip, CHW, simple_transform) and batch_images_from_tar. Reading and resizing need OpenCV (opencv-python);
without it those calls raise ImportError naming the package."""

from __future__ import annotations

import os
import pickle
import tarfile
from typing import Any

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.engine.core.optional import require

_API = "paddle.dataset.image"


def _cv2(fn: str) -> Any:
    return require("cv2", f"{_API}.{fn}")


def batch_images_from_tar(data_file: str, dataset_name: str, img2label: dict, num_per_batch: int = 1024) -> str:
    """Pickle the tar's images named in img2label into batches of num_per_batch ({'data': [bytes], 'label':
    [...]}) under <data_file>_batch/<dataset_name>/; the path of the text file listing the batch files."""
    batch_dir = data_file + "_batch"
    out_path = os.path.join(batch_dir, dataset_name)
    meta_file = os.path.join(batch_dir, dataset_name + ".txt")
    if os.path.exists(out_path):
        return meta_file
    os.makedirs(out_path)
    data: list = []
    labels: list = []
    file_id = 0

    def flush() -> None:
        nonlocal data, labels, file_id
        with open(os.path.join(out_path, f"batch_{file_id}"), "wb") as f:
            pickle.dump({"label": labels, "data": data}, f, protocol=2)
        file_id, data, labels = file_id + 1, [], []

    with tarfile.open(data_file) as tf:
        for mem in tf.getmembers():
            if mem.name in img2label:
                data.append(tf.extractfile(mem).read())
                labels.append(img2label[mem.name])
                if len(data) == num_per_batch:
                    flush()
    if data:
        flush()
    with open(meta_file, "a") as meta:
        for name in os.listdir(out_path):
            meta.write(os.path.abspath(os.path.join(out_path, name)) + "\n")
    return meta_file


def load_image_bytes(bytes: bytes, is_color: bool = True) -> np.ndarray:  # noqa: A002 - Paddle's name
    cv2 = _cv2("load_image_bytes")
    return cv2.imdecode(np.frombuffer(bytes, dtype=np.uint8), 1 if is_color else 0)


def load_image(file: str, is_color: bool = True) -> np.ndarray:
    return _cv2("load_image").imread(file, 1 if is_color else 0)


def resize_short(im: np.ndarray, size: int) -> np.ndarray:
    """Resize (bicubic) so the shorter side is `size`."""
    cv2 = _cv2("resize_short")
    h, w = im.shape[:2]
    h_new, w_new = size, size
    if h > w:
        h_new = size * h // w
    else:
        w_new = size * w // h
    return cv2.resize(im, (w_new, h_new), interpolation=cv2.INTER_CUBIC)


def to_chw(im: np.ndarray, order: tuple = (2, 0, 1)) -> np.ndarray:
    if len(im.shape) != len(order):
        raise ValueError(f"{_API}.to_chw: the image has {len(im.shape)} dims, order {order} has {len(order)}")
    return im.transpose(order)


def _crop(im: np.ndarray, h0: int, w0: int, size: int, is_color: bool) -> np.ndarray:
    return im[h0:h0 + size, w0:w0 + size, :] if is_color else im[h0:h0 + size, w0:w0 + size]


def center_crop(im: np.ndarray, size: int, is_color: bool = True) -> np.ndarray:
    h, w = im.shape[:2]
    return _crop(im, (h - size) // 2, (w - size) // 2, size, is_color)


def random_crop(im: np.ndarray, size: int, is_color: bool = True) -> np.ndarray:
    h, w = im.shape[:2]
    h0 = np.random.randint(0, h - size + 1)
    w0 = np.random.randint(0, w - size + 1)
    return _crop(im, h0, w0, size, is_color)


def left_right_flip(im: np.ndarray, is_color: bool = True) -> np.ndarray:
    return im[:, ::-1, :] if len(im.shape) == 3 and is_color else im[:, ::-1]


def simple_transform(im: np.ndarray, resize_size: int, crop_size: int, is_train: bool, is_color: bool = True,
                     mean: Any = None) -> np.ndarray:
    """resize_short, then a random crop and a coin-flip mirror (training) or a center crop; CHW float32,
    less `mean` (per channel, or whole)."""
    im = resize_short(im, resize_size)
    if is_train:
        im = random_crop(im, crop_size, is_color=is_color)
        if np.random.randint(2) == 0:
            im = left_right_flip(im, is_color)
    else:
        im = center_crop(im, crop_size, is_color=is_color)
    if len(im.shape) == 3:
        im = to_chw(im)
    im = im.astype("float32")
    if mean is not None:
        mean = np.array(mean, dtype=np.float32)
        if mean.ndim == 1 and is_color:
            mean = mean[:, np.newaxis, np.newaxis]
        im -= mean
    return im


def load_and_transform(filename: str, resize_size: int, crop_size: int, is_train: bool, is_color: bool = True,
                       mean: Any = None) -> np.ndarray:
    return simple_transform(load_image(filename, is_color), resize_size, crop_size, is_train, is_color, mean)


export_names(globals(), _API, ("batch_images_from_tar", "load_image_bytes", "load_image", "resize_short", "to_chw",
                               "center_crop", "random_crop", "left_right_flip", "simple_transform",
                               "load_and_transform"))
