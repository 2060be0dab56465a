"""One table of every benchmark's ratios (issue 29 item 6): runs each bench/bench_*.py in its quick mode, one
subprocess each, reads the ratios it prints against plain torch (or real Paddle, or the other rows it names) and
prints them as one table.

With several `--root NAME=DIR` (checkouts of this repository, e.g. `git worktree add --detach /tmp/base COMMIT`),
each benchmark runs under every root in turn before the next benchmark starts, so that the machine's load, which
drifts over minutes on a shared machine, hits the columns alike. Every root runs the SAME benchmark scripts (this
checkout's bench/, or --bench-dir): only the library (paddle_compat and shims on PYTHONPATH) differs, so a column
is the library at that root, measured the same way. (A benchmark that starts its own children with this checkout's
paths, e.g. bench_memory.py, is given the root through PADDLE_COMPAT_BENCH_ROOT.)

Ratios are read from the benchmarks' own output, two ways: an inline `x1.23` / `x 1.23` (the `report` rows of
bench/_timing.py), and right-aligned table columns headed `x torch`, `x eager`, `ratio`, `x Paddle` (a value
counts when it ends where its header ends). A row's label is the text before its first number.

Run: python tools/bench_table.py [--root before=/tmp/base --root after=.] [--only static,eigen_reduce]
         [--skip multiprocess] [--full] [--logs DIR] [--json OUT] [--timeout S] [--from-logs DIR]
`--full` runs each benchmark's default (long) mode instead of its quick one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# a benchmark's quick-mode arguments (default ["--quick"]); bench_models.py's quick mode also skips its
# torch.compile rows (minutes of compiling per model)
QUICK_ARGS = {
    "bench_static.py": ["--rows", "--quick"],
    "bench_passes.py": ["--no-compile", "--iters", "1", "--repeats", "3"],
    "bench_models.py": ["--quick", "--no-compile"],
    "bench_memory.py": ["--quick"],  # --compile adds cold torch.compile rows: minutes (bench_compiler_options)
    "bench_eigen_reduce.py": [],
    "bench_nn_layers.py": [],
}
FULL_ARGS = {"bench_static.py": ["--rows"], "bench_memory.py": ["--compile"]}

_HEADER = re.compile(r"x torch|x eager|x Paddle|ratio|ours/paddle")
_INLINE = re.compile(r"(?<![\w.])x\s?(\d+\.\d+)")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(\.\d+)?(?![\w])")


_MEASURE = re.compile(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?\s*[a-zA-Z/%]*")


def _is_number(field: str) -> bool:
    """A measured value: a number, with or without its unit (`50.19 ms`, `19.9 steps/s`, `1.6s`)."""
    return _MEASURE.fullmatch(field.strip()) is not None


def _label(text: str) -> str:
    """A row's label: its first field and the fields after it up to the first number (fields are separated by two
    or more spaces, so `x * 2.0` and `10      mean` stay labels)."""
    fields = [f for f in re.split(r"\s{2,}", text.strip()) if f]
    out = fields[:1]
    for f in fields[1:]:
        if _is_number(f) or _INLINE.fullmatch(f):
            break
        out.append(f)
    return " ".join(" ".join(out).split())


def parse(text: str) -> list[tuple[str, str, float]]:
    """(label, column, ratio) for each ratio printed in a benchmark's output."""
    rows: list[tuple[str, str, float]] = []
    header: list[tuple[int, str]] = []  # (end column, name) of the current table's ratio columns
    for line in text.splitlines():
        if not line.strip():
            continue
        heads = list(_HEADER.finditer(line))
        if heads and not any(_is_number(f) for f in line.split()):
            header = []
            for m in heads:  # a repeated header name is numbered: "x torch", "x torch #2"
                k = sum(1 for _, name in header if name.split(" #")[0] == m.group(0))
                header.append((m.end(), m.group(0) + (f" #{k + 1}" if k else "")))
            continue
        inline = _INLINE.search(line)
        if inline:
            tail = line[inline.end():].split("   ")[0].strip()  # "vs torch eager" in _timing.report's rows
            tail = re.sub(r"\d+(\.\d+)?", "N", tail)  # a measured value in it is no part of the column's name
            head = line[:inline.start()]
            head = re.sub(r"\s+-?\d+(\.\d+)?\s*(ms|us|s|MiB)?\s*$", "", head)  # the time before the ratio
            rows.append((_label(head), tail or "x", float(inline.group(1))))
            continue
        fields = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
        for end, name in header:
            # the field ending where the header ends (or within two columns of it: a header padded apart)
            near = sorted((abs(e - end), s, e) for s, e in fields if abs(e - end) <= 2)
            if near and _is_number(line[near[0][1]:near[0][2]]):
                _, start, stop = near[0]
                rows.append((_label(line[:start]), name, float(line[start:stop])))
    return rows


def run_bench(path: str, root: str, args: list[str], timeout: float) -> tuple[str, float, int]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.path.join(root, "shims")]),
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"), PADDLE_COMPAT_BENCH_ROOT=root)
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, path, *args], env=env, cwd=root, capture_output=True, text=True,
                             timeout=timeout)
        text, rc = out.stdout + ("\n[stderr]\n" + out.stderr[-3000:] if out.returncode else ""), out.returncode
    except subprocess.TimeoutExpired as e:
        text, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -9
    return text, time.perf_counter() - t0, rc


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", action="append", default=None, help="NAME=DIR: a checkout to measure (repeatable)")
    ap.add_argument("--bench-dir", default=os.path.join(ROOT, "bench"))
    ap.add_argument("--only", default=None, help="comma-separated names (bench_X.py or X)")
    ap.add_argument("--skip", default="", help="comma-separated names to leave out")
    ap.add_argument("--full", action="store_true", help="each benchmark's default mode instead of its quick one")
    ap.add_argument("--timeout", type=float, default=1200.0, help="seconds per benchmark run")
    ap.add_argument("--logs", default=None, help="folder for each run's raw output")
    ap.add_argument("--json", default=None, help="write the rows as JSON here")
    ap.add_argument("--from-logs", default=None, help="no runs: the table of a --logs folder's outputs")
    args = ap.parse_args()
    roots = [r.split("=", 1) for r in (args.root or [f"now={ROOT}"])]
    roots = [(name, os.path.abspath(d)) for name, d in roots]
    if args.from_logs:
        return table_from_logs(args.from_logs, [r for r, _ in roots])

    def key(n: str) -> str:
        return n if n.startswith("bench_") else f"bench_{n}.py" if not n.endswith(".py") else f"bench_{n}"

    names = sorted(f for f in os.listdir(args.bench_dir) if f.startswith("bench_") and f.endswith(".py"))
    if args.only:
        names = [n for n in names if n in {key(o) for o in args.only.split(",")}]
    names = [n for n in names if n not in {key(s) for s in args.skip.split(",") if s}]
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
    results: dict = {}  # bench -> root -> {"rows": [...], "s": seconds, "rc": rc, "load": (1, 5, 15)}
    for name in names:
        bench_args = FULL_ARGS.get(name, []) if args.full else QUICK_ARGS.get(name, ["--quick"])
        for rname, rdir in roots:
            load = os.getloadavg()
            text, secs, rc = run_bench(os.path.join(args.bench_dir, name), rdir, bench_args, args.timeout)
            if args.logs:
                with open(os.path.join(args.logs, f"{name[:-3]}.{rname}.log"), "w") as f:
                    f.write(text)
            results.setdefault(name, {})[rname] = {"rows": parse(text), "s": secs, "rc": rc,
                                                   "load": [round(v, 1) for v in load]}
            print(f"# {name} [{rname}] {secs:.0f}s rc={rc} load(1,5,15)={load[0]:.1f},{load[1]:.1f},{load[2]:.1f} "
                  f"args={' '.join(bench_args)}", file=sys.stderr, flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print_table(results, [r for r, _ in roots])
    return 0


def table_from_logs(folder: str, roots: list[str]) -> int:
    """The table of the outputs a --logs run saved (`bench_X.ROOT.log`), e.g. of a run cut short."""
    results: dict = {}
    for f in sorted(os.listdir(folder)):
        name, _, rest = f.partition(".")
        root = rest[:-len(".log")]
        if root in roots:
            with open(os.path.join(folder, f)) as fh:
                results.setdefault(name + ".py", {})[root] = {"rows": parse(fh.read()), "s": 0.0, "rc": 0,
                                                              "load": None}
    print_table(results, roots)
    return 0


def print_table(results: dict, roots: list[str]) -> None:
    w = 50
    print(f"{'benchmark':<26}{'row':<{w}}{'column':<18}" + "".join(f"{r:>10}" for r in roots)
          + (f"{'last/first':>11}" if len(roots) > 1 else ""))
    for name, per in results.items():
        order: list[tuple[str, str]] = []
        vals: dict = {}
        for r in roots:
            seen: dict = {}
            for label, col, v in per.get(r, {}).get("rows", []):
                k = (label, col)
                seen[k] = seen.get(k, 0) + 1
                k = (label, col, seen[k])  # the same label twice (e.g. two sizes): kept apart in order
                if k not in vals:
                    vals[k] = {}
                    order.append(k)
                vals[k][r] = v
        short = name[len("bench_"):-3]
        status = " ".join(f"{r}:rc={per[r]['rc']}" for r in roots if r in per and per[r]["rc"])
        if not order:
            print(f"{short:<26}{'(no ratios printed)':<{w}}{status}")
        for k in order:
            label, col, _ = k
            cells = "".join(f"{vals[k][r]:>10.2f}" if r in vals[k] else f"{'-':>10}" for r in roots)
            rel = ""
            if len(roots) > 1 and roots[0] in vals[k] and roots[-1] in vals[k] and vals[k][roots[0]]:
                rel = f"{vals[k][roots[-1]] / vals[k][roots[0]]:>11.2f}"
            print(f"{short:<26}{label[:w - 1]:<{w}}{col[:17]:<18}{cells}{rel}")
    loads = {r: [per[r]["load"] for per in results.values() if r in per and per[r]["load"]] for r in roots}
    for r in roots:
        if loads[r]:
            one = [v[0] for v in loads[r]]
            print(f"# load average (1 min) at the start of each benchmark [{r}]: min {min(one):.1f} "
                  f"max {max(one):.1f}")


if __name__ == "__main__":
    sys.exit(main())
