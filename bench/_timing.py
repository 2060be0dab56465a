"""Timing helpers shared by the benchmarks: median of repeated runs after warm-up, round-robin timing of several
functions, and the process's /proc/self/status memory counters."""

from __future__ import annotations

import os
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


def interleaved_blocks(fns: dict, iters: int, repeats: int = 7, warmup: int = 2,
                       clock: Callable[[], float] = time.perf_counter, rotate: bool = False) -> dict:
    """{name: [ms per call in each repeat]}: every function timed round-robin, one block of `iters` calls per function
    per repeat, so that load from other processes on a shared machine hits every row alike. With `rotate`, repeat r
    starts at the r-th function, so that no row always follows the same one (a row after a training step of another
    model finds the caches as that step left them)."""
    for f in fns.values():
        for _ in range(warmup):
            f()
    names = list(fns)
    per: dict = {k: [] for k in fns}
    for r in range(repeats):
        order = names[r % len(names):] + names[:r % len(names)] if rotate else names
        for k in order:
            f = fns[k]
            t0 = clock()
            for _ in range(iters):
                f()
            per[k].append((clock() - t0) * 1000.0 / iters)
    return per


def interleaved_ms(fns: dict, iters: int, repeats: int = 7, warmup: int = 2, lower_quartile: bool = False,
                   clock: Callable[[], float] = time.perf_counter) -> dict:
    """ms per call of each function, timed round-robin (interleaved_blocks): the median of the repeats, or their
    lower quartile (a shared machine's median carries other processes' load). `clock=time.process_time` times the
    process's CPU time instead of wall time: on a machine shared with other processes a single-threaded call's CPU
    time leaves out the time it waited for a core."""
    per = interleaved_blocks(fns, iters, repeats, warmup, clock)
    if lower_quartile:
        return {k: sorted(v)[len(v) // 4] for k, v in per.items()}
    return {k: statistics.median(v) for k, v in per.items()}


def paired_ratio(blocks: dict, row: str, base: str) -> float:
    """The median over the repeats of `row`'s block time over `base`'s block time in the same repeat
    (interleaved_blocks): each ratio compares two blocks timed seconds apart, so a slow minute of the machine divides
    out instead of landing in one row's median and not in the other's."""
    return statistics.median(a / b for a, b in zip(blocks[row], blocks[base]))


def status_kb(key: str) -> int:
    """A /proc/self/status counter in kB (VmRSS, VmHWM, ...)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def report(title: str, rows: list[tuple[str, float]], baseline: str) -> None:
    base = dict(rows)[baseline]
    print(f"\n{title}")
    for name, ms in rows:
        unit = f"{ms:9.3f} ms" if ms >= 0.1 else f"{ms * 1000:9.1f} us"
        print(f"  {name:<34} {unit}   x{ms / base:5.2f} vs {baseline}")


def repo_root() -> str:
    """The checkout whose paddle_compat a benchmark's child processes import: PADDLE_COMPAT_BENCH_ROOT when set
    (tools/bench_table.py runs this folder's benchmarks against another checkout's library), else this one."""
    return os.environ.get("PADDLE_COMPAT_BENCH_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
