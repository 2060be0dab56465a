"""The scale op at scale 1.0 (save_inference_model's op on every fetch target) skips its multiply: x * 1.0 is x bit for
bit, so the result is the two-op formula's in one pass, out of place (the op) and in place (enable_inplace's body)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

SPECIAL = [0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-40, -1e-310, 3.4e38]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
@pytest.mark.parametrize("bias,after", [(0.0, True), (0.5, True), (-0.0, True), (0.25, False)])
def test_scale_one_keeps_the_bits(dtype, bias, after):
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.fused import INPLACE_BODIES

    x = torch.tensor(SPECIAL + list(np.random.RandomState(0).standard_normal(37)), dtype=dtype)
    want = x * 1.0 + bias if after else (x + bias) * 1.0
    got = OPS["scale"].impl(x, 1.0, bias, after)
    inplace = INPLACE_BODIES["scale"](x.clone(), 1.0, bias, after)
    for t in (got, inplace):
        assert t.dtype == dtype and t.numpy().tobytes() == want.numpy().tobytes()
