"""The one download helper: cache hits by md5, downloads (file:// URLs here: no network), md5 mismatches,
archives unpacked as Paddle's get_path_from_url does, DATA_HOME set by a script, and the offline error."""

from __future__ import annotations

import hashlib
import os
import tarfile
import zipfile

import pytest


def _md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


@pytest.fixture
def source(tmp_path):
    src = tmp_path / "server"
    src.mkdir()
    (src / "housing.data").write_bytes(b"1 2 3\n")
    return src


def test_download_fetches_into_data_home_and_reuses_cache(tmp_path, source, monkeypatch):
    import paddle
    from paddle_compat.paddle2.utils import download as dl

    monkeypatch.setattr(dl, "DATA_HOME", str(tmp_path / "home"))
    url = (source / "housing.data").as_uri()
    path = paddle.dataset.common.download(url, "uci_housing", _md5(b"1 2 3\n"))
    assert path == str(tmp_path / "home" / "uci_housing" / "housing.data")
    assert open(path, "rb").read() == b"1 2 3\n"
    (source / "housing.data").unlink()  # a cached file with the right md5 needs no source
    assert paddle.dataset.common.download(url, "uci_housing", _md5(b"1 2 3\n"), save_name=None) == path
    assert paddle.dataset.common.md5file(path) == _md5(b"1 2 3\n")


def test_download_replaces_a_file_with_the_wrong_md5(tmp_path, source, monkeypatch):
    import paddle
    from paddle_compat.paddle2.utils import download as dl

    monkeypatch.setattr(dl, "DATA_HOME", str(tmp_path / "home"))
    stale = tmp_path / "home" / "m" / "saved.bin"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    path = paddle.dataset.common.download((source / "housing.data").as_uri(), "m", _md5(b"1 2 3\n"), "saved.bin")
    assert path == str(stale) and stale.read_bytes() == b"1 2 3\n"


def test_download_md5_mismatch_and_offline_errors_name_url_and_md5(tmp_path, source, monkeypatch):
    import paddle
    from paddle_compat.paddle2.utils import download as dl

    monkeypatch.setattr(dl, "DATA_HOME", str(tmp_path / "home"))
    url = (source / "housing.data").as_uri()
    with pytest.raises(RuntimeError, match=r"cannot download .*housing.data .*within retry limit 3 "
                                           r"\(md5 .* != 0+\).*put the file there yourself \(md5 0+\)"):
        paddle.dataset.common.download(url, "m", "0" * 32)
    assert not os.path.exists(tmp_path / "home" / "m" / "housing.data_tmp")
    with pytest.raises(RuntimeError, match=r"cannot download file://.*missing.tgz"):
        paddle.dataset.common.download(url.replace("housing.data", "missing.tgz"), "m", "1" * 32)


def test_data_home_assigned_by_a_script(tmp_path, source):
    import paddle.dataset.common as common

    old = common.DATA_HOME
    common.DATA_HOME = str(tmp_path / "mine")
    try:
        path = common.download((source / "housing.data").as_uri(), "x", _md5(b"1 2 3\n"))
    finally:
        common.DATA_HOME = old
    assert path == str(tmp_path / "mine" / "x" / "housing.data")


def _archives(src) -> dict:
    with tarfile.open(src / "one_dir.tar.gz", "w:gz") as t:
        for name in ("model/a.txt", "model/b.txt"):
            p = src / "tmpfile"
            p.write_bytes(name.encode())
            t.add(p, arcname=name)
    with zipfile.ZipFile(src / "flat.zip", "w") as z:
        z.writestr("a.txt", "a")
        z.writestr("b.txt", "b")
    with zipfile.ZipFile(src / "single.zip", "w") as z:
        z.writestr("w.pdparams", "w")
    return {"one_dir.tar.gz": "model", "flat.zip": "flat", "single.zip": "w.pdparams"}


def test_get_path_from_url_unpacks_archives_like_paddle(tmp_path, source):
    from paddle.utils.download import get_path_from_url

    root = tmp_path / "root"
    for name, unpacked in _archives(source).items():
        path = get_path_from_url((source / name).as_uri(), str(root))
        assert path == str(root / unpacked) and os.path.exists(path)
    assert sorted(os.listdir(root / "flat")) == ["a.txt", "b.txt"]
    assert get_path_from_url((source / "flat.zip").as_uri(), str(root), decompress=False) == str(root / "flat.zip")
    with pytest.raises(ValueError, match="downloading from /x/y not a url"):
        get_path_from_url("/x/y", str(root))


def test_weights_go_to_weights_home(tmp_path, source, monkeypatch):
    from paddle.utils.download import get_weights_path_from_url
    from paddle_compat.paddle2.utils import download as dl

    monkeypatch.setattr(dl, "WEIGHTS_HOME", str(tmp_path / "weights"))
    (source / "lenet.pdparams").write_bytes(b"params")
    url = (source / "lenet.pdparams").as_uri()
    assert get_weights_path_from_url(url, _md5(b"params")) == str(tmp_path / "weights" / "lenet.pdparams")
    assert dl.WEIGHTS_HOME.endswith("weights") and os.path.expanduser("~/.cache/paddle/hapi/weights").endswith(
        os.path.join("paddle", "hapi", "weights"))


def test_try_import_names_the_package(monkeypatch):
    import sys

    import paddle

    assert paddle.utils.try_import("json").dumps([1]) == "[1]"
    monkeypatch.setitem(sys.modules, "cv2", None)
    with pytest.raises(ImportError, match=r"Failed importing cv2.*pip install opencv-python"):
        paddle.utils.try_import("cv2")
