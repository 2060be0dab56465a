"""fluid.profiler (Paddle 1.8) on torch.profiler: `with profiler.profiler("CPU", "total"):`, start_profiler /
stop_profiler / reset_profiler, and cuda_profiler.

While profiling, every static program the Executor runs goes through an fx Interpreter that times each
recorded Paddle op (`mul`, `elementwise_add`, `sgd`, ...; CUDA is synchronized around each op when the state is
"GPU" or "All", so the times are the ops' own), and a torch.profiler session records the torch side. The report
stop_profiler prints has Paddle's layout: one line per op type named `thread0::<op>` with calls, total, min,
max, average (ms) and ratio of the total, sorted as `sorted_key` asks (None: order of first completion;
'calls', 'total', 'max', 'min', 'ave': descending, as Paddle sorts all five). Scripts that run no static program
(dygraph) get torch's top-level operator events instead (`thread0::aten::addmm`). `profile_path` receives the
torch.profiler trace in Chrome trace format (chrome://tracing, Perfetto), not Paddle's profiler protobuf.
Paddle's GpuMemCpy summary is not printed: copies are not tracked here."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import torch
from torch import fx

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.engine.static import executor as _ex

_STATES = ("CPU", "GPU", "All")
_TRACERS = ("Default", "OpDetail", "AllOpDetail")
_KEYS = {"default": "event first end time", "calls": "number of calls", "total": "total time",
         "max": "maximum time", "min": "minimum time", "ave": "average time"}


class _Timed(fx.Interpreter):
    """Runs a plan's graph op by op, adding each recorded Paddle op's wall time to the session."""

    def __init__(self, gm: fx.GraphModule, session: "_Session") -> None:
        super().__init__(gm)
        self.session = session

    def run_node(self, n: fx.Node) -> Any:
        op_type = n.meta.get("op_type") if n.op == "call_function" else None
        if op_type is None:
            return super().run_node(n)
        sync = self.session.sync
        if sync:
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        with torch.profiler.record_function(op_type):
            out = super().run_node(n)
        if sync:
            torch.cuda.synchronize()
        self.session.add(op_type, (time.perf_counter() - t0) * 1e3)
        return out


class _Session:
    def __init__(self, state: str) -> None:
        self.state = state
        self.sync = state in ("GPU", "All") and torch.cuda.is_available()
        self.events: dict[str, list[float]] = {}
        self.run_ms = 0.0
        self.torch = self._start_torch()

    def _start_torch(self) -> Any:
        acts = [torch.profiler.ProfilerActivity.CPU]
        if self.sync:
            acts.append(torch.profiler.ProfilerActivity.CUDA)
        prof = torch.profiler.profile(activities=acts)
        prof.__enter__()
        return prof

    def reset(self) -> None:
        self.events.clear()
        self.run_ms = 0.0
        self.torch.__exit__(None, None, None)
        self.torch = self._start_torch()

    def add(self, name: str, ms: float) -> None:
        self.events.setdefault(name, []).append(ms)

    def hook(self, plan: Any) -> Any:
        interp = _Timed(plan.gm, self)

        def run(*args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return interp.run(*args)
            finally:
                self.run_ms += (time.perf_counter() - t0) * 1e3

        return run

    def torch_events(self) -> dict[str, list[float]]:
        """Top-level torch operator events (dygraph scripts), by name."""
        out: dict[str, list[float]] = {}
        for e in self.torch.events() or []:
            if e.cpu_parent is None and not e.name.startswith("ProfilerStep"):
                out.setdefault(e.name, []).append(e.cpu_time_total / 1e3)
        return out


_SESSION: list[_Session] = []


def _active() -> _Session | None:
    return _SESSION[0] if _SESSION else None


def start_profiler(state, tracer_option="Default"):
    """Start profiling ('CPU', 'GPU' or 'All'); a second start while profiling does nothing, as in Paddle."""
    if _active() is not None:
        return
    if state not in _STATES:
        raise ValueError("The state must be 'CPU' or 'GPU' or 'All'.")
    if tracer_option not in _TRACERS:
        raise ValueError("tracer option must be 'Default', 'OpDetail', 'AllOpDetail'.")
    s = _Session(state)
    _SESSION.append(s)
    _ex.PROFILE_HOOKS.append(s.hook)


def reset_profiler():
    """Forget the events recorded so far (profiling goes on)."""
    s = _active()
    if s is not None:
        s.reset()


def _report(s: _Session, events: dict[str, list[float]], sorted_key: str) -> str:
    total = sum(sum(v) for v in events.values())
    rows = [(name, len(v), sum(v), min(v), max(v), sum(v) / len(v)) for name, v in events.items()]
    col = {"calls": 1, "total": 2, "min": 3, "max": 4, "ave": 5}.get(sorted_key)
    if col is not None:
        rows.sort(key=lambda r: -r[col])
    place = {"CPU": "CPU", "GPU": "All", "All": "All"}[s.state]
    lines = ["", "------------------------->     Profiling Report     <-------------------------", "",
             f"Place: {place}", "Time unit: ms",
             f"Sorted by {_KEYS[sorted_key]} in descending order in the same thread", "", f"Total time: {total:g}"]
    if s.run_ms:
        over = max(s.run_ms - total, 0.0)
        whole = total + over
        lines += [f"  Computation time       Total: {total:<12g}Ratio: {100 * total / whole:g}%",
                  f"  Framework overhead     Total: {over:<12g}Ratio: {100 * over / whole:g}%"]
    lines += ["", "-------------------------       Event Summary       -------------------------", "",
              f"{'Event':<37}{'Calls':<12}{'Total':<12}{'Min.':<12}{'Max.':<12}{'Ave.':<12}{'Ratio.':<12}"]
    for name, calls, tot, mn, mx, ave in rows:
        ratio = tot / total if total else 0.0
        lines.append(f"{'thread0::' + name:<37}{calls:<12}{tot:<12g}{mn:<12g}{mx:<12g}{ave:<12g}{ratio:<12g}")
    return "\n".join(lines) + "\n"


def stop_profiler(sorted_key=None, profile_path="/tmp/profile"):
    """Stop profiling, print the report sorted by `sorted_key` and write the trace to `profile_path`."""
    s = _active()
    if s is None:
        return
    sorted_key = "default" if sorted_key is None else sorted_key
    if sorted_key not in _KEYS:
        raise ValueError("The sorted_key must be None or in 'calls', 'total', 'max', 'min' and 'ave'")
    _SESSION.clear()
    if s.hook in _ex.PROFILE_HOOKS:
        _ex.PROFILE_HOOKS.remove(s.hook)
    s.torch.__exit__(None, None, None)
    if profile_path:
        s.torch.export_chrome_trace(profile_path)
    print(_report(s, s.events or s.torch_events(), sorted_key), end="")


@contextlib.contextmanager
def profiler(state, sorted_key=None, profile_path="/tmp/profile", tracer_option="Default"):
    """Profile the block: start_profiler(state, tracer_option), then stop_profiler(sorted_key, profile_path)."""
    start_profiler(state, tracer_option)
    try:
        yield
    finally:
        stop_profiler(sorted_key, profile_path)


@contextlib.contextmanager
def cuda_profiler(output_file, output_mode=None, config=None):
    """Mark the block for an external CUDA profiler (cudaProfilerStart / Stop: run the script under nsys or
    nvprof with capture-range=cudaProfilerApi). The output file and config are the external profiler's options
    here; CUDA 12 removed the in-process nvprof initialisation Paddle 1.8 used."""
    if output_mode is None:
        output_mode = "csv"
    if output_mode not in ("kvp", "csv"):
        raise ValueError("The output mode must be 'kvp' or 'csv'.")
    if not torch.cuda.is_available():
        raise UnsupportedAPIError("paddle.fluid.profiler.cuda_profiler", "it needs a CUDA device (none is visible)")
    with torch.cuda.profiler.profile():
        yield


for _fn in (profiler, start_profiler, stop_profiler, reset_profiler, cuda_profiler):
    export(_fn, f"paddle.fluid.profiler.{_fn.__name__}")
partial("paddle.fluid.profiler.cuda_profiler", "marks the range for nsys / nvprof (cudaProfilerStart / Stop); "
                                                "output_file and config go to the external profiler's command line")
partial("paddle.fluid.profiler.stop_profiler", "profile_path gets a Chrome trace, not Paddle's profiler protobuf; "
                                                "no GpuMemCpy summary")
