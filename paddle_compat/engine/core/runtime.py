"""Per-thread execution context: the device an Executor is running on, its RNG generator and the running
plan's buffer pool (engine/core/buffer_pool.py).

Ops that create tensors (fill_constant, uniform_random, ...) read it, so a static program runs on the
Executor's place and in-process replicas on their own places.
"""

from __future__ import annotations

import threading

import torch


class _Runtime(threading.local):
    def __init__(self) -> None:
        self.device: torch.device | None = None
        self.generator: torch.Generator | None = None
        self.pool = None  # core.buffer_pool.BufferPool of the running plan, or None


RUNTIME = _Runtime()
