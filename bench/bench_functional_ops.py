"""paddle.nn.functional dygraph overhead: paddle_compat vs the equivalent raw torch call, same inputs, same
process (CPU time, single torch thread, best of N). Small = tiny NCHW / [4, 10] inputs (dispatch overhead),
large = [16, 64, 64, 64]-class inputs (kernel time should dominate: ratio -> 1).

    python bench/bench_functional_ops.py [--quick]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import torch
import torch.nn.functional as TF

import paddle
import paddle.nn.functional as F

torch.set_num_threads(1)


def cases(big: bool):
    rng = np.random.RandomState(0)
    n, c, hw = (16, 64, 64) if big else (1, 2, 4)
    x = rng.rand(n, c, hw, hw).astype("float32")
    w = rng.rand(c, c, 3, 3).astype("float32") * 0.1
    logits = rng.rand(1024 if big else 4, 10).astype("float32")
    label = rng.randint(0, 10, size=logits.shape[0]).astype("int64")
    table = rng.rand(1000, 64).astype("float32")
    ids = rng.randint(0, 1000, size=(4096 if big else 4,)).astype("int64")
    lw = rng.rand(10, 10).astype("float32")
    P, T = paddle.to_tensor, torch.from_numpy
    px, tx = P(x), T(x.copy())
    pw, tw = P(w), T(w.copy())
    pl, tl = P(logits), T(logits.copy())
    plab, tlab = P(label), T(label.copy())
    pt, tt = P(table), T(table.copy())
    pid, tid = P(ids), T(ids.copy())
    plw, tlw = P(lw), T(lw.copy())
    mean, var = P(np.zeros(c, "float32")), P(np.ones(c, "float32"))
    tmean, tvar = torch.zeros(c), torch.ones(c)
    return {
        "conv2d": (lambda: F.conv2d(px, pw, padding=1), lambda: TF.conv2d(tx, tw, padding=1)),
        "max_pool2d": (lambda: F.max_pool2d(px, 2), lambda: TF.max_pool2d(tx, 2)),
        "avg_pool2d p1": (lambda: F.avg_pool2d(px, 3, 1, 1), lambda: TF.avg_pool2d(tx, 3, 1, 1,
                                                                                 count_include_pad=False)),
        "batch_norm eval": (lambda: F.batch_norm(px, mean, var), lambda: TF.batch_norm(tx, tmean, tvar)),
        "batch_norm train": (lambda: F.batch_norm(px, mean, var, training=True),
                             lambda: TF.batch_norm(tx, tmean, tvar, training=True)),
        "layer_norm": (lambda: F.layer_norm(px, [hw, hw]), lambda: TF.layer_norm(tx, [hw, hw])),
        "interp bilinear": (lambda: F.interpolate(px, scale_factor=2, mode="bilinear"),
                            lambda: TF.interpolate(tx, scale_factor=2, mode="bilinear")),
        "softmax": (lambda: F.softmax(pl), lambda: torch.softmax(tl, -1)),
        "gelu": (lambda: F.gelu(px), lambda: TF.gelu(tx)),
        "cross_entropy": (lambda: F.cross_entropy(pl, plab), lambda: TF.cross_entropy(tl, tlab).reshape(1)),
        "embedding": (lambda: F.embedding(pid, pt), lambda: TF.embedding(tid, tt)),
        "linear": (lambda: F.linear(pl, plw), lambda: torch.matmul(tl, tlw)),
        "dropout eval": (lambda: F.dropout(px, 0.5, training=False), lambda: TF.dropout(tx, 0.5, training=False)),
    }


def best(fn, iters, repeats):
    fn()
    b = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(iters):
            fn()
        b = min(b, (time.process_time() - t0) / iters)
    return b


def main():
    quick = "--quick" in sys.argv
    print(f"{'op':<17}{'size':>7}{'ours us':>11}{'torch us':>11}{'ratio':>8}")
    for big, iters in ((False, 500), (True, 5)):
        if quick:
            iters = max(iters // 5, 2)
        ratios = []
        for name, (ours, ref) in cases(big).items():
            t_ref = min(best(ref, iters, 3) for _ in range(2))
            t_ours = min(best(ours, iters, 3) for _ in range(2))
            ratios.append(t_ours / t_ref)
            print(f"{name:<17}{'large' if big else 'small':>7}{t_ours * 1e6:>11.1f}{t_ref * 1e6:>11.1f}"
                  f"{t_ours / t_ref:>8.2f}")
        print(f"{'large' if big else 'small'}: median ratio {np.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main()
