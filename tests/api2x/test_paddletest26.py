"""Behaviours reduced from PaddleTest `framework/api` cases that passed under Paddle 2.6.2 and failed here
(tools/paddletest/run.py): tools/oracle/paddletest26_cases.py replayed against tests/goldens/paddletest26
(recorded by tools/oracle/rec_cases26.py on real Paddle 2.6.2)."""

from __future__ import annotations

import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("paddletest26_cases"))
def test_paddletest26_case(case):
    cases.check(case, "paddletest26", rtol=1e-6, atol=1e-7)
