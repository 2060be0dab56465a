"""Issue 12 item 4, the silently wrong numbers, against real Paddle 2.6.2: one test per case of
tests/nn/cases26_numbers.py (golden tests/goldens/nn26_numbers, tools/oracle/rec_run26.py). Paddle 2.6's 0-D
results are compared by value (we give shape [1], as 2.4)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.nn import cases26_numbers as C

_, GOLDEN = load_golden("nn26_numbers")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_numbers_match_paddle26(name):
    import paddle

    paddle.disable_static()
    got = {f"{name}/{k}": np.asarray(v) for k, v in C.CASES[name](paddle).items()}
    want = {k: v for k, v in GOLDEN.items() if k.startswith(name + "/")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = got[k]
        if w.ndim == 0:
            assert g.size == 1, k
            g = g.reshape(())
        assert g.shape == w.shape, (k, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=k)
