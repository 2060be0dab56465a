"""Dygraph / static mode.

Paddle 2.x starts in dygraph mode; Paddle 1.x started in static mode and legacy fluid scripts never call
`enable_static()`. We keep 2.x's default, and while the user has not chosen a mode explicitly, the first
call of a static-only entry point (`fluid.layers.data`, `static.data`, `program_guard`, `Executor`, ...)
switches to static mode, where Paddle 2.x would only raise. Scripts that choose explicitly are never
second-guessed. See tests/test_mode.py.
"""

from __future__ import annotations

import contextlib
from typing import Iterator


class _Mode:
    __slots__ = ("static", "explicit")

    def __init__(self) -> None:
        self.static = False
        self.explicit = False


MODE = _Mode()


def enable_static() -> None:
    MODE.static = True
    MODE.explicit = True


def disable_static(place=None) -> None:
    MODE.static = False
    MODE.explicit = True
    if place is not None:
        from paddle_compat.core.place import set_device

        set_device(place)


def in_dynamic_mode() -> bool:
    return not MODE.static


def in_static_mode() -> bool:
    return MODE.static


def static_entry_point() -> None:
    """Called by static-only APIs: switch to static mode unless the user chose a mode explicitly."""
    if not MODE.static and not MODE.explicit:
        MODE.static = True


@contextlib.contextmanager
def dygraph_guard() -> Iterator[None]:
    old = MODE.static
    MODE.static = False
    try:
        yield
    finally:
        MODE.static = old


@contextlib.contextmanager
def static_guard() -> Iterator[None]:
    old = MODE.static
    MODE.static = True
    try:
        yield
    finally:
        MODE.static = old
