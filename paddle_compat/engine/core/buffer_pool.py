"""A plan's cache of large CPU buffers, reused across ops and steps (BuildStrategy.memory_optimize).

Why: torch takes every CPU buffer from glibc's malloc. Multi-MiB buffers freed back to glibc's heap are split
for small allocations and the heap fragments, so a training step of activation-sized temporaries leaves the
process at 1.5-2x the buffers live at once (bench/bench_memory.py: 550-600 MiB for ~130 MiB of buffers over a
~260 MiB base). Serving them by mmap instead (MALLOC_MMAP_THRESHOLD_, THP_MEM_ALLOC_ENABLE) keeps RSS at the
live peak but makes the kernel fault in and zero every fresh buffer, which costs more than the step saves.
Paddle's own allocator caches freed blocks and hands them out again; this pool does the same for the bodies
that memory_optimize selects (engine/ops/fused.py: the lean-gradient bodies write their forward results and their
backward's gradients with `out=` into pooled buffers): after the first step, the step's large buffers are
the same resident pages every step (no page faults, no fragmentation), and the pool holds no more buffers
than were live at once.

A buffer is free when no tensor uses its storage any more: the pool keeps one base tensor per buffer and
hands out tensors that share its storage (`set_`, not views, so autograd and in-place ops treat them as
ordinary tensors); the storage's reference count (torch._C._storage_Use_Count) then says whether anything
(an autograd saved tensor, a fetched numpy array, a view) still uses it. Nothing is reused while referenced,
so values are exactly those of freshly allocated buffers.

The pool is the running plan's (engine/static/executor.py Plan.execute sets RUNTIME.pool on CPU plans that
memory_optimize marked); `pooled_empty` falls back to torch.empty when no pool is running, off CPU, for
buffers under POOL_MIN_BYTES, or where this torch lacks the use-count query. The pool keeps its buffers as
long as the plan lives (Paddle's allocator keeps its cache too); `PADDLE_COMPAT_BUFFER_POOL=0` in the
environment leaves every buffer to torch's allocator (bench/bench_memory.py --pool-off compares).
"""

from __future__ import annotations

import math
import os
import threading
from typing import Sequence

import torch

from paddle_compat.engine.core.runtime import RUNTIME

# Below this a buffer comes from torch.empty: glibc serves small blocks well, and a pool lookup (a few us)
# would cost more than it saves.
POOL_MIN_BYTES = 1 << 20

# PADDLE_COMPAT_BUFFER_POOL=0: plans make no pool (read once, at import)
ENABLED = os.environ.get("PADDLE_COMPAT_BUFFER_POOL", "1").strip() != "0"

# gm.meta key set by memory_optimize on a graph with a backward: its plan makes a pool
BUFFER_POOL = "buffer_pool"

_use_count = getattr(torch._C, "_storage_Use_Count", None)


class BufferPool:
    """Large CPU buffers by byte size; a buffer is handed out again once no tensor shares its storage."""

    def __init__(self) -> None:
        self._bases: dict[int, list[torch.Tensor]] = {}
        self._asked: set[int] = set()  # sizes asked for since the last trim
        self._lock = threading.Lock()

    def empty(self, shape: Sequence[int], dtype: torch.dtype, nbytes: int) -> torch.Tensor:
        """A contiguous tensor of `shape` and `dtype` (`nbytes` bytes) on a free pooled buffer."""
        with self._lock:  # finding a free buffer and taking it is one step (replicas may share a plan)
            self._asked.add(nbytes)
            bases = self._bases.setdefault(nbytes, [])
            for base in bases:
                # 2: the base tensor's own reference plus the storage object made for the query
                if _use_count(base.untyped_storage()._cdata) == 2:
                    break
            else:
                base = torch.empty(nbytes, dtype=torch.uint8)
                bases.append(base)
            return torch.empty(0, dtype=dtype).set_(base.untyped_storage(), 0, tuple(shape))  # row-major strides

    def trim(self) -> None:
        """After a step: give back the free buffers of every size the step did not ask for, so that a plan
        fed varying shapes holds one step's buffers, not every size it has seen."""
        with self._lock:
            for k in [k for k in self._bases if k not in self._asked]:
                kept = [b for b in self._bases[k] if _use_count(b.untyped_storage()._cdata) != 2]
                if kept:
                    self._bases[k] = kept
                else:
                    del self._bases[k]
            self._asked.clear()

    @property
    def nbytes(self) -> int:
        """Bytes the pool holds."""
        return sum(k * len(v) for k, v in self._bases.items())


def plan_pool(meta: dict, device: torch.device) -> BufferPool | None:
    """The pool for a plan whose graph meta is `meta` running on `device`, or None."""
    return BufferPool() if ENABLED and meta.get(BUFFER_POOL) and device.type == "cpu" else None


def pooled_empty(shape: Sequence[int], dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """torch.empty(shape, dtype, device), from the running plan's pool where one runs and the buffer is large."""
    pool = RUNTIME.pool
    if pool is not None and device.type == "cpu" and _use_count is not None:
        nbytes = math.prod(shape) * dtype.itemsize
        if nbytes >= POOL_MIN_BYTES:
            return pool.empty(shape, dtype, nbytes)
    return torch.empty(shape, dtype=dtype, device=device)


def pool_active() -> bool:
    """A plan with a pool is running on this thread (the bodies' cheap first test)."""
    return RUNTIME.pool is not None and _use_count is not None
