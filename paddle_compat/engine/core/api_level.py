"""The API level: which Paddle generation's shape rules `paddle.*` follows, chosen once per process.

Paddle 2.5 turned the scalar results of `paddle.*` into 0-D tensors (shape `[]`): full reductions, `to_tensor`
of a Python scalar, indexing down to one element, losses with 'mean' / 'sum' reduction, metrics, fetched static
values. Paddle 2.0-2.4 (and fluid 1.x) gave them shape `[1]`. Legacy scripts rely on `[1]` (`loss.numpy()[0]`),
code written since 2.5 on `[]` (`loss.shape == []`, `paddle.stack` of scalars), and no real Paddle runs both.

- level "2.4" (the default): `paddle.*` follows Paddle 2.4; `paddle.__version__` is "2.4.2".
- level "2.6": `paddle.*` follows Paddle 2.6.2 (0-D results); `paddle.__version__` is "2.6.2".

`paddle.fluid` keeps 1.8's `[1]` at every level: at level 2.6 its functions are wrapped in `legacy_shapes`.

Chosen by `PADDLE_COMPAT_API_LEVEL` in the environment (read at import) or `paddle_compat.set_api_level(...)`
before the first tensor is made. The level is a property the ops' shape rules read (`engine/ops/common.scalar_shape`
and the few creation / indexing rules beside it): there is one definition of each op, not one per level.
Tests: tests/api_level/. Docs: docs/api_levels.md.
"""

from __future__ import annotations

import functools
import os
import threading
import types
from typing import Any, Callable

# level -> the Paddle release it reports as paddle.__version__
VERSIONS = {"2.4": "2.4.2", "2.6": "2.6.2"}
DEFAULT = "2.4"
ENV = "PADDLE_COMPAT_API_LEVEL"


class ApiLevelError(ValueError):
    """An unknown API level."""


_PROCESS = [DEFAULT]  # the level chosen for the process


class _Level(threading.local):
    """Per thread: `name`, the process's level, and `zero_d`, whether scalar results are 0-D (2.5+) rather than
    shape [1] right now. `zero_d` is False at level 2.4, and at level 2.6 while a `paddle.fluid` API runs
    (`legacy_shapes`): fluid keeps 1.8's [1] at every level. A new thread starts from the process's level."""

    def __init__(self) -> None:
        self.name = _PROCESS[0]
        self.zero_d = _PROCESS[0] != "2.4"


LEVEL = _Level()


def normalize(level: object, source: str = "paddle_compat.set_api_level") -> str:
    """'2.6', '2.6.2', 2.6 -> '2.6'; anything else raises ApiLevelError listing the accepted levels."""
    text = str(level).strip()
    for name, version in VERSIONS.items():
        if text in (name, version):
            return name
    accepted = ", ".join(f"'{n}'" for n in VERSIONS)
    raise ApiLevelError(f"{source}: unknown API level {level!r}; accepted levels are {accepted} (the Paddle "
                        f"release whose paddle.* semantics to follow; default '{DEFAULT}')")


def _apply(name: str) -> None:
    _PROCESS[0] = name
    LEVEL.name = name
    LEVEL.zero_d = name != "2.4"


def legacy_shapes(fn: Callable) -> Callable:
    """`fn` (a paddle.fluid API) with 1.8's shape rules while it runs, at every level: scalar results are [1]. In
    dygraph the op bodies read LEVEL.zero_d; in static mode dispatch.record gives the ops recorded meanwhile a
    [1] output where their body makes a 0-D one (the body runs later, outside this call)."""
    if getattr(fn, "__paddle_legacy_shapes__", False):
        return fn
    known = _LEGACY.get(fn)
    if known is not None:  # one wrapper per function: fluid's aliases stay one object
        return known

    @functools.wraps(fn)
    def legacy(*args: Any, **kwargs: Any) -> Any:
        lv = LEVEL
        if not lv.zero_d:  # level 2.4, or already inside a fluid API
            return fn(*args, **kwargs)
        lv.zero_d = False
        try:
            return fn(*args, **kwargs)
        finally:
            lv.zero_d = True

    legacy.__paddle_legacy_shapes__ = True  # type: ignore[attr-defined]
    _LEGACY[fn] = legacy
    return legacy


_LEGACY: dict = {}  # function -> its legacy_shapes wrapper


def version() -> str:
    """The Paddle release the current level reports (paddle.__version__)."""
    return VERSIONS[LEVEL.name]


def get_api_level() -> str:
    return LEVEL.name


def _tensor_exists() -> bool:
    import gc
    import sys

    tensor_mod = sys.modules.get("paddle_compat.engine.framework.tensor")
    program_mod = sys.modules.get("paddle_compat.engine.framework.program")
    kinds = tuple(k for k in (getattr(tensor_mod, "Tensor", None), getattr(program_mod, "Variable", None)) if k)
    return bool(kinds) and any(isinstance(o, kinds) for o in gc.get_objects())


def set_api_level(level: object) -> None:
    """Switch `paddle.*` to the semantics of Paddle `level` ('2.4' or '2.6'). Call it before the first tensor is
    made: a tensor made under one level keeps its shape, so changing it afterwards is refused."""
    name = normalize(level)
    if name == LEVEL.name:
        return
    if _tensor_exists():
        raise ApiLevelError(f"paddle_compat.set_api_level({level!r}): tensors already exist under API level "
                            f"'{LEVEL.name}'; set the level before the first tensor is made (or start the "
                            f"process with {ENV}={name})")
    _apply(name)
    for hook in LEVEL_HOOKS:
        hook()


def legacy_class(cls: type, on: bool = True) -> None:
    """Wrap (on) or unwrap the methods `cls` defines in `legacy_shapes`: a class of the fluid 1.x surface only (a
    fluid optimizer, a fluid.dygraph layer), whose methods record and run ops for 1.8 scripts. In place, once."""
    for name, attr in list(vars(cls).items()):
        if name.startswith("__") and name not in ("__init__", "__call__"):
            continue
        wrapper = type(attr) if isinstance(attr, (staticmethod, classmethod)) else None
        fn = attr.__func__ if wrapper is not None else attr
        if not isinstance(fn, types.FunctionType):
            continue
        wrapped = getattr(fn, "__paddle_legacy_shapes__", False)
        if on == wrapped:
            continue
        new = legacy_shapes(fn) if on else fn.__wrapped__
        setattr(cls, name, wrapper(new) if wrapper is not None else new)


# called after the level changed (the modules that show the version, fluid's entry wrappers)
LEVEL_HOOKS: list = []


def _from_environment() -> None:
    value = os.environ.get(ENV)
    if value:
        _apply(normalize(value, f"the environment variable {ENV}"))


_from_environment()
