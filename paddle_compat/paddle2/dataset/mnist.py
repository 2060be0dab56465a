"""paddle.dataset.mnist and the idx file parser paddle.vision.datasets.MNIST / FashionMNIST share."""

from __future__ import annotations

import gzip
import struct
from collections.abc import Callable, Iterator

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"


def read_idx(image_path: str, label_path: str) -> tuple[np.ndarray, np.ndarray]:
    """(images [n, rows * cols] uint8, labels [n] uint8) from gzipped idx3 / idx1 files."""
    with gzip.open(image_path, "rb") as f:
        img = f.read()
    with gzip.open(label_path, "rb") as f:
        lab = f.read()
    magic_i, n_img, rows, cols = struct.unpack_from(">IIII", img, 0)
    magic_l, n_lab = struct.unpack_from(">II", lab, 0)
    if magic_i != 2051 or magic_l != 2049:
        raise ValueError(f"MNIST: {image_path} / {label_path} are not idx3 images / idx1 labels "
                         f"(magic numbers {magic_i}, {magic_l}; expected 2051, 2049)")
    n = min(n_img, n_lab)
    images = np.frombuffer(img, np.uint8, n * rows * cols, 16).reshape(n, rows * cols)
    labels = np.frombuffer(lab, np.uint8, n, 8)
    return images, labels


def reader_creator(image_filename: str, label_filename: str, buffer_size: int = 100) -> Callable:
    """Samples (image float32 [rows * cols] scaled to [-1, 1], int label)."""
    def reader() -> Iterator[tuple]:
        images, labels = read_idx(image_filename, label_filename)
        scaled = images.astype("float32") / 255.0 * 2.0 - 1.0
        for i in range(len(labels)):
            yield scaled[i, :], int(labels[i])

    return reader


def train() -> Callable:
    return reader_creator(download(TRAIN_IMAGE_URL, "mnist", TRAIN_IMAGE_MD5),
                          download(TRAIN_LABEL_URL, "mnist", TRAIN_LABEL_MD5), 100)


def test() -> Callable:
    return reader_creator(download(TEST_IMAGE_URL, "mnist", TEST_IMAGE_MD5),
                          download(TEST_LABEL_URL, "mnist", TEST_LABEL_MD5), 100)


def fetch() -> None:
    train()
    test()


export_names(globals(), "paddle.dataset.mnist", ("train", "test", "fetch", "reader_creator", "URL_PREFIX",
                                                 "TEST_IMAGE_URL", "TEST_IMAGE_MD5", "TEST_LABEL_URL", "TEST_LABEL_MD5",
                                                 "TRAIN_IMAGE_URL", "TRAIN_IMAGE_MD5", "TRAIN_LABEL_URL",
                                                 "TRAIN_LABEL_MD5"))
