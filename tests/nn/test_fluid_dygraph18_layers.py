"""fluid 1.8 dygraph layers against Paddle 1.8.5 (tests/goldens/nn18_dygraph_layers.npz), their parameter names and
layouts, and the 1.7/1.8 dygraph helpers (BackwardStrategy, enabled / enable_dygraph / disable_dygraph)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.nn import cases18_dygraph_layers as C

_, GOLDEN = load_golden("nn18_dygraph_layers")


@pytest.fixture(scope="module")
def outputs():
    from paddle import fluid

    with fluid.dygraph.guard():
        return C.run(fluid)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_layer_matches_paddle18(outputs, name):
    np.testing.assert_allclose(outputs[name], GOLDEN[name], rtol=1e-5, atol=1e-6)


def test_parameter_names_and_layouts_are_paddle18s():
    from paddle import fluid

    D = fluid.dygraph
    with fluid.dygraph.guard():
        got = {type(m).__name__: [(p.name, p.shape) for p in m.parameters()]
               for m in (D.Conv3D(2, 2, 3), D.Conv2DTranspose(2, 4, 3, groups=2), D.GRUUnit(6),
                         D.BilinearTensorProduct(3, 4, 5))}
    assert got == {"Conv3D": [("conv3d_0.w_0", [2, 2, 3, 3, 3]), ("conv3d_0.b_0", [2])],
                   "Conv2DTranspose": [("conv2d_transpose_0.w_0", [2, 2, 3, 3]), ("conv2d_transpose_0.b_0", [4])],
                   "GRUUnit": [("gru_unit_0.w_0", [2, 6]), ("gru_unit_0.b_0", [1, 6])],
                   "BilinearTensorProduct": [("bilinear_tensor_product_0.w_0", [5, 3, 4]),
                                             ("bilinear_tensor_product_0.b_0", [1, 5])]}


def test_backward_strategy_and_mode_helpers():
    from paddle import fluid

    assert fluid.dygraph.enabled()
    fluid.dygraph.disable_dygraph()
    assert not fluid.dygraph.enabled()
    fluid.dygraph.enable_dygraph()
    assert fluid.dygraph.enabled()
    lin = fluid.dygraph.Linear(2, 1)
    loss = fluid.layers.reduce_mean(lin(fluid.dygraph.to_variable(np.ones([3, 2], "float32"))))
    strategy = fluid.dygraph.BackwardStrategy()
    strategy.sort_sum_gradient = True
    loss.backward(strategy)
    np.testing.assert_allclose(lin.weight.gradient(), np.ones([2, 1]), rtol=1e-6)
