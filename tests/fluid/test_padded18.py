"""The padded forms in dygraph (the static runs are rows of tests/fluid/cases18_padded.py against Paddle 1.8.5) and
their errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_padded as C

_, GOLDEN = load_golden("fluid18_padded")


def test_ctc_greedy_decoder_padded_dygraph():
    import paddle

    out, n = paddle.fluid.layers.ctc_greedy_decoder(paddle.to_tensor(C.CG_X), 0,
                                                    input_length=paddle.to_tensor(C.CG_LEN), padding_value=-1)
    np.testing.assert_array_equal(out.numpy(), GOLDEN["ctc_greedy_padded_pad-1|out0"])
    np.testing.assert_array_equal(n.numpy(), GOLDEN["ctc_greedy_padded_pad-1|out1"])


@pytest.mark.parametrize("norm", [False, True])
def test_warpctc_padded_dygraph_with_gradient(norm):
    import paddle

    x = paddle.to_tensor(C.WC_X, stop_gradient=False)
    loss = paddle.fluid.layers.warpctc(x, paddle.to_tensor(C.WC_LAB), blank=0, norm_by_times=norm,
                                       input_length=paddle.to_tensor(C.WC_XLEN),
                                       label_length=paddle.to_tensor(C.WC_LLEN))
    paddle.sum(loss).backward()
    key = f"warpctc_padded_norm{int(norm)}"
    np.testing.assert_allclose(loss.numpy(), GOLDEN[key + "|out0"], rtol=1e-5)
    np.testing.assert_allclose(x.grad.numpy(), GOLDEN[key + "|out1"], rtol=1e-4, atol=1e-6)


def test_padded_forms_check_their_shapes():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        e = fluid.data("e", [3, 4], "float32")
        n = fluid.data("n", [3, 1], "int64")
        with pytest.raises(Exception, match="ctc_greedy_decoder: with input_length, input must be"):
            fluid.layers.ctc_greedy_decoder(e, 0, input_length=n)
        with pytest.raises(Exception, match="linear_chain_crf: with length, input must be"):
            fluid.layers.linear_chain_crf(e, fluid.data("lab", [3, 4, 1], "int64"), length=n)
