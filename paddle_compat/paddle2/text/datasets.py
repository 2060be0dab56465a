"""paddle.text datasets: Imdb, Imikolov, Movielens, UCIHousing, Conll05st, WMT14, WMT16 (map-style, as Paddle
2.6). Each reads Paddle's files with the parser its 1.x reader uses (paddle_compat/paddle2/dataset/<name>.py), from
`data_file` or the download helper's cache; samples are tuples of numpy arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

from paddle_compat.paddle2.dataset import conll05 as _conll
from paddle_compat.paddle2.dataset import imdb as _imdb
from paddle_compat.paddle2.dataset import imikolov as _imikolov
from paddle_compat.paddle2.dataset import movielens as _ml
from paddle_compat.paddle2.dataset import uci_housing as _uci
from paddle_compat.paddle2.dataset import wmt14 as _wmt14
from paddle_compat.paddle2.dataset import wmt16 as _wmt16
from paddle_compat.paddle2.io.dataloader import Dataset
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.paddle2.dataset.common import check_mode as _mode
from paddle_compat.paddle2.dataset.common import default_dtype as _default_dtype
from paddle_compat.paddle2.utils.download import check_exists_and_download as _file


def _arrays(sample: Any) -> tuple:
    return tuple(np.array(d) for d in sample)


class Imdb(Dataset):
    """Imdb(data_file=None, mode='train', cutoff=150, download=True): (word ids, [0 pos / 1 neg])."""

    def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
        self.mode = _mode(mode, ("train", "test"), "paddle.text.Imdb")
        self.data_file = _file(data_file, _imdb.URL, _imdb.MD5, "imdb", download, "data_file", "paddle.text.Imdb")
        self.word_idx = _imdb.build_word_dict(_imdb.read_docs(self.data_file, _imdb.ALL_PATTERN), cutoff)
        samples = _imdb.labelled_docs(self.data_file, self.mode, self.word_idx)
        self.docs = [d for d, _ in samples]
        self.labels = [lab for _, lab in samples]

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self):
        return len(self.docs)


class Imikolov(Dataset):
    """Imikolov(data_file=None, data_type='NGRAM', window_size=-1, mode='train', min_word_freq=50,
    download=True); 'test' reads ptb.test.txt (1.x's test reader reads ptb.valid.txt)."""

    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train", min_word_freq=50,
                 download=True):
        api = "paddle.text.Imikolov"
        if data_type.upper() not in ("NGRAM", "SEQ"):
            raise ValueError(f"{api}: data type should be 'NGRAM', 'SEQ', but got {data_type}")
        self.data_type = data_type.upper()
        self.mode = _mode(mode, ("train", "test"), api)
        self.window_size, self.min_word_freq = window_size, min_word_freq
        self.data_file = _file(data_file, _imikolov.URL, _imikolov.MD5, "imikolov", download, "data_file", api)
        self.word_idx = _imikolov.read_word_dict(self.data_file, min_word_freq)
        kind = _imikolov.DataType.NGRAM if self.data_type == "NGRAM" else _imikolov.DataType.SEQ
        self.data = list(_imikolov.read_samples(self.data_file, f"./simple-examples/data/ptb.{self.mode}.txt",
                                                self.word_idx, window_size, kind))

    def __getitem__(self, idx):
        return _arrays(self.data[idx])

    def __len__(self):
        return len(self.data)


class Movielens(Dataset):
    """Movielens(data_file=None, mode='train', test_ratio=0.1, rand_seed=0, download=True). Title words and
    categories are numbered in sorted order (see paddle_compat/paddle2/dataset/movielens.py)."""

    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0, download=True):
        api = "paddle.text.Movielens"
        self.mode = _mode(mode, ("train", "test"), api)
        # NOTE: Paddle 2.6 caches this file under DATA_HOME/sentiment, not movielens
        self.data_file = _file(data_file, _ml.URL, _ml.MD5, "sentiment", download, "data_file", api)
        self.test_ratio, self.rand_seed = test_ratio, rand_seed
        np.random.seed(rand_seed)
        meta = _ml.read_meta(self.data_file)
        self.movie_info, self.movie_title_dict, self.categories_dict, self.user_info = meta
        # 2.x wraps the user fields and the movie id in lists: [[uid], [gender], [age], [job], [movie id], ...]
        self.data = [[[v] for v in r[:5]] + r[5:]
                     for r in _ml.read_ratings(self.data_file, meta, test_ratio, self.mode == "test")]

    def __getitem__(self, idx):
        return _arrays(self.data[idx])

    def __len__(self):
        return len(self.data)


class UCIHousing(Dataset):
    """UCIHousing(data_file=None, mode='train', download=True): (13 features, [price]) in the default dtype."""

    def __init__(self, data_file=None, mode="train", download=True):
        api = "paddle.text.UCIHousing"
        self.mode = _mode(mode, ("train", "test"), api)
        self.data_file = _file(data_file, _uci.URL, _uci.MD5, "uci_housing", download, "data_file", api)
        train, test = _uci.read_housing(self.data_file)
        self.data = train if self.mode == "train" else test
        self.dtype = _default_dtype()

    def __getitem__(self, idx):
        d = self.data[idx]
        return np.array(d[:-1]).astype(self.dtype), np.array(d[-1:]).astype(self.dtype)

    def __len__(self):
        return len(self.data)


class Conll05st(Dataset):
    """Conll05st(data_file=None, word_dict_file=None, verb_dict_file=None, target_dict_file=None, emb_file=None,
    download=True): the 9 arrays of paddle.dataset.conll05's samples."""

    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None, target_dict_file=None,
                 emb_file=None, download=True):
        api = "paddle.text.Conll05st"
        c = _conll
        self.data_file = _file(data_file, c.DATA_URL, c.DATA_MD5, "conll05st", download, "data_file", api)
        self.word_dict_file = _file(word_dict_file, c.WORDDICT_URL, c.WORDDICT_MD5, "conll05st", download,
                                    "word_dict_file", api)
        self.verb_dict_file = _file(verb_dict_file, c.VERBDICT_URL, c.VERBDICT_MD5, "conll05st", download,
                                    "verb_dict_file", api)
        self.target_dict_file = _file(target_dict_file, c.TRGDICT_URL, c.TRGDICT_MD5, "conll05st", download,
                                      "target_dict_file", api)
        self.emb_file = _file(emb_file, c.EMB_URL, c.EMB_MD5, "conll05st", download, "emb_file", api)
        self.word_dict = c.load_dict(self.word_dict_file)
        self.predicate_dict = c.load_dict(self.verb_dict_file)
        self.label_dict = c.load_label_dict(self.target_dict_file)
        rows = list(c.read_corpus(self.data_file))
        self.sentences = [r[0] for r in rows]
        self.predicates = [r[1] for r in rows]
        self.labels = [r[2] for r in rows]

    def __getitem__(self, idx):
        return _arrays(_conll.sample(self.sentences[idx], self.predicates[idx], self.labels[idx], self.word_dict,
                                     self.predicate_dict, self.label_dict))

    def __len__(self):
        return len(self.sentences)

    def get_dict(self):
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        return self.emb_file


class _Pairs(Dataset):
    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self):
        return len(self.src_ids)

    def _keep(self, pairs: Any) -> None:
        pairs = list(pairs)
        self.src_ids = [p[0] for p in pairs]
        self.trg_ids = [p[1] for p in pairs]
        self.trg_ids_next = [p[2] for p in pairs]


class WMT14(_Pairs):
    """WMT14(data_file=None, mode='train', dict_size=-1, download=True); mode 'train', 'test' or 'gen'."""

    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True):
        api = "paddle.text.WMT14"
        self.mode = _mode(mode, ("train", "test", "gen"), api)
        self.data_file = _file(data_file, _wmt14.URL_TRAIN, _wmt14.MD5_TRAIN, "wmt14", download, "data_file", api)
        if dict_size <= 0:
            raise ValueError(f"{api}: dict_size should be set as positive number, got {dict_size}")
        self.dict_size = dict_size
        self.src_dict, self.trg_dict = _wmt14.read_dicts(self.data_file, dict_size)
        self._keep(_wmt14.read_pairs(self.data_file, f"{self.mode}/{self.mode}", self.src_dict, self.trg_dict))

    def get_dict(self, reverse=False):
        return _wmt14.reverse_dicts(self.src_dict, self.trg_dict) if reverse else (self.src_dict, self.trg_dict)


class WMT16(_Pairs):
    """WMT16(data_file=None, mode='train', src_dict_size=-1, trg_dict_size=-1, lang='en', download=True)."""

    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1, lang="en", download=True):
        api = "paddle.text.WMT16"
        self.mode = _mode(mode, ("train", "test", "val"), api)
        self.data_file = _file(data_file, _wmt16.DATA_URL, _wmt16.DATA_MD5, "wmt16", download, "data_file", api)
        if src_dict_size <= 0 or trg_dict_size <= 0:
            raise ValueError(f"{api}: src_dict_size and trg_dict_size should be set as positive numbers, got "
                             f"{src_dict_size}, {trg_dict_size}")
        self.lang = lang
        self.src_dict_size, self.trg_dict_size = _wmt16.clamp_sizes(src_dict_size, trg_dict_size, lang)
        trg_lang = "de" if lang == "en" else "en"
        self.src_dict = _wmt16.load_dict(self.data_file, src_dict_size, lang)
        self.trg_dict = _wmt16.load_dict(self.data_file, trg_dict_size, trg_lang)
        self._keep(_wmt16.read_pairs(self.data_file, f"wmt16/{self.mode}", self.src_dict, self.trg_dict, lang))

    def get_dict(self, lang, reverse=False):
        size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        return _wmt16.load_dict(self.data_file, size, lang, reverse)


partial("paddle.text.WMT16", "the target dictionary is built from the target language (Paddle 2.6.2 builds it from "
        "the source column), as paddle.dataset.wmt16 does")
_MODULES = {"Imdb": "imdb", "Imikolov": "imikolov", "Movielens": "movielens", "UCIHousing": "uci_housing",
            "Conll05st": "conll05", "WMT14": "wmt14", "WMT16": "wmt16"}
for _name, _mod in _MODULES.items():
    export(globals()[_name], f"paddle.text.{_name}", f"paddle.text.datasets.{_name}",
           f"paddle.text.datasets.{_mod}.{_name}")
