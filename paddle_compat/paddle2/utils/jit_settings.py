"""paddle.jit's global switches. `@to_static` code runs eagerly here (paddle2/jit.py), so the switches are
recorded and reported, and change nothing a script can observe besides what they return."""

from __future__ import annotations

import logging
from typing import Any

from paddle_compat.engine.framework.registry import export
from paddle_compat.paddle2.jit import ProgramTranslator

_LOG = logging.getLogger("paddle.jit")
_SETTINGS: dict[str, Any] = {"verbosity": 0, "code_level": -1, "ignored_modules": []}


def enable_to_static(enable_to_static_bool: Any) -> None:
    """Switch dynamic-to-static conversion on or off globally (our to_static functions always run eagerly)."""
    ProgramTranslator().enable(bool(enable_to_static_bool))


def ignore_module(modules: list) -> None:
    """Modules whose functions to_static leaves unconverted (every function is left as is here)."""
    _SETTINGS["ignored_modules"].extend(list(modules))


def _level(api: str, level: Any) -> int:
    if not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"{api}: Level is not an integer: {level}")
    return level


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """Log level of the dygraph-to-static transformer (it logs that code runs eagerly)."""
    _SETTINGS["verbosity"] = _level("paddle.jit.set_verbosity", level)
    _LOG.setLevel(logging.INFO if level > 0 else logging.WARNING)


def set_code_level(level: int = 100, also_to_stdout: bool = False) -> None:
    """Level of transformed code Paddle prints; no code is transformed here, so nothing is printed."""
    _SETTINGS["code_level"] = _level("paddle.jit.set_code_level", level)


for _fn in (enable_to_static, ignore_module, set_verbosity, set_code_level):
    export(_fn, f"paddle.jit.{_fn.__name__}")
