"""The 1-D convolution / pool forms and the depthwise convolutions (issue 25 item 4) in a model real Paddle 2.6.2
wrote with to_static + jit.save (tools/oracle/rec_st26_convpool_pdmodel.py): its program holds assign, unsqueeze2,
conv2d, squeeze2, pool2d, depthwise_conv2d_transpose, depthwise_conv2d and max_pool2d_with_index; paddle.jit.load
runs it to 2.6.2's Predictor outputs (the pooled values and their int32 mask), and the loaded program lists 2.6.2's
op types."""

from __future__ import annotations

import os

import numpy as np

from tests.conftest import GOLDENS, load_golden

META, G = load_golden("st26_convpool")
PREFIX = os.path.join(GOLDENS, "st26_convpool", "model")


def test_golden_holds_the_recorded_forms():
    counts = META["op_counts"]
    for t in ("assign", "unsqueeze2", "conv2d", "squeeze2", "pool2d", "depthwise_conv2d_transpose",
              "depthwise_conv2d", "max_pool2d_with_index"):
        assert counts.get(t, 0) >= 1, t


def test_jit_load_runs_to_the_predictor_output():
    import paddle

    layer = paddle.jit.load(PREFIX)
    outs = layer(paddle.to_tensor(G["x"]))
    _check([o.numpy() for o in outs])


def _check(outs):
    assert len(outs) == 3
    for i, o in enumerate(outs):
        want = G[f"out_{i}"]
        assert o.dtype == want.dtype and o.shape == want.shape, i
        if want.dtype.kind == "f":
            np.testing.assert_allclose(o, want, rtol=1e-5, atol=1e-6, err_msg=str(i))
        else:
            np.testing.assert_array_equal(o, want, err_msg=str(i))


def test_loaded_program_lists_paddles_op_types():
    import paddle

    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = paddle.static.load_inference_model(PREFIX, exe)
        assert [op.type for op in prog.global_block().ops] == META["op_types"]
        outs = exe.run(prog, feed={feeds[0]: G["x"]}, fetch_list=fetches)
    finally:
        paddle.disable_static()
    _check([np.asarray(o) for o in outs])
