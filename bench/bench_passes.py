"""Issue 3 benchmark: BuildStrategy passes, the compiler path and torch, on the elementwise program.

Program (issue 3 item 5): x of [N, D] (full size [4096, 1024]), four rounds of act(x * w + b) with w, b of
shape [D] and act alternating relu / tanh, mean, backward, SGD.

1. Peak memory of one training step (forward + backward + update) above the memory held before it:
   no passes vs memory_optimize + enable_inplace (+ the fusions), against hand-written torch eager.
   Measured on CPU in a fresh subprocess per configuration: the kernel's peak-RSS counter (VmHWM) is
   reset through /proc/self/clear_refs before the step, and glibc is told to serve large blocks by mmap
   (MALLOC_MMAP_THRESHOLD_) so freed buffers really leave the process, and memory_optimize's buffer pool
   is off (PADDLE_COMPAT_BUFFER_POOL=0: its buffers, held from the first step on, would count in the
   starting memory; bench_memory.py measures the process with it). On CUDA (--device cuda) the
   numbers come from torch.cuda.max_memory_allocated.
2. ms per step: no passes, all passes, compiler path (all passes + torch.compile inductor), torch eager,
   torch.compile (of the eager forward + loss; backward through AOTAutograd, update eager as ours).
   Targets: all passes never slower than none; compiler path >= 1.5x faster than eager; peak memory
   with the memory options no higher than eager's.

Run: python bench/bench_passes.py [--full] [--no-compile] [--iters K] [--repeats R] [--device cpu|cuda]
Rows are timed round-robin (interleaved_ms) so machine load affects them alike; first calls (including
torch.compile's compile) are warm-up and not timed.
Sizes default to [1024, 1024] (--full: [4096, 1024]).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from _timing import interleaved_ms, repo_root, report, status_kb  # noqa: E402

ROUNDS = 4
MEM_FLAGS = ("enable_inplace", "memory_optimize")
FUSION_FLAGS = ("fuse_elewise_add_act_ops", "fuse_all_optimizer_ops")


def _init(d: int):
    rng = np.random.RandomState(0)
    ws = [(1.0 + 0.1 * rng.rand(d)).astype("float32") for _ in range(ROUNDS)]
    bs = [(0.1 * rng.rand(d) - 0.05).astype("float32") for _ in range(ROUNDS)]
    return ws, bs


def paddle_step(n: int, d: int, config: str, device: str):
    """config: 'none' (no passes), 'memory' (enable_inplace + memory_optimize only), 'all', 'compiler' (all
    + torch.compile), 'compiler-none' (torch.compile, every option off)."""
    import paddle
    import paddle.fluid as fluid

    paddle.enable_static()
    main, startup = fluid.Program(), fluid.Program()
    ws, bs = _init(d)
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [d], dtype="float32")
        h = x
        for i in range(ROUNDS):
            w = paddle.static.create_parameter([d], "float32", name=f"w{i}",
                                               default_initializer=paddle.nn.initializer.Assign(ws[i]))
            b = paddle.static.create_parameter([d], "float32", name=f"b{i}", is_bias=True,
                                               default_initializer=paddle.nn.initializer.Assign(bs[i]))
            t = fluid.layers.elementwise_add(fluid.layers.elementwise_mul(h, w), b)
            h = fluid.layers.relu(t) if i % 2 == 0 else fluid.layers.tanh(t)
        loss = fluid.layers.mean(h)
        fluid.optimizer.SGD(0.01).minimize(loss)
    place = fluid.CUDAPlace(0) if device == "cuda" else fluid.CPUPlace()
    exe = fluid.Executor(place)
    exe.run(startup)
    bst = fluid.BuildStrategy()
    for name, (default, types) in bst.FIELDS.items():  # 'none': every boolean option off
        if bool in types:
            setattr(bst, name, False)
    if config in ("memory", "all", "compiler"):
        for f in MEM_FLAGS:
            setattr(bst, f, True)
    if config in ("all", "compiler"):
        for f in FUSION_FLAGS:
            setattr(bst, f, True)
    for f in filter(None, os.environ.get("BENCH_PASSES_FLAGS", "").split(",")):  # extra options, for experiments
        setattr(bst, f, True)
    prog = fluid.CompiledProgram(main, bst)
    prog._with_compiler("inductor" if config in ("compiler", "compiler-none") else None)
    xv = np.random.RandomState(1).rand(n, d).astype("float32")
    feed = {"x": xv if device == "cpu" else paddle_tensor(xv, device)}
    return lambda: exe.run(prog, feed=feed, fetch_list=[loss])


def paddle_tensor(xv, device):
    return torch.from_numpy(xv).to(device)


def torch_step(n: int, d: int, device: str, compiled: bool = False):
    ws, bs = _init(d)
    params = [torch.tensor(a, device=device, requires_grad=True) for a in ws + bs]
    x = torch.from_numpy(np.random.RandomState(1).rand(n, d).astype("float32")).to(device)
    lr = 0.01

    def fwd(x, *p):
        h = x
        for i in range(ROUNDS):
            t = h * p[i] + p[ROUNDS + i]
            h = torch.relu(t) if i % 2 == 0 else torch.tanh(t)
        return h.mean()

    f = torch.compile(fwd) if compiled else fwd

    def step():
        loss = f(x, *params)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.sub_(g * lr)
        return loss.detach().cpu().numpy()

    return step


# --- peak memory ---------------------------------------------------------------------------------------
def mem_child(config: str, n: int, d: int, device: str) -> None:
    step = torch_step(n, d, device) if config == "eager" else paddle_step(n, d, config, device)
    for _ in range(2):
        step()
    if device == "cuda":
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step()
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - base
    else:
        base = status_kb("VmRSS")
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM to the current RSS
        step()
        peak = (status_kb("VmHWM") - base) * 1024
    print(json.dumps({"config": config, "peak_bytes": peak}))


def peak_memory(config: str, n: int, d: int, device: str) -> float:
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", MALLOC_TRIM_THRESHOLD_="0", PADDLE_COMPAT_BUFFER_POOL="0")
    root = repo_root()
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(root, "shims"), root, env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--mem-child", config, "--n", str(n),
                          "--d", str(d), "--device", device], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["peak_bytes"] / 2**20


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true", help="x of [4096, 1024] (issue 3's size)")
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--d", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--no-compile", action="store_true", help="skip the two torch.compile rows (slow first call)")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--mem-child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    n = args.n or (4096 if args.full else 1024)
    if args.mem_child:
        mem_child(args.mem_child, n, args.d, args.device)
        return
    print(f"elementwise program: x [{n}, {args.d}], {ROUNDS} rounds of relu/tanh(x*w+b), mean, SGD; "
          f"device {args.device}, torch {torch.__version__}, {torch.get_num_threads()} threads")

    mem = [("torch eager", peak_memory("eager", n, args.d, args.device)),
           ("paddle_compat, no passes", peak_memory("none", n, args.d, args.device)),
           ("paddle_compat, enable_inplace+memory_optimize", peak_memory("memory", n, args.d, args.device)),
           ("paddle_compat, all passes", peak_memory("all", n, args.d, args.device))]
    base = dict(mem)["torch eager"]
    print("\npeak memory of one training step above the step's starting memory (target: memory options <= eager)")
    for name, mb in mem:
        print(f"  {name:<46} {mb:9.1f} MiB   x{mb / base:5.2f} vs torch eager")

    fns = {"torch eager": torch_step(n, args.d, args.device),
           "paddle_compat, no passes": paddle_step(n, args.d, "none", args.device),
           "paddle_compat, all passes": paddle_step(n, args.d, "all", args.device)}
    if not args.no_compile:
        fns["paddle_compat, compiler path"] = paddle_step(n, args.d, "compiler", args.device)
        fns["torch.compile"] = torch_step(n, args.d, args.device, compiled=True)
    times = interleaved_ms(fns, args.iters, args.repeats)
    rows = list(times.items())
    report("ms per training step (targets: all passes <= no passes; compiler path >= 1.5x faster than eager)",
           rows, "torch eager")


if __name__ == "__main__":
    main()
