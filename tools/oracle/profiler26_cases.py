"""paddle.profiler's schedules over the public API (see rec_cases26.py): the state of each step for
make_scheduler and for Profiler's (start, end) tuple form; tests/api2x/test_profiler2x.py replays them."""
import numpy as np


def schedules(paddle):
    import paddle.profiler as profiler

    out = {}
    for i, kw in enumerate([dict(closed=1, ready=1, record=2, repeat=1, skip_first=1),
                            dict(closed=0, ready=2, record=3), dict(closed=2, ready=0, record=1, repeat=2)]):
        s = profiler.make_scheduler(**kw)
        out[f"make_{i}"] = np.array([s(k).value for k in range(12)])
    for i, se in enumerate([(2, 5), (0, 3), (1, 2)]):
        p = profiler.Profiler(scheduler=se, timer_only=True, on_trace_ready=lambda prof: None)
        out[f"tuple_{i}"] = np.array([p.scheduler(k).value for k in range(8)])
    p = profiler.Profiler(timer_only=True, on_trace_ready=lambda prof: None)
    out["default"] = np.array([p.scheduler(k).value for k in range(3)])
    return out


CASES = [schedules]
