"""fluid.layers.hard_swish / hard_sigmoid against Paddle 1.8.5 bit for bit: outputs, gradients at the kinks, and
the one op each appends (cases: tests/fluid/cases18_act.py, golden fluid18_act)."""

from __future__ import annotations

import numpy as np

from tests.conftest import load_golden
from tests.fluid import cases18_act as C


def test_hard_activations_match_paddle18_bits():
    import paddle

    paddle.enable_static()
    try:
        got = C.run(paddle.fluid)
    finally:
        paddle.disable_static()
    _, want = load_golden("fluid18_act")
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        if k.endswith("_ops"):
            assert bytes(got[k]).decode() == bytes(w).decode(), k
        else:
            np.testing.assert_array_equal(got[k], w, err_msg=k)
