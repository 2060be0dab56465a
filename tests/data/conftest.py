"""Fixtures of the data-pipeline tests: a DATA_HOME holding small files in Paddle's formats
(tests/data/formats.py), and the goldens recorded from real Paddle on the same files."""

from __future__ import annotations

import json
import os

import pytest

from tests.data import formats

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")


def golden(name: str) -> dict:
    with open(os.path.join(GOLDENS, name + ".json")) as f:
        return json.load(f)


def have(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


@pytest.fixture(scope="session")
def data_files(tmp_path_factory):
    """{dataset: {file key: path}} of the generated files (those needing Pillow only where it is installed),
    plus "root" and an image "folder"."""
    root = str(tmp_path_factory.mktemp("paddle_data_home"))
    built = {name: formats.build(root, name) for name in formats.BUILDERS
             if name not in formats.NEEDS_PIL or have("PIL")}
    built["folder"] = formats.image_folder(os.path.join(root, "folder")) if have("PIL") else None
    built["root"] = root
    return built


@pytest.fixture(scope="session")
def data_root(data_files):
    return data_files["root"]


@pytest.fixture
def data_home(data_root, monkeypatch):
    """DATA_HOME is the generated folder; its files stand in for Paddle's downloads (the md5 of each is not
    Paddle's, so the md5 check accepts any file here: tests/data/test_download.py checks md5s for real)."""
    from paddle_compat.paddle2.dataset import movielens, uci_housing
    from paddle_compat.paddle2.utils import download

    monkeypatch.setattr(download, "DATA_HOME", data_root)
    monkeypatch.setattr(download, "_md5_ok", lambda path, md5: os.path.isfile(path))
    for mod, names in ((uci_housing, ("UCI_TRAIN_DATA", "UCI_TEST_DATA")),
                       (movielens, ("MOVIE_INFO", "MOVIE_TITLE_DICT", "CATEGORIES_DICT", "USER_INFO"))):
        for n in names:
            monkeypatch.setattr(mod, n, None)
    return data_root


@pytest.fixture
def fluid():
    """paddle.fluid in static mode (the fluid 1.x feeding and dataset tests)."""
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    yield fluid
    paddle.disable_static()
