"""Errors real Paddle raises where paddle_compat used to compute, at both API levels (table:
tools/oracle/lvl26_error_cases.py; golden lvl26_errors from Paddle 2.6.2 by tools/oracle/rec_lvl26_errors.py).

Each row raises at level 2.6 as an instance of 2.6.2's builtin class (ValueError / RuntimeError), its `(Kind)` and the row's
message substance; at level 2.4 it raises the same where 2.4 had the same check or missing kernel, and computes
where 2.4 had no such check (layer_norm over every dim of its input). The rows of OK_ROWS compute at both levels
with 2.6.2's shape. The level is chosen once per process, so each level replays the table in a subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import GOLDENS

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools", "oracle"))
import lvl26_error_cases  # noqa: E402

ROWS = {r["id"]: r for r in lvl26_error_cases.ROWS}
OK_IDS = [r["id"] for r in lvl26_error_cases.OK_ROWS]
SCRIPT = ("import json, sys, paddle; sys.path.insert(0, sys.argv[1]); import lvl26_error_cases as c; "
          "print(json.dumps(c.run(paddle)))")


def _golden() -> dict:
    with open(os.path.join(GOLDENS, "lvl26_errors.json"), encoding="utf-8") as f:
        return json.load(f)["rows"]


@pytest.fixture(scope="module", params=["2.4", "2.6"])
def replay(request):
    env = dict(os.environ, PADDLE_COMPAT_API_LEVEL=request.param, OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "shims")]))
    proc = subprocess.run([sys.executable, "-c", SCRIPT, os.path.join(REPO, "tools", "oracle")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return request.param, json.loads(proc.stdout.strip().splitlines()[-1])


def _kind(message: str) -> str:
    m = re.search(r"\((\w+)\)", message)
    return m.group(1) if m else ""


@pytest.mark.parametrize("row", sorted(ROWS))
def test_raises_as_paddle(replay, row):
    level, got = replay
    want, spec, ours = _golden()[row], ROWS[row], got[row]
    assert "error" in want, f"{row}: Paddle 2.6.2 computes it ({want})"
    assert re.search(spec["match"], want["message"], re.S), want["message"]
    if level == "2.4" and spec["at24"] == "computes":
        assert "error" not in ours, f"{row} at level 2.4: {ours.get('message')}"
        assert ours["shape"] == spec["shape24"]
        return
    assert "error" in ours, f"{row} at level {level}: computed {ours}"
    assert set(want["bases"]) <= set(ours["bases"]), (ours, want)  # `except` as for Paddle's catches ours
    assert _kind(ours["message"]) == _kind(want["message"]), (ours["message"], want["message"])
    assert re.search(spec["match"], ours["message"], re.S), ours["message"]
    assert ours["message"].startswith(f"({_kind(want['message'])}) paddle."), ours["message"]  # names the API


@pytest.mark.parametrize("row", OK_IDS)
def test_supported_dtypes_compute(replay, row):
    level, got = replay
    want, ours = _golden()[row], got[row]
    assert "error" not in want and "error" not in ours, (want, ours)
    shape = [1] if level == "2.4" and want["shape"] == [] else want["shape"]  # 2.4's scalar results are [1]
    assert ours["shape"] == shape and ours["dtype"] == want["dtype"], (ours, want)
