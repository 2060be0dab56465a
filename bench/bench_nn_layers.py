"""paddle.nn Layers + optimizer training step (dygraph) vs the same model in plain torch eager, measured in the
same run: a LeNet-style conv net (b64) with Momentum, an MLP 784-512-512-10 (b128) with Adam, and an LSTM
(b32, T=20). Prints ratios; no asserts (targets: within ~1.10x of eager)."""

from __future__ import annotations

import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import median_ms, report  # noqa: E402


def main() -> None:
    import paddle
    import paddle.nn as nn
    import paddle.nn.functional as F

    torch.manual_seed(0)
    rng = np.random.RandomState(0)

    # --- LeNet-ish + Momentum ---------------------------------------------------------------------------------
    x = rng.rand(64, 1, 28, 28).astype("float32")
    y = rng.randint(0, 10, (64, 1)).astype("int64")
    net = nn.Sequential(nn.Conv2D(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2), nn.Conv2D(6, 16, 5), nn.ReLU(),
                        nn.MaxPool2D(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 10))
    opt = paddle.optimizer.Momentum(0.01, 0.9, parameters=net.parameters())
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)

    def ours() -> None:
        loss = F.cross_entropy(net(px), py)
        loss.backward()
        opt.step()
        opt.clear_grad()

    tnet = torch.nn.Sequential(torch.nn.Conv2d(1, 6, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                               torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                               torch.nn.Linear(400, 120), torch.nn.ReLU(), torch.nn.Linear(120, 10))
    topt = torch.optim.SGD(tnet.parameters(), lr=0.01, momentum=0.9)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y).reshape(-1)

    def eager() -> None:
        loss = torch.nn.functional.cross_entropy(tnet(tx), ty)
        loss.backward()
        topt.step()
        topt.zero_grad()

    report("LeNet-style conv net, b64, Momentum step", [("torch eager", median_ms(eager, 10)),
                                                       ("paddle_compat nn", median_ms(ours, 10))], "torch eager")

    # --- MLP + Adam ---------------------------------------------------------------------------------------------
    x = rng.rand(128, 784).astype("float32")
    y = rng.randint(0, 10, (128, 1)).astype("int64")
    mlp = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    aopt = paddle.optimizer.Adam(0.001, parameters=mlp.parameters())
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)

    def ours_mlp() -> None:
        loss = F.cross_entropy(mlp(px), py)
        loss.backward()
        aopt.step()
        aopt.clear_grad()

    tmlp = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512),
                               torch.nn.ReLU(), torch.nn.Linear(512, 10))
    tadam = torch.optim.Adam(tmlp.parameters(), lr=0.001)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y).reshape(-1)

    def eager_mlp() -> None:
        loss = torch.nn.functional.cross_entropy(tmlp(tx), ty)
        loss.backward()
        tadam.step()
        tadam.zero_grad()

    report("MLP 784-512-512-10, b128, Adam step", [("torch eager", median_ms(eager_mlp, 10)),
                                                   ("paddle_compat nn", median_ms(ours_mlp, 10))], "torch eager")

    # --- LSTM forward + backward --------------------------------------------------------------------------------
    x = rng.rand(32, 20, 16).astype("float32")
    lstm = nn.LSTM(16, 32)
    px = paddle.to_tensor(x)

    def ours_lstm() -> None:
        out, _ = lstm(px)
        out.sum().backward()

    tl = torch.nn.LSTM(16, 32, batch_first=True)
    tx = torch.from_numpy(x)

    def eager_lstm() -> None:
        out, _ = tl(tx)
        out.sum().backward()

    report("LSTM(16, 32), b32 T20, forward + backward", [("torch eager (fused)", median_ms(eager_lstm, 5)),
                                                         ("paddle_compat nn", median_ms(ours_lstm, 5))],
           "torch eager (fused)")


if __name__ == "__main__":
    main()
