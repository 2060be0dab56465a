"""Replay a cases module of tools/oracle (functions over the public API, recorded on real Paddle 2.6.2 by
tools/oracle/rec_cases26.py) on paddle_compat and compare with its golden."""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np
import pytest

from tests.conftest import load_golden

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "oracle"))


def params(module: str) -> list:
    """pytest params: one per case of the module."""
    cases = importlib.import_module(module).CASES
    return [pytest.param(c, id=c.__name__) for c in cases]


def check(case, golden: str, rtol: float = 1e-7, atol: float = 1e-10) -> None:
    import paddle

    meta, g = load_golden(golden)
    assert case.__name__ not in meta["errors"], meta["errors"].get(case.__name__)
    got = case(paddle)
    want = {k.split("__", 1)[1]: v for k, v in g.items() if k.startswith(case.__name__ + "__")}
    assert sorted(got) == sorted(want)
    for k, v in got.items():
        np.testing.assert_allclose(np.asarray(v, dtype=want[k].dtype), want[k], rtol=rtol, atol=atol,
                                   err_msg=f"{case.__name__}.{k}")
