"""paddle.profiler on torch.profiler: the schedules against Paddle 2.6.2 (tools/oracle/profiler26_cases.py,
golden profiler26), and a recorded window written as a Chrome trace named as Paddle names it."""

from __future__ import annotations

import glob
import json
import os
import re

import pytest

from tests.api2x import cases


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # Profiler() creates ./profiler_log, as Paddle's does


@pytest.mark.parametrize("case", cases.params("profiler26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "profiler26")


def test_recorded_window_is_a_chrome_trace(tmp_path):
    import paddle
    import paddle.profiler as profiler

    lin = paddle.nn.Linear(8, 8)
    prof = profiler.Profiler(scheduler=(2, 4), on_trace_ready=profiler.export_chrome_tracing(str(tmp_path / "tr"),
                                                                                              "w0"))
    with prof:
        for _ in range(6):
            with profiler.RecordEvent("my_step"):
                lin(paddle.ones([4, 8])).sum().backward()
            prof.step(num_samples=4)
    files = glob.glob(str(tmp_path / "tr" / "*.json"))
    assert len(files) == 1 and re.fullmatch(r"w0_time_\d{4}(_\d+){6}\.paddle_trace\.json", os.path.basename(files[0]))
    events = json.load(open(files[0]))["traceEvents"]
    assert sum(e.get("name") == "my_step" for e in events) == 2  # steps 2 and 3
    assert re.fullmatch(r" batch_cost: \d+\.\d{5} s ips: \d+\.\d{3} samples/s", prof.step_info())
    assert prof.step_info() == ""  # the averages restart after each report, as Paddle's


def test_timer_only_and_unsupported_formats():
    import paddle.profiler as profiler
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    p = profiler.Profiler(timer_only=True)
    p.start()
    for _ in range(3):
        p.step()
    assert re.fullmatch(r" batch_cost: \d+\.\d{5} s ips: \d+\.\d{3} steps/s", p.step_info())
    p.stop()
    with pytest.raises(RuntimeError, match="nothing was recorded"):
        p.export("x.json")
    with pytest.raises(UnsupportedAPIError, match="protobuf"):
        profiler.load_profiler_result("x.pb")
