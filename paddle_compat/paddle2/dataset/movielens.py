"""paddle.dataset.movielens (ml-1m.zip) and the parser paddle.text.Movielens shares.

NOTE: Paddle numbers title words and categories in the iteration order of a Python set, which changes from
one process to the next (string hashing is randomised); here they are numbered in sorted order, one of the
orders Paddle can produce, the same in every run. The train / test split draws np.random after
np.random.seed(rand_seed), as Paddle does, so it matches Paddle's split exactly."""

from __future__ import annotations

import functools
import re
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

age_table = [1, 18, 25, 35, 45, 50, 56]
URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
MD5 = "c4d9eecfca2ab87c1945afe126590906"
MOVIE_INFO: Any = None
MOVIE_TITLE_DICT: Any = None
CATEGORIES_DICT: Any = None
USER_INFO: Any = None


class MovieInfo:
    """A movie: id, categories, title."""

    def __init__(self, index: Any, categories: list, title: str) -> None:
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict: dict | None = None, movie_title_dict: dict | None = None) -> list:
        cats = CATEGORIES_DICT if categories_dict is None else categories_dict
        titles = MOVIE_TITLE_DICT if movie_title_dict is None else movie_title_dict
        return [self.index, [cats[c] for c in self.categories], [titles[w.lower()] for w in self.title.split()]]

    def __str__(self) -> str:
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"

    __repr__ = __str__


class UserInfo:
    """A user: id, gender, age bucket (index into age_table), job id."""

    def __init__(self, index: Any, gender: str, age: Any, job_id: Any) -> None:
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self) -> list:
        return [self.index, 0 if self.is_male else 1, self.age, self.job_id]

    def __str__(self) -> str:
        return (f"<UserInfo id({self.index}), gender({'M' if self.is_male else 'F'}), age({age_table[self.age]}), "
                f"job({self.job_id})>")

    __repr__ = __str__


_TITLE = re.compile(r"^(.*)\((\d+)\)$")


def _lines(package: zipfile.ZipFile, name: str) -> Iterator[list]:
    with package.open(name) as f:
        for line in f:
            yield line.decode("latin").strip().split("::")


def read_meta(filename: str) -> tuple[dict, dict, dict, dict]:
    """(movie id -> MovieInfo, title word -> id, category -> id, user id -> UserInfo) of ml-1m.zip."""
    movies, words, cats = {}, set(), set()
    with zipfile.ZipFile(filename) as package:
        for movie_id, title, categories in _lines(package, "ml-1m/movies.dat"):
            categories = categories.split("|")
            cats.update(categories)
            title = _TITLE.match(title).group(1)
            movies[int(movie_id)] = MovieInfo(movie_id, categories, title)
            words.update(w.lower() for w in title.split())
        users = {int(uid): UserInfo(uid, gender, age, job)
                 for uid, gender, age, job, _ in _lines(package, "ml-1m/users.dat")}
    return movies, {w: i for i, w in enumerate(sorted(words))}, {c: i for i, c in enumerate(sorted(cats))}, users


def read_ratings(filename: str, meta: tuple, test_ratio: float, is_test: bool) -> Iterator[list]:
    """[user id, gender, age, job, movie id, category ids, title word ids, [rating * 2 - 5]] of each rating on
    the chosen side of the split (np.random.random() < test_ratio is a test rating)."""
    movies, titles, cats, users = meta
    with zipfile.ZipFile(filename) as package:
        for uid, mov_id, rating, _ in _lines(package, "ml-1m/ratings.dat"):
            if (np.random.random() < test_ratio) == is_test:
                yield users[int(uid)].value() + movies[int(mov_id)].value(cats, titles) + [[float(rating) * 2 - 5.0]]


def __initialize_meta_info__() -> str:
    global MOVIE_INFO, MOVIE_TITLE_DICT, CATEGORIES_DICT, USER_INFO
    fn = download(URL, "movielens", MD5)
    if MOVIE_INFO is None:
        MOVIE_INFO, MOVIE_TITLE_DICT, CATEGORIES_DICT, USER_INFO = read_meta(fn)
    return fn


def __reader__(rand_seed: int = 0, test_ratio: float = 0.1, is_test: bool = False) -> Iterator[list]:
    fn = __initialize_meta_info__()
    np.random.seed(rand_seed)
    yield from read_ratings(fn, (MOVIE_INFO, MOVIE_TITLE_DICT, CATEGORIES_DICT, USER_INFO), test_ratio, is_test)


def __reader_creator__(**kwargs: Any) -> Callable:
    return lambda: __reader__(**kwargs)


train = functools.partial(__reader_creator__, is_test=False)
test = functools.partial(__reader_creator__, is_test=True)


def get_movie_title_dict() -> dict:
    __initialize_meta_info__()
    return MOVIE_TITLE_DICT


def max_movie_id() -> int:
    __initialize_meta_info__()
    return max(MOVIE_INFO.values(), key=lambda m: m.index).index


def max_user_id() -> int:
    __initialize_meta_info__()
    return max(USER_INFO.values(), key=lambda u: u.index).index


def max_job_id() -> int:
    __initialize_meta_info__()
    return max(USER_INFO.values(), key=lambda u: u.job_id).job_id


def movie_categories() -> dict:
    __initialize_meta_info__()
    return CATEGORIES_DICT


def user_info() -> dict:
    __initialize_meta_info__()
    return USER_INFO


def movie_info() -> dict:
    __initialize_meta_info__()
    return MOVIE_INFO


def fetch() -> None:
    download(URL, "movielens", MD5)


export_names(globals(), "paddle.dataset.movielens", (
    "train", "test", "get_movie_title_dict", "max_movie_id", "max_user_id", "max_job_id", "movie_categories",
    "user_info", "movie_info", "fetch", "MovieInfo", "UserInfo", "age_table", "URL", "MD5"))
