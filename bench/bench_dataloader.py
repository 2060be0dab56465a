"""Data loading feeding a training loop (issue 29 item 4): paddle.io.DataLoader and fluid's
DataLoader.from_generator against torch.utils.data.DataLoader on the same dataset and transforms, per batch.

The dataset is bench_models.DecodedImages (decoded uint8 HWC images; per sample a random flip, normalize and
HWC -> CHW in numpy); the consumer is the same fixed torch step on every side (a 1x1 conv and a mean over the
batch), so the rows differ only in how the batches arrive. Pairs, each timed round-robin (`interleaved_ms`, wall time:
the workers are other processes), median of 3 rounds of 5 passes:
  workers2     paddle.io.DataLoader(num_workers=2, persistent_workers=True)  vs torch's (num_workers=2, persistent)
  workers2_np  the same with use_shared_memory=False                         vs torch's (num_workers=2, persistent)
  gen_child    from_generator(use_multiprocess=True) of a batch reader        vs torch's (num_workers=1)
  gen_main     from_generator() in the training process                       vs torch's (num_workers=0)

    python bench/bench_dataloader.py [--quick]

The last line reads `dataloader: worst_ratio=X.XX` (ours / torch's, per batch).
"""

from __future__ import annotations

import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import interleaved_ms  # noqa: E402
from bench_models import DecodedImages  # noqa: E402

QUICK = "--quick" in sys.argv


def main() -> None:
    import paddle

    torch.set_num_threads(1)
    n, b, side = (32, 8, 32) if QUICK else (256, 16, 112)
    data = DecodedImages(n, side)
    kernel = torch.randn(8, 3, 1, 1)

    def consume(x):
        return float(torch.nn.functional.conv2d(x, kernel).mean())

    def reader():
        batch = []
        for i in range(len(data)):
            batch.append(data[i])
            if len(batch) == b:
                yield batch
                batch = []

    def gen_loader(multi):
        loader = paddle.io.DataLoader.from_generator(capacity=4, use_multiprocess=multi, return_list=True)
        loader.set_sample_list_generator(reader)
        return loader

    tdl = torch.utils.data.DataLoader
    pairs = {
        "workers2": (paddle.io.DataLoader(data, batch_size=b, num_workers=2, persistent_workers=True),
                     tdl(data, batch_size=b, num_workers=2, persistent_workers=True)),
        "workers2_np": (paddle.io.DataLoader(data, batch_size=b, num_workers=2, persistent_workers=True,
                                             use_shared_memory=False),
                        tdl(data, batch_size=b, num_workers=2, persistent_workers=True)),
        "gen_child": (gen_loader(True), tdl(data, batch_size=b, num_workers=1)),
        "gen_main": (gen_loader(False), tdl(data, batch_size=b, num_workers=0)),
    }

    def ours(loader):
        def run():
            for x, _ in loader():
                consume(x._t)
        return run

    def theirs(loader):
        def run():
            for x, _ in loader:
                consume(x)
        return run

    batches = n // b
    print(f"{'row':<14}{'torch ms/batch':>16}{'ours ms/batch':>15}{'x torch':>9}{'(min-max)':>12}")
    worst = 0.0
    for name, (mine, ref) in pairs.items():
        per = [interleaved_ms({"ours": ours(mine), "torch": theirs(ref)}, 1, repeats=2 if QUICK else 5, warmup=1)
               for _ in range(1 if QUICK else 3)]
        ratios = [p["ours"] / p["torch"] for p in per]
        t, o = (statistics.median(p[k] for p in per) / batches for k in ("torch", "ours"))
        r = statistics.median(ratios)
        worst = max(worst, r)
        print(f"{name:<14}{t:>16.2f}{o:>15.2f}{r:>9.2f}{f'{min(ratios):.2f}-{max(ratios):.2f}':>12}", flush=True)
    print(f"dataloader: worst_ratio={worst:.2f}")


if __name__ == "__main__":
    main()
