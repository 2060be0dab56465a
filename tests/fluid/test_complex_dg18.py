"""paddle.complex / fluid.ComplexVariable and fluid.incubate.data_generator against Paddle 1.8.5
(tests/fluid/cases18_complex_dg.py, golden fluid18_complex_dg)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_complex_dg as C

META, GOLDEN = load_golden("fluid18_complex_dg")


@pytest.fixture(scope="module")
def ours():
    import paddle

    return C.run(paddle.fluid)


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_complex_matches_paddle18(ours, key):
    got = np.asarray(ours[0][key])
    assert got.shape == GOLDEN[key].shape and got.dtype == GOLDEN[key].dtype, key
    np.testing.assert_allclose(got, GOLDEN[key], rtol=1e-5, atol=1e-5)


def test_data_generator_text_matches_paddle18(ours):
    assert ours[1]["data_generator"] == META["data_generator"]


def test_complex_errors():
    import paddle

    fluid = paddle.fluid
    with fluid.dygraph.guard():
        r = fluid.dygraph.to_variable(np.ones((2, 2), "float32"))
        with pytest.raises(ValueError, match="At least one inputs of layer complex.elementwise_add"):
            paddle.complex.elementwise_add(r, r)
        with pytest.raises(AssertionError, match="should have the same shape"):
            fluid.ComplexVariable(r, fluid.dygraph.to_variable(np.ones((3,), "float32")))
        cv = fluid.dygraph.to_variable(np.ones((2,), "complex64"), name="c")
        assert cv.name == {"real": "c.real", "imag": "c.imag"} and cv.dtype == "complex64"
