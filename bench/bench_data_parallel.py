"""Issue 4 benchmark: data parallel in one process (CompiledProgram.with_data_parallel) on CPU places.

MLP training step 784-512-512-10, batch 128, softmax cross entropy, SGD; steps per second for
- torch eager (hand-written, one process, same math),
- the plain static Executor (one place),
- with_data_parallel on 1 CPU place and on 2 CPU places (default ExecutionStrategy: 2 x places threads,
  and num_threads=1: places one after the other),
all measured in the same run; ratios are vs torch eager. Each data-parallel step splits the batch of 128
over the places (64 rows each), sums the gradients and applies SGD on every place.

Run: python bench/bench_data_parallel.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import statistics  # noqa: E402
import time  # noqa: E402

BATCH = 128


def mlp_paddle(places: int | None, num_threads: int = 0):
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 784])
        y = paddle.static.data("y", [None, 1], "int64")
        h = paddle.static.nn.fc(x, 512, activation="relu")
        h = paddle.static.nn.fc(h, 512, activation="relu")
        logits = paddle.static.nn.fc(h, 10)
        loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(logits, y))
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    prog = main
    if places is not None:
        es = paddle.static.ExecutionStrategy()
        es.num_threads = num_threads
        prog = paddle.static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, exec_strategy=es, places=paddle.static.cpu_places(places))
    rng = np.random.RandomState(0)
    feed = {"x": rng.rand(BATCH, 784).astype("float32"), "y": rng.randint(0, 10, (BATCH, 1)).astype("int64")}
    return lambda: exe.run(prog, feed=feed, fetch_list=[loss], scope=scope)


def mlp_torch():
    rng = np.random.RandomState(0)
    ws = [torch.randn(a, b, requires_grad=True) for a, b in ((784, 512), (512, 512), (512, 10))]
    bs = [torch.zeros(b, requires_grad=True) for b in (512, 512, 10)]
    x = rng.rand(BATCH, 784).astype("float32")
    y = rng.randint(0, 10, (BATCH,)).astype("int64")

    def step():
        xt, yt = torch.from_numpy(x), torch.from_numpy(y)
        h = torch.relu(xt @ ws[0] + bs[0])
        h = torch.relu(h @ ws[1] + bs[1])
        loss = torch.nn.functional.cross_entropy(h @ ws[2] + bs[2], yt)
        grads = torch.autograd.grad(loss, ws + bs)
        with torch.no_grad():
            for p, g in zip(ws + bs, grads):
                p.sub_(0.01 * g)
        return loss.detach().numpy()

    return step


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    iters, repeats = (5, 3) if args.quick else (10, 7)
    cases = [
        ("torch eager", mlp_torch()),
        ("static Executor (1 place)", mlp_paddle(None)),
        ("with_data_parallel, 1 CPU place", mlp_paddle(1)),
        ("with_data_parallel, 2 CPU places", mlp_paddle(2)),
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
    print(f"\nMLP 784-512-512-10, batch {BATCH}, SGD, training step (torch {torch.__version__}, "
          f"{torch.get_num_threads()} intra-op threads, {os.cpu_count()} CPUs); best / median of {repeats} rounds")
    for name, _ in cases:
        print(f"  {name:<34} {best[name]:8.2f} ms {1000.0 / best[name]:7.1f} steps/s  x{best[name] / base:5.2f}"
              f"   | median {med[name]:8.2f} ms  x{med[name] / base_med:5.2f}   vs torch eager")


if __name__ == "__main__":
    main()
