"""Behaviours Paddle's own fluid-era tests showed differing from 1.8.5 (tools/paddle_tests), one row each, against
real Paddle 1.8.5 (tests/fluid/cases18_fluidtests.py, golden fluid18_fluidtests), plus the errors 1.8.5 raises."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_fluidtests as C

META, GOLDEN = load_golden("fluid18_fluidtests")


@pytest.fixture(autouse=True)
def _static():
    import paddle

    paddle.enable_static()


def test_every_case_recorded():
    assert not META["errors"]
    assert sorted({k.split("|")[0] for k in GOLDEN}) == sorted(C.CASES)


@pytest.mark.parametrize("case", sorted(C.CASES))
def test_matches_paddle18(case):
    import paddle

    got = C.CASES[case](paddle.fluid)
    want = {k.split("|", 1)[1]: v for k, v in GOLDEN.items() if k.startswith(case + "|")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = np.asarray(got[k])
        assert g.shape == w.shape and g.dtype == w.dtype, (k, g.shape, g.dtype, w.shape, w.dtype)
        if w.dtype.kind in "fc":
            assert np.isfinite(g).all() == np.isfinite(w).all(), k
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=1e-6, err_msg=k)
        else:
            np.testing.assert_array_equal(g, w, err_msg=k)


def test_fluid_data_feed_is_shape_checked():
    """fluid.data (need_check_feed) still rejects a wrong shape, naming the variable and both shapes."""
    import paddle

    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", shape=[None, 3], dtype="float32")
        y = fluid.layers.reduce_sum(x)
    with pytest.raises(ValueError, match=r"'x' should have dimensions = 2, shape = \(-1, 3\).*\[2, 4\]"):
        fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[y])


def test_data_parallel_extra_feed_key_raises():
    """1.8.5's ParallelExecutor feed looks each name up in the block: ValueError 'var zzz not in this block'."""
    import paddle

    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", shape=[3], dtype="float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 2))
        fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, places=[fluid.CPUPlace()] * 2)
    with pytest.raises(ValueError, match="with_data_parallel: the feed name 'zzz'.*var zzz not in this block"):
        exe.run(cp, feed={"x": np.ones((2, 3), "float32"), "zzz": np.ones(2)}, fetch_list=[loss])


def test_static_executor_ignores_extra_feed_keys():
    """paddle.static (2.x) warns and ignores too (PaddleTest's static cases feed extra names)."""
    import paddle

    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.sum(x)
    with pytest.warns(UserWarning, match="The variable zzz is not found in program"):
        out = paddle.static.Executor(paddle.CPUPlace()).run(
            main, feed={"x": np.ones((2, 3), "float32"), "zzz": 1.0}, fetch_list=[y])
    assert out[0].tolist() == [6.0]
