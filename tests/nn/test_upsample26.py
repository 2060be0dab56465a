"""interpolate / upsample with align_mode=1 against Paddle 2.6.2 (cases tests/nn/cases_upsample26.py, golden
tests/goldens/windows26_upsample): output and input gradient, float32 and float64."""

from __future__ import annotations

import pytest

from tests.conftest import check_case26, load_golden
from tests.nn import cases_upsample26 as C

_, GOLDEN = load_golden("windows26_upsample")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_align_mode1_matches_paddle26(name):
    # float64: Paddle's weights are float32 (lambda, and 1 - lambda rounded to float32); ours take the same float32
    # source coordinates and blend with 1 - lambda unrounded, a difference below 3e-8 of a weight
    tol = dict(rtol=1e-7, atol=1e-7) if name.endswith("float64") else dict(rtol=1e-5, atol=1e-5)
    check_case26(GOLDEN, C.CASES, name, **tol)
