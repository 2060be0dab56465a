"""paddle.dataset.imdb and the aclImdb tar parser paddle.text.Imdb shares. Words are bytes, as in Paddle on
Python 3 (the dictionary's keys are bytes, '<unk>' a str)."""

from __future__ import annotations

import collections
import re
import string
import tarfile
from collections.abc import Callable, Iterator

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"
_PUNCT = string.punctuation.encode("latin-1")


def read_docs(filename: str, pattern: re.Pattern) -> Iterator[list]:
    """The documents of the tar whose member names match, in archive order: lower-cased, punctuation dropped,
    split on whitespace (lists of bytes)."""
    with tarfile.open(filename) as tarf:
        for member in tarf:
            if pattern.match(member.name):
                yield tarf.extractfile(member).read().rstrip(b"\n\r").translate(None, _PUNCT).lower().split()


def build_word_dict(docs: Iterator[list], cutoff: int) -> dict:
    """Words seen more than `cutoff` times, by falling frequency then word, numbered from 0; '<unk>' last."""
    freq: dict = collections.defaultdict(int)
    for doc in docs:
        for w in doc:
            freq[w] += 1
    kept = sorted(((w, c) for w, c in freq.items() if c > cutoff), key=lambda x: (-x[1], x[0]))
    if not kept:
        raise ValueError(f"imdb: no word occurs more than {cutoff} times; lower the cutoff")
    word_idx = {w: i for i, (w, _) in enumerate(kept)}
    word_idx["<unk>"] = len(kept)
    return word_idx


ALL_PATTERN = re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")


def split_pattern(split: str, label: str) -> re.Pattern:
    return re.compile(rf"aclImdb/{split}/{label}/.*\.txt$")


def tokenize(pattern: re.Pattern) -> Iterator[list]:
    return read_docs(download(URL, "imdb", MD5), pattern)


def build_dict(pattern: re.Pattern, cutoff: int) -> dict:
    return build_word_dict(tokenize(pattern), cutoff)


def labelled_docs(filename: str, split: str, word_idx: dict) -> list:
    """[(word ids, label)]: the split's positive documents (label 0), then its negative ones (label 1)."""
    unk = word_idx["<unk>"]
    return [([word_idx.get(w, unk) for w in doc], label)
            for label, kind in ((0, "pos"), (1, "neg")) for doc in read_docs(filename, split_pattern(split, kind))]


def _reader(split: str, word_idx: dict) -> Callable:
    samples = labelled_docs(download(URL, "imdb", MD5), split, word_idx)

    def reader() -> Iterator[tuple]:
        yield from samples

    return reader


def train(word_idx: dict) -> Callable:
    """Samples (word ids, 0 for a positive review / 1 for a negative one)."""
    return _reader("train", word_idx)


def test(word_idx: dict) -> Callable:
    return _reader("test", word_idx)


def word_dict() -> dict:
    return build_dict(ALL_PATTERN, 150)


def fetch() -> None:
    download(URL, "imdb", MD5)


export_names(globals(), "paddle.dataset.imdb", ("train", "test", "word_dict", "build_dict", "tokenize", "fetch",
                                                "URL", "MD5"))
