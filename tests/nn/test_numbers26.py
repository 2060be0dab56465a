"""Issue 12 item 4, the silently wrong numbers, against real Paddle 2.6.2: one test per case of
tests/nn/cases26_numbers.py (golden tests/goldens/nn26_numbers, tools/oracle/rec_run26.py). Paddle 2.6's 0-D
results are compared by value (we give shape [1], as 2.4)."""

from __future__ import annotations

import pytest

from tests.conftest import check_case26, load_golden
from tests.nn import cases26_numbers as C

_, GOLDEN = load_golden("nn26_numbers")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_numbers_match_paddle26(name):
    check_case26(GOLDEN, C.CASES, name)
