"""Issue 2 benchmarks: the static Executor against hand-written torch eager, measured in the same run.

1. MLP training step: 784-512-512-10, batch 128, softmax cross entropy, SGD (target: within 1.10x of eager).
2. Per-call overhead: the seed program (fc 1->10, mean, SGD) on a batch of 10, one `exe.run` per step
   (target: at most 100 us above the eager step), and the same program as a CompiledProgram (issue 15 item 2:
   within 20 us of the plain Program).

Run: python bench/bench_static.py [--quick] [--device cpu|cuda] [--batch 128]
(on CUDA both sides end each step by copying the loss to the host, as exe.run's numpy fetch does)

`--rows` (issue 29 item 5): the small programs side by side, each timed round-robin with its torch eager twin in
one process, single-threaded, in CPU time, the median of 21 blocks: an MLP train step (batch 128), LeNet-5 train
(batch 64, 1x28x28), the tiny fc `exe.run`, MLP inference at batch 1024. `--paddle PYTHON` adds real Paddle
2.6.2's Executor on the same programs: a child process in that venv (no shims on its path) times one block per
request, in the same round-robin.
The last line reads `static: worst_ratio=X.XX` (paddle_compat / torch eager over the rows).
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

try:
    import torch
except ImportError:  # real Paddle's venv (--child-paddle) has no torch
    torch = None

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_ms, report  # noqa: E402


DEVICE = "cpu"


def _place():
    import paddle

    return paddle.CUDAPlace(0) if DEVICE == "cuda" else paddle.CPUPlace()


def mlp_program(batch: int):
    """The MLP as a static program, started in its own scope: (exe, main, loss, scope, feed)."""
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
    exe = paddle.static.Executor(_place())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.RandomState(0)
    feed = {"x": rng.rand(batch, 784).astype("float32"), "y": rng.randint(0, 10, (batch, 1)).astype("int64")}
    return exe, main, loss, scope, feed


def mlp_paddle(batch: int):
    exe, main, loss, scope, feed = mlp_program(batch)
    return lambda: exe.run(main, feed=feed, fetch_list=[loss], scope=scope)


def mlp_torch(batch: int):
    rng = np.random.RandomState(0)
    # Xavier-scaled, as fc's default initializer: unscaled randn weights diverge under SGD within a few hundred
    # steps, and the non-finite values that follow time differently
    ws = [(torch.randn(a, b, device=DEVICE) * (2.0 / (a + b)) ** 0.5).requires_grad_()
          for a, b in ((784, 512), (512, 512), (512, 10))]
    bs = [torch.zeros(b, device=DEVICE, requires_grad=True) for b in (512, 512, 10)]
    x = rng.rand(batch, 784).astype("float32")
    y = rng.randint(0, 10, (batch,)).astype("int64")

    def step():
        xt, yt = torch.from_numpy(x).to(DEVICE), torch.from_numpy(y).to(DEVICE)
        h = torch.relu(xt @ ws[0] + bs[0])
        h = torch.relu(h @ ws[1] + bs[1])
        loss = torch.nn.functional.cross_entropy(h @ ws[2] + bs[2], yt)
        grads = torch.autograd.grad(loss, ws + bs)
        with torch.no_grad():
            for p, g in zip(ws + bs, grads):
                p.sub_(0.01 * g)
        return loss.detach().cpu().numpy()

    return step


def tiny_paddle(compiled: bool = False):
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("X", [None, 1])
        loss = paddle.mean(paddle.static.nn.fc(x, 10))
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(_place())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    feed = {"X": np.random.rand(10, 1).astype("float32")}
    prog = paddle.static.CompiledProgram(main) if compiled else main  # the default BuildStrategy's passes
    return lambda: exe.run(prog, feed=feed, fetch_list=[loss.name], scope=scope)


def tiny_torch():
    w = torch.randn(1, 10, device=DEVICE, requires_grad=True)
    b = torch.zeros(10, device=DEVICE, requires_grad=True)
    x = np.random.rand(10, 1).astype("float32")

    def step():
        loss = (torch.from_numpy(x).to(DEVICE) @ w + b).mean()
        gw, gb = torch.autograd.grad(loss, [w, b])
        with torch.no_grad():
            w.sub_(0.01 * gw)
            b.sub_(0.01 * gb)
        return loss.detach().cpu().numpy()

    return step


def lenet_program(batch: int):
    """LeNet-5 as a static program (conv 6@5x5 pad 2, pool, conv 16@5x5, pool, fc 120, 84, 10), SGD."""
    import paddle

    paddle.enable_static()
    F = paddle.nn.functional  # noqa: N806
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 1, 28, 28])
        y = paddle.static.data("y", [None, 1], "int64")
        h = F.max_pool2d(paddle.static.nn.conv2d(x, 6, 5, padding=2, act="relu"), 2, 2)
        h = F.max_pool2d(paddle.static.nn.conv2d(h, 16, 5, act="relu"), 2, 2)
        h = paddle.static.nn.fc(paddle.flatten(h, 1), 120, activation="relu")
        h = paddle.static.nn.fc(h, 84, activation="relu")
        loss = paddle.mean(F.softmax_with_cross_entropy(paddle.static.nn.fc(h, 10), y))
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    rng = np.random.RandomState(0)
    feed = {"x": rng.rand(batch, 1, 28, 28).astype("float32"),
            "y": rng.randint(0, 10, (batch, 1)).astype("int64")}
    return lambda: exe.run(main, feed=feed, fetch_list=[loss], scope=scope)


def lenet_torch(batch: int):
    F = torch.nn.functional  # noqa: N806
    shapes = ((6, 1, 5, 5), (16, 6, 5, 5), (400, 120), (120, 84), (84, 10))
    ws = [(torch.randn(*s) * 0.1).requires_grad_() for s in shapes]
    bs = [torch.zeros(s[0] if len(s) == 4 else s[1], requires_grad=True) for s in shapes]
    rng = np.random.RandomState(0)
    x, y = rng.rand(batch, 1, 28, 28).astype("float32"), rng.randint(0, 10, (batch,)).astype("int64")

    def step():
        h = F.max_pool2d(torch.relu(F.conv2d(torch.from_numpy(x), ws[0], bs[0], padding=2)), 2, 2)
        h = F.max_pool2d(torch.relu(F.conv2d(h, ws[1], bs[1])), 2, 2)
        h = torch.relu(torch.flatten(h, 1) @ ws[2] + bs[2])
        h = torch.relu(h @ ws[3] + bs[3])
        loss = F.cross_entropy(h @ ws[4] + bs[4], torch.from_numpy(y))
        grads = torch.autograd.grad(loss, ws + bs)
        with torch.no_grad():
            for p, g in zip(ws + bs, grads):
                p.sub_(0.01 * g)
        return loss.detach().numpy()

    return step


def mlp_infer_program(batch: int):
    """The MLP's forward alone (784-512-512-10), exe.run fetching the logits."""
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 784])
        h = paddle.static.nn.fc(x, 512, activation="relu")
        h = paddle.static.nn.fc(h, 512, activation="relu")
        logits = paddle.static.nn.fc(h, 10)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    feed = {"x": np.random.RandomState(0).rand(batch, 784).astype("float32")}
    return lambda: exe.run(main, feed=feed, fetch_list=[logits], scope=scope)


def mlp_infer_torch(batch: int):
    ws = [torch.randn(a, b) * (2.0 / (a + b)) ** 0.5 for a, b in ((784, 512), (512, 512), (512, 10))]
    bs = [torch.zeros(b) for b in (512, 512, 10)]
    x = np.random.RandomState(0).rand(batch, 784).astype("float32")

    def step():
        with torch.no_grad():
            h = torch.relu(torch.from_numpy(x) @ ws[0] + bs[0])
            h = torch.relu(h @ ws[1] + bs[1])
            return (h @ ws[2] + bs[2]).numpy()

    return step


# row -> (ours / real Paddle's step builder, torch eager's step builder, calls per block)
ROWS = {
    "mlp_train_b128": (lambda: mlp_paddle(128), lambda: mlp_torch(128), 10),
    "lenet_train_b64": (lambda: lenet_program(64), lambda: lenet_torch(64), 5),
    "tiny_fc_exe_run": (tiny_paddle, tiny_torch, 300),
    "mlp_infer_b1024": (lambda: mlp_infer_program(1024), lambda: mlp_infer_torch(1024), 5),
}


def _block_ms(fn, n: int) -> float:
    import time

    t0 = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t0) * 1000.0 / n


def rows_main(args) -> None:
    """Each row round-robin: a block of torch eager steps, a block of ours, and (--paddle) a block of real Paddle's
    timed by a child process in its venv that keeps its programs built and answers one block per request, so
    load from other processes hits all three alike."""
    import statistics
    import subprocess

    torch.set_num_threads(1)
    rounds, repeats, scale = (1, 3, 0.2) if args.quick else (3, 7, 1.0)
    child = None
    if args.paddle:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", CPU_NUM="1")
        child = subprocess.Popen([args.paddle, "-s", os.path.abspath(__file__), "--child-paddle"], cwd="/tmp",
                                 env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if child.stdout.readline().strip() != "ready":
            raise RuntimeError("the real Paddle child did not start (run it alone with --child-paddle)")

    def theirs(name: str, n: int) -> float:
        child.stdin.write(f"{name} {n}\n")
        child.stdin.flush()
        return float(child.stdout.readline())

    print(f"{'row':<18}{'torch ms':>10}{'ours ms':>10}{'x torch':>8}{'(min-max)':>12}"
          + (f"{'paddle ms':>11}{'x torch':>8}{'ours/paddle':>12}" if child else "") + ("     A/A" if args.aa else ""))
    worst = 0.0
    for name, (mine, ref, n) in ROWS.items():
        fns = {"ours": mine(), "torch": ref()}
        if args.aa:  # a second torch eager step, built and timed like the first: torch against itself
            fns["torch again"] = ref()
        n = max(1, int(n * scale))
        for f in fns.values():
            f()
        if child:
            theirs(name, 1)  # warm-up
        per: dict = {"ours": [], "torch": [], "paddle": [], "torch again": []}
        for _ in range(rounds * repeats):
            for k, f in fns.items():
                per[k].append(_block_ms(f, n))
            if child:
                per["paddle"].append(theirs(name, n))
        ratios = [o / t for o, t in zip(per["ours"], per["torch"])]
        # the median over blocks; ratios of the blocks timed side by side
        ratio = statistics.median(ratios)
        med = {k: statistics.median(v) for k, v in per.items() if v}
        line = (f"{name:<18}{med['torch']:>10.3f}{med['ours']:>10.3f}{ratio:>8.2f}"
                f"{f'{min(ratios):.2f}-{max(ratios):.2f}':>12}")
        if child:
            pr = statistics.median(p / t for p, t in zip(per["paddle"], per["torch"]))
            op = statistics.median(o / p for o, p in zip(per["ours"], per["paddle"]))
            line += f"{med['paddle']:>11.3f}{pr:>8.2f}{op:>12.2f}"
        if args.aa:
            line += f"{statistics.median(a / t for a, t in zip(per['torch again'], per['torch'])):>8.2f}"
        print(line, flush=True)
        worst = max(worst, ratio)
    if child:
        child.stdin.close()
        child.wait(timeout=60)
    print(f"static: worst_ratio={worst:.2f}")


def child_paddle() -> None:
    """Under real Paddle: build every row's program, say `ready`, then per request line `ROW N` time N steps and
    answer ms per step (CPU time of this process)."""
    import paddle

    paddle.set_device("cpu")
    steps = {name: mine() for name, (mine, _, _) in ROWS.items()}
    print("ready", flush=True)
    for line in sys.stdin:
        name, n = line.split()
        print(_block_ms(steps[name], int(n)), flush=True)


def main() -> None:
    if "--child-paddle" in sys.argv:
        return child_paddle()
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer iterations (smoke run)")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--batch", type=int, default=128, help="MLP batch size")
    ap.add_argument("--rows", action="store_true", help="issue 29 item 5's rows against torch eager")
    ap.add_argument("--paddle", default=None, help="with --rows: real Paddle 2.6.2's python, for its rows")
    ap.add_argument("--aa", action="store_true", help="with --rows: a second torch eager column, the ratio of torch "
                    "to itself (this run's noise floor)")
    args = ap.parse_args()
    if args.rows or args.paddle:
        return rows_main(args)
    global DEVICE
    DEVICE = args.device
    print(f"device {DEVICE}")
    torch.set_num_threads(max(1, torch.get_num_threads()))
    it_mlp, it_tiny = (5, 200) if args.quick else (30, 2000)
    rows = [("torch eager", median_ms(mlp_torch(args.batch), it_mlp)),
            ("paddle_compat Executor", median_ms(mlp_paddle(args.batch), it_mlp))]
    report(f"MLP 784-512-512-10 training step, batch {args.batch} (target <= 1.10x eager)", rows, "torch eager")
    t_e, t_p = median_ms(tiny_torch(), it_tiny), median_ms(tiny_paddle(), it_tiny)
    report("fc 1->10 + mean + SGD per call, batch 10", [("torch eager", t_e), ("paddle_compat exe.run", t_p)],
           "torch eager")
    print(f"  overhead per exe.run above eager: {(t_p - t_e) * 1000:.1f} us (target <= 100 us)")
    t_c = median_ms(tiny_paddle(compiled=True), it_tiny)
    t_p2 = median_ms(tiny_paddle(), it_tiny)  # again, after the compiled run: the machine's drift shows
    report("the same program as a CompiledProgram (default BuildStrategy)",
           [("plain Program", min(t_p, t_p2)), ("CompiledProgram", t_c)], "plain Program")
    print(f"  CompiledProgram overhead per call: {(t_c - min(t_p, t_p2)) * 1000:.1f} us (target <= 20 us)")


if __name__ == "__main__":
    main()
