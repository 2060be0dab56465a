"""paddle.dataset.conll05 (CoNLL-2005 SRL test set) and the parser paddle.text.Conll05st shares.

NOTE: Paddle numbers the label tags in the iteration order of a Python set (different in every process);
here the tags are numbered in sorted order (B-tag, I-tag adjacent as in Paddle, 'O' last)."""

from __future__ import annotations

import gzip
import tarfile
from collections.abc import Callable, Iterator

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
DATA_MD5 = "387719152ae52d60422c016e92a742fc"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
WORDDICT_MD5 = "ea7fb7d4c75cc6254716f0177a506baa"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
VERBDICT_MD5 = "0d2977293bbb6cbefab5b0f97db1e77c"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
TRGDICT_MD5 = "d8c7f03ceb5fc2e5a0fa7503a4353751"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
EMB_MD5 = "bf436eb0faa1f6f9103017f8be57cdb7"
UNK_IDX = 0
WORDS_NAME = "conll05st-release/test.wsj/words/test.wsj.words.gz"
PROPS_NAME = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def load_label_dict(filename: str) -> dict:
    tags: set = set()
    with open(filename) as f:
        for line in f:
            line = line.strip()
            if line.startswith(("B-", "I-")):
                tags.add(line[2:])
    d: dict = {}
    for tag in sorted(tags):
        d["B-" + tag] = len(d)
        d["I-" + tag] = len(d)
    d["O"] = len(d)
    return d


def load_dict(filename: str) -> dict:
    with open(filename) as f:
        return {line.strip(): i for i, line in enumerate(f)}


def _bio(column: list) -> list:
    """A predicate's bracketed argument column ('(A0*', '*', '*)', '(V*)') as B- / I- / O tags."""
    tags, tag, inside = [], "O", False
    for lab in column:
        if lab == "*" and not inside:
            tags.append("O")
        elif lab == "*" and inside:
            tags.append("I-" + tag)
        elif lab == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in lab and ")" in lab:
            tag = lab[1:lab.find("*")]
            tags.append("B-" + tag)
            inside = False
        elif "(" in lab:
            tag = lab[1:lab.find("*")]
            tags.append("B-" + tag)
            inside = True
        else:
            raise RuntimeError(f"Unexpected label: {lab}")
    return tags


def read_corpus(data_path: str, words_name: str = WORDS_NAME, props_name: str = PROPS_NAME) -> Iterator[tuple]:
    """(sentence words, predicate, B-/I-/O tags) for each predicate of each sentence (a blank line ends one)."""
    with tarfile.open(data_path) as tf, gzip.GzipFile(fileobj=tf.extractfile(words_name)) as words, \
            gzip.GzipFile(fileobj=tf.extractfile(props_name)) as props:
        sentence: list = []
        rows: list = []
        for word, label in zip(words, props):
            word, label = word.strip().decode(), label.strip().decode().split()
            if label:
                sentence.append(word)
                rows.append(label)
                continue
            columns = [[r[i] for r in rows] for i in range(len(rows[0]))] if rows else []
            if columns:
                verbs = [x for x in columns[0] if x != "-"]
                for i, col in enumerate(columns[1:]):
                    yield sentence, verbs[i], _bio(col)
            sentence, rows = [], []


def sample(sentence: list, predicate: str, labels: list, word_dict: dict, predicate_dict: dict,
           label_dict: dict) -> tuple:
    """(word ids, ctx_n2, ctx_n1, ctx_0, ctx_p1, ctx_p2 ids (each repeated over the sentence), predicate ids,
    mark (1 in the 5-word window around the verb), label ids)."""
    n = len(sentence)
    v = labels.index("B-V")
    mark = [0] * len(labels)
    ctx = {}
    for off, name, edge in ((-2, "n2", "bos"), (-1, "n1", "bos"), (0, "0", None), (1, "p1", "eos"),
                            (2, "p2", "eos")):
        j = v + off
        if 0 <= j < len(labels):
            mark[j] = 1
            ctx[name] = sentence[j]
        else:
            ctx[name] = edge
    word_idx = [word_dict.get(w, UNK_IDX) for w in sentence]
    ctx_ids = [[word_dict.get(ctx[k], UNK_IDX)] * n for k in ("n2", "n1", "0", "p1", "p2")]
    return (word_idx, *ctx_ids, [predicate_dict.get(predicate)] * n, mark, [label_dict.get(w) for w in labels])


def corpus_reader(data_path: str, words_name: str, props_name: str) -> Callable:
    return lambda: read_corpus(data_path, words_name, props_name)


def reader_creator(corpus_reader: Callable, word_dict: dict | None = None, predicate_dict: dict | None = None,
                   label_dict: dict | None = None) -> Callable:
    def reader() -> Iterator[tuple]:
        for sentence, predicate, labels in corpus_reader():
            yield sample(sentence, predicate, labels, word_dict, predicate_dict, label_dict)

    return reader


def get_dict() -> tuple[dict, dict, dict]:
    return (load_dict(download(WORDDICT_URL, "conll05st", WORDDICT_MD5)),
            load_dict(download(VERBDICT_URL, "conll05st", VERBDICT_MD5)),
            load_label_dict(download(TRGDICT_URL, "conll05st", TRGDICT_MD5)))


def get_embedding() -> str:
    return download(EMB_URL, "conll05st", EMB_MD5)


def test() -> Callable:
    word_dict, verb_dict, label_dict = get_dict()
    corpus = corpus_reader(download(DATA_URL, "conll05st", DATA_MD5), WORDS_NAME, PROPS_NAME)
    return reader_creator(corpus, word_dict, verb_dict, label_dict)


def fetch() -> None:
    for url, md5 in ((WORDDICT_URL, WORDDICT_MD5), (VERBDICT_URL, VERBDICT_MD5), (TRGDICT_URL, TRGDICT_MD5),
                     (EMB_URL, EMB_MD5), (DATA_URL, DATA_MD5)):
        download(url, "conll05st", md5)


export_names(globals(), "paddle.dataset.conll05", (
    "test", "get_dict", "get_embedding", "fetch", "load_dict", "load_label_dict", "corpus_reader", "reader_creator",
    "UNK_IDX", "DATA_URL", "DATA_MD5", "WORDDICT_URL", "WORDDICT_MD5", "VERBDICT_URL", "VERBDICT_MD5", "TRGDICT_URL",
    "TRGDICT_MD5", "EMB_URL", "EMB_MD5"))
