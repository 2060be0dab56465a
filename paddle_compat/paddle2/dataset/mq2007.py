"""paddle.dataset.mq2007 (LETOR 4.0 MQ2007): queries' 46 features and relevance, served plain, pointwise,
pairwise or listwise. Paddle downloads a .rar and unpacks it with the rarfile package; when the unpacked
text files are already in DATA_HOME/MQ2007 they are read directly (no download, no rarfile)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import data_home, download
from paddle_compat.engine.core.optional import require

URL = ("http://www.bigdatalab.ac.cn/benchmark/upload/download_source/"
       "7b6dbbe2-842c-11e4-a536-bcaec51b9163_MQ2007.rar")
MD5 = "7be1640ae95c6408dab0ae7207bdc706"


def fetch() -> str:
    return download(URL, "MQ2007", MD5)


def __initialize_meta_info__(filepath: str | None = None) -> str:
    dirpath = os.path.join(data_home(), "MQ2007")
    if filepath is not None and os.path.exists(os.path.join(dirpath, filepath)):
        return dirpath
    rar = require("rarfile", "paddle.dataset.mq2007").RarFile(fetch())
    rar.extractall(path=dirpath)
    return dirpath


class Query:
    """One document of a query: relevance, query id, 46 features, the description after '#'."""

    def __init__(self, query_id: int = -1, relevance_score: int = -1, feature_vector: list | None = None,
                 description: str = "") -> None:
        self.query_id = query_id
        self.relevance_score = relevance_score
        self.feature_vector = [] if feature_vector is None else feature_vector
        self.description = description

    def __str__(self) -> str:
        return f"{self.relevance_score} {self.query_id} " + " ".join(str(f) for f in self.feature_vector)

    def _parse_(self, text: str) -> Any:
        cut = text.find("#")
        line = text[:cut].strip()
        self.description = text[cut + 1:].strip()
        parts = line.split()
        if len(parts) != 48:
            sys.stdout.write(f"expect 48 space split parts, get {len(parts)}")
            return None
        self.relevance_score = int(parts[0])
        self.query_id = int(parts[1].split(":")[1])
        self.feature_vector.extend(float(p.split(":")[1]) for p in parts[2:])
        return self


class QueryList:
    """The documents of one query."""

    def __init__(self, querylist: list | None = None) -> None:
        self.query_id = -1
        self.querylist = [] if querylist is None else querylist
        for q in self.querylist:
            if self.query_id == -1:
                self.query_id = q.query_id
            elif self.query_id != q.query_id:
                raise ValueError("query in list must be same query_id")

    def __iter__(self) -> Iterator[Query]:
        return iter(self.querylist)

    def __len__(self) -> int:
        return len(self.querylist)

    def __getitem__(self, i: int) -> Query:
        return self.querylist[i]

    def _correct_ranking_(self) -> None:
        self.querylist.sort(key=lambda x: x.relevance_score, reverse=True)

    def _add_query(self, query: Query) -> None:
        if self.query_id == -1:
            self.query_id = query.query_id
        elif self.query_id != query.query_id:
            raise ValueError("query in list must be same query_id")
        self.querylist.append(query)


def _ranked(querylist: Any) -> QueryList:
    if not isinstance(querylist, QueryList):
        querylist = QueryList(querylist)
    querylist._correct_ranking_()
    return querylist


def gen_plain_txt(querylist: Any) -> Iterator[tuple]:
    ql = _ranked(querylist)
    for q in ql:
        yield ql.query_id, q.relevance_score, np.array(q.feature_vector)


def gen_point(querylist: Any) -> Iterator[tuple]:
    for q in _ranked(querylist):
        yield q.relevance_score, np.array(q.feature_vector)


def gen_pair(querylist: Any, partial_order: str = "full") -> Iterator[tuple]:
    """(np.array([1]), the more relevant document's features, the other's) for each pair of different scores."""
    ql = _ranked(querylist)
    for i in range(len(ql)):
        for j in range(i + 1, len(ql)):
            left, right = ql[i], ql[j]
            if left.relevance_score == right.relevance_score:
                continue
            if left.relevance_score < right.relevance_score:
                left, right = right, left
            yield np.array([1]), np.array(left.feature_vector), np.array(right.feature_vector)


def gen_list(querylist: Any) -> Iterator[tuple]:
    ql = _ranked(querylist)
    yield np.array([[q.relevance_score] for q in ql]), np.array([q.feature_vector for q in ql])


def query_filter(querylists: list) -> list:
    """The queries with at least one relevant document."""
    return [ql for ql in querylists if sum(q.relevance_score for q in ql) != 0.0]


def load_from_text(filepath: str, shuffle: bool = False, fill_missing: int = -1) -> list:
    querylists: list = []
    current = None
    with open(os.path.join(__initialize_meta_info__(filepath), filepath)) as f:
        for line in f:
            query = Query()._parse_(line)
            if query is None:
                continue
            if current is None or query.query_id != current.query_id:
                current = QueryList()
                querylists.append(current)
            current._add_query(query)
    return querylists


_FORMATS = {"plain_txt": gen_plain_txt, "pointwise": gen_point, "listwise": gen_list}


def __reader__(filepath: str, format: str = "pairwise", shuffle: bool = False,  # noqa: A002
               fill_missing: int = -1) -> Iterator[tuple]:
    for ql in query_filter(load_from_text(filepath, shuffle=shuffle, fill_missing=fill_missing)):
        if format == "pairwise":
            yield from gen_pair(ql)
        elif format in _FORMATS:
            yield next(_FORMATS[format](ql))


train = functools.partial(__reader__, filepath="MQ2007/MQ2007/Fold1/train.txt")
test = functools.partial(__reader__, filepath="MQ2007/MQ2007/Fold1/test.txt")

export_names(globals(), "paddle.dataset.mq2007", (
    "train", "test", "fetch", "Query", "QueryList", "gen_plain_txt", "gen_point", "gen_pair", "gen_list",
    "query_filter", "load_from_text", "URL", "MD5"))
