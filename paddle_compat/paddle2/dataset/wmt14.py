"""paddle.dataset.wmt14 (the shrunk WMT'14 en-fr set) and the parser paddle.text.WMT14 shares."""

from __future__ import annotations

import tarfile
from collections.abc import Callable, Iterator

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
URL_MODEL = "http://paddlemodels.bj.bcebos.com/wmt%2Fwmt14.tgz"
MD5_MODEL = "0cb4a5366189b6acba876491c8724fa3"
START = "<s>"
END = "<e>"
UNK = "<unk>"
UNK_IDX = 2


def read_dicts(tar_file: str, dict_size: int) -> tuple[dict, dict]:
    """(source, target) word -> id from the archive's src.dict / trg.dict, their first dict_size lines."""
    def first_lines(f: tarfile.TarFile, suffix: str) -> dict:
        names = [m.name for m in f if m.name.endswith(suffix)]
        if len(names) != 1:
            raise ValueError(f"wmt14: {tar_file} should hold one *{suffix}, found {names}")
        out = {}
        for i, line in enumerate(f.extractfile(names[0])):
            if i >= dict_size:
                break
            out[line.strip().decode()] = i
        return out

    with tarfile.open(tar_file, mode="r") as f:
        return first_lines(f, "src.dict"), first_lines(f, "trg.dict")


def read_pairs(tar_file: str, file_name: str, src_dict: dict, trg_dict: dict) -> Iterator[tuple]:
    """(source ids with <s> / <e>, <s> + target ids, target ids + <e>) of the tab-separated lines of the
    members ending with file_name; pairs longer than 80 ids are skipped."""
    with tarfile.open(tar_file, mode="r") as f:
        for name in [m.name for m in f if m.name.endswith(file_name)]:
            for line in f.extractfile(name):
                parts = line.decode().strip().split("\t")
                if len(parts) != 2:
                    continue
                src_ids = [src_dict.get(w, UNK_IDX) for w in [START] + parts[0].split() + [END]]
                trg_ids = [trg_dict.get(w, UNK_IDX) for w in parts[1].split()]
                if len(src_ids) > 80 or len(trg_ids) > 80:
                    continue
                yield src_ids, [trg_dict[START]] + trg_ids, trg_ids + [trg_dict[END]]


def reader_creator(tar_file: str, file_name: str, dict_size: int) -> Callable:
    def reader() -> Iterator[tuple]:
        yield from read_pairs(tar_file, file_name, *read_dicts(tar_file, dict_size))

    return reader


def train(dict_size: int) -> Callable:
    return reader_creator(download(URL_TRAIN, "wmt14", MD5_TRAIN), "train/train", dict_size)


def test(dict_size: int) -> Callable:
    return reader_creator(download(URL_TRAIN, "wmt14", MD5_TRAIN), "test/test", dict_size)


def gen(dict_size: int) -> Callable:
    return reader_creator(download(URL_TRAIN, "wmt14", MD5_TRAIN), "gen/gen", dict_size)


def reverse_dicts(src_dict: dict, trg_dict: dict) -> tuple[dict, dict]:
    return {v: k for k, v in src_dict.items()}, {v: k for k, v in trg_dict.items()}


def get_dict(dict_size: int, reverse: bool = True) -> tuple[dict, dict]:
    dicts = read_dicts(download(URL_TRAIN, "wmt14", MD5_TRAIN), dict_size)
    return reverse_dicts(*dicts) if reverse else dicts


def fetch() -> None:
    download(URL_TRAIN, "wmt14", MD5_TRAIN)
    download(URL_MODEL, "wmt14", MD5_MODEL)


export_names(globals(), "paddle.dataset.wmt14", (
    "train", "test", "gen", "get_dict", "fetch", "reader_creator", "START", "END", "UNK", "UNK_IDX", "URL_DEV_TEST",
    "MD5_DEV_TEST", "URL_TRAIN", "MD5_TRAIN", "URL_MODEL", "MD5_MODEL"))
