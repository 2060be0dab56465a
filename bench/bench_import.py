"""Issue 15 item 5: what `import paddle` costs over `import torch` (target: within 0.2 s).

Each row is a fresh interpreter importing one thing: the wall time of the whole child (interpreter start and exit
included), and its two parts that differ between rows, the import statement itself (timed inside the child) and
the interpreter's exit after it (module teardown and the final garbage collection). Rows run round-robin so
that machine load hits them alike; medians of --repeats.

Run: python bench/bench_import.py [--repeats R] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import repo_root  # noqa: E402

ROOT = repo_root()
ROWS = (("import torch", "import torch"),
        ("import paddle", "import paddle"),
        ("import paddle.fluid as fluid", "import paddle.fluid as fluid"),
        ("import paddle + paddle.nn + paddle.static", "import paddle, paddle.nn, paddle.static"))


def child_seconds(code: str) -> tuple[float, float, float]:
    """(whole child, the import statement, exit after it): wall clocks, time.time() on both sides."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "shims")]))
    timed = f"import time; t0 = time.time(); {code}; print(t0, time.time())"
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", timed], check=True, env=env, cwd="/tmp", capture_output=True,
                         text=True).stdout.split()
    t3 = time.time()
    t1, t2 = map(float, out[-2:])
    return t3 - t0, t2 - t1, t3 - t2


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
    med = {name: [statistics.median(t[i] for t in ts) for i in range(3)] for name, ts in times.items()}
    base = med["import torch"][0]
    print(f"fresh interpreter, median of {repeats} (round-robin)")
    print(f"  {'':44s} {'child':>7s}   {'over import torch':>19s}   {'import':>7s} {'exit':>7s}")
    for name, _ in ROWS:
        whole, imp, ext = med[name]
        print(f"  {name:44s} {whole:6.3f} s   {whole - base:+6.3f} s   x{whole / base:4.2f}   {imp:6.3f} s {ext:6.3f} s")
    print("  target: import paddle within 0.2 s of import torch")


if __name__ == "__main__":
    main()
