"""Issue 7 benchmark: data-parallel training steps per second with 1 and 2 trainer processes (torchrun, gloo).

Same global batch for every run (strong scaling: each of N trainers computes batch/N rows), MLP
784-512-512-10 with softmax cross entropy and SGD, three implementations measured in the same run:
- static:  fluid program + CompiledProgram.with_data_parallel (one place per trainer);
- dygraph: paddle.DataParallel over paddle.nn layers;
- torch:   hand-written torch eager + torch DDP (the baseline the ratios are taken against).
Prints steps/s per implementation and process count, and each one's ratio to torch at the same count.
On a 2-core machine shared with other work, 2 processes cannot be faster than 1; the point is the
overhead of our layer against DDP.

Run: python bench/bench_multiprocess.py [--quick]      (launches torchrun itself)
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np

BATCH = 256


def _steps(step, n: int, warmup: int) -> float:
    import torch.distributed as dist

    for _ in range(warmup):
        step()
    if dist.is_initialized():
        dist.barrier()
    t0 = time.perf_counter()
    for _ in range(n):
        step()
    if dist.is_initialized():
        dist.barrier()
    return n / (time.perf_counter() - t0)


def _data(rank: int, world: int):
    rng = np.random.RandomState(0)
    x = rng.rand(BATCH, 784).astype("float32")
    y = rng.randint(0, 10, (BATCH, 1)).astype("int64")
    share = BATCH // world
    return x[rank * share:(rank + 1) * share], y[rank * share:(rank + 1) * share]


def static_step(rank: int, world: int):
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [784])
        y = fluid.layers.data("y", [1], dtype="int64")
        h = fluid.layers.fc(x, 512, act="relu")
        h = fluid.layers.fc(h, 512, act="relu")
        loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(fluid.layers.fc(h, 10), y))
        fluid.optimizer.SGD(0.01).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    prog = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, places=[fluid.CPUPlace()])
    xs, ys = _data(rank, world)
    return lambda: exe.run(prog, feed={"x": xs, "y": ys}, fetch_list=[loss])


def dygraph_step(rank: int, world: int):
    import paddle

    paddle.distributed.init_parallel_env()
    net = paddle.nn.Sequential(paddle.nn.Linear(784, 512), paddle.nn.ReLU(), paddle.nn.Linear(512, 512),
                               paddle.nn.ReLU(), paddle.nn.Linear(512, 10))
    model = paddle.DataParallel(net) if world > 1 else net
    opt = paddle.optimizer.SGD(0.01, parameters=model.parameters())
    xs, ys = _data(rank, world)
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)

    def step():
        loss = paddle.mean(paddle.nn.functional.softmax_with_cross_entropy(model(x), y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def torch_step(rank: int, world: int):
    import torch
    import torch.distributed as dist

    if world > 1 and not dist.is_initialized():
        dist.init_process_group("gloo")
    net = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512),
                              torch.nn.ReLU(), torch.nn.Linear(512, 10))
    model = torch.nn.parallel.DistributedDataParallel(net) if world > 1 else net
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    xs, ys = _data(rank, world)
    x, y = torch.from_numpy(xs), torch.from_numpy(ys.reshape(-1))

    def step():
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss

    return step


def worker(kind: str, n: int) -> None:
    import paddle  # noqa: F401 - fills the registry (also for the torch run, same process setup)

    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    step = {"static": static_step, "dygraph": dygraph_step, "torch": torch_step}[kind](rank, world)
    rate = _steps(step, n, warmup=3)
    if rank == 0:
        print("RESULT " + json.dumps({"kind": kind, "world": world, "steps_per_s": rate}), flush=True)


def _port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--worker", default=None)
    ap.add_argument("--steps", type=int, default=None)
    args = ap.parse_args()
    n = args.steps or (10 if args.quick else 40)
    if args.worker:
        worker(args.worker, n)
        return
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK")}
    env.update(OMP_NUM_THREADS="1", CPU_NUM="1")
    rates: dict[tuple[str, int], float] = {}
    for world in (1, 2):
        for kind in ("torch", "static", "dygraph"):
            cmd = [sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={world}", "--master_addr",
                   "127.0.0.1", "--master_port", _port(), os.path.abspath(__file__), "--worker", kind,
                   "--steps", str(n)]
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
            line = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")]
            if out.returncode or not line:
                print(f"{kind} x{world} failed:\n{out.stderr[-2000:]}")
                continue
            rates[(kind, world)] = json.loads(line[0][7:])["steps_per_s"]
    print(f"\nData-parallel MLP 784-512-512-10, global batch {BATCH}, {n} timed steps, OMP_NUM_THREADS=1")
    for world in (1, 2):
        base = rates.get(("torch", world))
        for kind in ("torch", "static", "dygraph"):
            r = rates.get((kind, world))
            if r is None:
                continue
            ratio = f"x{base / r:5.2f} time vs torch" if base else ""
            print(f"  {world} process(es)  {kind:<8} {r:8.1f} steps/s   {ratio}")


if __name__ == "__main__":
    main()
