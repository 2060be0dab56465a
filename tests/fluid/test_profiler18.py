"""fluid.profiler (report layout, counts and sort orders as Paddle 1.8.5 prints them; the trace file; errors)
and fluid.install_check.run_check."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest


def _report_rows(text: str) -> list[tuple[str, int, list[float]]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("thread0::"):
            name, calls, *nums = line.split()
            rows.append((name, int(calls), [float(v) for v in nums]))
    return rows


def _train(fluid, steps=3):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [-1, 4], "float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 3, act="relu"))
        fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        for _ in range(steps):
            exe.run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[loss])


@pytest.mark.parametrize("key, col", [("total", 1), ("calls", 0), ("max", 3), ("ave", 4), ("min", 2), (None, None)])
def test_report_sorted_as_paddle(capsys, tmp_path, key, col):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    path = str(tmp_path / "profile")
    with fluid.profiler.profiler("CPU", key, path):
        _train(fluid)
    out = capsys.readouterr().out
    assert "------------------------->     Profiling Report     <-------------------------" in out
    want = {"total": "total time", "calls": "number of calls", "max": "maximum time", "ave": "average time",
            "min": "minimum time", None: "event first end time"}[key]
    assert f"Sorted by {want} in descending order in the same thread" in out and "Place: CPU" in out
    rows = _report_rows(out)
    calls = {n: c for n, c, _ in rows}
    # Paddle 1.8.5 lists thread0::mul / elementwise_add / relu / mean / fill_constant 3 times and sgd 6 times
    assert {k: calls[k] for k in ("thread0::mul", "thread0::elementwise_add", "thread0::relu", "thread0::mean",
                                  "thread0::sgd")} == {"thread0::mul": 3, "thread0::elementwise_add": 3,
                                                       "thread0::relu": 3, "thread0::mean": 3, "thread0::sgd": 6}
    for _, c, (tot, mn, mx, ave, ratio) in rows:
        assert mn <= ave <= mx and abs(tot - ave * c) <= 1e-3 * max(tot, 1e-3) + 1e-5 and 0 <= ratio <= 1
    if col is not None:
        vals = [c if col == 0 else nums[col - 1] for _, c, nums in rows]
        assert vals == sorted(vals, reverse=True)
    else:
        names = [n for n, _, _ in rows]  # in the order each op first finished: startup's ops, then main's
        assert names.index("thread0::mul") < names.index("thread0::elementwise_add") < names.index("thread0::sgd")
    assert isinstance(json.load(open(path)), dict)  # a Chrome trace


def test_start_stop_reset_and_dygraph(capsys):
    import paddle

    fluid = paddle.fluid
    prof = fluid.profiler
    with fluid.dygraph.guard():
        lin = fluid.dygraph.Linear(4, 3)
        x = fluid.dygraph.to_variable(np.ones((2, 4), "float32"))
        prof.start_profiler("All")
        prof.start_profiler("CPU")  # already profiling: ignored
        lin(x)
        prof.reset_profiler()
        for _ in range(2):
            fluid.layers.relu(lin(x))
        prof.stop_profiler("calls", None)
        prof.stop_profiler()  # not profiling: nothing
    rows = _report_rows(capsys.readouterr().out)
    assert rows and all(c == 2 for _, c, _ in rows) and any(re.search("relu", n) for n, _, _ in rows)


@pytest.mark.parametrize("call, msg", [
    (lambda p: p.start_profiler("TPU"), "The state must be 'CPU' or 'GPU' or 'All'."),
    (lambda p: p.start_profiler("CPU", "Fast"), "tracer option must be 'Default', 'OpDetail', 'AllOpDetail'."),
    (lambda p: p.cuda_profiler("f", "txt").__enter__(), "The output mode must be 'kvp' or 'csv'."),
])
def test_profiler_errors(call, msg):
    import paddle

    with pytest.raises(ValueError) as e:
        call(paddle.fluid.profiler)
    assert str(e.value) == msg


def test_bad_sorted_key_keeps_profiling():
    import paddle

    prof = paddle.fluid.profiler
    prof.start_profiler("CPU")
    with pytest.raises(ValueError, match="The sorted_key must be None or in 'calls', 'total', 'max', 'min' and 'ave'"):
        prof.stop_profiler("fastest")
    prof.stop_profiler(profile_path=None)


def test_install_check(capsys):
    import paddle

    paddle.fluid.install_check.run_check()
    out = capsys.readouterr().out
    assert "Your Paddle Fluid works well on SINGLE GPU or CPU." in out
    assert "Your Paddle Fluid is installed successfully! Let's start deep Learning with Paddle Fluid now" in out
