"""fluid.contrib basic_lstm / basic_gru / BasicLSTMUnit / BasicGRUUnit against Paddle 1.8.5
(tests/fluid/cases18_contrib_rnn.py, golden fluid18_contrib_rnn): outputs, last states, parameter names, and
two SGD steps."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_contrib_rnn as C

META, GOLDEN = load_golden("fluid18_contrib_rnn")


@pytest.fixture(scope="module")
def ours():
    import paddle

    paddle.enable_static()
    return C.run(paddle.fluid)


def test_same_outputs_and_parameter_names(ours):
    got, meta = ours
    assert sorted(got) == sorted(GOLDEN)
    assert meta["param_names"] == META["param_names"]


@pytest.mark.parametrize("case", sorted({k.split("|")[0] for k in GOLDEN}))
def test_matches_paddle18(ours, case):
    for k in sorted(k for k in GOLDEN if k.startswith(case + "|")):
        np.testing.assert_allclose(ours[0][k], GOLDEN[k], rtol=1e-5, atol=1e-5, err_msg=k)
        assert np.asarray(ours[0][k]).shape == GOLDEN[k].shape, k
