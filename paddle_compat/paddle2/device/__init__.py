"""paddle.device and paddle.device.cuda on torch.cuda: device queries, memory statistics, streams, events.

A Paddle `Stream` / `Event` wraps a `torch.cuda.Stream` / `torch.cuda.Event` (its `stream_base` /
`event_base`); the current stream is torch's, so ops run on the stream a `stream_guard` selects. Without a
CUDA device the stream and memory APIs raise the errors Paddle's CPU build raises (naming the API); XPU, IPU
and custom devices do not exist under torch (their constructors are listed as not supported).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import torch

from paddle_compat._export import unsupported_stub
from paddle_compat.api import is_compiled_with_rocm
from paddle_compat.engine.core import place as _place
from paddle_compat.engine.framework.registry import export

_DEV = "paddle.device"
_CUDA = "paddle.device.cuda"


def _cuda_place(device: Any, api: str) -> _place.CUDAPlace:
    """The CUDAPlace a stream / event API works on (None: the current device)."""
    p = _place.to_place(device) if not isinstance(device, int) else _place.CUDAPlace(device)
    if not isinstance(p, _place.CUDAPlace) or not torch.cuda.is_available():
        raise TypeError(f"{api}: device should be gpu (a CUDA device visible to torch), but got {p!r}")
    p.torch_device()  # clear error for an index past the visible devices
    return p


def _cuda_index(device: Any, api: str) -> int:
    """Paddle's extract_cuda_device_id: None (current device), an int, 'gpu:x' or a CUDAPlace."""
    if not torch.cuda.is_available():
        raise ValueError(f"The API {api} is not supported in CPU-only PaddlePaddle. Please reinstall "
                         "PaddlePaddle with GPU support to call this API. (paddle_compat: torch sees no CUDA device)")
    if device is None:
        cur = _place.get_device_place()
        return cur.device_id if isinstance(cur, _place.CUDAPlace) else torch.cuda.current_device()
    if isinstance(device, int) and not isinstance(device, bool):
        idx = device
    elif isinstance(device, _place.CUDAPlace):
        idx = device.device_id
    elif isinstance(device, str) and device.startswith("gpu:") and device[4:].isdigit():
        idx = int(device[4:])
    else:
        raise ValueError(f"{api}: The current string {device} is not expected. Because {api} only support string "
                         "which is like 'gpu:x'. Please input appropriate string again!"
                         if isinstance(device, str) else
                         f"{api}: The device type {device} is not expected. Because {api} only support int, str "
                         "or paddle.CUDAPlace. Please input appropriate device again!")
    if not 0 <= idx < torch.cuda.device_count():
        raise ValueError(f"{api}: The device id must be inside [0, {torch.cuda.device_count()}), but input is "
                         f"{idx}.")
    return idx


# ------------------------------------------------------------------------------------------ streams / events
class Stream:
    """paddle.device.Stream / paddle.device.cuda.Stream: priority 1 is high, 2 (default) normal."""

    def __init__(self, device: Any = None, priority: int = 2, stream_base: Any = None) -> None:
        if stream_base is not None:
            if not isinstance(stream_base, torch.cuda.Stream):
                raise TypeError(f"{_DEV}.Stream: stream_base should be a CUDA stream, got {type(stream_base)}")
            self.stream_base = stream_base
            self.device = _place.CUDAPlace(stream_base.device.index or 0)
            return
        self.device = _cuda_place(device, f"{_DEV}.Stream")
        if priority not in (1, 2):
            raise ValueError(f"{_DEV}.Stream: priority should be 1 (high) or 2 (normal), but got {priority}")
        self.stream_base = torch.cuda.Stream(self.device.torch_device(), priority=-1 if priority == 1 else 0)

    @property
    def cuda_stream(self) -> int:
        return self.stream_base.cuda_stream

    @property
    def place(self) -> Any:
        return self.device

    def wait_event(self, event: "Event") -> None:
        self.stream_base.wait_event(event.event_base)

    def wait_stream(self, stream: "Stream") -> None:
        self.stream_base.wait_stream(stream.stream_base)

    def record_event(self, event: "Event | None" = None) -> "Event":
        if event is None:
            event = Event(self.device)
        event.record(self)
        return event

    def query(self) -> bool:
        return self.stream_base.query()

    def synchronize(self) -> None:
        self.stream_base.synchronize()

    def __eq__(self, o: object) -> bool:
        return isinstance(o, Stream) and self.stream_base == o.stream_base

    def __hash__(self) -> int:
        return hash(self.stream_base)

    def __repr__(self) -> str:
        return f"<paddle.device.Stream(device={self.device}, stream={self.stream_base.cuda_stream:#x})>"


class Event:
    """paddle.device.Event(device=None, enable_timing=False, blocking=False, interprocess=False); the
    paddle.device.cuda.Event spelling has no device argument (keywords work for both)."""

    def __init__(self, device: Any = None, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        if isinstance(device, bool):  # cuda.Event(enable_timing, blocking, interprocess) positionally
            device, enable_timing, blocking, interprocess = None, device, enable_timing, blocking
        self.device = _cuda_place(device, f"{_DEV}.Event")
        self.event_base = torch.cuda.Event(enable_timing=enable_timing, blocking=blocking, interprocess=interprocess)

    def record(self, stream: Stream | None = None) -> None:
        s = current_stream(self.device) if stream is None else stream
        self.event_base.record(s.stream_base)

    def query(self) -> bool:
        return self.event_base.query()

    def elapsed_time(self, end_event: "Event") -> float:
        """Milliseconds between this event and end_event (both recorded with enable_timing=True)."""
        return self.event_base.elapsed_time(end_event.event_base)

    def synchronize(self) -> None:
        self.event_base.synchronize()

    def __repr__(self) -> str:
        return f"<paddle.device.Event(device={self.device})>"


def current_stream(device: Any = None) -> Stream:
    p = _cuda_place(device, f"{_DEV}.current_stream")
    return Stream(stream_base=torch.cuda.current_stream(p.torch_device()))


def set_stream(stream: Stream) -> Stream:
    """Make `stream` current on its device; returns the previous current stream."""
    prev = current_stream(stream.device)
    torch.cuda.set_stream(stream.stream_base)
    return prev


class stream_guard:  # noqa: N801 - Paddle's name
    """Run the block on `stream` (None: leave the current stream), on the stream's device."""

    def __init__(self, stream: Stream | None = None) -> None:
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(f"{_DEV}.stream_guard: stream should be a paddle.device.Stream, got {type(stream)}")
        self.stream = stream

    def __enter__(self) -> None:
        if self.stream is None:
            return
        self._ctx = torch.cuda.stream(self.stream.stream_base)
        self._dev = torch.cuda.device(self.stream.stream_base.device)
        self._dev.__enter__()
        self._ctx.__enter__()

    def __exit__(self, *exc: Any) -> None:
        if self.stream is None:
            return
        self._ctx.__exit__(*exc)
        self._dev.__exit__(*exc)


@contextlib.contextmanager
def cuda_stream_guard(stream: Stream | None) -> Iterator[None]:
    """paddle.device.cuda.stream_guard (a generator-based context manager in Paddle)."""
    with stream_guard(stream):
        yield


def synchronize(device: Any = None) -> None:
    """Wait for all work on the device (a CUDA device; on CPU there is nothing queued, as in Paddle)."""
    if device is None and not isinstance(_place.get_device_place(), _place.CUDAPlace):
        if torch.cuda.is_available():
            torch.cuda.synchronize()
            return
        raise RuntimeError("(Unavailable) Paddle is not compiled with CUDA. Cannot visit device synchronize. "
                           "(paddle_compat: torch sees no CUDA device; paddle.device.synchronize needs one)")
    torch.cuda.synchronize(_cuda_place(device, f"{_DEV}.synchronize").torch_device())


def cuda_synchronize(device: Any = None) -> None:
    """paddle.device.cuda.synchronize(device=None): None, an int, 'gpu:x' or a CUDAPlace."""
    torch.cuda.synchronize(_cuda_index(device, f"{_CUDA}.synchronize"))


# ------------------------------------------------------------------------------------------ device queries
def get_all_device_type() -> list[str]:
    """Device types this build can run on: 'cpu', plus 'gpu' when torch sees CUDA (Paddle's documented result)."""
    return ["cpu"] + (["gpu"] if torch.cuda.is_available() else [])


def get_available_device() -> list[str]:
    return ["cpu"] + [f"gpu:{i}" for i in range(torch.cuda.device_count())]


def get_all_custom_device_type() -> list[str]:
    return []  # custom (plug-in) devices do not exist under torch


def get_available_custom_device() -> list[str]:
    return []


def is_compiled_with_custom_device(device_type: str) -> bool:
    return False


def is_compiled_with_ipu() -> bool:
    return False


def is_compiled_with_cinn() -> bool:
    return False


def is_compiled_with_distribute() -> bool:
    return torch.distributed.is_available()


# ------------------------------------------------------------------------------------------ memory statistics
def _memory_stat(torch_fn: Any, name: str) -> Any:
    def stat(device: Any = None) -> int:
        return int(torch_fn(_cuda_index(device, f"{_CUDA}.{name}")))

    stat.__name__ = stat.__qualname__ = name
    stat.__doc__ = f"paddle.device.cuda.{name}(device=None): bytes, from torch.cuda.{torch_fn.__name__}."
    return stat


max_memory_allocated = _memory_stat(torch.cuda.max_memory_allocated, "max_memory_allocated")
max_memory_reserved = _memory_stat(torch.cuda.max_memory_reserved, "max_memory_reserved")
memory_allocated = _memory_stat(torch.cuda.memory_allocated, "memory_allocated")
memory_reserved = _memory_stat(torch.cuda.memory_reserved, "memory_reserved")


def empty_cache() -> None:
    """Release the cached blocks of the CUDA allocator (nothing to do without CUDA, as in Paddle)."""
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def get_device_properties(device: Any = None) -> Any:
    """name, major, minor, total_memory and multi_processor_count of a CUDA device."""
    return torch.cuda.get_device_properties(_cuda_index(device, f"{_CUDA}.get_device_properties"))


def get_device_name(device: Any = None) -> str:
    return get_device_properties(device).name


def get_device_capability(device: Any = None) -> tuple[int, int]:
    props = get_device_properties(device)
    return props.major, props.minor


for _fn in (Stream, Event, current_stream, set_stream, stream_guard, synchronize, get_all_device_type,
            get_available_device, get_all_custom_device_type, get_available_custom_device,
            is_compiled_with_custom_device, is_compiled_with_ipu, is_compiled_with_cinn,
            is_compiled_with_distribute):
    export(_fn, f"{_DEV}.{_fn.__name__}")
for _fn in (Stream, Event, current_stream, max_memory_allocated, max_memory_reserved, memory_allocated,
            memory_reserved, empty_cache, get_device_properties, get_device_name, get_device_capability):
    export(_fn, f"{_CUDA}.{_fn.__name__}")
export(cuda_stream_guard, f"{_CUDA}.stream_guard")
export(cuda_synchronize, f"{_CUDA}.synchronize")
export(is_compiled_with_rocm, f"{_DEV}.is_compiled_with_rocm")
for _name, _detail in (("XPUPlace", "Baidu Kunlun XPU devices do not exist under torch"),
                       ("IPUPlace", "Graphcore IPU devices do not exist under torch")):
    export(unsupported_stub(f"{_DEV}.{_name}", "function", _detail), f"{_DEV}.{_name}")
