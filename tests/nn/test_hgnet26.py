"""Issue 25 item 3: an HG-block network's forward, loss, parameter gradients and batch-norm statistics in
float64 against Paddle 2.6.2 (exact to rounding), and the max-pool tie rule in float32 (cases
tests/nn/cases_hgnet26.py, golden tests/goldens/windows26_hgnet; the cause of PPHGNet_tiny's float32 differences
is in that module's docstring)."""

from __future__ import annotations

from tests.conftest import check_case26, load_golden
from tests.nn import cases_hgnet26 as C

_, GOLDEN = load_golden("windows26_hgnet")


def test_hg_network_float64_matches_paddle26():
    check_case26(GOLDEN, C.CASES, "hg_float64", rtol=1e-9, atol=1e-12)


def test_maxpool_ties_go_to_the_first_maximum():
    check_case26(GOLDEN, C.CASES, "maxpool_relu_ties_float32", rtol=0, atol=0)
