"""Timing helpers shared by the benchmarks: median of repeated runs after warm-up."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_ms(fn: Callable[[], object], iters: int, warmup: int = 3, repeats: int = 5) -> float:
    for _ in range(warmup):
        fn()
    per = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        per.append((time.perf_counter() - t0) * 1000.0 / iters)
    return statistics.median(per)


def report(title: str, rows: list[tuple[str, float]], baseline: str) -> None:
    base = dict(rows)[baseline]
    print(f"\n{title}")
    for name, ms in rows:
        unit = f"{ms:9.3f} ms" if ms >= 0.1 else f"{ms * 1000:9.1f} us"
        print(f"  {name:<34} {unit}   x{ms / base:5.2f} vs {baseline}")
