"""fluid 1.8 dygraph layers in a legacy training loop against Paddle 1.8.5 (tests/goldens/nn18_dygraph,
tools/oracle/rec_nn18_dygraph.py)."""

from __future__ import annotations

import numpy as np

from tests.conftest import load_golden


def test_fluid18_dygraph_net_matches_paddle_185():
    import paddle.fluid as fluid
    from paddle.fluid.dygraph import Conv2D, Embedding, LayerNorm, Linear, Pool2D

    meta, g = load_golden("nn18_dygraph")

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

    with fluid.dygraph.guard(fluid.CPUPlace()):
        net = Net()
        sd = net.state_dict()
        assert list(sd) == meta["state_dict_keys"]
        assert [v.name for v in sd.values()] == meta["state_dict_names"]
        net.set_dict({k: g["init__" + k] for k in sd})
        opt = fluid.optimizer.AdamOptimizer(0.01, parameter_list=net.parameters())
        losses = []
        for i in range(3):
            prob = net(fluid.dygraph.to_variable(g["xs"][i]), fluid.dygraph.to_variable(g["ids"][i]))
            loss = fluid.layers.mean(fluid.layers.cross_entropy(prob, fluid.dygraph.to_variable(g["labels"][i])))
            loss.backward()
            opt.minimize(loss)
            net.clear_gradients()
            losses.append(float(loss.numpy().reshape(-1)[0]))
            if i == 0:
                np.testing.assert_allclose(prob.numpy(), g["step0_prob"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(losses, g["losses"], rtol=1e-5, atol=1e-6)
        for k, v in net.state_dict().items():
            np.testing.assert_allclose(v.numpy(), g["final__" + k], rtol=1e-5, atol=1e-5, err_msg=k)
