"""Helpers for the fault / bad-input tests: the goldens of what real Paddle raises (tools/oracle/rec_hardening.py)
and the check that our error is Paddle's kind of error."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import load_golden

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
G18 = load_golden("hardening18")[0]
G26 = load_golden("hardening26")[0]
BUILTINS = {"ValueError": ValueError, "RuntimeError": RuntimeError, "TypeError": TypeError,
            "SystemError": SystemError, "AssertionError": AssertionError, "IndexError": IndexError}


def paddle_base(rec: dict) -> type:
    """The builtin exception class real Paddle's error derives from (Exception for 1.8's EnforceNotMet)."""
    return next((BUILTINS[n] for n in rec["mro"] if n in BUILTINS), Exception)


def check_error(exc: BaseException, rec: dict, *patterns: str) -> None:
    """`exc` is an instance of the builtin class Paddle raised (so `except` clauses written for Paddle catch it)
    and its message matches each regex."""
    assert rec["raised"], rec
    assert isinstance(exc, paddle_base(rec)), (type(exc).__mro__, rec["mro"])
    for p in patterns:
        assert re.search(p, str(exc)), f"{p!r} not in {str(exc)!r}\n(Paddle: {rec['core_first_line']!r})"


def run_script(code: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter with paddle_compat on the path (for import-time behaviour)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("FLAGS_")}
    full.update({"PYTHONPATH": f"{ROOT}{os.pathsep}{os.path.join(ROOT, 'shims')}", "CUDA_VISIBLE_DEVICES": "",
                 "OMP_NUM_THREADS": "1"})
    full.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=full,
                          cwd=ROOT)
