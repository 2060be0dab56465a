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
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    s = fleet.DistributedStrategy()
    setattr(s, option, value)
    fleet.init(is_collective=True, strategy=s)
    with pytest.raises(UnsupportedAPIError, match=option.split("_configs")[0] if option != "hybrid_configs"
                       else "mp_degree=2"):
        fleet.distributed_model(paddle.nn.Linear(2, 2))


@pytest.mark.parametrize("with_dropout,tuple_out", [(False, False), (True, False), (True, True)])
def test_recompute_gives_the_plain_gradients(with_dropout, tuple_out):
    """fleet.utils.recompute re-runs the function in backward (with the same random state): the same outputs
    and gradients as calling it directly."""
    import numpy as np

    import paddle
    from paddle.distributed.fleet.utils import recompute

    l1, l2 = paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 2)

    def block(x, scale=1.0):
        h = paddle.tanh(l1(x))
        h = paddle.nn.functional.dropout(h, 0.5) if with_dropout else h
        return (h * scale, h) if tuple_out else h * scale

    results = []
    for use in (True, False):
        x = paddle.to_tensor(np.random.RandomState(0).rand(3, 4).astype("float32"), stop_gradient=False)
        paddle.seed(5)
        out = recompute(block, x, scale=2.0) if use else block(x, scale=2.0)
        h = out[0] + out[1] if tuple_out else out
        loss = l2(h).sum()
        loss.backward()
        results.append((loss.numpy(), l1.weight.grad.numpy().copy(), x.grad.numpy()))
        l1.clear_gradients()
        l2.clear_gradients()
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_fused_allreduce_gradients_alone_is_a_no_op():
    import numpy as np

    import paddle
    from paddle.distributed.fleet.utils.hybrid_parallel_util import fused_allreduce_gradients

    lin = paddle.nn.Linear(2, 2)
    lin(paddle.ones([1, 2])).sum().backward()
    before = lin.weight.grad.numpy().copy()
    fused_allreduce_gradients(list(lin.parameters()), None)
    np.testing.assert_array_equal(lin.weight.grad.numpy(), before)
