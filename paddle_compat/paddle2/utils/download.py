"""The one download helper: a URL, its md5 and a cache folder.

Every reader that needs a file Paddle downloads goes through `fetch_url`: the 1.x datasets
(`paddle.dataset.common.download(url, module_name, md5sum, save_name=None)`, files under
`DATA_HOME/<module_name>/`), the 2.x datasets (the same call, through `check_exists_and_download`) and
pretrained weights (`paddle.utils.download.get_weights_path_from_url(url, md5sum)`, files under `WEIGHTS_HOME`;
`get_path_from_url(url, root_dir, md5sum)` for any folder, unpacking tar / zip archives as Paddle does).

A file already in place whose md5 matches is used as it is, so everything works offline once the files are
there: copy Paddle's own cache folder (`~/.cache/paddle`) or place the files by hand. Otherwise the URL is read
with urllib (http, https, ftp and file:// URLs), written next to its place as `<name>_tmp` and moved into place
when whole; a wrong md5 is retried, then an error names the URL, the path and the md5 expected.

NOTE: scripts change the dataset folder with `paddle.dataset.common.DATA_HOME = ...`; `data_home()` reads that
value where a script set it, else `DATA_HOME` here (tests monkeypatch this one; tests/data/test_download.py).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tarfile
import urllib.request
import zipfile
from typing import Any

from paddle_compat.engine.framework.registry import export

DATA_HOME = os.path.expanduser("~/.cache/paddle/dataset")
WEIGHTS_HOME = os.path.expanduser("~/.cache/paddle/hapi/weights")
DOWNLOAD_RETRY_LIMIT = 3
_DEFAULT_DATA_HOME = DATA_HOME


def data_home() -> str:
    """The dataset cache folder: `paddle.dataset.common.DATA_HOME` where a script assigned it, else DATA_HOME."""
    shim = sys.modules.get("paddle.dataset.common")
    value = getattr(shim, "DATA_HOME", None) if shim is not None else None
    return value if value and value != _DEFAULT_DATA_HOME else DATA_HOME


def md5file(fname: str) -> str:
    """The md5 hex digest of a file."""
    h = hashlib.md5()
    with open(fname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def _md5_ok(path: str, md5sum: str | None) -> bool:
    return os.path.isfile(path) and (md5sum is None or md5file(path) == md5sum)


def is_url(path: Any) -> bool:
    return isinstance(path, str) and path.startswith(("http://", "https://", "ftp://", "file://"))


def fetch_url(url: str, fullpath: str, md5sum: str | None = None, api: str = "paddle.utils.download") -> str:
    """`fullpath` with the content of `url` and md5 `md5sum` (None: any content): the file in place when it
    matches, else downloaded (up to DOWNLOAD_RETRY_LIMIT tries). Returns fullpath."""
    if _md5_ok(fullpath, md5sum):
        return fullpath
    os.makedirs(os.path.dirname(fullpath) or ".", exist_ok=True)
    last = "no try made"
    for _ in range(DOWNLOAD_RETRY_LIMIT):
        tmp = fullpath + "_tmp"
        try:
            with urllib.request.urlopen(url, timeout=60) as resp, open(tmp, "wb") as out:
                shutil.copyfileobj(resp, out, 1 << 20)
        except (OSError, ValueError) as e:  # URLError is an OSError
            last = f"{type(e).__name__}: {e}"
            if os.path.exists(tmp):
                os.remove(tmp)
            continue
        got = md5file(tmp)
        if md5sum is not None and got != md5sum:
            last = f"md5 {got} != {md5sum}"
            os.remove(tmp)
            continue
        shutil.move(tmp, fullpath)
        return fullpath
    raise RuntimeError(
        f"{api}: cannot download {url} to {fullpath} within retry limit {DOWNLOAD_RETRY_LIMIT} ({last}). "
        f"To work offline, put the file there yourself" + (f" (md5 {md5sum})" if md5sum else ""))


def download(url: str, module_name: str, md5sum: str, save_name: str | None = None) -> str:
    """paddle.dataset.common.download: DATA_HOME/<module_name>/<save_name or the URL's last part>, downloaded
    when missing or when its md5 differs."""
    path = os.path.join(data_home(), module_name, save_name if save_name is not None else url.split("/")[-1])
    return fetch_url(url, path, md5sum, api="paddle.dataset.common.download")


def check_exists_and_download(path: str | None, url: str, md5: str, module_name: str, download_: bool = True,
                              what: str = "data_file", api: str = "paddle.dataset") -> str:
    """What the 2.x datasets do with a file argument (`what`): an existing path as it is, else the cached
    download; with download=False a missing file is an error naming the API and the argument."""
    if path and os.path.exists(path):
        return path
    if download_:
        return download(url, module_name, md5)
    if path is None:
        raise ValueError(f"{api}: {what} is not set and downloading automatically is disabled")
    raise ValueError(f"{api}: {what} {path} not exists and auto download disabled")


def _strip_root(names: list) -> tuple:
    """(kind, root) of an archive's member names: one file, one top folder, or several (Paddle's rule)."""
    names = [n.replace("../", "") for n in names]
    if len(names) == 1 and "/" not in names[0].strip("/"):
        return "file", names[0]
    tops = {n.replace("\\", "/").split("/")[0] for n in names}
    if len(tops) == 1:
        return "dir", os.path.splitext(names[0].strip("/"))[0].split("/")[0]
    return "many", None


def unpack(fname: str) -> str:
    """Unpack a tar / zip archive next to it; the path of what it holds (its single file or top folder, else a
    folder named after the archive), as Paddle's get_path_from_url returns."""
    if tarfile.is_tarfile(fname):
        with tarfile.open(fname, "r:*") as arc:
            names = arc.getnames()
            if any(n.startswith("/") for n in names):
                raise ValueError(f"paddle.utils.download: archive {fname} has absolute member paths")
            kind, root = _strip_root(names)
            target = os.path.dirname(fname)
            if kind == "many":
                root = os.path.splitext(os.path.basename(fname))[0]
                target = os.path.join(target, root)
            arc.extractall(target)
    elif zipfile.is_zipfile(fname):
        with zipfile.ZipFile(fname) as arc:
            kind, root = _strip_root(arc.namelist())
            target = os.path.dirname(fname)
            if kind == "many":
                root = os.path.splitext(os.path.basename(fname))[0]
                target = os.path.join(target, root)
            arc.extractall(target)
    else:
        raise TypeError(f"paddle.utils.download: unsupported archive type {fname}")
    return os.path.join(os.path.dirname(fname), root)


def get_path_from_url(url: str, root_dir: str, md5sum: str | None = None, check_exist: bool = True,
                      decompress: bool = True, method: str = "get") -> str:
    """root_dir/<the URL's last part>, downloaded when missing (or always with check_exist=False); a tar / zip
    file is unpacked there and the unpacked path returned."""
    if not is_url(url):
        raise ValueError(f"paddle.utils.download.get_path_from_url: downloading from {url} not a url")
    if method not in ("get", "wget"):
        raise ValueError(f"paddle.utils.download.get_path_from_url: method should be 'get' or 'wget', got {method!r}")
    fullpath = os.path.join(root_dir, os.path.split(url)[-1])
    if not check_exist and os.path.exists(fullpath):
        os.remove(fullpath)
    fullpath = fetch_url(url, fullpath, md5sum, api="paddle.utils.download.get_path_from_url")
    if decompress and (tarfile.is_tarfile(fullpath) or zipfile.is_zipfile(fullpath)):
        fullpath = unpack(fullpath)
    return fullpath


def _get_unique_endpoints(trainer_endpoints: list) -> set:
    """The endpoints of `trainer_endpoints` (sorted in place) keeping the first per IP address: the trainers
    that download, one per machine (PaddleDetection / PaddleClas import this private helper)."""
    trainer_endpoints.sort()
    ips, unique = set(), set()
    for endpoint in trainer_endpoints:
        ip = endpoint.split(":")[0]
        if ip not in ips:
            ips.add(ip)
            unique.add(endpoint)
    return unique


def get_weights_path_from_url(url: str, md5sum: str | None = None) -> str:
    """Pretrained weights: WEIGHTS_HOME (~/.cache/paddle/hapi/weights)/<the URL's last part>, downloaded when
    missing or when its md5 differs; the file's path."""
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


export(download, "paddle.dataset.common.download")
export(md5file, "paddle.dataset.common.md5file")
export(DATA_HOME, "paddle.dataset.common.DATA_HOME")
export(get_path_from_url, "paddle.utils.download.get_path_from_url")
export(get_weights_path_from_url, "paddle.utils.download.get_weights_path_from_url")
export(_get_unique_endpoints, "paddle.utils.download._get_unique_endpoints")
export(is_url, "paddle.utils.download.is_url")
export(WEIGHTS_HOME, "paddle.utils.download.WEIGHTS_HOME")
