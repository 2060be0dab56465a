"""Where a model's training step spends its time (issue 29, item 2): torch.profiler over a few training steps of
bench_models.py's torch eager row and of its compiler row, the self CPU time of every op grouped by kind of kernel.

  python bench/profile_models.py [--models bert_base,vit_small] [--steps 3]

Kinds: matmul (aten's mm / addmm / bmm and oneDNN's linear), conv (oneDNN's and ATen's GEMM convolutions, forward and
backward), rnn (oneDNN's LSTM layers), attention (torch's fused CPU attention), fused (the kernels inductor generated,
one entry per compiled graph), dispatch (paddle_compat's custom GEMM op around oneDNN's, its Python and dispatcher
cost) and other. For the matrix products it counts the multiply-adds from the shapes the profiler recorded and prints
the rate they ran at, beside this CPU's GEMM peak measured in the same run (the best of aten's and oneDNN's 2048^3
product). The last column, `at peak`, is the step time if every matrix product ran at that peak and nothing else
changed: how far better GEMM kernels alone could take a step, for torch and for us alike.

A profiled step runs slower than a timed one (the profiler's cost per op falls on torch eager's ~2,000 ops a step more
than on a compiled graph's few hundred): read the shares and rates here, the ratios in bench_models.py.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

import bench_models as bm

KINDS = {
    "matmul": ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "mkldnn::_linear_pointwise"),
    "conv": ("aten::mkldnn_convolution", "aten::convolution_backward", "aten::_slow_conv2d_forward",
             "aten::_slow_conv2d_backward", "aten::mkldnn_convolution_backward"),
    "rnn": ("aten::mkldnn_rnn_layer", "aten::mkldnn_rnn_layer_backward"),
    "attention": ("aten::_scaled_dot_product_flash_attention_for_cpu",
                  "aten::_scaled_dot_product_flash_attention_for_cpu_backward"),
    "dispatch": ("paddle_compat::onednn_dense",),
}
KIND_OF = {op: kind for kind, ops in KINDS.items() for op in ops}
ORDER = ("matmul", "conv", "rnn", "attention", "fused", "dispatch", "other")


def kind(key: str) -> str:
    return "fused" if key.startswith("## Call CompiledFxGraph") else KIND_OF.get(key, "other")


def macs(key: str, shapes: list) -> int:
    """Multiply-adds of one matrix-product call from its recorded input shapes (0 for anything else)."""
    try:
        if key == "aten::mm":
            (m, k), (_, n) = shapes[0], shapes[1]
        elif key == "aten::addmm":
            (m, k), (_, n) = shapes[1], shapes[2]
        elif key in ("aten::bmm", "aten::baddbmm"):
            a, b = (shapes[0], shapes[1]) if key == "aten::bmm" else (shapes[1], shapes[2])
            return a[0] * a[1] * a[2] * b[2]
        elif key == "mkldnn::_linear_pointwise":
            x, w = shapes[0], shapes[1]
            return math.prod(x) * w[0]
        else:
            return 0
    except (IndexError, TypeError, ValueError):
        return 0
    return m * k * n


def peak_gmacs() -> float:
    """This CPU's float32 GEMM rate (multiply-adds per ns): the faster of aten's mm and oneDNN's linear on 2048^3."""
    import torch

    a, b = torch.randn(2048, 2048), torch.randn(2048, 2048)
    best = math.inf
    for f in (lambda: torch.mm(a, b), lambda: torch.ops.mkldnn._linear_pointwise(a, b, None, "none", [], "")):
        f()
        for _ in range(3):
            t0 = time.perf_counter()
            f()
            best = min(best, time.perf_counter() - t0)
    return 2048 ** 3 / best / 1e9


def profile_steps(step, steps: int) -> tuple[dict, dict, float]:
    """({kind: ms a step}, {kind: multiply-adds a step}, wall ms a step) of `steps` profiled calls of `step`."""
    from torch.profiler import profile

    step()
    step()
    with profile(record_shapes=True) as p:
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        wall = (time.perf_counter() - t0) * 1000.0 / steps
    ms = dict.fromkeys(ORDER, 0.0)
    work = dict.fromkeys(ORDER, 0)
    for e in p.key_averages(group_by_input_shape=True):
        k = kind(e.key)
        ms[k] += e.self_cpu_time_total / 1000.0 / steps
        work[k] += macs(e.key, e.input_shapes) * e.count // steps
    return ms, work, wall


def main() -> None:
    args = sys.argv[1:]
    names = args[args.index("--models") + 1].split(",") if "--models" in args else list(bm.shapes())
    steps = int(args[args.index("--steps") + 1]) if "--steps" in args else 3
    import torch

    peak = peak_gmacs()
    print(f"profile: training steps, torch {torch.__version__}, {torch.get_num_threads()} threads, self CPU ms a step "
          f"({steps} profiled steps); GEMM peak of this CPU {peak:.0f} GMAC/s")
    print(f"{'model':<14} {'row':<9} {'step ms':>8} " + " ".join(f"{k:>9}" for k in ORDER)
          + f" {'GMAC':>6} {'GMAC/s':>7} {'at peak':>8}")
    for name in names:
        s = bm.shapes()[name]
        x, y = bm.inputs(name, s, np.random.RandomState(0))
        rows = {"torch": bm.torch_rows(name, s, x, y)[0], "compiler": bm.static_rows(name, s, x, y, compiler=True)[0]}
        for row, step in rows.items():
            ms, work, wall = profile_steps(step, steps)
            total = sum(ms.values())
            gmac = work["matmul"] / 1e9
            rate = gmac / ms["matmul"] * 1000.0 if ms["matmul"] else 0.0
            at_peak = total - ms["matmul"] + (gmac / peak * 1000.0)
            print(f"{name:<14} {row:<9} {wall:>8.1f} " + " ".join(f"{ms[k]:>9.1f}" for k in ORDER)
                  + f" {gmac:>6.1f} {rate:>7.0f} {at_peak:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
