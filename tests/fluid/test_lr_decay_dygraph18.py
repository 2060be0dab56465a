"""fluid.layers decays in dygraph mode and the fluid.dygraph decay classes: the learning rate of every update
matches Paddle 1.8.5
(tests/goldens/fluid18_lr_decay.json, recorded by tools/oracle/rec_lr_decay18.py over cases18_lr_decay.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_lr_decay as C

GOLDEN = load_golden("fluid18_lr_decay")[0]["lr_per_update"]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lr_per_update_matches_paddle18(name):
    """fluid.layers decays in dygraph, the fluid.dygraph classes (begin / step), and the epoch decays."""
    from paddle import fluid

    with fluid.dygraph.guard():
        made = {**C.build(fluid.layers), **C.build_classes(fluid.dygraph)}
        got = C.lr_per_update(fluid, made[name], epoch=name.startswith("epoch_"), plateau=name == "plateau")
        np.testing.assert_allclose(got, GOLDEN[name], rtol=1e-6)


def test_a_user_decay_subclass_implements_step():
    from paddle import fluid

    class Halving(fluid.dygraph.LearningRateDecay):
        def step(self):
            return self.create_lr_var(0.8 * 0.5 ** self.step_num)

    with fluid.dygraph.guard():
        np.testing.assert_allclose(C.lr_per_update(fluid, Halving())[:3], [0.8, 0.4, 0.2], rtol=1e-6)


def test_the_update_uses_the_decayed_rate():
    from paddle import fluid

    with fluid.dygraph.guard():
        lin = fluid.dygraph.Linear(2, 1)
        opt = fluid.optimizer.SGD(learning_rate=fluid.layers.exponential_decay(0.5, 1, 0.5),
                                  parameter_list=lin.parameters())
        for want in (0.5, 0.25, 0.125):
            before = lin.bias.numpy().copy()
            fluid.layers.reduce_sum(lin(fluid.dygraph.to_variable(np.ones([1, 2], "float32")))).backward()
            opt.minimize(fluid.layers.reduce_sum(lin.bias))
            lin.clear_gradients()
            np.testing.assert_allclose(before - lin.bias.numpy(), [want], rtol=1e-6)  # d(sum)/d(bias) = 1
