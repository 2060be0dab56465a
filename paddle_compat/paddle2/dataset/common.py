"""paddle.dataset.common: DATA_HOME, download and md5file (paddle_compat/paddle2/utils/download.py), split and
cluster_files_reader, and the export helper of this package."""

from __future__ import annotations

import glob
import pickle
from collections.abc import Callable, Iterator
from typing import Any

from paddle_compat.engine.framework.registry import export


def export_names(namespace: dict, module: str, names: tuple) -> None:
    """Export `names` of a module's namespace at the Paddle module path `module`."""
    for n in names:
        export(namespace[n], f"{module}.{n}")


def check_mode(mode: Any, allowed: tuple, api: str) -> str:
    """A 2.x dataset's mode, lower-cased, or ValueError naming the API and the modes it takes."""
    if not isinstance(mode, str) or mode.lower() not in allowed:
        raise ValueError(f"{api}: mode should be one of {list(allowed)}, but got {mode!r}")
    return mode.lower()


def default_dtype() -> str:
    from paddle_compat.engine.core.dtype import get_default_dtype

    return get_default_dtype()


def split(reader: Callable, line_count: int, suffix: str = "%05d.pickle", dumper: Callable = pickle.dump) -> None:
    """Write the reader's samples to files of line_count samples each (suffix % index), with dumper(obj, f).

    NOTE: Paddle 1.8.5 opens the files in text mode, which pickle.dump refuses on Python 3; binary here."""
    if not callable(dumper):
        raise TypeError("dumper should be callable.")
    lines: list = []
    index = 0
    for i, d in enumerate(reader()):
        lines.append(d)
        if i >= line_count and i % line_count == 0:  # Paddle's rule: the first file gets line_count + 1
            with open(suffix % index, "wb") as f:
                dumper(lines, f)
            lines, index = [], index + 1
    if lines:
        with open(suffix % index, "wb") as f:
            dumper(lines, f)


def cluster_files_reader(files_pattern: str, trainer_count: int, trainer_id: int,
                         loader: Callable = pickle.load) -> Callable[[], Iterator[Any]]:
    """The samples of this trainer's share of the files split() wrote (every trainer_count-th, sorted)."""
    def reader() -> Iterator[Any]:
        if not callable(loader):
            raise TypeError("loader should be callable.")
        files = sorted(glob.glob(files_pattern))
        for fn in files[trainer_id::trainer_count]:
            with open(fn, "rb") as f:
                yield from loader(f)

    return reader


export_names(globals(), "paddle.dataset.common", ("split", "cluster_files_reader"))
