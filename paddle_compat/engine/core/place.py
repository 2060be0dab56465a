"""Paddle places mapped onto torch devices.

`CPUPlace()`, `CUDAPlace(i)`, `CUDAPinnedPlace()`, `XPUPlace(i)` and the strings `cpu` / `gpu:i`.
A place whose device is absent raises a clear error when it is used to run something, not when it is
constructed, so scripts that build `CUDAPlace(0) if use_cuda else CPUPlace()` keep working on CPU.
"""

from __future__ import annotations

from typing import Any

import torch

from paddle_compat.engine.core.errors import UnavailableError


class Place:
    kind = "cpu"
    # 1.8.5's core place variant index (boost::variant<CUDAPlace, CPUPlace, CUDAPinnedPlace>), what `_type()` gives
    _variant_index: int | None = 1

    def __init__(self, device_id: int = 0) -> None:
        self.device_id = int(device_id)

    def torch_device(self) -> torch.device:
        return torch.device("cpu")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.device_id == self.device_id  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.kind, self.device_id))

    def _type(self) -> int:
        """core.Place._type(): the index of this kind of place in Paddle 1.8's place variant (tests compare it)."""
        if self._variant_index is None:
            raise UnavailableError(f"{self!r}._type(): Paddle 1.8's place variant has no {self.kind} place")
        return self._variant_index

    def _equals(self, other: object) -> bool:
        """core.Place._equals(other): the same kind of place on the same device."""
        return self == other

    def is_cpu_place(self) -> bool:
        return self.kind == "cpu"

    def is_gpu_place(self) -> bool:
        return self.kind == "gpu"

    def is_cuda_pinned_place(self) -> bool:
        return self.kind == "gpu_pinned"

    def is_xpu_place(self) -> bool:
        return self.kind == "xpu"

    def gpu_device_id(self) -> int:
        return self.device_id



class CPUPlace(Place):
    def __init__(self) -> None:
        super().__init__(0)

    def __repr__(self) -> str:
        return "Place(cpu)"


class CUDAPlace(Place):
    kind = "gpu"
    _variant_index = 0

    def __init__(self, id: int = 0) -> None:  # noqa: A002 - Paddle's argument name
        super().__init__(id)

    def torch_device(self) -> torch.device:
        if not torch.cuda.is_available():
            raise UnavailableError(
                f"CUDAPlace({self.device_id}): this torch build has no usable CUDA device; "
                "use paddle.CPUPlace() (or fluid.CPUPlace()) instead"
            )
        if self.device_id >= torch.cuda.device_count():
            raise UnavailableError(
                f"CUDAPlace({self.device_id}): only {torch.cuda.device_count()} CUDA device(s) are visible"
            )
        return torch.device("cuda", self.device_id)

    def __repr__(self) -> str:
        return f"Place(gpu:{self.device_id})"


class CUDAPinnedPlace(Place):
    kind = "gpu_pinned"
    _variant_index = 2

    def __init__(self) -> None:
        super().__init__(0)

    def __repr__(self) -> str:
        return "Place(gpu_pinned)"


class XPUPlace(Place):
    kind = "xpu"
    _variant_index = None

    def __init__(self, id: int = 0) -> None:  # noqa: A002
        super().__init__(id)

    def torch_device(self) -> torch.device:
        raise UnavailableError(f"XPUPlace({self.device_id}): Baidu Kunlun XPU devices are not available under torch")

    def __repr__(self) -> str:
        return f"Place(xpu:{self.device_id})"


def to_place(value: Any) -> Place:
    """A Place, a torch device or one of Paddle's strings: 'cpu', 'gpu', 'gpu:1', 'xpu:0'."""
    if isinstance(value, Place):
        return value
    if value is None:
        return get_device_place()
    if isinstance(value, torch.device):
        return CUDAPlace(value.index or 0) if value.type == "cuda" else CPUPlace()
    if isinstance(value, str):
        name, _, idx = value.lower().partition(":")
        if name == "cpu":
            return CPUPlace()
        if name in ("gpu", "cuda"):
            return CUDAPlace(int(idx) if idx else _selected_gpu())
        if name == "xpu":
            return XPUPlace(int(idx or 0))
    raise ValueError(
        f"The device should be a Place or a string like 'cpu', 'gpu', 'gpu:x' or 'xpu:x', but received {value!r}"
    )


def place_str(p: Place) -> str:
    return {"cpu": "cpu", "gpu": f"gpu:{p.device_id}", "xpu": f"xpu:{p.device_id}"}.get(p.kind, p.kind)


def _selected_gpu() -> int:
    """'gpu' without an index is this trainer's device, as Paddle's ParallelEnv().dev_id: the first entry of
    FLAGS_selected_gpus (set per trainer by launchers; paddle_compat.paddle2.distributed.env fills it from LOCAL_RANK)."""
    import os

    first = os.environ.get("FLAGS_selected_gpus", "").split(",")[0].strip()
    return int(first) if first.isdigit() else 0


_current = [CPUPlace() if not torch.cuda.is_available() else CUDAPlace(0)]


def get_device_place() -> Place:
    return _current[0]


def set_device(device: Any) -> Place:
    """`paddle.set_device('cpu' | 'gpu' | 'gpu:0')`: the default place for new tensors."""
    p = to_place(device)
    if not isinstance(p, CPUPlace):
        p.torch_device()  # raises the clear error when the device is absent
    _current[0] = p
    return p


def get_device() -> str:
    return place_str(_current[0])


def device_of(p: Place) -> torch.device:
    return p.torch_device()
