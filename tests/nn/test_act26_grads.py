"""Activation outputs and gradients bit for bit against Paddle 2.6.2's kernels, kinks included (cases:
tools/oracle/act26_grad_cases.py, golden act26_grads)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from tests.conftest import load_golden

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "oracle"))
import act26_grad_cases as C  # noqa: E402


@pytest.mark.parametrize("case", [c.__name__ for c in C.CASES])
def test_activation_bits(case):
    import paddle

    paddle.disable_static()
    _, want = load_golden("act26_grads")
    got = getattr(C, case)(paddle)
    for key, v in got.items():
        np.testing.assert_array_equal(v, want[f"{case}__{key}"], err_msg=f"{case}.{key}")
