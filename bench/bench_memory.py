"""Issue 15 item 3 (and item 4's memory): peak memory of the elementwise chain, as the process sees it.

Program: x [4096, 1024], 4 rounds of act(x * w + b) (relu / tanh alternating), mean, SGD (bench_passes.py's,
written here with the paddle.static API so that the same code also runs under real Paddle 2.6.2).

Method (no tracemalloc, no psutil): every configuration runs in a fresh subprocess; after building the
program and a warm-up step the child reads VmRSS from /proc/self/status, resets the kernel's peak-RSS
counter (VmHWM) through /proc/self/clear_refs, runs STEPS training steps and reads VmHWM again. Printed:
  peak RSS      the process's peak resident memory during the steps (what the issue's 779 / 441 MB are)
  above start   that peak minus the RSS before the steps (the steps' own memory)
  live peak     the same measurement with glibc told to serve blocks >= 64 KiB by mmap
                (MALLOC_MMAP_THRESHOLD_), so that a freed buffer leaves the process at once: the peak of
                simultaneously live buffers, which is what the memory passes control (measured with
                memory_optimize's buffer pool off: its buffers are held from the warm-up step on, so they
                would count in the start RSS)
  ms / step     median CPU time per step in the child (the machine is shared: CPU time, not wall time)
  first call    wall time of the child's first step (plan, passes and, on the compiler path, torch.compile);
                the compiler rows' first child gets an empty TORCHINDUCTOR_CACHE_DIR, so this is a cold
                compile (inductor's on-disk caches would otherwise make every later run warm)
  faults        minor page faults per step (4096 = one fresh 16 MiB buffer faulted in and zeroed)
With --compile, a last row compiles a one-op function of 16 floats in plain torch: the resident memory
torch.compile's own modules and state take (dynamo, inductor, sympy), which every compiler-path row carries.
glibc's default allocator keeps freed 16 MiB blocks in its heap and fragments it (torch allocates with
posix_memalign), so `peak RSS` under the default allocator is well above the live peak; Paddle's own
allocator caches and reuses blocks. With memory_optimize, a plan does the same for the large buffers of the
bodies the pass selects (engine/core/buffer_pool.py): the `inplace+memory_optimize` and `all passes` rows peak at
the live peak with no page faults per step. `--pool-off` adds those rows with PADDLE_COMPAT_BUFFER_POOL=0
(every buffer from glibc, as before the pool). `--thp` adds rows with torch's THP_MEM_ALLOC_ENABLE=1
(2 MiB-aligned large blocks, served by mmap: RSS follows the live peak, each step pays the page faults and
zeroing of its large buffers). `--paddle PYTHON` adds real Paddle 2.6.2's rows (run from /tmp without our
paths).

--timing (issue 29 item 2's elementwise-chain target) times instead, in one child process: torch eager, the
program with every option, the compiler path with every option, and plain torch.compile of the eager step (the
reference), each the median of interleaved blocks (every row timed round-robin, so the machine's load hits every
row alike; the memory rows above time each configuration in its own process, three steps each).

Run: python bench/bench_memory.py [--n 4096] [--steps 3] [--compile] [--pool-off] [--thp] [--timing]
                                  [--paddle /work/oracle/p26/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

ROUNDS = 4
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _timing import repo_root  # noqa: E402

ROOT = repo_root()



def _init(d: int):
    rng = np.random.RandomState(0)
    ws = [(1.0 + 0.1 * rng.rand(d)).astype("float32") for _ in range(ROUNDS)]
    bs = [(0.1 * rng.rand(d) - 0.05).astype("float32") for _ in range(ROUNDS)]
    return ws, bs


def static_step(n: int, d: int, config: str):
    """config: none (every option off), memory (enable_inplace + memory_optimize), all (+ the fusions),
    compiler (all + torch.compile; paddle_compat only), compiler-none (torch.compile, options off)."""
    import paddle
    import paddle.static as st

    paddle.enable_static()
    main, startup = st.Program(), st.Program()
    ws, bs_ = _init(d)
    with st.program_guard(main, startup):
        x = st.data("x", [-1, d], dtype="float32")
        h = x
        for i in range(ROUNDS):
            w = st.create_parameter([d], "float32", name=f"w{i}", default_initializer=paddle.nn.initializer.Assign(ws[i]))
            b = st.create_parameter([d], "float32", name=f"b{i}", is_bias=True,
                                    default_initializer=paddle.nn.initializer.Assign(bs_[i]))
            t = h * w + b
            h = paddle.nn.functional.relu(t) if i % 2 == 0 else paddle.tanh(t)
        loss = paddle.mean(h)
        paddle.optimizer.SGD(0.01).minimize(loss)
    exe = st.Executor(paddle.CPUPlace())
    exe.run(startup)
    bst = st.BuildStrategy()
    for f in ("enable_inplace", "memory_optimize", "fuse_elewise_add_act_ops", "fuse_all_optimizer_ops"):
        setattr(bst, f, False)
    if config in ("memory", "all", "compiler"):
        bst.enable_inplace = bst.memory_optimize = True
    if config in ("all", "compiler"):
        bst.fuse_elewise_add_act_ops = bst.fuse_all_optimizer_ops = True
    prog = st.CompiledProgram(main, build_strategy=bst)
    if config.startswith("compiler"):
        prog._with_compiler("inductor")
    xv = np.random.RandomState(1).rand(n, d).astype("float32")
    return lambda: exe.run(prog, feed={"x": xv}, fetch_list=[loss])


def child(config: str, n: int, d: int, steps: int) -> None:
    sys.path.insert(0, HERE)
    from _timing import status_kb

    if config == "timing":
        timing_child(n, d)
        return
    if config == "eager":
        from bench_passes import torch_step

        step = torch_step(n, d, "cpu")
    elif config == "compile-floor":  # torch.compile's own footprint: a one-op function on 16 floats
        import torch

        fn, t = torch.compile(lambda v: torch.tanh(v * 2 + 1)), torch.ones(16)
        step = lambda: fn(t)  # noqa: E731
    else:
        step = static_step(n, d, config)
    t0 = time.perf_counter()
    step()
    first = time.perf_counter() - t0
    step()
    base = status_kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM to the current RSS
    times = []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(steps):
        t0 = time.process_time()
        step()
        times.append((time.process_time() - t0) * 1000)
    peak = status_kb("VmHWM")
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / steps
    print(json.dumps({"base_mib": base / 1024, "peak_mib": peak / 1024, "ms": sorted(times)[len(times) // 2],
                      "first_s": first, "faults": faults}))


TIMED = (("torch eager", "eager"), ("paddle_compat, all passes", "all"),
         ("paddle_compat, compiler path, all options", "compiler"), ("plain torch.compile of the eager step", "tc"))


def timing_child(n: int, d: int) -> None:
    """ms per step of TIMED's rows, timed round-robin in this one process (medians of the blocks)."""
    from _timing import interleaved_ms
    from bench_passes import torch_step

    steps = {cfg: torch_step(n, d, "cpu", compiled=cfg == "tc") if cfg in ("eager", "tc") else static_step(n, d, cfg)
             for _, cfg in TIMED}
    print(json.dumps(interleaved_ms(steps, 2, repeats=9, warmup=2)))


def run_child(config: str, args, env_extra: dict, python: str | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(env_extra)
    if python is None:
        python = sys.executable
        env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "shims")])
        cmd = [python, os.path.abspath(__file__)]
    else:  # real Paddle: numpy.random before paddle (2.6.2), none of our paths
        cmd = [python, "-s", "-c", "import numpy.random, runpy, sys; sys.argv = sys.argv[1:]; "
               "runpy.run_path(sys.argv[0], run_name='__main__')", os.path.abspath(__file__)]
    cmd += ["--child", config, "--n", str(args.n), "--d", str(args.d), "--steps", str(args.steps)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd="/tmp")
    if out.returncode != 0:
        raise RuntimeError(f"{config}: {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--d", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--compile", action="store_true", help="add the torch.compile rows (item 4; slow first call)")
    ap.add_argument("--pool-off", action="store_true",
                    help="add the memory_optimize rows without the plan's buffer pool (PADDLE_COMPAT_BUFFER_POOL=0)")
    ap.add_argument("--thp", action="store_true", help="add rows under THP_MEM_ALLOC_ENABLE=1")
    ap.add_argument("--paddle", default=None, help="python of a real Paddle 2.6.2 install: add its rows")
    ap.add_argument("--timing", action="store_true",
                    help="time eager, all passes, the compiler path and torch.compile round-robin in one process")
    ap.add_argument("--quick", action="store_true", help="smoke run: x [1024, 1024], 2 steps")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.quick:
        args.n, args.steps = 1024, 2
    if args.child:
        child(args.child, args.n, args.d, args.steps)
        return
    if args.timing:
        ms = run_child("timing", args, {})
        print(f"elementwise chain x [{args.n}, {args.d}], {ROUNDS} rounds, SGD; one process, medians of "
              "interleaved blocks")
        for name, cfg in TIMED:
            print(f"  {name:<56} {ms[cfg]:8.1f} ms {ms[cfg] / ms['eager']:6.2f} x eager")
        print(f"elementwise chain: compiler_all_ratio={ms['compiler'] / ms['eager']:.2f} "
              f"torch_compile_ratio={ms['tc'] / ms['eager']:.2f}")
        return
    configs = [("torch eager", "eager"), ("paddle_compat, no passes", "none"),
               ("paddle_compat, enable_inplace+memory_optimize", "memory"), ("paddle_compat, all passes", "all")]
    if args.compile:
        configs += [("paddle_compat, compiler path, options off", "compiler-none"),
                    ("paddle_compat, compiler path, all options", "compiler"),
                    ("torch.compile of one tanh on 16 floats (compiler alone)", "compile-floor")]
    live_env = {"MALLOC_MMAP_THRESHOLD_": "65536", "MALLOC_TRIM_THRESHOLD_": "0", "PADDLE_COMPAT_BUFFER_POOL": "0"}
    rows = []
    for name, cfg in configs:
        if cfg.startswith("compile"):  # a cold compile: inductor's caches empty for this child
            with tempfile.TemporaryDirectory(prefix="bench_memory_inductor_") as cache:
                r = run_child(cfg, args, {"TORCHINDUCTOR_CACHE_DIR": cache})
        else:
            r = run_child(cfg, args, {})
        live = run_child(cfg, args, live_env)
        rows.append((name, r, live["peak_mib"] - live["base_mib"]))
        if args.pool_off and cfg in ("memory", "all"):
            rows.append((name + " [pool off]", run_child(cfg, args, {"PADDLE_COMPAT_BUFFER_POOL": "0"}), None))
        if args.thp:
            rows.append((name + " [THP]", run_child(cfg, args, {"THP_MEM_ALLOC_ENABLE": "1"}), None))
    if args.paddle:
        for name, cfg in (("real Paddle 2.6.2, no passes", "none"), ("real Paddle 2.6.2, inplace+memory_optimize",
                                                                      "memory")):
            rows.append((name, run_child(cfg, args, {}, args.paddle), None))
    print(f"elementwise chain x [{args.n}, {args.d}], {ROUNDS} rounds, SGD; {args.steps} steps per child; "
          "peak RSS under glibc's default allocator unless marked")
    print(f"  {'':<56} {'peak RSS':>10} {'above start':>12} {'live peak':>12} {'ms/step':>8} {'x eager':>8} "
          f"{'faults':>7} {'first call':>10}")
    eager_ms = rows[0][1]["ms"]  # torch eager's row: ms/step ratios against it (each row its own process)
    ref = next((r["peak_mib"] for name, r, _ in rows if name.startswith("real Paddle 2.6.2, inplace")), None)
    for name, r, live in rows:
        lv = f"{live:8.0f} MiB" if live is not None else f"{'-':>12}"
        cmp = f"   x{r['peak_mib'] / ref:4.2f} vs Paddle" if ref else ""
        first = f"{r['first_s']:9.2f}s" if "first_s" in r else f"{'-':>10}"
        print(f"  {name:<56} {r['peak_mib']:6.0f} MiB {r['peak_mib'] - r['base_mib']:8.0f} MiB {lv} "
              f"{r['ms']:8.1f} {r['ms'] / eager_ms:8.2f} {r.get('faults', 0):7.0f} {first}{cmp}")


if __name__ == "__main__":
    main()
