"""Fetched LoDTensors (return_numpy=False) carry the LoD Paddle 1.8.5 gives them (tests/goldens/fluid18_fetch_lod.json,
recorded by tools/oracle/rec_fetch_lod18.py over tests/fluid/cases18_fetch_lod.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_fetch_lod as C

GOLDEN, _ = load_golden("fluid18_fetch_lod")


def _run(return_numpy):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        outs = C.build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(startup, scope=scope)
    res = exe.run(main, feed=C.feed(fluid), fetch_list=list(outs.values()), return_numpy=return_numpy, scope=scope)
    paddle.disable_static()
    return dict(zip(outs, res))


@pytest.fixture(scope="module")
def fetched():
    return _run(return_numpy=False)


@pytest.mark.parametrize("name", sorted(GOLDEN["lod"]))
def test_fetched_lod_matches_paddle18(fetched, name):
    got = fetched[name]
    assert got.lod() == GOLDEN["lod"][name]
    assert list(np.array(got).shape) == GOLDEN["shape"][name]


def test_return_numpy_true_is_unchanged():
    res = _run(return_numpy=True)
    assert all(isinstance(r, np.ndarray) for r in res.values())
    assert {k: list(v.shape) for k, v in res.items()} == GOLDEN["shape"]
