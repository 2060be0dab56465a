"""paddle.dataset.cifar and the CIFAR pickle-in-tar parser paddle.vision.datasets.Cifar10 / Cifar100 share."""

from __future__ import annotations

import pickle
import tarfile
from collections.abc import Callable, Iterator

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR10_MD5 = "c58f30108f718f92721af3b95e74349a"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
CIFAR100_MD5 = "eb9058c3a382ffc7106e4002c42a8d85"


def read_batches(filename: str, sub_name: str, sort: bool = False) -> Iterator[tuple[np.ndarray, int]]:
    """(uint8 [3072] image in CHW order, label) of every pickled batch in the tar whose name contains sub_name,
    in archive order (the 1.x reader) or sorted by name (the 2.x datasets)."""
    with tarfile.open(filename, mode="r") as f:
        names = [m.name for m in f if sub_name in m.name]
        for name in sorted(names) if sort else names:
            batch = pickle.load(f.extractfile(name), encoding="bytes")
            labels = batch.get(b"labels", batch.get(b"fine_labels", None))
            if labels is None:
                raise ValueError(f"CIFAR: batch {name} of {filename} has neither 'labels' nor 'fine_labels'")
            yield from zip(batch[b"data"], labels)


def reader_creator(filename: str, sub_name: str, cycle: bool = False) -> Callable:
    """Samples (float32 [3072] in [0, 1], int label); cycle=True starts over forever."""
    def reader() -> Iterator[tuple]:
        while True:
            for sample, label in read_batches(filename, sub_name):
                yield (sample / 255.0).astype(np.float32), int(label)
            if not cycle:
                break

    return reader


def train100() -> Callable:
    return reader_creator(download(CIFAR100_URL, "cifar", CIFAR100_MD5), "train")


def test100() -> Callable:
    return reader_creator(download(CIFAR100_URL, "cifar", CIFAR100_MD5), "test")


def train10(cycle: bool = False) -> Callable:
    return reader_creator(download(CIFAR10_URL, "cifar", CIFAR10_MD5), "data_batch", cycle=cycle)


def test10(cycle: bool = False) -> Callable:
    return reader_creator(download(CIFAR10_URL, "cifar", CIFAR10_MD5), "test_batch", cycle=cycle)


def fetch() -> None:
    download(CIFAR10_URL, "cifar", CIFAR10_MD5)
    download(CIFAR100_URL, "cifar", CIFAR100_MD5)


export_names(globals(), "paddle.dataset.cifar", ("train100", "test100", "train10", "test10", "fetch", "reader_creator",
                                                 "URL_PREFIX", "CIFAR10_URL", "CIFAR10_MD5", "CIFAR100_URL",
                                                 "CIFAR100_MD5"))
