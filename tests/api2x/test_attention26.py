"""paddle.nn.functional.flash_attention against Paddle 2.6.2 (tools/oracle/attention26_cases.py, golden
attention26); causal attention (no CPU kernel in Paddle 2.6.2) against masked math."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("attention26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "attention26", rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("return_softmax", [False, True])
def test_causal_is_masked_math(return_softmax):
    import paddle
    from paddle.nn.functional.flash_attention import flash_attention

    rs = np.random.RandomState(1)
    q, k, v = (rs.rand(1, 4, 2, 8).astype("float32") for _ in range(3))
    out, w = flash_attention(*(paddle.to_tensor(t) for t in (q, k, v)), causal=True, return_softmax=return_softmax)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(8)
    s = np.where(np.triu(np.ones((4, 4), bool), 1), -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), np.einsum("bhqk,bkhd->bqhd", p, v), rtol=1e-5, atol=1e-6)
    assert (w is None) != return_softmax
