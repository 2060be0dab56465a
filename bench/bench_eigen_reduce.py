"""The cost of Paddle's bit-exact full reductions (engine/core/eigen_reduce.settle) above torch's own sum / mean, per call,
on a float32 vector that needs a gradient (a loss). `--before DIR` also loads another checkout's eigen_reduce.py (e.g.
a `git worktree add --detach DIR COMMIT`) and times both in the same run, round-robin with torch's reduction alone,
in CPU time, single-threaded; medians of 3 rounds of 7 blocks.

    python bench/bench_eigen_reduce.py [--before DIR]
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import interleaved_ms  # noqa: E402

from paddle_compat.engine.core import eigen_reduce  # noqa: E402


def load_before(root: str):
    spec = importlib.util.spec_from_file_location("eigen_reduce_before",
                                                  os.path.join(root, "paddle_compat", "core", "eigen_reduce.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    torch.set_num_threads(1)
    before = load_before(sys.argv[sys.argv.index("--before") + 1]) if "--before" in sys.argv else None
    g = torch.Generator().manual_seed(0)
    print(f"{'n':<8}{'kind':<6}{'torch us':>9}{'settle extra us':>17}{'x torch':>9}"
          + (f"{'before extra us':>17}{'x torch':>9}" if before else ""))
    for n in (10, 128, 1000, 8192, 100000):
        for kind, red in (("mean", torch.mean), ("sum", torch.sum)):
            x = torch.rand(n, generator=g).requires_grad_()
            fns = {"torch": lambda: red(x), "now": lambda: eigen_reduce.settle(red(x), x, kind)}
            if before:
                fns["before"] = lambda: before.settle(red(x), x, kind)
            per = [interleaved_ms(fns, 300 if n < 10000 else 30, repeats=7, clock=time.process_time)
                   for _ in range(3)]
            t = statistics.median(p["torch"] for p in per)

            def cols(k):
                extra = statistics.median(p[k] - p["torch"] for p in per) * 1e3
                return f"{extra:>17.1f}{statistics.median(p[k] / p['torch'] for p in per):>9.2f}"

            print(f"{n:<8}{kind:<6}{t * 1e3:>9.1f}{cols('now')}" + (cols("before") if before else ""), flush=True)


if __name__ == "__main__":
    main()
