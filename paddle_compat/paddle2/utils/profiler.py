"""Paddle 2.x `paddle.profiler` on torch.profiler.

`Profiler(targets, scheduler, on_trace_ready, record_shapes, profile_memory, timer_only, ...)` drives a
`torch.profiler.profile` whose schedule is Paddle's: a scheduler callable (step -> ProfilerState, e.g.
`make_scheduler(closed, ready, record, repeat, skip_first)`) or a `(start_batch, end_batch)` tuple, mapped state
for state onto torch's actions (CLOSED -> NONE, READY -> WARMUP, RECORD -> RECORD, RECORD_AND_RETURN ->
RECORD_AND_SAVE, which calls `on_trace_ready(prof)`). `export(path, 'json')` writes the Chrome trace,
`export_chrome_tracing(dir)` is Paddle's callback naming the file as Paddle does, `RecordEvent` marks a range
(torch's record_function), `step(num_samples)` / `step_info(unit)` report batch_cost and ips with Paddle's
averaging and text. `summary()` prints torch.profiler's operator table sorted by the matching column (Paddle's
own views, its protobuf format and `load_profiler_result` are not provided).
"""

from __future__ import annotations

import datetime
import enum
import os
import socket
import timeit
import warnings
from typing import Any, Callable

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework.registry import export, partial

_P = "paddle.profiler"


class ProfilerState(enum.Enum):
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(enum.Enum):
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class SortedKeys(enum.Enum):
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(enum.Enum):
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


TracerEventType = enum.Enum("TracerEventType", [
    (n, i) for i, n in enumerate(("Operator", "Dataloader", "ProfileStep", "CudaRuntime", "Kernel", "Memcpy", "Memset",
                                  "UserDefined", "OperatorInner", "Forward", "Backward", "Optimization",
                                  "Communication", "PythonOp", "PythonUserDefined"))])


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0, skip_first: int = 0) -> Callable:
    """The state of each step: skip_first CLOSED steps, then periods of `closed` CLOSED, `ready` READY and
    `record` RECORD steps (the last one RECORD_AND_RETURN), `repeat` times (0: forever), then CLOSED."""
    assert closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0, \
        "Invalid profiler scheduler arguments"
    if ready == 0:
        warnings.warn("Profiler will record data after enabling profiler immediately, some data collected at the "
                      "beginning of profiling may be 'noisy' because of overhead.", stacklevel=2)
    period = closed + ready + record

    def get_schedule_state(step: int) -> ProfilerState:
        assert step >= 0
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        mod = step % period
        if mod < closed:
            return ProfilerState.CLOSED
        if mod < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if mod < period - 1 else ProfilerState.RECORD_AND_RETURN

    return get_schedule_state


def _default_state_scheduler(step: int) -> ProfilerState:
    return ProfilerState.RECORD


def export_chrome_tracing(dir_name: str, worker_name: str | None = None) -> Callable:
    """on_trace_ready callback: `<dir_name>/<worker_name>_time_<now>.paddle_trace.json` (worker_name defaults to
    host_<hostname>pid_<pid>, as Paddle)."""
    try:
        os.makedirs(dir_name, exist_ok=True)
    except OSError as e:
        raise RuntimeError(f"Can not create directory '{dir_name}' for saving profiling results.") from e

    def handle_fn(prof: "Profiler") -> None:
        name = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
        stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
        prof.export(os.path.join(dir_name, f"{name}_time_{stamp}.paddle_trace.json"), "json")

    return handle_fn


def export_protobuf(dir_name: str, worker_name: str | None = None) -> Callable:
    def handle_fn(prof: "Profiler") -> None:
        raise UnsupportedAPIError(f"{_P}.export_protobuf", "Paddle's protobuf trace format is not written; use "
                                  "export_chrome_tracing")

    return handle_fn


def load_profiler_result(filename: str) -> Any:
    raise UnsupportedAPIError(f"{_P}.load_profiler_result", "Paddle's protobuf trace format is not read")


class _Timer:
    """Paddle's benchmark timer: per-step batch cost, and ips over the steps since the last step_info."""

    def __init__(self) -> None:
        self.reset()
        self._last = None

    def reset(self) -> None:
        self.total, self.count, self.samples, self.with_samples = 0.0, 0, 0, False

    def begin(self) -> None:
        self._last = timeit.default_timer()

    def step(self, num_samples: int | None) -> None:
        now = timeit.default_timer()
        if self._last is not None:
            self.total += now - self._last
            self.count += 1
            if num_samples is not None:
                self.samples += int(num_samples)
                self.with_samples = True
        self._last = now

    def info(self, unit: str) -> str:
        msg = ""
        if self.count and self.total:
            msg += " batch_cost: {:.5f} s".format(self.total / self.count)
            speed_unit = f"{unit}/s" if self.with_samples else "steps/s"
            ips = (self.samples if self.with_samples else self.count) / self.total
            if ips:
                msg += f" ips: {ips:.3f} {speed_unit}"
        self.reset()
        return msg


_ACTION = {ProfilerState.CLOSED: "NONE", ProfilerState.READY: "WARMUP", ProfilerState.RECORD: "RECORD",
           ProfilerState.RECORD_AND_RETURN: "RECORD_AND_SAVE"}
_SORT = {SortedKeys.CPUTotal: "cpu_time_total", SortedKeys.CPUAvg: "cpu_time", SortedKeys.CPUMax: "cpu_time_total",
         SortedKeys.CPUMin: "cpu_time_total", SortedKeys.GPUTotal: "device_time_total",
         SortedKeys.GPUAvg: "device_time", SortedKeys.GPUMax: "device_time_total",
         SortedKeys.GPUMin: "device_time_total"}


class Profiler:
    """paddle.profiler.Profiler on torch.profiler (see the module docstring)."""

    def __init__(self, *, targets: Any = None, scheduler: Any = None, on_trace_ready: Callable | None = None,
                 record_shapes: bool = False, profile_memory: bool = False, timer_only: bool = False,
                 emit_nvtx: bool = False, custom_device_types: Any = (), with_flops: bool = False) -> None:
        import torch

        targets = list(targets) if targets is not None else [ProfilerTarget.CPU] + (
            [ProfilerTarget.GPU] if torch.cuda.is_available() else [])
        self.targets = targets
        if isinstance(scheduler, (tuple, list)):
            assert len(scheduler) == 2 and scheduler[1] > scheduler[0]
            start, end = max(scheduler[0], 0), scheduler[1]
            scheduler = make_scheduler(closed=max(start - 1, 0), ready=1 if start >= 1 else 0, record=end - start,
                                       repeat=1)
        self.scheduler = scheduler if scheduler is not None else _default_state_scheduler
        self.on_trace_ready = on_trace_ready if on_trace_ready is not None else export_chrome_tracing("./profiler_log/")
        self.timer_only = timer_only
        self.record_shapes, self.profile_memory, self.with_flops = record_shapes, profile_memory, with_flops
        self.step_num = 0
        self.current_state = self.scheduler(0)
        self._timer = _Timer()
        self._torch: Any = None

    def _make_torch(self) -> Any:
        import torch.profiler as tp

        acts = [tp.ProfilerActivity.CPU]
        if ProfilerTarget.GPU in self.targets and __import__("torch").cuda.is_available():
            acts.append(tp.ProfilerActivity.CUDA)
        return tp.profile(activities=acts, schedule=lambda step: getattr(tp.ProfilerAction,
                                                                         _ACTION[self.scheduler(step)]),
                          on_trace_ready=lambda _p: self.on_trace_ready(self), record_shapes=self.record_shapes,
                          profile_memory=self.profile_memory, with_flops=self.with_flops)

    def start(self) -> None:
        self._timer.begin()
        if self.timer_only:
            return
        self._torch = self._make_torch()
        self._torch.start()

    def step(self, num_samples: int | None = None) -> None:
        self._timer.step(num_samples)
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        if self._torch is not None:
            self._torch.step()

    def step_info(self, unit: str | None = None) -> str:
        return self._timer.info(unit if unit is not None else "samples")

    def stop(self) -> None:
        if self._torch is not None:
            self._torch.stop()

    def __enter__(self) -> "Profiler":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def export(self, path: str = "", format: str = "json") -> None:  # noqa: A002 - Paddle's name
        if format != "json":
            raise UnsupportedAPIError(f"{_P}.Profiler.export(format={format!r})",
                                      "only the Chrome trace ('json') is written")
        if self._torch is None:
            raise RuntimeError(f"{_P}.Profiler.export: nothing was recorded (timer_only=True, or not started)")
        self._torch.export_chrome_trace(path)

    def summary(self, sorted_by: SortedKeys = SortedKeys.CPUTotal, op_detail: bool = True, thread_sep: bool = False,
                time_unit: str = "ms", views: Any = None) -> None:
        if self._torch is None:
            raise RuntimeError(f"{_P}.Profiler.summary: nothing was recorded (timer_only=True, or not started)")
        print(self._torch.key_averages().table(sort_by=_SORT[sorted_by], row_limit=-1))


class RecordEvent:
    """A named range in the trace (begin() / end(), or a with block)."""

    def __init__(self, name: str, event_type: Any = TracerEventType.PythonUserDefined) -> None:
        self.name, self.event_type = name, event_type
        self._ctx: Any = None

    def begin(self) -> None:
        import torch

        self._ctx = torch.autograd.profiler.record_function(self.name)
        self._ctx.__enter__()

    def end(self) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(None, None, None)
            self._ctx = None

    def __enter__(self) -> "RecordEvent":
        self.begin()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.end()


for _obj in (Profiler, ProfilerState, ProfilerTarget, SortedKeys, SummaryView, TracerEventType, RecordEvent,
             make_scheduler, export_chrome_tracing, export_protobuf, load_profiler_result):
    export(_obj, f"{_P}.{_obj.__name__}")
partial(f"{_P}.Profiler", "on torch.profiler: Chrome traces, torch's operator table as summary(); no Paddle views, "
                          "no protobuf export, no reader_cost in step_info")
