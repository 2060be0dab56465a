"""Fetched LoDTensors (return_numpy=False) carry the LoD Paddle 1.8.5 gives them (tests/goldens/fluid18_fetch_lod.json,
recorded by tools/oracle/rec_fetch_lod18.py over tests/fluid/cases18_fetch_lod.py)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from tests.fluid import cases18_fetch_lod as C

with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens", "fluid18_fetch_lod.json")) as f:
    GOLDEN = json.load(f)


@pytest.fixture(scope="module")
def fetched():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        outs = C.build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(startup, scope=scope)
    res = exe.run(main, feed=C.feed(fluid), fetch_list=list(outs.values()), return_numpy=False, scope=scope)
    paddle.disable_static()
    return dict(zip(outs, res))


@pytest.mark.parametrize("name", sorted(GOLDEN["lod"]))
def test_fetched_lod_matches_paddle18(fetched, name):
    got = fetched[name]
    assert got.lod() == GOLDEN["lod"][name]
    assert list(np.array(got).shape) == GOLDEN["shape"][name]


def test_return_numpy_true_is_unchanged(fetched):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        outs = C.build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    res = exe.run(main, feed=C.feed(fluid), fetch_list=[outs["sequence_conv"], outs["mean"]])
    assert all(isinstance(r, np.ndarray) for r in res)
    assert res[0].shape == (5, 4) and res[1].shape == (1,)
