"""paddle.hub: list / help / load the entry points of a repository's hubconf.py.

source='local' reads a folder on disk. source='github' / 'gitee' use the copy Paddle keeps in
HUB_DIR/<owner>_<repo>_<branch> when it is there; fetching a repository from the network is not supported (a
clear error says where to put the copy, or to pass its folder with source='local')."""

from __future__ import annotations

import builtins
import importlib.util
import os
import sys
from typing import Any

from paddle_compat.engine.framework.registry import export, partial

HUB_DIR = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hub"))
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
_SOURCES = ("github", "gitee", "local")


def _parse_repo_info(repo: str, source: str) -> tuple[str, str, str]:
    branch = "main" if source == "github" else "master"
    info = repo
    if ":" in repo:
        info, branch = repo.split(":")
    owner, name = info.split("/")
    return owner, name, branch


def _repo_dir(repo_dir: str, source: str, force_reload: bool, api: str) -> str:
    if source not in _SOURCES:
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "gitee" | "local".')
    if source == "local":
        return repo_dir
    try:
        owner, name, branch = _parse_repo_info(repo_dir, source)
    except ValueError:
        raise ValueError(f"{api}: repo_dir should be 'owner/name[:branch]' for source={source!r}, "
                         f"got {repo_dir!r}") from None
    cached = os.path.join(HUB_DIR, "_".join([owner, name, branch.replace("/", "_")]))
    if os.path.isdir(cached) and not force_reload:
        sys.stderr.write(f"Using cache found in {cached}\n")
        return cached
    raise RuntimeError(
        f"{api}(source={source!r}): paddle_compat does not download repositories from {source}. Clone "
        f"{owner}/{name} (branch {branch}) and pass its folder with source='local', or put the copy at {cached}")


def _import_hubconf(repo_dir: str) -> Any:
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise RuntimeError(f"Please make sure config exists or repo error messages above fixed when importing "
                           f"(no {MODULE_HUBCONF} in {repo_dir})")
    sys.path.insert(0, repo_dir)
    try:
        spec = importlib.util.spec_from_file_location("hubconf", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_dir)
    return module


def _entry(module: Any, name: Any) -> Any:
    if not isinstance(name, str):
        raise ValueError("Invalid input: model should be a str of function name")
    func = getattr(module, name, None)
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {name} in hubconf")
    return func


def list(repo_dir: str, source: str = "github", force_reload: bool = False) -> builtins.list:  # noqa: A001
    """The public callables of the repository's hubconf.py, sorted."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload, "paddle.hub.list"))
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(repo_dir: str, model: str, source: str = "github", force_reload: bool = False) -> Any:  # noqa: A001
    """The docstring of entry point `model`."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload, "paddle.hub.help"))
    return _entry(module, model).__doc__


def load(repo_dir: str, model: str, source: str = "github", force_reload: bool = False, **kwargs: Any) -> Any:
    """Entry point `model` called with kwargs, after checking the packages hubconf's `dependencies` lists."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload, "paddle.hub.load"))
    missing = []
    for pkg in getattr(module, VAR_DEPENDENCY, None) or []:
        try:
            __import__(pkg)
        except ImportError:
            missing.append(pkg)
    if missing:
        raise RuntimeError("Missing dependencies: {}".format(", ".join(missing)))
    return _entry(module, model)(**kwargs)


for _fn in (list, help, load):
    partial(f"paddle.hub.{_fn.__name__}", "source='github' / 'gitee' read only Paddle's hub cache folder "
            "(HUB_DIR/<owner>_<repo>_<branch>); nothing is downloaded")
    export(_fn, f"paddle.hub.{_fn.__name__}", f"paddle.hapi.hub.{_fn.__name__}")
