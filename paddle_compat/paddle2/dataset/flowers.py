"""paddle.dataset.flowers (Oxford 102 flowers) and the files paddle.vision.datasets.Flowers shares: the image
tar, imagelabels.mat and setid.mat (MATLAB 5 files, read by `loadmat` here, no scipy needed).

As in Paddle, 'train' reads the 'tstid' split and 'test' the 'trnid' one (the larger set trains)."""

from __future__ import annotations

import functools
import os
import pickle
import struct
import zlib
from collections.abc import Callable, Iterator
from multiprocessing import cpu_count

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.dataset.image import batch_images_from_tar, load_image_bytes, simple_transform
from paddle_compat.paddle2.reader import map_readers, xmap_readers
from paddle_compat.paddle2.utils.download import download

DATA_URL = "http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz"
LABEL_URL = "http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat"
SETID_URL = "http://paddlemodels.bj.bcebos.com/flowers/setid.mat"
DATA_MD5 = "52808999861908f626f3c1f4e79d11fa"
LABEL_MD5 = "e0620be6f572b9609742df49c70aed4d"
SETID_MD5 = "a5357ecc9cb78c4bef273ce3793fc85c"
TRAIN_FLAG = "tstid"
TEST_FLAG = "trnid"
VALID_FLAG = "valid"

# --- MATLAB 5 numeric matrices ------------------------------------------------------------------------------
_MI = {1: "i1", 2: "u1", 3: "<i2", 4: "<u2", 5: "<i4", 6: "<u4", 7: "<f4", 9: "<f8", 12: "<i8", 13: "<u8"}
_MX = {6: "f8", 7: "f4", 8: "i1", 9: "u1", 10: "i2", 11: "u2", 12: "i4", 13: "u4", 14: "i8", 15: "u8"}


def _elements(buf: bytes) -> Iterator[tuple[int, bytes]]:
    pos = 0
    while pos + 8 <= len(buf):
        tag, = struct.unpack_from("<I", buf, pos)
        if tag >> 16:  # small element: type and size in one word, data in the next
            yield tag & 0xFFFF, buf[pos + 4:pos + 4 + (tag >> 16)]
            pos += 8
            continue
        dtype, size = struct.unpack_from("<II", buf, pos)
        yield dtype, buf[pos + 8:pos + 8 + size]
        pos += 8 + size + ((-size) % 8 if dtype != 15 else 0)


def loadmat(filename: str) -> dict:
    """{name: ndarray} of the numeric matrices in a MATLAB 5 .mat file (what scipy.io.loadmat gives for them)."""
    with open(filename, "rb") as f:
        raw = f.read()
    if raw[126:128] != b"IM":
        raise ValueError(f"loadmat: {filename} is not a little-endian MATLAB 5 file")
    out = {}
    pending = list(_elements(raw[128:]))
    while pending:
        dtype, data = pending.pop(0)
        if dtype == 15:
            pending[:0] = list(_elements(zlib.decompress(data)))
            continue
        if dtype != 14:
            continue
        parts = list(_elements(data))
        cls = parts[0][1][0]
        if cls not in _MX:
            continue  # cells, structs, chars, sparse: not used by these datasets
        dims = np.frombuffer(parts[1][1], "<i4")
        name = parts[2][1].decode()
        values = np.frombuffer(parts[3][1], _MI[parts[3][0]]).astype(_MX[cls])
        out[name] = values.reshape(tuple(dims), order="F")
    return out


def read_split(label_file: str, setid_file: str, flag: str) -> tuple[np.ndarray, np.ndarray]:
    """(labels of all images (1-based classes), the 1-based image indexes of split `flag`)."""
    return loadmat(label_file)["labels"][0], loadmat(setid_file)[flag][0]


def default_mapper(is_train: bool, sample: tuple) -> tuple:
    img, label = sample
    img = simple_transform(load_image_bytes(img), 256, 224, is_train, mean=[103.94, 116.78, 123.68])
    return img.flatten().astype("float32"), label


train_mapper = functools.partial(default_mapper, True)
test_mapper = functools.partial(default_mapper, False)


def reader_creator(data_file: str, label_file: str, setid_file: str, dataset_name: str, mapper: Callable,
                   buffered_size: int = 1024, use_xmap: bool = True, cycle: bool = False) -> Callable:
    """Samples mapper((jpeg bytes, label - 1)); the images are first re-packed into pickled batches next to the
    tar (batch_images_from_tar), as Paddle does."""
    labels, indexes = read_split(label_file, setid_file, dataset_name)
    img2label = {"jpg/image_%05d.jpg" % i: labels[i - 1] for i in indexes}
    file_list = batch_images_from_tar(data_file, dataset_name, img2label)

    def reader() -> Iterator[tuple]:
        while True:
            with open(file_list) as f_list:
                for file in f_list:
                    with open(file.strip(), "rb") as f:
                        batch = pickle.load(f, encoding="bytes")
                    batch = {k.decode() if isinstance(k, bytes) else k: v for k, v in batch.items()}
                    for sample, label in zip(batch["data"], batch["label"]):
                        yield sample, int(label) - 1
            if not cycle:
                break

    if use_xmap:
        return xmap_readers(mapper, reader, min(4, cpu_count()), buffered_size)
    return map_readers(mapper, reader)


def _files() -> tuple[str, str, str]:
    return (download(DATA_URL, "flowers", DATA_MD5), download(LABEL_URL, "flowers", LABEL_MD5),
            download(SETID_URL, "flowers", SETID_MD5))


def train(mapper: Callable = train_mapper, buffered_size: int = 1024, use_xmap: bool = True,
          cycle: bool = False) -> Callable:
    return reader_creator(*_files(), TRAIN_FLAG, mapper, buffered_size, use_xmap, cycle=cycle)


def test(mapper: Callable = test_mapper, buffered_size: int = 1024, use_xmap: bool = True,
         cycle: bool = False) -> Callable:
    return reader_creator(*_files(), TEST_FLAG, mapper, buffered_size, use_xmap, cycle=cycle)


def valid(mapper: Callable = test_mapper, buffered_size: int = 1024, use_xmap: bool = True) -> Callable:
    return reader_creator(*_files(), VALID_FLAG, mapper, buffered_size, use_xmap)


def fetch() -> None:
    _files()


def image_folder_of(data_file: str) -> str:
    """Where paddle.vision.datasets.Flowers unpacks the tar: the archive path with '.tgz' made a folder."""
    path = data_file.replace(".tgz", "/")
    if path == data_file:
        path = data_file + "_extracted/"
    os.makedirs(path, exist_ok=True)
    return path


export_names(globals(), "paddle.dataset.flowers", (
    "train", "test", "valid", "fetch", "reader_creator", "default_mapper", "train_mapper", "test_mapper",
    "DATA_URL", "LABEL_URL", "SETID_URL", "DATA_MD5", "LABEL_MD5", "SETID_MD5", "TRAIN_FLAG", "TEST_FLAG",
    "VALID_FLAG"))
