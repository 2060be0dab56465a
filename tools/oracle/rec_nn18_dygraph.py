"""fluid 1.8 dygraph (Paddle 1.8.5): an MNIST-style net of fluid.dygraph.Conv2D(act='relu') / Pool2D / Linear
(act='softmax') / Embedding / LayerNorm trained 3 steps with AdamOptimizer(parameter_list=...), fixed init.

Run with /work/oracle/p18 from /tmp with PYTHONPATH unset."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle.fluid as fluid  # noqa: E402
from paddle.fluid.dygraph import Conv2D, Embedding, LayerNorm, Linear, Pool2D  # noqa: E402

from _common import save  # noqa: E402


class Net(fluid.dygraph.Layer):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = Conv2D(1, 4, 3, padding=1, act="relu")
        self.pool = Pool2D(pool_size=2, pool_type="max", pool_stride=2)
        self.emb = Embedding(size=[10, 8], padding_idx=0)
        self.norm = LayerNorm(8)
        self.fc = Linear(4 * 4 * 4 + 8, 3, act="softmax")

    def forward(self, x, ids):
        h = fluid.layers.reshape(self.pool(self.conv(x)), [-1, 64])
        e = fluid.layers.reduce_mean(self.norm(self.emb(ids)), dim=1)
        return self.fc(fluid.layers.concat([h, e], axis=1))


def main():
    rng = np.random.RandomState(8)
    xs = rng.standard_normal((3, 6, 1, 8, 8)).astype("float32")
    ids = rng.randint(0, 10, (3, 6, 5)).astype("int64")
    labels = rng.randint(0, 3, (3, 6, 1)).astype("int64")
    arrays = {"xs": xs, "ids": ids, "labels": labels}
    meta = {"program": "Net: Conv2D(1,4,3,padding=1,act=relu), Pool2D(2,max,2), Embedding([10,8],padding_idx=0), "
                       "LayerNorm(8), Linear(72,3,act=softmax); loss=mean(cross_entropy); AdamOptimizer(0.01)"}
    with fluid.dygraph.guard(fluid.CPUPlace()):
        net = Net()
        sd = net.state_dict()
        meta["state_dict_keys"] = list(sd.keys())
        meta["state_dict_names"] = [v.name for v in sd.values()]
        init = {k: (rng.standard_normal(v.shape) * 0.3).astype("float32") for k, v in sd.items()}
        net.set_dict(init)
        for k, v in init.items():
            arrays["init__" + k] = v
        opt = fluid.optimizer.AdamOptimizer(0.01, parameter_list=net.parameters())
        losses = []
        for i in range(3):
            prob = net(fluid.dygraph.to_variable(xs[i]), fluid.dygraph.to_variable(ids[i]))
            loss = fluid.layers.mean(fluid.layers.cross_entropy(prob, fluid.dygraph.to_variable(labels[i])))
            loss.backward()
            opt.minimize(loss)
            net.clear_gradients()
            losses.append(float(loss.numpy()[0]))
            if i == 0:
                arrays["step0_prob"] = prob.numpy()
        arrays["losses"] = np.array(losses, "float32")
        for k, v in net.state_dict().items():
            arrays["final__" + k] = v.numpy()
    save("nn18_dygraph", arrays, meta)


if __name__ == "__main__":
    main()
