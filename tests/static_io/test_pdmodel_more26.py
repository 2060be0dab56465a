"""strided_slice, unfold, roll, index_select, gather_nd and share_data in a model real Paddle 2.6.2 wrote with
to_static + jit.save (tools/oracle/rec_pdmodel_more26.py; PaddleClas LeViT, Swin, RedNet26, TNT and cae hold
them), loaded with paddle.jit.load and with paddle.inference, against the outputs 2.6.2's Predictor gave."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.conftest import GOLDENS, load_golden, run_saved_model

META, G = load_golden("pdmodel_more26")
PREFIX = os.path.join(GOLDENS, "pdmodel_more26", "model")
FEEDS = ("x", "img", "idx", "nd_idx")
# what each output is (the recorder's MoreOps.forward, in order)
OUTPUTS = ("x[:, 0::2, 1::2]", "x[:, ::-2, :, 1:3]", "strided_slice negative strides", "x[1, ::2] (decrease axis)",
           "x[:, 1:shape(x)[1]:2] (EndsTensorList)", "unfold asymmetric paddings / dilations", "unfold 4x4 stride 4",
           "roll shifts / axis", "roll flattened", "roll ShiftsTensor", "index_select of a parameter",
           "index_select axis 3", "gather_nd", "detach (share_data)")


def _numpy_outputs(x, img, idx, nd_idx):
    """The same outputs in NumPy: checks the golden row itself."""
    def unfold(a, k, s, p, d):  # p: [top, left, bottom, right]
        a = np.pad(a, [(0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])])
        n, c, h, w = a.shape
        oh, ow = (h - d[0] * (k[0] - 1) - 1) // s[0] + 1, (w - d[1] * (k[1] - 1) - 1) // s[1] + 1
        cols = [a[:, :, i * d[0]:i * d[0] + s[0] * (oh - 1) + 1:s[0], j * d[1]:j * d[1] + s[1] * (ow - 1) + 1:s[1]]
                for i in range(k[0]) for j in range(k[1])]
        return np.stack(cols, 2).reshape(n, c * k[0] * k[1], oh * ow)

    table = np.arange(21, dtype="float32").reshape(7, 3) / 4.0 - 2.0
    return [x[:, 0::2, 1::2], x[:, ::-2, :, 1:3], x[:, :, -1:-6:-2, 0:4:3], x[1, ::2], x[:, 1::2],
            unfold(img, (3, 2), (2, 1), (1, 0, 2, 1), (1, 2)), unfold(img, (4, 4), (4, 4), (0, 0, 0, 0), (1, 1)),
            np.roll(x, (-1, 2), (1, 2)), np.roll(x, 3), np.roll(x, img.shape[2] - 6, 3), table[idx],
            x[:, :, :, idx[:2]], x[tuple(nd_idx.T)], x * 2.0 + 1.0]


def _run(loader):
    return run_saved_model(PREFIX, [G[n] for n in FEEDS], loader, META["input_names"], META["output_names"])


def test_golden_model_holds_the_op_types():
    assert META["paddle_version"] == "2.6.2"
    assert META["op_counts"] == {"strided_slice": 5, "unfold": 2, "roll": 3, "index_select": 2, "gather_nd": 1,
                                 "share_data": 1}


@pytest.mark.parametrize("loader", ["jit.load", "inference"])
def test_more_op_types_in_paddle_model(loader):
    outs = _run(loader)
    want = _numpy_outputs(*[G[n] for n in FEEDS])
    assert len(outs) == len(OUTPUTS) == len(want)
    for i, what in enumerate(OUTPUTS):
        np.testing.assert_allclose(G[f"out_{i}"], want[i], rtol=0, atol=0, err_msg=f"golden row {what}")
        assert outs[i].shape == G[f"out_{i}"].shape, what
        assert outs[i].dtype == G[f"out_{i}"].dtype, what
        np.testing.assert_allclose(outs[i], G[f"out_{i}"], rtol=1e-6, atol=1e-6, err_msg=f"output {i}: {what}")
