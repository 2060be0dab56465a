"""Fleet in one process against real Paddle: tools/oracle/fleet_cases.py replayed here and compared with
tests/goldens/fleet18.json (1.8.5) and fleet26.json (2.6.2). Error messages: ours name the API, so Paddle's
message must be contained in ours."""

from __future__ import annotations

import json
import os
import sys

import pytest

from tests.conftest import GOLDENS

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "oracle"))
import fleet_cases  # noqa: E402
from _common import _jsonable  # noqa: E402


def _same(got, want, where):
    if isinstance(want, list) and len(want) == 2 and want[0] in ("TypeError", "ValueError", "AssertionError"):
        assert isinstance(got, list) and got[0] == want[0] and want[1] in got[1], f"{where}: {got} vs {want}"
    elif isinstance(want, dict):
        assert sorted(got) == sorted(want), where
        for k in want:
            _same(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got} vs {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, f"{where}: {got!r} vs {want!r}"


@pytest.mark.parametrize("golden,case", [("fleet18", c) for c in fleet_cases.CASES18] +
                         [("fleet26", c) for c in fleet_cases.CASES26], ids=lambda v: getattr(v, "__name__", v))
def test_case_matches_paddle(golden, case):
    import paddle

    with open(os.path.join(GOLDENS, golden + ".json"), encoding="utf-8") as f:
        want = json.load(f)["cases"][case.__name__]
    _same(_jsonable(case(paddle)), want, case.__name__)


@pytest.mark.parametrize("files,trainers,want", [
    (list("abcde"), 2, [list("abc"), list("de")]),  # Paddle's documented examples (its code fails on Python 3)
    (list("ab"), 3, [["a"], ["b"], []]),
])
def test_split_files(files, trainers, want):
    from paddle.fluid.incubate.fleet.base import role_maker
    from paddle.fluid.incubate.fleet.collective import fleet

    eps = [f"127.0.0.1:{6170 + i}" for i in range(trainers)]
    got = []
    for tid in range(trainers):
        fleet.init(role_maker.UserDefinedCollectiveRoleMaker(current_id=tid, worker_endpoints=eps))
        got.append(fleet.split_files(files))
    assert got == want


@pytest.mark.parametrize("option,value", [("sharding", True), ("pipeline", True), ("gradient_merge", True),
                                          ("hybrid_configs", {"mp_degree": 2})])
def test_unsupported_strategy_options_are_named(option, value):
    import paddle
    from paddle.distributed import fleet
    from paddle_compat.core.errors import UnsupportedAPIError

    s = fleet.DistributedStrategy()
    setattr(s, option, value)
    fleet.init(is_collective=True, strategy=s)
    with pytest.raises(UnsupportedAPIError, match=option.split("_configs")[0] if option != "hybrid_configs"
                       else "mp_degree=2"):
        fleet.distributed_model(paddle.nn.Linear(2, 2))
