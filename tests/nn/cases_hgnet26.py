"""Issue 25 item 3: PPHGNet_tiny's parameter gradients differed from Paddle 2.6.2 by up to 1.3e-2 (relative to the
largest entry) from stages.0.blocks.0.aggregation_conv back to the stem, with the forward and the loss matching.

Cause: float32 rounding, not a different gradient. tools/models/pphgnet_grads.py runs PaddleClas's PPHGNet_tiny
(2x3x224x224, one training step) on both sides with the same parameters: in float64 every one of the 121 parameter
gradients agrees with Paddle 2.6.2 to 2.3e-7; in float32 both sides are equally far from the float64 gradients
(Paddle 2.6.2: median 3.2e-3, max 3.8e-2; ours: median 3.5e-3, max 4.2e-2), because train-mode batch-norm
backward over a batch of 2 cancels large terms and each block passes the error on. Max-pool ties (ReLU zeros
under the stem's 3x3 stride-2 pool) go to the first maximum on both sides.

The golden is our own network with every construct of an HG block (ConvBNAct stem, max pool after ReLU, a concat
that reuses the block input, 1x1 aggregation ConvBNAct, ESE attention, `x += identity`, a depthwise stride-2
ConvBN downsample), in float64, where the comparison is exact to rounding; and the max-pool tie rule in float32.
`CASES[name](paddle)` returns {key: array}; recorded by tools/oracle/rec_run26.py into
tests/goldens/windows26_hgnet.*, replayed by tests/nn/test_hgnet26.py; numpy only.
"""

import numpy as np


def _net(paddle, rs):
    nn = paddle.nn

    class ConvBNAct(nn.Layer):
        def __init__(self, cin, cout, k, stride=1, groups=1, act=True):
            super().__init__()
            self.conv = nn.Conv2D(cin, cout, k, stride, padding=(k - 1) // 2, groups=groups, bias_attr=False)
            self.bn = nn.BatchNorm2D(cout)
            self.act = nn.ReLU() if act else None

        def forward(self, x):
            x = self.bn(self.conv(x))
            return self.act(x) if self.act is not None else x

    class Attention(nn.Layer):
        def __init__(self, c):
            super().__init__()
            self.pool = nn.AdaptiveAvgPool2D(1)
            self.conv = nn.Conv2D(c, c, 1)

        def forward(self, x):
            return paddle.multiply(x, nn.functional.sigmoid(self.conv(self.pool(x))))

    class Block(nn.Layer):
        def __init__(self, cin, mid, cout, n, identity):
            super().__init__()
            self.identity = identity
            self.layers = nn.LayerList([ConvBNAct(cin if i == 0 else mid, mid, 3) for i in range(n)])
            self.aggregate = ConvBNAct(cin + n * mid, cout, 1)
            self.att = Attention(cout)

        def forward(self, x):
            skip, feats = x, [x]
            for layer in self.layers:
                x = layer(x)
                feats.append(x)
            x = self.att(self.aggregate(paddle.concat(feats, axis=1)))
            if self.identity:
                x += skip
            return x

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(ConvBNAct(3, 8, 3, 2), ConvBNAct(8, 8, 3))
            self.pool = nn.MaxPool2D(3, 2, 1)
            self.block0 = Block(8, 6, 12, 3, False)
            self.down = ConvBNAct(12, 12, 3, 2, groups=12, act=False)
            self.block1 = Block(12, 6, 12, 3, False)
            self.block2 = Block(12, 6, 12, 2, True)
            self.head = nn.Sequential(nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Linear(12, 5))

        def forward(self, x):
            x = self.pool(self.stem(x))
            x = self.block2(self.block1(self.down(self.block0(x))))
            return self.head(x)

    net = Net()
    for name, v in sorted(net.state_dict().items()):
        shape = list(v.shape)
        if name.endswith("_variance"):
            val = 1.0 + 0.2 * rs.rand(*shape)
        elif name.endswith("_mean"):
            val = 0.1 * rs.randn(*shape)
        elif len(shape) == 4:
            val = rs.randn(*shape) * np.sqrt(2.0 / int(np.prod(shape[1:])))
        elif len(shape) == 2:
            val = rs.randn(*shape) * 0.3
        else:
            val = 0.1 * rs.randn(*shape) + (1.0 if name.endswith("bn.weight") else 0.0)
        v.set_value(val.astype(str(v.dtype).split(".")[-1]))
    return net


def hg_float64(paddle):
    paddle.set_default_dtype("float64")
    try:
        rs = np.random.RandomState(25)
        net = _net(paddle, rs)
        net.train()
        x = paddle.to_tensor(rs.rand(3, 3, 32, 32))
        label = paddle.to_tensor(rs.randint(0, 5, (3, 1)).astype("int64"))
        out = net(x)
        loss = paddle.nn.functional.cross_entropy(out, label)
        loss.backward()
        res = {"out": out.numpy(), "loss": np.asarray(loss.numpy()).reshape(-1)}
        for name, p in net.named_parameters():
            if not p.stop_gradient:  # the running statistics are parameters too, without gradients
                res["grad_" + name] = p.grad.numpy()
        for name, v in net.state_dict().items():
            if name.endswith(("_mean", "_variance")):
                res["state_" + name] = v.numpy()
        return res
    finally:
        paddle.set_default_dtype("float32")


def maxpool_relu_ties_float32(paddle):
    """3x3 stride-2 padding-1 max pool over ReLU output with whole windows of zeros and tied maxima: the
    gradient goes to the first maximum of each window (row-major), as Paddle's max-pool backward does."""
    rs = np.random.RandomState(7)
    v = rs.randint(-2, 2, (2, 2, 9, 9)).astype("float32")
    x = paddle.to_tensor(v, stop_gradient=False)
    y = paddle.nn.functional.max_pool2d(paddle.nn.functional.relu(x), 3, 2, 1)
    w = paddle.to_tensor(np.arange(1, y.numpy().size + 1, dtype="float32").reshape(y.shape))
    (y * w).sum().backward()
    res = {"out": y.numpy(), "x_grad": x.grad.numpy()}
    x2 = paddle.to_tensor(v, stop_gradient=False)
    y2 = paddle.nn.functional.max_pool2d(x2, 2, 2, 0, ceil_mode=True)
    w2 = paddle.to_tensor(np.arange(1, y2.numpy().size + 1, dtype="float32").reshape(y2.shape))
    (y2 * w2).sum().backward()
    res["ceil_out"], res["ceil_x_grad"] = y2.numpy(), x2.grad.numpy()
    return res


CASES = {"hg_float64": hg_float64, "maxpool_relu_ties_float32": maxpool_relu_ties_float32}
