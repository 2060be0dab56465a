"""Shared fixtures: every test starts from fresh default programs, scope, unique names and mode."""

from __future__ import annotations

import os

import numpy as np
import pytest

GOLDENS = os.path.join(os.path.dirname(__file__), "goldens")


@pytest.fixture(autouse=True)
def fresh_paddle_state():
    import paddle  # noqa: F401 - fills the registry
    from paddle_compat.core import mode
    from paddle_compat.framework import program, scope, unique_name

    old = (mode.MODE.static, mode.MODE.explicit)
    program._main[0] = program.Program()
    program._startup[0] = program.Program()
    scope._global[0] = scope.Scope()
    gen = unique_name.switch()
    mode.MODE.static, mode.MODE.explicit = False, False
    try:
        yield
    finally:
        unique_name.switch(gen)
        mode.MODE.static, mode.MODE.explicit = old


def load_golden(case: str):
    import json

    with open(os.path.join(GOLDENS, f"{case}.json"), encoding="utf-8") as f:
        meta = json.load(f)
    arrays = dict(np.load(os.path.join(GOLDENS, f"{case}.npz")))
    return meta, arrays


def key(prefix: str, name: str) -> str:
    """The goldens' npz key for a Paddle variable name (tests/goldens/README.md)."""
    return f"{prefix}__{name.replace('.', '_').replace('@', '_AT_')}"
