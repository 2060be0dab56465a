"""Dygraph / static mode.

Paddle 2.x starts in dygraph mode; Paddle 1.x started in static mode and legacy fluid scripts never call
`enable_static()`. We keep 2.x's default, and while the user has not chosen a mode explicitly, the first
call of a static-only entry point (`fluid.layers.data`, `static.data`, `program_guard`, `Executor`, ...)
switches to static mode, where Paddle 2.x would only raise. Scripts that choose explicitly are never
second-guessed. See tests/test_mode.py.

fluid 1.x's creation ops that take no Tensor (`fluid.layers.fill_constant`, `ones`, `zeros`, `range`, ...) are
where a 1.x script can start before any static-only call (`x = fluid.layers.ones(...)`, then an Executor runs
`default_main_program()`): while no mode was chosen and no dygraph Tensor exists yet, they switch to static too
(`legacy_creation`). A 2.x script that already holds a Tensor (`to_tensor`, a Layer's parameters) or runs under
`fluid.dygraph.guard()` keeps running them eagerly.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from typing import Any, Callable, Iterator


class _Mode:
    __slots__ = ("static", "explicit", "dygraph_used")

    def __init__(self) -> None:
        self.static = False
        self.explicit = False
        self.dygraph_used = False  # a dygraph Tensor existed or a dygraph guard was entered: the script is 2.x-style


MODE = _Mode()


def enable_static() -> None:
    MODE.static = True
    MODE.explicit = True


def disable_static(place=None) -> None:
    MODE.static = False
    MODE.explicit = True
    if place is not None:
        from paddle_compat.engine.core.place import set_device

        set_device(place)


def in_dynamic_mode() -> bool:
    return not MODE.static


def in_static_mode() -> bool:
    return MODE.static


def static_entry_point() -> None:
    """Called by static-only APIs: switch to static mode unless the user chose a mode explicitly."""
    if not MODE.static and not MODE.explicit:
        MODE.static = True


def _dygraph_tensor_alive() -> bool:
    from paddle_compat.engine.framework.tensor import Tensor

    return any(issubclass(type(o), Tensor) for o in gc.get_objects())


def legacy_creation_entry() -> None:
    """Called by fluid 1.x's Tensor-less creation ops: switch to static mode while no mode was chosen and the
    script has no dygraph Tensor. Decides once: the (one) scan for live Tensors runs only while undecided."""
    if MODE.static or MODE.explicit or MODE.dygraph_used:
        return
    if _dygraph_tensor_alive():
        MODE.dygraph_used = True
    else:
        MODE.static = True


def legacy_creation(fn: Callable) -> Callable:
    """Decorator for fluid.layers' Tensor-less creation ops (see the module docstring)."""

    @functools.wraps(fn)
    def entry(*args: Any, **kwargs: Any) -> Any:
        legacy_creation_entry()
        return fn(*args, **kwargs)

    return entry


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
