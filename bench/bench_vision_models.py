"""paddle.vision.models vs the same networks hand-written in plain torch eager, measured in the same run, with
the same weights (ours copied into the torch modules; the outputs are checked equal before timing):
ResNet-50 eval forward (b8, 224x224, no_grad) and a MobileNetV2 training step (b16, 224x224, Momentum,
cross entropy). Prints ratios; no asserts beyond the equal outputs. --quick: b2 at 64x64."""

from __future__ import annotations

import os
import sys

import numpy as np
import torch
from torch import nn as tnn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import median_ms, report  # noqa: E402


def _cbr(cin, cout, k, s=1, groups=1, act=tnn.ReLU):
    layers = [tnn.Conv2d(cin, cout, k, s, (k - 1) // 2, groups=groups, bias=False), tnn.BatchNorm2d(cout)]
    return tnn.Sequential(*layers, act()) if act else tnn.Sequential(*layers)


class TorchBottleneck(tnn.Module):
    def __init__(self, cin, planes, stride):
        super().__init__()
        self.conv1 = tnn.Conv2d(cin, planes, 1, bias=False)
        self.bn1 = tnn.BatchNorm2d(planes)
        self.conv2 = tnn.Conv2d(planes, planes, 3, stride, 1, bias=False)
        self.bn2 = tnn.BatchNorm2d(planes)
        self.conv3 = tnn.Conv2d(planes, planes * 4, 1, bias=False)
        self.bn3 = tnn.BatchNorm2d(planes * 4)
        self.down = (_cbr(cin, planes * 4, 1, stride, act=None) if stride != 1 or cin != planes * 4 else None)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = torch.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return torch.relu(out + (self.down(x) if self.down is not None else x))


class TorchResNet50(tnn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = tnn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = tnn.BatchNorm2d(64)
        blocks, cin = [], 64
        for planes, n, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            for i in range(n):
                blocks.append(TorchBottleneck(cin, planes, stride if i == 0 else 1))
                cin = planes * 4
        self.blocks = tnn.Sequential(*blocks)
        self.fc = tnn.Linear(2048, num_classes)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 3, 2, 1)
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(self.blocks(x), 1), 1))


class TorchInvertedResidual(tnn.Module):
    def __init__(self, cin, cout, stride, t):
        super().__init__()
        hidden = cin * t
        layers = [_cbr(cin, hidden, 1, act=tnn.ReLU6)] if t != 1 else []
        layers += [_cbr(hidden, hidden, 3, stride, groups=hidden, act=tnn.ReLU6), _cbr(hidden, cout, 1, act=None)]
        self.conv = tnn.Sequential(*layers)
        self.res = stride == 1 and cin == cout

    def forward(self, x):
        return x + self.conv(x) if self.res else self.conv(x)


class TorchMobileNetV2(tnn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        feats, cin = [_cbr(3, 32, 3, 2, act=tnn.ReLU6)], 32
        for t, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                           (6, 320, 1, 1)):
            for i in range(n):
                feats.append(TorchInvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        feats.append(_cbr(cin, 1280, 1, act=tnn.ReLU6))
        self.features = tnn.Sequential(*feats)
        self.classifier = tnn.Sequential(tnn.Dropout(0.2), tnn.Linear(1280, num_classes))

    def forward(self, x):
        return self.classifier(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(self.features(x), 1), 1))


def copy_weights(ours, theirs) -> None:
    """Our state_dict (Paddle's order: conv, bn weight/bias/_mean/_variance, Linear [in, out]) into the torch
    module's, in order."""
    src = [v.numpy() for v in ours.state_dict().values()]
    dst = [(k, v) for k, v in theirs.state_dict().items() if not k.endswith("num_batches_tracked")]
    assert len(src) == len(dst), (len(src), len(dst))
    with torch.no_grad():
        for a, (k, b) in zip(src, dst):
            a = a.T if a.ndim == 2 else a
            assert tuple(a.shape) == tuple(b.shape), (k, a.shape, b.shape)
            b.copy_(torch.from_numpy(np.ascontiguousarray(a)))


def main() -> None:
    import paddle
    import paddle.nn.functional as F

    quick = "--quick" in sys.argv
    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    side, b_eval, b_train = (64, 2, 2) if quick else (224, 8, 16)

    # --- ResNet-50 eval batch -------------------------------------------------------------------------------------
    x = rng.uniform(-1, 1, (b_eval, 3, side, side)).astype("float32")
    net = paddle.vision.models.resnet50()
    net.eval()
    tnet = TorchResNet50()
    copy_weights(net, tnet)
    tnet.eval()
    px, tx = paddle.to_tensor(x), torch.from_numpy(x)

    def ours_eval():
        with paddle.no_grad():
            return net(px)

    def torch_eval():
        with torch.no_grad():
            return tnet(tx)

    np.testing.assert_allclose(ours_eval().numpy(), torch_eval().numpy(), rtol=1e-3, atol=1e-4)
    iters = 1 if not quick else 2
    report(f"ResNet-50 eval forward, batch {b_eval}, {side}x{side}",
           [("torch eager (hand-written)", median_ms(torch_eval, iters, warmup=1, repeats=3)),
            ("paddle.vision.models.resnet50", median_ms(ours_eval, iters, warmup=1, repeats=3))],
           "torch eager (hand-written)")

    # --- MobileNetV2 train step ----------------------------------------------------------------------------------
    x = rng.uniform(-1, 1, (b_train, 3, side, side)).astype("float32")
    y = rng.randint(0, 1000, (b_train, 1)).astype("int64")
    net = paddle.vision.models.mobilenet_v2()
    net.train()
    tnet = TorchMobileNetV2()
    copy_weights(net, tnet)
    tnet.train()
    opt = paddle.optimizer.Momentum(0.01, 0.9, parameters=net.parameters())
    topt = torch.optim.SGD(tnet.parameters(), lr=0.01, momentum=0.9)
    px, py = paddle.to_tensor(x), paddle.to_tensor(y)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y).reshape(-1)

    def ours_train():
        loss = F.cross_entropy(net(px), py)
        loss.backward()
        opt.step()
        opt.clear_grad()

    def torch_train():
        loss = torch.nn.functional.cross_entropy(tnet(tx), ty)
        loss.backward()
        topt.step()
        topt.zero_grad()

    report(f"MobileNetV2 train step (Momentum), batch {b_train}, {side}x{side}",
           [("torch eager (hand-written)", median_ms(torch_train, iters, warmup=1, repeats=3)),
            ("paddle.vision.models.mobilenet_v2", median_ms(ours_train, iters, warmup=1, repeats=3))],
           "torch eager (hand-written)")


if __name__ == "__main__":
    main()
