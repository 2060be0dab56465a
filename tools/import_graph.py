"""Print paddle_compat's import graph between packages, and the import cycles among them.

    python tools/import_graph.py              # packages: paddle_compat.<x> and the packages inside engine/, paddle2/
    python tools/import_graph.py --depth 3    # one level deeper (engine.ops.tensor, paddle2.vision.models, ...)
    python tools/import_graph.py --depth 9 --cycles   # module by module: only the cycles

Every import counts, at module top or inside a function (grimp reads them all), so a deferred import cannot hide a
cycle. The layer rule itself is checked by import-linter (`lint-imports`, contracts in pyproject.toml)."""

from __future__ import annotations

import argparse
import collections
import os
import sys

import grimp

GROUPS = ("engine", "paddle2")  # folders that only group packages: their children are the packages


def package_of(module: str, depth: int) -> str:
    parts = module.split(".")[1:]
    if not parts:
        return "paddle_compat"
    keep = depth if parts[0] in GROUPS else depth - 1
    return ".".join(parts[:max(1, keep)])


def strongly_connected(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=2, help="package depth below paddle_compat (a group folder adds one)")
    ap.add_argument("--cycles", action="store_true", help="print only the cycles")
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    graph = grimp.build_graph("paddle_compat", include_external_packages=False)
    edges: dict[str, set[str]] = collections.defaultdict(set)
    counts: collections.Counter = collections.Counter()
    nodes: set[str] = set()
    for m in graph.modules:
        a = package_of(m, args.depth)
        nodes.add(a)
        for imp in graph.find_modules_directly_imported_by(m):
            b = package_of(imp, args.depth)
            if a != b:
                edges[a].add(b)
                counts[a, b] += 1
    print(f"{len(nodes)} packages, {len(counts)} package-to-package edges ({sum(counts.values())} module imports)")
    for a in sorted(edges) if not args.cycles else ():
        print(f"  {a} -> " + ", ".join(f"{b} ({counts[a, b]})" for b in sorted(edges[a])))
    cycles = strongly_connected(nodes, edges)
    print(f"import cycles: {len(cycles)}")
    for comp in sorted(cycles, key=len, reverse=True):
        print(f"  {len(comp)}: " + ", ".join(comp))


if __name__ == "__main__":
    main()
