"""Issue 25 item 1: convolution and pooling windows larger than their input, against real Paddle 2.6.2 (cases
tests/nn/cases_windows26.py, golden tests/goldens/windows26_small_inputs via tools/oracle/rec_run26.py) and
fluid.layers.pool2d / conv2d against Paddle 1.8.5 (tests/nn/cases18_windows26.py, golden windows26_fluid18 via
tools/oracle/rec_run18.py): output, mask, and the gradients with respect to the input and the weight."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import check_case26, load_golden
from tests.nn import cases18_windows26 as C18
from tests.nn import cases_windows26 as C

_, GOLDEN = load_golden("windows26_small_inputs")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_small_input_matches_paddle26(name):
    check_case26(GOLDEN, C.CASES, name, rtol=1e-7, atol=1e-10)


_, GOLDEN18 = load_golden("windows26_fluid18")


@pytest.mark.parametrize("name", sorted(C18.CASES))
def test_small_input_matches_fluid18(name):
    """fluid.layers.pool2d / conv2d in a static program against Paddle 1.8.5 (golden windows26_fluid18)."""
    import paddle

    paddle.enable_static()
    try:
        got = C18.CASES[name](paddle.fluid)
    finally:
        paddle.disable_static()
    want = {k.split("/", 1)[1]: v for k, v in GOLDEN18.items() if k.startswith(name + "/")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        np.testing.assert_allclose(got[k], w, rtol=1e-5, atol=1e-6, err_msg=f"{name}/{k}")
