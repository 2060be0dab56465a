"""Issue 15 item 5: what `import paddle` costs over `import torch` (target: within 0.2 s).

Each row is a fresh interpreter importing one thing, wall time of the whole child (interpreter start included,
the same for every row); rows run round-robin so that machine load hits them alike; medians of --repeats.

Run: python bench/bench_import.py [--repeats R] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = (("import torch", "import torch"),
        ("import paddle", "import paddle"),
        ("import paddle.fluid as fluid", "import paddle.fluid as fluid"),
        ("import paddle + paddle.nn + paddle.static", "import paddle, paddle.nn, paddle.static"))


def child_seconds(code: str) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "shims")]))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd="/tmp")
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--quick", action="store_true", help="3 repeats")
    args = ap.parse_args()
    repeats = 3 if args.quick else args.repeats
    for _, code in ROWS:  # warm the page cache and the bytecode
        child_seconds(code)
    times: dict = {name: [] for name, _ in ROWS}
    for _ in range(repeats):
        for name, code in ROWS:
            times[name].append(child_seconds(code))
    base = statistics.median(times["import torch"])
    print(f"fresh interpreter, median of {repeats} (round-robin)")
    for name, _ in ROWS:
        t = statistics.median(times[name])
        print(f"  {name:44s} {t:6.3f} s   +{t - base:5.3f} s over import torch   x{t / base:4.2f}")
    print("  target: import paddle within 0.2 s of import torch")


if __name__ == "__main__":
    main()
