"""fluid.optimizer Ftrl / LarsMomentum / Dpsgd / Recompute / Lookahead / ModelAverage / ExponentialMovingAverage
against Paddle 1.8.5 (tests/fluid/cases18_optimizers.py, golden fluid18_optimizers), and the optimizers that
raise a clear error."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_optimizers as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_optimizers", rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", ["DGCMomentumOptimizer", "PipelineOptimizer"])
def test_unsupported_optimizers_raise_clearly(name):
    import paddle

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match=f"paddle.fluid.optimizer.{name}"):
        getattr(paddle.fluid.optimizer, name)(paddle.fluid.optimizer.SGD(0.1))


@pytest.mark.parametrize("make", [
    lambda O: O.ModelAverage(0.1), lambda O: O.ExponentialMovingAverage(), lambda O: O.LookaheadOptimizer(O.SGD(1)),
    lambda O: O.RecomputeOptimizer(O.SGD(1))])
def test_static_only_in_dygraph(make):
    import paddle

    with paddle.fluid.dygraph.guard(), pytest.raises(Exception, match="In dygraph, don't support"):
        make(paddle.fluid.optimizer)


def test_dpsgd_noise_is_gaussian_with_sigma():
    import paddle
    import torch

    from paddle_compat.fluid.optimizer import dpsgd

    torch.manual_seed(0)
    steps = []
    for _ in range(400):
        p = paddle.to_tensor(np.zeros(3, "float32"))
        dpsgd(p, paddle.to_tensor(np.zeros(3, "float32")), 1.0, clip=1.0, batch_size=2.0, sigma=4.0)
        v = p.numpy()
        assert v[0] == v[1] == v[2]  # one noise value per update, as Paddle's kernel
        steps.append(-v[0])
    assert abs(np.mean(steps)) < 0.4 and abs(np.std(steps) - 2.0) < 0.3  # N(0, sigma / batch_size)


_, GOLDEN26 = load_golden("optimizers26_shared")


@pytest.fixture(scope="module")
def ours26():
    import paddle

    from tests.fluid import cases26_optimizers as C26

    try:
        return C26.run(paddle)
    finally:
        paddle.enable_static()


@pytest.mark.parametrize("case", sorted({k.split("|")[0] for k in GOLDEN26}))
def test_2x_lookahead_model_average_ema_match_paddle26(ours26, case):
    """paddle.incubate.LookAhead / ModelAverage and paddle.static.ExponentialMovingAverage: the same algorithms
    as fluid's, with the 2.x signatures (golden optimizers26_shared)."""
    assert sorted(k for k in ours26 if k.startswith(case + "|")) == sorted(k for k in GOLDEN26
                                                                          if k.startswith(case + "|"))
    for k in sorted(k for k in GOLDEN26 if k.startswith(case + "|")):
        np.testing.assert_allclose(ours26[k], GOLDEN26[k], rtol=2e-5, atol=2e-6, err_msg=k)
