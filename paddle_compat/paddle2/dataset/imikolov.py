"""paddle.dataset.imikolov (the PTB text of simple-examples.tgz) and the parser paddle.text.Imikolov shares.

As in Paddle on Python 3, corpus words are bytes while '<s>', '<e>' and '<unk>' are str."""

from __future__ import annotations

import collections
import tarfile
from collections.abc import Callable, Iterator

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"
TRAIN_FILE = "./simple-examples/data/ptb.train.txt"
VALID_FILE = "./simple-examples/data/ptb.valid.txt"


class DataType:
    NGRAM = 1
    SEQ = 2


def word_count(f: Iterator[bytes], word_freq: dict | None = None) -> dict:
    if word_freq is None:
        word_freq = collections.defaultdict(int)
    for line in f:
        for w in line.strip().split():
            word_freq[w] += 1
        word_freq["<s>"] += 1
        word_freq["<e>"] += 1
    return word_freq


def read_word_dict(filename: str, min_word_freq: int) -> dict:
    """Words of the train and valid texts seen more than min_word_freq times (with '<s>' / '<e>' once per
    line), by falling frequency then word; '<unk>' last."""
    with tarfile.open(filename) as tf:
        freq = word_count(tf.extractfile(VALID_FILE), word_count(tf.extractfile(TRAIN_FILE)))
    freq.pop("<unk>", None)
    try:
        kept = sorted(((w, c) for w, c in freq.items() if c > min_word_freq), key=lambda x: (-x[1], x[0]))
    except TypeError:  # a bytes word as frequent as '<s>': Paddle fails here the same way
        raise TypeError("imikolov.build_dict: a corpus word is exactly as frequent as '<s>' / '<e>', which Paddle "
                        "cannot sort (bytes vs str); choose another min_word_freq") from None
    if not kept:
        raise ValueError(f"imikolov: no word occurs more than {min_word_freq} times; lower min_word_freq")
    word_idx = {w: i for i, (w, _) in enumerate(kept)}
    word_idx["<unk>"] = len(kept)
    return word_idx


def read_samples(filename: str, member: str, word_idx: dict, n: int, data_type: int) -> Iterator[tuple]:
    """NGRAM: every n-gram of '<s>' line '<e>' (lines shorter than n skipped); SEQ: ('<s>' + line, line + '<e>')
    pairs, lines longer than n skipped when n > 0."""
    unk = word_idx["<unk>"]
    with tarfile.open(filename) as tf:
        for line in tf.extractfile(member):
            if data_type == DataType.NGRAM:
                if n <= -1:
                    raise AssertionError("Invalid gram length")
                words = ["<s>"] + line.strip().split() + ["<e>"]
                if len(words) >= n:
                    ids = [word_idx.get(w, unk) for w in words]
                    for i in range(n, len(ids) + 1):
                        yield tuple(ids[i - n:i])
            elif data_type == DataType.SEQ:
                ids = [word_idx.get(w, unk) for w in line.strip().split()]
                src, trg = [word_idx["<s>"]] + ids, ids + [word_idx["<e>"]]
                if n > 0 and len(src) > n:
                    continue
                yield src, trg
            else:
                raise AssertionError("Unknow data type")


def build_dict(min_word_freq: int = 50) -> dict:
    return read_word_dict(download(URL, "imikolov", MD5), min_word_freq)


def reader_creator(filename: str, word_idx: dict, n: int, data_type: int) -> Callable:
    def reader() -> Iterator[tuple]:
        yield from read_samples(download(URL, "imikolov", MD5), filename, word_idx, n, data_type)

    return reader


def train(word_idx: dict, n: int, data_type: int = DataType.NGRAM) -> Callable:
    return reader_creator(TRAIN_FILE, word_idx, n, data_type)


def test(word_idx: dict, n: int, data_type: int = DataType.NGRAM) -> Callable:
    return reader_creator(VALID_FILE, word_idx, n, data_type)


def fetch() -> None:
    download(URL, "imikolov", MD5)


export_names(globals(), "paddle.dataset.imikolov", ("train", "test", "build_dict", "word_count", "reader_creator",
                                                    "fetch", "DataType", "URL", "MD5"))
