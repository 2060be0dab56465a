"""Static runs: an empty batch raises (plain and data-parallel), CPU_NUM of 0 / -1 / 'abc' is named as the
problem (goldens: hardening18 / hardening26)."""

from __future__ import annotations

import numpy as np
import pytest

from ._common import G18, G26, check_error

EMPTY = {"x": np.zeros((0, 3), "float32")}
EMPTY_MSG = r"Executor\.run: the batch is empty: the fed variable 'x' has 0 rows \(shape \[0, 3\]\)"


def _program():
    import paddle.fluid as fluid

    x = fluid.layers.data("x", [3])
    loss = fluid.layers.mean(fluid.layers.fc(x, 2))
    fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fluid.default_startup_program())
    return fluid, exe, loss


@pytest.mark.parametrize("data_parallel", [False, True], ids=["plain", "with_data_parallel"])
def test_empty_batch(monkeypatch, data_parallel):
    monkeypatch.setenv("CPU_NUM", "2")
    fluid, exe, loss = _program()
    prog = fluid.default_main_program()
    if data_parallel:
        prog = fluid.CompiledProgram(prog).with_data_parallel(loss_name=loss.name)
    with pytest.raises(Exception) as ei:
        exe.run(prog, feed=EMPTY, fetch_list=[loss])
    check_error(ei.value, G18["empty_batch_dp" if data_parallel else "empty_batch"], EMPTY_MSG)
    check_error(ei.value, G26["empty_batch"], r"^\(PreconditionNotMet\) ")
    w = fluid.global_scope().find_var("fc_0.w_0").get_tensor()
    assert np.isfinite(np.array(w)).all()  # nothing ran
    out = exe.run(prog, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[loss])[0]
    assert np.isfinite(out).all()


@pytest.mark.parametrize("value", ["0", "-1"])
@pytest.mark.parametrize("api", ["with_data_parallel", "ParallelExecutor"])
def test_cpu_num_without_places(monkeypatch, value, api):
    monkeypatch.setenv("CPU_NUM", value)
    fluid, exe, loss = _program()
    assert fluid.cpu_places() == []  # as Paddle
    with pytest.raises(AssertionError) as ei:
        if api == "ParallelExecutor":
            fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name)
        else:
            prog = fluid.CompiledProgram(fluid.default_main_program()).with_data_parallel(loss_name=loss.name)
            exe.run(prog, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[loss])
    msg = str(ei.value)
    assert msg.startswith("No places for execution.") and f"CPU_NUM='{value}'" in msg and "CUDA" not in msg


@pytest.mark.parametrize("call", [lambda f, e, l: f.cpu_places(),
                                  lambda f, e, l: e.run(f.CompiledProgram(f.default_main_program())
                                                        .with_data_parallel(loss_name=l.name),
                                                        feed={"x": np.ones((2, 3), "float32")}, fetch_list=[l])],
                         ids=["cpu_places", "with_data_parallel"])
def test_cpu_num_not_a_number(monkeypatch, call):
    monkeypatch.setenv("CPU_NUM", "abc")
    fluid, exe, loss = _program()
    with pytest.raises(ValueError, match=r"CPU_NUM must be an integer.*the environment variable CPU_NUM is 'abc'"):
        call(fluid, exe, loss)
