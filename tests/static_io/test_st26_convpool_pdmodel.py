"""The 1-D convolution / pool forms and the depthwise convolutions (issue 25 item 4) in a model real Paddle 2.6.2
wrote with to_static + jit.save (tools/oracle/rec_st26_convpool_pdmodel.py): its program holds assign, unsqueeze2,
conv2d, squeeze2, pool2d, depthwise_conv2d_transpose and depthwise_conv2d; paddle.jit.load runs it to 2.6.2's
Predictor output, and the loaded program lists 2.6.2's op types."""

from __future__ import annotations

import os

import numpy as np

from tests.conftest import GOLDENS, load_golden

META, G = load_golden("st26_convpool")
PREFIX = os.path.join(GOLDENS, "st26_convpool", "model")


def test_golden_holds_the_recorded_forms():
    counts = META["op_counts"]
    for t in ("assign", "unsqueeze2", "conv2d", "squeeze2", "pool2d", "depthwise_conv2d_transpose",
              "depthwise_conv2d"):
        assert counts.get(t, 0) >= 1, t


def test_jit_load_runs_to_the_predictor_output():
    import paddle

    layer = paddle.jit.load(PREFIX)
    out = layer(paddle.to_tensor(G["x"]))
    np.testing.assert_allclose(out.numpy(), G["out"], rtol=1e-5, atol=1e-6)


def test_loaded_program_lists_paddles_op_types():
    import paddle

    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = paddle.static.load_inference_model(PREFIX, exe)
        assert [op.type for op in prog.global_block().ops] == META["op_types"]
        (out,) = exe.run(prog, feed={feeds[0]: G["x"]}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, G["out"], rtol=1e-5, atol=1e-6)
