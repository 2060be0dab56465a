"""The API level's shape rules against real Paddle, case by case (table: tools/oracle/api_level26_cases.py and
api_level18_cases.py; goldens api_level26 from Paddle 2.6.2, api_level18 from Paddle 1.8.5).

- level 2.6: every `paddle.*` case gives 2.6.2's shape, dtype and values (0-D results);
- level 2.4 (the default): the same values with 2.4's shapes (each 0-D result is [1]; SHAPES_24 lists the rest);
- `paddle.fluid` gives 1.8.5's [1] shapes at both levels.

The level is chosen once per process, so each level replays the tables in a subprocess (replay.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import load_golden

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "oracle"))
import api_level18_cases  # noqa: E402
import api_level26_cases  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = ("api_level26_cases", "api_level18_cases")
# values that follow the level by design (2.6.2's are in the golden): "case.key" -> the value at level 2.4
VALUES_24 = {"version.major_minor": [2, 4], "version.dunder": [2, 4], "indexing.iter_shape": [0, 0, 0],
             "static_program.var_ranks": [0, 1, 1, 1], "static_lr_scheduler.lr_var_rank": 1,
             "arange_dtypes.float_end": [0, 1, 2], "arange_dtypes.float_bound": [1, 2],
             "arange_dtypes.float_tensor": [0, 1, 2, 3, 4]}
# dtypes that follow the level: "case.key" -> the dtype at level 2.4 (paddle.arange's default is int64 there)
DTYPES_24 = {"arange_dtypes.float_end": "int64", "arange_dtypes.float_bound": "int64",
             "arange_dtypes.float_tensor": "int64"}


@pytest.fixture(scope="module", params=["2.4", "2.6"])
def replay(request, tmp_path_factory):
    """{(module, case): {key: array}} and errors, replayed in a process at the level."""
    results: dict = {}
    errors: dict = {}
    env = dict(os.environ, PADDLE_COMPAT_API_LEVEL=request.param, OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "shims")]))
    for module in MODULES:  # a process each: a 1.8 script starts in static mode, a 2.x one in dygraph
        out = str(tmp_path_factory.mktemp("level") / "replay")
        proc = subprocess.run([sys.executable, os.path.join(REPO, "tests", "api_level", "replay.py"), out, module],
                              env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        with open(out + ".json", encoding="utf-8") as f:
            meta = json.load(f)
        assert meta["level"] == request.param
        errors.update(meta["errors"])
        for k, v in np.load(out + ".npz").items():
            mod_case, _, key = k.partition("__")
            results.setdefault(tuple(mod_case.split(":")), {})[key] = v
    return request.param, results, errors


def _golden(golden: str, case: str) -> dict:
    meta, arrays = load_golden(golden)
    assert case not in meta["errors"], meta["errors"][case]
    return {k.split("__", 1)[1]: v for k, v in arrays.items() if k.startswith(case + "__")}


def _compare(got: dict, want: dict, case: str, shapes: dict, values: dict, dtypes: dict | None = None) -> None:
    assert sorted(got) == sorted(want), case
    for key, w in want.items():
        g = got[key]
        name = f"{case}.{key}"
        assert g.shape == shapes.get(name, w.shape), f"{name}: shape {g.shape}, expected {shapes.get(name, w.shape)}"
        dt = np.dtype((dtypes or {}).get(name, w.dtype))
        assert g.dtype == dt, f"{name}: dtype {g.dtype}, expected {dt}"
        expect = np.asarray(values.get(name, w), dtype=dt)
        np.testing.assert_allclose(g.reshape(expect.shape) if g.size == expect.size else g, expect, rtol=1e-6,
                                   atol=1e-7, err_msg=name)


def _shapes_24(want: dict, case: str) -> dict:
    """2.4's shapes: each 0-D result of the 2.6.2 golden is [1], except where SHAPES_24 says."""
    out = {}
    for key, w in want.items():
        name = f"{case}.{key}"
        if name in api_level26_cases.SHAPES_24:
            s = api_level26_cases.SHAPES_24[name]
            out[name] = w.shape if s is None else s
        elif w.shape == ():
            out[name] = (1,)
    return out


@pytest.mark.parametrize("case", [c.__name__ for c in api_level26_cases.CASES])
def test_paddle_shapes_follow_the_level(replay, case):
    level, results, errors = replay
    assert f"api_level26_cases:{case}" not in errors, errors.get(f"api_level26_cases:{case}")
    want = _golden("api_level26", case)
    got = results[("api_level26_cases", case)]
    if level == "2.6":
        _compare(got, want, case, {}, {})
    else:
        _compare(got, want, case, _shapes_24(want, case), VALUES_24, DTYPES_24)


@pytest.mark.parametrize("case", [c.__name__ for c in api_level18_cases.CASES])
def test_fluid_keeps_1_8_shapes_at_every_level(replay, case):
    level, results, errors = replay
    assert f"api_level18_cases:{case}" not in errors, errors.get(f"api_level18_cases:{case}")
    _compare(results[("api_level18_cases", case)], _golden("api_level18", case), case, {}, {})
