"""paddle.dataset.sentiment: NLTK's movie_reviews corpus (movie_reviews.zip in DATA_HOME/corpora), read here
without NLTK: files in sorted order, words split as NLTK's WordPunctTokenizer does (runs of word characters,
runs of other non-space characters).

As in Paddle, train() and test() return generators of (word ids, 0 for neg / 1 for pos), the first 1600
reviews (neg and pos interleaved) for training; word ids number words by falling frequency."""

from __future__ import annotations

import collections
import itertools
import re
import zipfile
from collections.abc import Iterator

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL = "https://corpora.bj.bcebos.com/movie_reviews%2Fmovie_reviews.zip"
MD5 = "155de2b77c6834dd8eea7cbe88e93acb"
NUM_TRAINING_INSTANCES = 1600
NUM_TOTAL_INSTANCES = 2000
_TOKEN = re.compile(r"\w+|[^\w\s]+")
_FILE = re.compile(r"movie_reviews/((neg|pos)/[^/.][^/]*\.txt)$")


def read_corpus(filename: str) -> dict:
    """{category: [(file id, words)]} with file ids in sorted order."""
    out: dict = {"neg": [], "pos": []}
    with zipfile.ZipFile(filename) as z:
        for name in sorted(z.namelist()):
            m = _FILE.match(name)
            if m:
                out[m.group(2)].append((m.group(1), _TOKEN.findall(z.read(name).decode("ascii"))))
    return out


def download_data_if_not_yet() -> str:
    return download(URL, "corpora", MD5, save_name="movie_reviews.zip")


def _word_dict(corpus: dict) -> list:
    freq: dict = collections.defaultdict(int)
    for cat in sorted(corpus):
        for _, words in corpus[cat]:
            for w in words:
                freq[w] += 1
    ranked = sorted(freq.items(), key=lambda x: -x[1])  # stable: first seen first on ties
    return [(w, i) for i, (w, _) in enumerate(ranked)]


def get_word_dict() -> list:
    """[(word, id)] by falling frequency."""
    return _word_dict(read_corpus(download_data_if_not_yet()))


def load_sentiment_data() -> list:
    corpus = read_corpus(download_data_if_not_yet())
    ids = dict(_word_dict(corpus))
    files = itertools.chain.from_iterable(zip(corpus["neg"], corpus["pos"]))
    return [([ids[w.lower()] for w in words], 0 if "neg" in fid else 1) for fid, words in files]


def reader_creator(data: list) -> Iterator[tuple]:
    for words, label in data:
        yield words, label


def train() -> Iterator[tuple]:
    return reader_creator(load_sentiment_data()[:NUM_TRAINING_INSTANCES])


def test() -> Iterator[tuple]:
    return reader_creator(load_sentiment_data()[NUM_TRAINING_INSTANCES:])


def fetch() -> None:
    download_data_if_not_yet()


export_names(globals(), "paddle.dataset.sentiment", (
    "train", "test", "get_word_dict", "load_sentiment_data", "reader_creator", "download_data_if_not_yet", "fetch",
    "URL", "MD5", "NUM_TRAINING_INSTANCES", "NUM_TOTAL_INSTANCES"))
