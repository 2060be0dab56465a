"""Issue 4 benchmark: data parallel in one process (CompiledProgram.with_data_parallel) on CPU places.

MLP training step 784-512-512-10, batch 128, softmax cross entropy, SGD; steps per second for
- torch eager (hand-written, one process, same math),
- the plain static Executor (one place),
- with_data_parallel on 1 CPU place and on 2 CPU places (default ExecutionStrategy: 2 x places threads,
  and num_threads=1: places one after the other),
all measured in the same run; ratios are vs torch eager. Each data-parallel step splits the batch of 128
over the places (64 rows each), sums the gradients and applies SGD on every place.

Run: python bench/bench_data_parallel.py [--quick] [--device cpu|cuda]
(with --device cuda the places are CUDA places; with one GPU, "2 places" are two replicas on gpu:0)
"""

from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import statistics  # noqa: E402
import time  # noqa: E402

import bench_static  # noqa: E402 - the same MLP as the Executor benchmark
from bench_static import mlp_program  # noqa: E402
from bench_static import mlp_torch as _mlp_torch  # noqa: E402

BATCH = 128


def mlp_paddle(places: int | None, num_threads: int = 0):
    import paddle

    exe, prog, loss, scope, feed = mlp_program(BATCH)
    if places is not None:
        es = paddle.static.ExecutionStrategy()
        es.num_threads = num_threads
        prog = paddle.static.CompiledProgram(prog).with_data_parallel(
            loss_name=loss.name, exec_strategy=es, places=_places(places))
    return lambda: exe.run(prog, feed=feed, fetch_list=[loss], scope=scope)


def _places(n: int) -> list:
    import paddle

    if bench_static.DEVICE == "cpu":
        return paddle.static.cpu_places(n)
    gpus = torch.cuda.device_count()
    return [paddle.CUDAPlace(i % gpus) for i in range(n)]


def mlp_torch():
    return _mlp_torch(BATCH)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    args = ap.parse_args()
    bench_static.DEVICE = args.device
    kind = args.device.upper()
    iters, repeats = (5, 3) if args.quick else (10, 7)
    cases = [
        ("torch eager", mlp_torch()),
        ("static Executor (1 place)", mlp_paddle(None)),
        (f"with_data_parallel, 1 {kind} place", mlp_paddle(1)),
        (f"with_data_parallel, 2 {kind} places", mlp_paddle(2)),
        ("  2 places, num_threads=1", mlp_paddle(2, 1)),
    ]
    # Rounds alternate between the cases so that load from other processes hits them alike; we print the
    # best round (least disturbed) and the median.
    for _, fn in cases:
        for _ in range(3):
            fn()
    per: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(repeats):
        for name, fn in cases:
            t0 = time.perf_counter()
            for _ in range(iters):
                fn()
            per[name].append((time.perf_counter() - t0) * 1000.0 / iters)
    best = {k: min(v) for k, v in per.items()}
    med = {k: statistics.median(v) for k, v in per.items()}
    base, base_med = best["torch eager"], med["torch eager"]
    print(f"\nMLP 784-512-512-10, batch {BATCH}, SGD, training step on {args.device} (torch {torch.__version__}, "
          f"{torch.get_num_threads()} intra-op threads, {os.cpu_count()} CPUs); best / median of {repeats} rounds")
    for name, _ in cases:
        print(f"  {name:<34} {best[name]:8.2f} ms {1000.0 / best[name]:7.1f} steps/s  x{best[name] / base:5.2f}"
              f"   | median {med[name]:8.2f} ms  x{med[name] / base_med:5.2f}   vs torch eager")


if __name__ == "__main__":
    main()
