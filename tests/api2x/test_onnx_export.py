"""paddle.onnx.export through torch's ONNX exporter: without the `onnx` package, Paddle's ImportError naming the
extra; with it (`pip install 'paddle_compat[onnx]'`), the written model, run by onnx's reference evaluator,
gives the layer's eval outputs, with the InputSpec's -1 / None dims dynamic."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest


def _models(paddle):
    mlp = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    lenet = paddle.vision.models.LeNet()
    return {"mlp": (mlp, [paddle.static.InputSpec([None, 4], "float32", "x")], (2, 4)),
            "lenet": (lenet, [paddle.static.InputSpec([-1, 1, 28, 28], "float32", "image")], (3, 1, 28, 28))}


def test_without_onnx_the_extra_is_named(monkeypatch, tmp_path):
    import paddle

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnx" else real(name, *a))
    with pytest.raises(ImportError, match=r"paddle.onnx.export needs the `onnx` package.*paddle_compat\[onnx\]"):
        paddle.onnx.export(paddle.nn.Linear(2, 2), str(tmp_path / "m"),
                           input_spec=[paddle.static.InputSpec([None, 2])])


def test_bad_paths_and_specs(tmp_path):
    import paddle

    with pytest.raises(ValueError, match="the file_prefix is empty"):
        paddle.onnx.export(paddle.nn.Linear(2, 2), str(tmp_path) + "/", input_spec=[paddle.static.InputSpec([1, 2])])
    if importlib.util.find_spec("onnx") is not None:
        with pytest.raises(Exception, match="input_spec is required"):
            paddle.onnx.export(paddle.nn.Linear(2, 2), str(tmp_path / "m"))


@pytest.mark.parametrize("name", ["mlp", "lenet"])
def test_exported_model_computes_the_layer(name, tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx.reference import ReferenceEvaluator

    import paddle

    layer, spec, shape = _models(paddle)[name]
    layer.train()
    paddle.onnx.export(layer, str(tmp_path / name), input_spec=spec)
    assert layer.training  # the mode is restored
    model = onnx.load(str(tmp_path / f"{name}.onnx"))
    onnx.checker.check_model(model)
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param  # the batch dim is dynamic
    x = np.random.RandomState(0).rand(*shape).astype("float32")
    layer.eval()
    want = layer(paddle.to_tensor(x)).numpy()
    got = ReferenceEvaluator(model).run(None, {spec[0].name: x})[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
