"""paddle.dataset.wmt16 (Multi30k en-de) and the parser paddle.text.WMT16 shares.

Dictionaries are built from the training text on first use and cached as DATA_HOME/wmt16/<lang>_<size>.dict
(the files Paddle writes): '<s>', '<e>', '<unk>', then words by falling frequency (first seen first on ties).
NOTE: Paddle 2.6's paddle.text.WMT16 builds both dictionaries from the source language's column (its
`_build_dict` reads self.lang); here, as in 1.x, each from its own language, so the two agree on the cache."""

from __future__ import annotations

import collections
import os
import tarfile
from collections.abc import Callable, Iterator

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import data_home, download

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
DATA_MD5 = "0c38be43600334966403524a40dcd81e"
TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220
START_MARK = "<s>"
END_MARK = "<e>"
UNK_MARK = "<unk>"


def _lines(tar_file: str, member: str) -> Iterator[list]:
    with tarfile.open(tar_file, mode="r") as f:
        for line in f.extractfile(member):
            parts = line.decode().strip().split("\t")
            if len(parts) == 2:
                yield parts


def build_dict(tar_file: str, dict_size: int, save_path: str, lang: str) -> None:
    freq: dict = collections.defaultdict(int)
    for parts in _lines(tar_file, "wmt16/train"):
        for w in parts[0 if lang == "en" else 1].split():
            freq[w] += 1
    os.makedirs(os.path.dirname(save_path), exist_ok=True)
    with open(save_path, "wb") as out:
        out.write(f"{START_MARK}\n{END_MARK}\n{UNK_MARK}\n".encode())
        for idx, (word, _) in enumerate(sorted(freq.items(), key=lambda x: x[1], reverse=True)):
            if idx + 3 == dict_size:
                break
            out.write(word.encode() + b"\n")


def dict_path(lang: str, dict_size: int) -> str:
    return os.path.join(data_home(), "wmt16", f"{lang}_{dict_size}.dict")


def load_dict(tar_file: str, dict_size: int, lang: str, reverse: bool = False) -> dict:
    path = dict_path(lang, dict_size)
    found = False
    if os.path.exists(path):
        with open(path, "rb") as f:
            found = len(f.readlines()) == dict_size
    if not found:
        build_dict(tar_file, dict_size, path, lang)
    with open(path, "rb") as f:
        words = [line.strip().decode() for line in f]
    return dict(enumerate(words)) if reverse else {w: i for i, w in enumerate(words)}


def clamp_sizes(src_dict_size: int, trg_dict_size: int, src_lang: str) -> tuple[int, int]:
    en, de = TOTAL_EN_WORDS, TOTAL_DE_WORDS
    return min(src_dict_size, en if src_lang == "en" else de), min(trg_dict_size, de if src_lang == "en" else en)


def read_pairs(tar_file: str, member: str, src_dict: dict, trg_dict: dict, src_lang: str) -> Iterator[tuple]:
    """(<s> + source ids + <e>, <s> + target ids, target ids + <e>); the marks' ids are the source dict's."""
    start, end, unk = src_dict[START_MARK], src_dict[END_MARK], src_dict[UNK_MARK]
    src_col = 0 if src_lang == "en" else 1
    for parts in _lines(tar_file, member):
        src_ids = [start] + [src_dict.get(w, unk) for w in parts[src_col].split()] + [end]
        trg_ids = [trg_dict.get(w, unk) for w in parts[1 - src_col].split()]
        yield src_ids, [start] + trg_ids, trg_ids + [end]


def reader_creator(tar_file: str, file_name: str, src_dict_size: int, trg_dict_size: int, src_lang: str) -> Callable:
    def reader() -> Iterator[tuple]:
        src_dict = load_dict(tar_file, src_dict_size, src_lang)
        trg_dict = load_dict(tar_file, trg_dict_size, "de" if src_lang == "en" else "en")
        yield from read_pairs(tar_file, file_name, src_dict, trg_dict, src_lang)

    return reader


def _split(member: str, src_dict_size: int, trg_dict_size: int, src_lang: str) -> Callable:
    if src_lang not in ["en", "de"]:
        raise ValueError("An error language type.  Only support: en (for English); de(for Germany).")
    src_dict_size, trg_dict_size = clamp_sizes(src_dict_size, trg_dict_size, src_lang)
    return reader_creator(download(DATA_URL, "wmt16", DATA_MD5, "wmt16.tar.gz"), member, src_dict_size,
                          trg_dict_size, src_lang)


def train(src_dict_size: int, trg_dict_size: int, src_lang: str = "en") -> Callable:
    return _split("wmt16/train", src_dict_size, trg_dict_size, src_lang)


def test(src_dict_size: int, trg_dict_size: int, src_lang: str = "en") -> Callable:
    return _split("wmt16/test", src_dict_size, trg_dict_size, src_lang)


def validation(src_dict_size: int, trg_dict_size: int, src_lang: str = "en") -> Callable:
    return _split("wmt16/val", src_dict_size, trg_dict_size, src_lang)


def get_dict(lang: str, dict_size: int, reverse: bool = False) -> dict:
    dict_size = min(dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
    if not os.path.exists(dict_path(lang, dict_size)):
        raise AssertionError("Word dictionary does not exist. Please invoke paddle.dataset.wmt16.train/test/"
                             "validation first to build the dictionary.")
    return load_dict(os.path.join(data_home(), "wmt16.tar.gz"), dict_size, lang, reverse)


def fetch() -> None:
    download(DATA_URL, "wmt16", DATA_MD5, "wmt16.tar.gz")


export_names(globals(), "paddle.dataset.wmt16", (
    "train", "test", "validation", "get_dict", "fetch", "reader_creator", "TOTAL_EN_WORDS", "TOTAL_DE_WORDS",
    "START_MARK", "END_MARK", "UNK_MARK", "DATA_URL", "DATA_MD5"))
