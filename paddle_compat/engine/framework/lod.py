"""`LoDTensor` (fluid.LoDTensor / core.LoDTensor): a host-side tensor with optional level-of-detail info.

It is what `scope.find_var(name).get_tensor()` returns, what `Executor.run(return_numpy=False)` returns, and
what users build by hand to feed sequence data (`set(array, place)` + `set_lod` /
`set_recursive_sequence_lengths`). The data lives in one torch tensor `_t` (None until set).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.place import CPUPlace, CUDAPlace, Place, to_place


class LoDTensor:
    __slots__ = ("_t", "_lod", "__weakref__")

    def __init__(self, value: Any = None, lod: list | None = None) -> None:
        self._t: torch.Tensor | None = None
        self._lod: list[list[int]] = []
        if value is not None:
            self.set(value, CPUPlace())
        if lod:
            self.set_lod(lod)

    @classmethod
    def _from_torch(cls, t: torch.Tensor) -> "LoDTensor":
        obj = object.__new__(cls)
        obj._t = t
        obj._lod = []
        return obj

    def set(self, array: Any, place: Any = None) -> None:
        from paddle_compat.engine.framework.tensor import Tensor

        if isinstance(array, (Tensor, LoDTensor)):
            array = array._t.detach().cpu().numpy()
        arr = np.array(array, copy=True)
        t = torch.from_numpy(arr)
        if place is not None:
            p = to_place(place)
            if isinstance(p, CUDAPlace):
                t = t.to(p.torch_device())
        old = self._t
        if old is not None and old.requires_grad and (t.is_floating_point()):
            t.requires_grad_(True)  # a trainable parameter stays trainable when its value is replaced
        self._t = t

    def _set_torch(self, t: torch.Tensor) -> None:
        self._t = t

    def _check(self) -> torch.Tensor:
        if self._t is None:
            raise RuntimeError("(PreconditionNotMet) The tensor holds no memory: it has not been initialized yet")
        return self._t

    def shape(self) -> list[int]:
        return list(self._check().shape)

    def _dtype(self) -> _dt.DType:
        return _dt.from_torch(self._check().dtype)

    def _place(self) -> Place:
        d = self._check().device
        return CUDAPlace(d.index or 0) if d.type == "cuda" else CPUPlace()

    def _is_initialized(self) -> bool:
        return self._t is not None

    def numpy(self) -> np.ndarray:
        return self._check().detach().cpu().numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # a snapshot, as Paddle's: the scope tensor keeps changing (optimizer updates run in place)
        a = self.numpy()
        return a.astype(dtype) if dtype is not None else a.copy()

    # LoD: offsets per level, e.g. [[0, 2, 5]] for two sequences of lengths 2 and 3.
    def set_lod(self, lod: list) -> None:
        self._lod = [list(map(int, level)) for level in lod]

    def lod(self) -> list[list[int]]:
        return [list(level) for level in self._lod]

    def set_recursive_sequence_lengths(self, lengths: list) -> None:
        lod = []
        for level in lengths:
            offs = [0]
            for n in level:
                offs.append(offs[-1] + int(n))
            lod.append(offs)
        self._lod = lod

    def recursive_sequence_lengths(self) -> list[list[int]]:
        return [[b - a for a, b in zip(level, level[1:])] for level in self._lod]

    def has_valid_recursive_sequence_lengths(self) -> bool:
        if not self._lod:
            return True
        n = self._check().shape[0] if self._t is not None else 0
        return all(lv and lv[0] == 0 and all(a <= b for a, b in zip(lv, lv[1:])) for lv in self._lod) and \
            self._lod[-1][-1] == n

    def __repr__(self) -> str:
        if self._t is None:
            return "LoDTensor(uninitialized)"
        return f"LoDTensor(shape={self.shape()}, dtype={self._dtype().name}, lod={self._lod})\n{self.numpy()}"


class LoDTensorArray(list):
    """fluid.LoDTensorArray: a list of LoDTensor."""

    def append(self, t: Any) -> None:  # type: ignore[override]
        super().append(t if isinstance(t, LoDTensor) else LoDTensor(t))
