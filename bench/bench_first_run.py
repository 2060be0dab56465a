"""Issue 15 items 1 and 2: what a CompiledProgram costs before its steady state, and per call after it.

1. First build + first run, in a warm process (imports and torch's one-time set-up done by a warm-up round),
   of the network Paddle's pass tests build (simple_nets.simple_fc_net: 784 -> 4 x fc 200 relu -> fc 10
   softmax, cross entropy, Adam; batch 32), each row from scratch (new program, new scope):
     torch eager                 5 nn.Linear + Adam, one training step
     plain Program               build the program, run startup, first exe.run(main)
     CompiledProgram, all on     the same with every BuildStrategy pass option on (one place)
     data parallel x4, all on    ... with_data_parallel over 4 CPU places, every option on
   Ratios against torch eager and against the plain Program, measured in the same run.
2. A new fetch list on a built CompiledProgram (Paddle's test_buffer_shared_memory_reuse_pass fetches every
   variable in turn: each new fetch list is a new plan: graph copy, passes, code generation), against a
   cached run of the same program.
3. Per-call overhead on the tiny fc program (fc 1 -> 10, mean, SGD, batch 10): plain Program, CompiledProgram
   with the default BuildStrategy (target: within 20 us of the plain Program) and with every option on,
   against torch eager; rows timed round-robin so that machine load hits them alike.

Run: python bench/bench_first_run.py [--quick] [--repeats R] [--only first|fetch|call] [--wall] [--cold]
     [--paddle /work/oracle/p18/bin/python]
(--cold: our rows clear the shape-inference cache before each build, as for a program the process has not
built before; without it the warm-up round has recorded the same ops, as a script building many similar programs
would; a plan's first runs are interpreted either way, engine/framework/fx_interp.py)
(section 3 times CPU time, --wall wall-clock time; run it under OMP_NUM_THREADS=1 on a shared machine)
(--paddle: section 1's Paddle rows also under real Paddle 1.8.5, in a child process without our paths; its
options are P18_OPTIONS)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import interleaved_ms, report  # noqa: E402

BATCH = 32
NOT_PASSES = ("debug_graphviz_path",)


# real Paddle 1.8.5's BuildStrategy pass options (sync_batch_norm left out: 1.8.5 refuses it on CPU)
P18_OPTIONS = ("enable_inplace", "memory_optimize", "fuse_elewise_add_act_ops", "fuse_all_optimizer_ops",
               "fuse_all_reduce_ops", "fuse_relu_depthwise_conv", "fuse_bn_act_ops", "fuse_broadcast_ops",
               "enable_sequential_execution")


def all_on():
    """A BuildStrategy with every pass option on (the boolean fields PIPELINE reads; under real Paddle,
    P18_OPTIONS)."""
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    try:
        from paddle_compat.engine.passes import PIPELINE, _load
    except ImportError:  # real Paddle (--paddle)
        for name in P18_OPTIONS:
            setattr(bs, name, True)
        return bs
    _load()
    for flag, _ in PIPELINE:
        name = flag.partition(":")[0]
        if name not in NOT_PASSES:
            setattr(bs, name, True)
    return bs


def _feed():
    rng = np.random.RandomState(0)
    return {"image": rng.rand(BATCH, 784).astype("float32"),
            "label": rng.randint(0, 10, (BATCH, 1)).astype("int64")}


def fc_net():
    """simple_fc_net of Paddle's unittests (simple_nets.py), written anew: (main, startup, loss)."""
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        img = fluid.layers.data(name="image", shape=[784], dtype="float32")
        label = fluid.layers.data(name="label", shape=[1], dtype="int64")
        h = img
        for _ in range(4):
            h = fluid.layers.fc(h, size=200, act="relu",
                                bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(1.0)))
        pred = fluid.layers.fc(h, size=10, act="softmax")
        loss = fluid.layers.mean(fluid.layers.cross_entropy(input=pred, label=label))
        fluid.optimizer.Adam(learning_rate=1e-3).minimize(loss)
    return main, startup, loss


# --cold: forget the shape-inference cache before each build (paddle_compat/engine/framework/infer.py), so that every
# row costs what building a program never built before in the process costs
COLD = [False]


def first_paddle(kind: str):
    """Build + startup + first run; returns (ms, exe, program, loss, scope, feed) for later rows."""
    import paddle.fluid as fluid

    if COLD[0]:
        from paddle_compat.engine.framework import infer

        infer._CACHE.clear()
    feed = _feed()
    t0 = time.perf_counter()
    main, startup, loss = fc_net()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(startup, scope=scope)
    prog = main
    if kind == "compiled":
        prog = fluid.CompiledProgram(main, all_on())
    elif kind == "dp":
        prog = fluid.CompiledProgram(main, all_on()).with_data_parallel(loss_name=loss.name,
                                                                       places=fluid.cpu_places(4))
    with fluid.scope_guard(scope):
        exe.run(prog, feed=feed, fetch_list=[loss])
    ms = (time.perf_counter() - t0) * 1000
    return ms, exe, prog, main, loss, scope, feed


def first_torch() -> float:
    import torch

    feed = _feed()
    t0 = time.perf_counter()
    layers = [torch.nn.Linear(784, 200)] + [torch.nn.Linear(200, 200) for _ in range(3)] + [torch.nn.Linear(200, 10)]
    params = [p for m in layers for p in m.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)
    x, y = torch.from_numpy(feed["image"]), torch.from_numpy(feed["label"]).reshape(-1)
    h = x
    for m in layers[:-1]:
        h = torch.relu(m(h))
    loss = torch.nn.functional.cross_entropy(layers[-1](h), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss.detach().numpy()
    return (time.perf_counter() - t0) * 1000


PADDLE_KINDS = [("plain Program", "plain"), ("CompiledProgram, all options on", "compiled"),
                ("data parallel x4 CPU places, all on", "dp")]


def first_runs_child(repeats: int) -> None:
    """Under real Paddle (--paddle): the Paddle rows of first_runs, as JSON on the last line."""
    import json

    for _, k in PADDLE_KINDS:
        first_paddle(k)
    per: dict = {name: [] for name, _ in PADDLE_KINDS}
    for _ in range(repeats):
        for name, k in PADDLE_KINDS:
            per[name].append(first_paddle(k)[0])
    print(json.dumps({name: statistics.median(v) for name, v in per.items()}))


def paddle_rows(python: str, repeats: int) -> list:
    import json
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.setdefault("GLOG_minloglevel", "2")
    out = subprocess.run([python, "-s", os.path.abspath(__file__), "--child", "--repeats", str(repeats)], env=env,
                         cwd="/tmp", capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1:])
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return [(f"real Paddle: {name}", ms) for name, ms in data.items()]


def first_runs(repeats: int, paddle_python: str | None = None) -> None:
    """Rows timed round-robin; with `paddle_python`, one child run of real Paddle's rows (one sample each,
    after its own warm-up) between two rounds of ours, so that machine load hits both sides alike."""
    kinds = [("torch eager", None)] + PADDLE_KINDS
    for _, k in kinds:  # warm-up: imports, torch's one-time kernel set-up
        first_torch() if k is None else first_paddle(k)
    per: dict = {name: [] for name, _ in kinds}
    for _ in range(repeats):  # round-robin
        for name, k in kinds:
            per[name].append(first_torch() if k is None else first_paddle(k)[0])
        if paddle_python:
            for name, ms in paddle_rows(paddle_python, 1):
                per.setdefault(name, []).append(ms)
    rows = [(name, statistics.median(v)) for name, v in per.items()]


    report(f"first build + first run, fc net 784-200x4-10 + Adam, batch {BATCH} (median of {repeats})",
           rows, "torch eager")
    d = dict(rows)
    base = d["plain Program"]
    for name, ms in rows[2:4]:
        print(f"  {name:<34} x{ms / base:5.2f} vs plain Program")
    for name, _ in PADDLE_KINDS:
        if f"real Paddle: {name}" in d:
            print(f"  {name:<34} x{d[name] / d['real Paddle: ' + name]:5.2f} vs real Paddle's")


def new_fetch_lists(repeats: int) -> None:
    """Per new plan (a fetch list not run before) against a cached run, one place and four."""
    import paddle.fluid as fluid

    rows = []
    for label, kind in (("CompiledProgram, all on", "compiled"), ("data parallel x4, all on", "dp")):
        _, exe, prog, main, loss, scope, feed = first_paddle(kind)
        names = [n for n, v in main.global_block().vars.items() if not v.persistable and 0 not in v.shape][:repeats * 4]
        with fluid.scope_guard(scope):
            ms = []
            for _ in ("new", "cached"):
                t0, c0 = time.perf_counter(), time.process_time()
                for n in names:
                    exe.run(prog, feed=feed, fetch_list=[n])
                ms.append(((time.perf_counter() - t0) * 1000 / len(names),
                           (time.process_time() - c0) * 1000 / len(names)))
        rows += [(f"{label}: cached run", ms[1]), (f"{label}: new fetch list", ms[0])]
    print(f"\nnew fetch list (a new plan) against a cached run, fc net, batch {BATCH} (wall; CPU time of all threads)")
    for i in range(0, len(rows), 2):
        (cn, (c, cc)), (nn, (n, nc)) = rows[i], rows[i + 1]
        print(f"  {cn:<44} {c:9.3f} ms  CPU {cc:8.3f} ms")
        print(f"  {nn:<44} {n:9.3f} ms  CPU {nc:8.3f} ms   x{n / c:5.2f} vs cached run (+{n - c:.1f} ms per new plan, "
              f"CPU +{nc - cc:.1f} ms)")


def tiny(kind: str):
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("X", [None, 1])
        loss = paddle.mean(paddle.static.nn.fc(x, 10))
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    feed = {"X": np.random.RandomState(0).rand(10, 1).astype("float32")}
    prog = main
    if kind == "default":
        prog = paddle.static.CompiledProgram(main)
    elif kind == "all":
        prog = paddle.static.CompiledProgram(main, all_on())
    return lambda: exe.run(prog, feed=feed, fetch_list=[loss.name], scope=scope)


def tiny_torch():
    import torch

    w = torch.randn(1, 10, requires_grad=True)
    b = torch.zeros(10, requires_grad=True)
    x = np.random.RandomState(0).rand(10, 1).astype("float32")

    def step():
        loss = (torch.from_numpy(x) @ w + b).mean()
        gw, gb = torch.autograd.grad(loss, [w, b])
        with torch.no_grad():
            w.sub_(0.01 * gw)
            b.sub_(0.01 * gb)
        return loss.detach().numpy()

    return step


def per_call(iters: int, repeats: int, wall: bool = False) -> None:
    fns = {"torch eager": tiny_torch(), "plain Program": tiny("plain"),
           "CompiledProgram (default strategy)": tiny("default"), "CompiledProgram (all options on)": tiny("all")}
    # CPU time (the calls are single-threaded under OMP_NUM_THREADS=1): a shared machine's waits for a core
    # otherwise swamp a 20 us difference; --wall times wall-clock instead
    clock = time.perf_counter if wall else time.process_time
    rows = list(interleaved_ms(fns, iters, repeats, warmup=50, lower_quartile=True, clock=clock).items())
    report(f"per call, fc 1->10 + mean + SGD, batch 10 ({'wall' if wall else 'CPU'} time, lower quartile of "
           f"{repeats} rounds of {iters})", rows, "torch eager")
    d = dict(rows)
    for k in ("CompiledProgram (default strategy)", "CompiledProgram (all options on)"):
        print(f"  {k:<34} {(d[k] - d['plain Program']) * 1000:+7.1f} us vs plain Program (target <= +20 us)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smoke run")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--paddle", default=None, help="python of a real Paddle 1.8.5 install: add its first-run rows")
    ap.add_argument("--wall", action="store_true", help="per-call section: wall-clock time instead of CPU time")
    ap.add_argument("--only", choices=("first", "fetch", "call"), default=None, help="run one section")
    ap.add_argument("--cold", action="store_true",
                    help="clear our shape-inference cache before each build (a program new to the process)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    r = args.repeats or (2 if args.quick else 7)
    if args.child:
        first_runs_child(r)
        return
    import paddle
    import torch

    COLD[0] = args.cold
    paddle.enable_static()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    if args.only in (None, "first"):
        first_runs(r, args.paddle)
    if args.only in (None, "fetch"):
        if args.only:  # warm-up: imports, torch's one-time kernel set-up
            for kind in ("compiled", "dp"):
                first_paddle(kind)
        new_fetch_lists(r)
    if args.only in (None, "call"):
        per_call(50 if args.quick else 500, 4 if args.quick else 21, args.wall)


if __name__ == "__main__":
    main()
