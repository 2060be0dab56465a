"""Behaviour cases of tests/ops/cases_api26.py against real Paddle 2.6.2 (tests/goldens/api26.json, recorded by
tools/oracle/rec_api26.py): the same plain-data result, or an exception with the type Paddle raised."""

from __future__ import annotations

import json
import math
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from cases_api26 import CASES  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "api26.json")
RECORDED = json.load(open(GOLDEN, encoding="utf-8"))["cases"] if os.path.exists(GOLDEN) else {}


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-6,
                                                                                            abs_tol=1e-7)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _plain(v):
    return json.loads(json.dumps(v, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o)))


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name):
    import paddle

    want = RECORDED.get(name)
    if want is None:
        pytest.skip(f"{name}: not recorded (run tools/oracle/rec_api26.py)")
    if "raised" in want:
        with pytest.raises(Exception) as info:  # noqa: PT011 - the type is checked by name below
            CASES[name](paddle)
        names = [c.__name__ for c in type(info.value).__mro__]
        assert want["raised"] in names, f"{name}: raised {type(info.value).__name__}, Paddle raises {want['raised']}"
    else:
        got = _plain(CASES[name](paddle))
        assert _same(got, want["value"]), f"{name}: got {got}, Paddle gives {want['value']}"
