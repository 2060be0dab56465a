"""The shared shape of the golden tests of a case module (tests/fluid/cases18_*.py, recorded by
tools/oracle/rec_run18.py): run it once per module under paddle_compat, then compare the outputs case by case
(the key's part before the first '|') and any recorded name lists with the golden from real Paddle 1.8.5."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden

NAME_KEYS = ("param_names", "names")


def golden_tests(cases, golden: str, rtol: float = 1e-5, atol: float = 1e-5):
    """-> (ours fixture, test_same_outputs, test_matches_paddle18) for `cases` against tests/goldens/<golden>."""
    meta, arrays = load_golden(golden)

    @pytest.fixture(scope="module")
    def ours():
        import paddle

        paddle.enable_static()
        out = cases.run(paddle.fluid)
        return out if isinstance(out, tuple) else (out, {})

    def test_same_outputs(ours):
        got, got_meta = ours
        assert sorted(got) == sorted(arrays)
        for k in NAME_KEYS:
            if k in meta:
                assert got_meta[k] == meta[k], k

    @pytest.mark.parametrize("case", sorted({k.split("|")[0] for k in arrays}))
    def test_matches_paddle18(ours, case):
        for k in sorted(k for k in arrays if k == case or k.startswith(case + "|")):
            got = np.asarray(ours[0][k])
            assert got.shape == arrays[k].shape, k
            np.testing.assert_allclose(got, arrays[k], rtol=rtol, atol=atol, err_msg=k)

    return ours, test_same_outputs, test_matches_paddle18
