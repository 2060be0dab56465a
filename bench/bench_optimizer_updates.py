"""Issue 15: the optimizer update alone, paddle_compat's update ops against torch.optim in the same run.

Rows (CPU, one thread; times are the median of round-robin blocks; `faults` is minor page faults per step):
  fluid Adam, one op per parameter   simple_fc_net's ten parameters (784x200, 3 x 200x200, 200x10 and the biases),
                                     one `adam` op each as a fluid program runs them (fuse_all_optimizer_ops off;
                                     1.8's kernel: moments and update in float32)
  paddle.optimizer.Adam step         ten Linear(256, 256) layers, dygraph (2.x's kernel: the update in double)
  SGD update, 4096x1024              one `sgd` op on a 4M-element parameter
against torch.optim.Adam (foreach=False: one parameter at a time, and its default multi-tensor form) and
torch.optim.SGD over the same tensors. Paddle's roundings cost more kernels than torch's fused multiply-adds
(update_ops.py), so the target is not torch's time but no page faults and a ratio that stays put.

Run: python bench/bench_optimizer_updates.py [--quick]
"""

from __future__ import annotations

import os
import resource
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import interleaved_ms  # noqa: E402

FC_SHAPES = [(784, 200), (200,), (200, 200), (200,), (200, 200), (200,), (200, 200), (200,), (200, 10), (10,)]


def faults_per_call(fn, n: int = 20) -> float:
    r0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(n):
        fn()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - r0) / n


def params_with_grads(shapes, seed: int) -> list:
    g = torch.Generator().manual_seed(seed)
    out = []
    for s in shapes:
        p = torch.nn.Parameter(torch.randn(s, generator=g))
        p.grad = torch.randn(s, generator=g)
        out.append(p)
    return out


def report(title: str, rows: dict, iters: int, repeats: int) -> None:
    ms = interleaved_ms(rows, iters, repeats=repeats)
    base = next(iter(ms.values()))
    print(title)
    for name, fn in rows.items():
        print(f"  {name:40s} {ms[name]:8.3f} ms   x{ms[name] / base:5.2f}   faults {faults_per_call(fn):7.1f}")


def main() -> None:
    quick = "--quick" in sys.argv
    iters, repeats = (5, 3) if quick else (20, 7)
    torch.set_num_threads(1)
    import paddle  # noqa: F401  (fills the registry)
    from paddle_compat.engine.ops import update_ops as U

    adam_op = U.adam.__paddle_op__.impl
    sgd_op = U.sgd.__paddle_op__.impl

    # fluid Adam: one op per parameter, 1.8's kernel
    ours = params_with_grads(FC_SHAPES, 0)
    state = [(torch.zeros_like(p), torch.zeros_like(p), torch.tensor([0.9]), torch.tensor([0.999])) for p in ours]
    lr = torch.tensor([1e-3]).reshape(())

    def fluid_adam() -> None:
        for p, (m1, m2, b1p, b2p) in zip(ours, state):
            adam_op(p.data, p.grad, m1, m2, b1p, b2p, lr, 0.9, 0.999, 1e-8, False, False)

    tp1, tp2 = params_with_grads(FC_SHAPES, 0), params_with_grads(FC_SHAPES, 0)
    t_loop = torch.optim.Adam(tp1, lr=1e-3, foreach=False)
    t_each = torch.optim.Adam(tp2, lr=1e-3, foreach=True)
    report("simple_fc_net's 10 parameters, Adam update", {
        "torch.optim.Adam (foreach=False)": t_loop.step, "torch.optim.Adam (foreach)": t_each.step,
        "fluid Adam, one adam op per parameter": fluid_adam}, iters, repeats)

    # dygraph Adam: ten Linear(256, 256)
    import paddle as pd

    layers = [pd.nn.Linear(256, 256) for _ in range(10)]
    dparams = [p for lay in layers for p in lay.parameters()]
    for p in dparams:
        p.grad = pd.randn(p.shape)
    dopt = pd.optimizer.Adam(1e-3, parameters=dparams)
    tparams = params_with_grads([tuple(p.shape) for p in dparams], 1)
    topt = torch.optim.Adam(tparams, lr=1e-3)
    report("10 x Linear(256, 256), Adam step (dygraph)", {
        "torch.optim.Adam (foreach)": topt.step, "paddle.optimizer.Adam": dopt.step}, iters, repeats)

    # SGD on a large parameter
    sp, sg = torch.randn(4096, 1024), torch.randn(4096, 1024)
    tsp = params_with_grads([(4096, 1024)], 2)
    tsgd = torch.optim.SGD(tsp, lr=0.01)
    slr = torch.tensor([0.01]).reshape(())
    report("SGD update of a 4096x1024 parameter", {
        "torch.optim.SGD": tsgd.step, "sgd op": lambda: sgd_op(sp, sg, slr)}, iters, repeats)


if __name__ == "__main__":
    main()
