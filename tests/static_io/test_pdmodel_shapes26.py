"""A model real Paddle 2.6.2's paddle.jit.save wrote whose reshape2 / expand_v2 take their shape from runtime tensors
(ShapeTensor, expand_shapes_tensor; `B = paddle.shape(x)[0]` as ViT and SegFormer write), served here by
paddle.jit.load and paddle.inference (tests/goldens/pdmodel_shapes26*, tools/oracle/rec_pdmodel_shapes26.py)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from tests.conftest import GOLDENS

PREFIX = os.path.join(GOLDENS, "pdmodel_shapes26", "shapes")
with open(os.path.join(GOLDENS, "pdmodel_shapes26.json"), encoding="utf-8") as f:
    G = json.load(f)


def test_the_model_has_runtime_shape_inputs():
    assert G["inputs"] == {"expand_v2": ["X", "expand_shapes_tensor"], "reshape2": ["ShapeTensor", "X"]}


@pytest.mark.parametrize("batch", [3, 1])
def test_jit_load_runs_it_as_paddle(batch):
    import paddle

    x = np.array(G["x"], "float32")[:batch]
    out = paddle.jit.load(PREFIX)(paddle.to_tensor(x)).numpy()
    np.testing.assert_allclose(out, np.array(G["out"], "float32")[:batch], rtol=1e-6, atol=1e-7)


def test_inference_predictor_runs_it_as_paddle():
    import paddle.inference as inf

    predictor = inf.create_predictor(inf.Config(PREFIX + ".pdmodel", PREFIX + ".pdiparams"))
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.copy_from_cpu(np.array(G["x"], "float32"))
    predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(out, np.array(G["out"], "float32"), rtol=1e-6, atol=1e-7)
