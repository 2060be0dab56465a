"""Behaviours reduced from PaddleTest `framework/api/nn` cases that passed under Paddle 2.6.2 and failed here
(tools/paddletest/run.py --areas nn): tools/oracle/paddletest26_nn_cases.py replayed against
tests/goldens/paddletest26_nn (recorded by tools/oracle/rec_cases26.py on real Paddle 2.6.2)."""

from __future__ import annotations

import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("paddletest26_nn_cases"))
def test_paddletest26_nn_case(case):
    cases.check(case, "paddletest26_nn", rtol=1e-6, atol=1e-7)
