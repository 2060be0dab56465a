"""fluid.layers.spectral_norm against Paddle 1.8.5 (output and weight gradient), and its U / V parameters."""

from __future__ import annotations

import numpy as np

from tests.conftest import load_golden
from tests.fluid import cases18_spectral_norm as C

_, GOLDEN = load_golden("fluid18_spectral_norm")


def test_spectral_norm_matches_paddle18():
    import paddle

    paddle.enable_static()
    got = C.run(paddle.fluid)
    assert sorted(got) == sorted(GOLDEN)
    for k, want in GOLDEN.items():
        np.testing.assert_allclose(got[k], want, rtol=1e-4, atol=1e-5, err_msg=k)


def test_spectral_norm_parameters():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        fluid.layers.spectral_norm(fluid.data("w", [4, 3, 2], "float32"), dim=1)
    assert sorted((p.name, tuple(p.shape)) for p in main.global_block().all_parameters()) == [
        ("spectral_norm_0.w_0", (3,)), ("spectral_norm_0.w_1", (8,))]
