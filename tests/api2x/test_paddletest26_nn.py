"""Behaviours reduced from PaddleTest `framework/api/nn` cases that passed under Paddle 2.6.2 and failed here
(tools/paddletest/run.py --areas nn): tools/oracle/paddletest26_nn_cases.py replayed against
tests/goldens/paddletest26_nn (recorded by tools/oracle/rec_cases26.py on real Paddle 2.6.2)."""

from __future__ import annotations

import pytest

from tests.api2x import cases


# Paddle's resampling kernels compute their weights in float32 (for float64 data too) and round the cubic
# coefficients their own way: a few ulps of float32 on values of magnitude 10
LOOSE = {"interpolate_scale_size": (1e-5, 2e-5), "interpolate_static_tensor_size": (1e-5, 2e-5)}


@pytest.mark.parametrize("case", cases.params("paddletest26_nn_cases"))
def test_paddletest26_nn_case(case):
    rtol, atol = LOOSE.get(case.__name__, (1e-6, 1e-7))
    cases.check(case, "paddletest26_nn", rtol=rtol, atol=atol)
