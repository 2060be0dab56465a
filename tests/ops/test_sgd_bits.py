"""SGD's update bit for bit against real Paddle (tests/ops/cases_sgd_bits.py; goldens sgd_bits26 / sgd_bits18),
plain and with every BuildStrategy option that rewrites it (fuse_all_optimizer_ops, memory_optimize's buffer
reuse)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.ops import cases_sgd_bits as C


@pytest.mark.parametrize("golden", ["sgd_bits26", "sgd_bits18"])
def test_sgd_steps_match_paddle_bits(golden):
    import paddle

    _, want = load_golden(golden)
    if golden.endswith("18"):
        paddle.enable_static()
        try:
            got = C.run(paddle.fluid)
        finally:
            paddle.disable_static()
    else:
        got = C.run(paddle)
    assert sorted(got) == sorted(want)
    for k, v in got.items():
        np.testing.assert_array_equal(v, want[k], err_msg=k)


@pytest.mark.parametrize("option", ["fuse_all_optimizer_ops", "memory_optimize"])
def test_rewritten_sgd_keeps_the_bits(option):
    import paddle

    _, want = load_golden("sgd_bits26")
    w0, gs = C.data()
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("g", [4096], "float32")
            w = paddle.create_parameter([4096], "float32", default_initializer=paddle.nn.initializer.Assign(w0))
            paddle.optimizer.SGD(0.1).minimize(paddle.sum(w * x))
        bs = paddle.static.BuildStrategy()
        setattr(bs, option, True)
        exe = paddle.static.Executor()
        exe.run(startup)
        prog = paddle.static.CompiledProgram(main, build_strategy=bs)
        for i, g in enumerate(gs):
            got, = exe.run(prog, feed={"g": g}, fetch_list=[w])
            np.testing.assert_array_equal(got, want[f"static_step{i}"], err_msg=f"step {i}")
    finally:
        paddle.disable_static()
