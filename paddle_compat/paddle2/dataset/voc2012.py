"""paddle.dataset.voc2012 (PASCAL VOC 2012 segmentation) and the tar reader paddle.vision.datasets.VOC2012
shares. Images are decoded with Pillow (an optional package: ImportError naming it when absent).

NOTE: Paddle 1.8.5's reader formats the member names with the bytes of the set file's lines and so finds no
image on Python 3 (KeyError); here the names are decoded, as Paddle 2.x does."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Callable, Iterator

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download
from paddle_compat.engine.core.optional import require

VOC_URL = "http://host.robots.ox.ac.uk/pascal/VOC/voc2012/VOCtrainval_11-May-2012.tar"
VOC_MD5 = "6cd6e144f989b92b3379bac3b3de84fd"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
CACHE_DIR = "voc2012"


class VOCTar:
    """The VOC tar: the (image, label) member names of a split, and their bytes."""

    def __init__(self, filename: str) -> None:
        self.tar = tarfile.open(filename)
        self.members = {m.name: m for m in self.tar.getmembers()}

    def split(self, sub_name: str) -> list[tuple[str, str]]:
        lines = self.tar.extractfile(self.members[SET_FILE.format(sub_name)]).read().decode().split()
        return [(DATA_FILE.format(n), LABEL_FILE.format(n)) for n in lines]

    def read(self, name: str) -> bytes:
        return self.tar.extractfile(self.members[name]).read()

    def close(self) -> None:
        self.tar.close()


def open_image(data: bytes, api: str) -> object:
    """A PIL image of encoded bytes."""
    image = require("PIL.Image", api)
    return image.open(io.BytesIO(data))


def reader_creator(filename: str, sub_name: str) -> Callable:
    """Samples (HxWx3 uint8 image, HxW uint8 class map) of the split."""
    voc = VOCTar(filename)

    def reader() -> Iterator[tuple]:
        for data_file, label_file in voc.split(sub_name):
            api = "paddle.dataset.voc2012"
            yield (np.array(open_image(voc.read(data_file), api)), np.array(open_image(voc.read(label_file), api)))

    return reader


def train() -> Callable:
    return reader_creator(download(VOC_URL, CACHE_DIR, VOC_MD5), "trainval")


def test() -> Callable:
    return reader_creator(download(VOC_URL, CACHE_DIR, VOC_MD5), "train")


def val() -> Callable:
    return reader_creator(download(VOC_URL, CACHE_DIR, VOC_MD5), "val")


export_names(globals(), "paddle.dataset.voc2012", ("train", "test", "val", "reader_creator", "VOC_URL", "VOC_MD5",
                                                   "SET_FILE", "DATA_FILE", "LABEL_FILE", "CACHE_DIR"))
