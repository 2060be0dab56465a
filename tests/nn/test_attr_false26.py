"""Issue 25 item 2: weight_attr=False / bias_attr=False on every norm, conv and linear layer, against real
Paddle 2.6.2 (cases tests/nn/cases_attr_false26.py, golden tests/goldens/windows26_attr_false): which parameters
exist in the state dict, which are trainable, the forward output and the input gradient."""

from __future__ import annotations

import pytest

from tests.conftest import check_case26, load_golden
from tests.nn import cases18_attr_false as C18
from tests.nn import cases_attr_false26 as C

_, GOLDEN = load_golden("windows26_attr_false")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_attr_false_matches_paddle26(name):
    check_case26(GOLDEN, C.CASES, name, rtol=1e-5, atol=1e-5)


def test_adaface_batchnorm1d_loads_a_checkpoint_without_affine_entries():
    """AdaFace's BatchNorm1D(n, weight_attr=False, bias_attr=False): a real checkpoint holds only the running
    statistics, and set_state_dict takes it without missing or unexpected keys."""
    import numpy as np
    import paddle

    bn = paddle.nn.BatchNorm1D(4, weight_attr=False, bias_attr=False)
    state = {"_mean": np.arange(4, dtype="float32"), "_variance": np.full(4, 4.0, "float32")}
    missing, unexpected = bn.set_state_dict(state)
    assert (list(missing), list(unexpected)) == ([], [])
    bn.eval()
    out = bn(paddle.to_tensor(np.ones((2, 4), "float32"))).numpy()
    np.testing.assert_allclose(out, np.tile((1 - np.arange(4)) / np.sqrt(4 + 1e-5), (2, 1)), rtol=1e-6)


_, GOLDEN18 = load_golden("windows26_attr_false18")


@pytest.mark.parametrize("name", sorted(C18.CASES))
def test_fluid_dygraph_attr_false_matches_paddle18(name):
    """fluid.dygraph layers against Paddle 1.8.5 (tests/nn/cases18_attr_false.py, golden windows26_attr_false18)."""
    import numpy as np
    import paddle

    got = {k: np.asarray(v) for k, v in C18.CASES[name](paddle.fluid).items()}
    want = {k.split("/", 1)[1]: v for k, v in GOLDEN18.items() if k.startswith(name + "/")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        assert got[k].tolist() == w.tolist(), (name, k)
