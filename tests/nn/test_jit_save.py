"""paddle.jit.save / load and Model.save(training=False) in dygraph: the saved inference program reproduces the
layer's eval forward (batch norm on running statistics, dropout off) through jit.load and
static.load_inference_model; the layer itself is left as it was."""

from __future__ import annotations

import os

import numpy as np
import pytest


def _net():
    import paddle.nn as nn

    return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.Flatten(), nn.Dropout(0.5),
                         nn.Linear(64, 3))


def test_jit_save_and_load_reproduce_the_eval_forward(tmp_path):
    import paddle

    net = _net()
    x = paddle.to_tensor(np.random.RandomState(0).rand(2, 1, 4, 4).astype("float32"))
    net(x)  # moves the batch-norm statistics
    net.eval()
    want = net(x).numpy()
    net.train()
    spec = [paddle.static.InputSpec([None, 1, 4, 4], "float32", "img")]
    paddle.jit.save(net, str(tmp_path / "m"), input_spec=spec)
    assert net.training and all(p.name.startswith(("conv2d", "batch_norm", "linear")) for p in net.parameters())
    assert isinstance(net[0].weight, paddle.Tensor)  # parameters swapped back after tracing
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "m"))(x).numpy(), want, rtol=1e-6)
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "m"), exe)
    assert feeds == ["img"]
    np.testing.assert_allclose(exe.run(prog, feed={"img": x.numpy()}, fetch_list=fetches)[0], want, rtol=1e-6)


def test_model_save_for_inference_in_dygraph(tmp_path):
    import paddle

    net = _net()
    x = np.random.RandomState(1).rand(3, 1, 4, 4).astype("float32")
    model = paddle.Model(net, paddle.static.InputSpec([None, 1, 4, 4], "float32", "img"))
    model.prepare()
    want = model.predict_batch([x])[0]
    model.save(str(tmp_path / "infer" / "m"), training=False)
    assert sorted(os.listdir(tmp_path / "infer")) == ["m.pdiparams", "m.pdmodel"]
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "infer" / "m"))(x).numpy(), want, rtol=1e-6)
    with pytest.raises(ValueError, match="needs `inputs`"):
        paddle.Model(_net()).save(str(tmp_path / "x"), training=False)


def test_jit_save_needs_input_specs(tmp_path):
    import paddle

    with pytest.raises(Exception, match="input_spec is required"):
        paddle.jit.save(_net(), str(tmp_path / "m"))
    with pytest.raises(TypeError, match="paddle.nn.Layer"):
        paddle.jit.save(lambda x: x, str(tmp_path / "m"), input_spec=[paddle.static.InputSpec([1], "float32")])


def test_to_static_runs_eagerly_and_gives_jit_save_its_spec(tmp_path):
    import paddle

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 2)

        @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
        def forward(self, x):
            return paddle.nn.functional.relu(self.fc(x))

    net = Net()
    x = paddle.rand([3, 4])
    want = net(x).numpy()
    paddle.jit.save(net, str(tmp_path / "m"))  # the spec comes from the decorator
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "m"))(x).numpy(), want, rtol=1e-6)
    assert paddle.jit.ProgramTranslator() is paddle.jit.ProgramTranslator.get_instance()


def test_fluid_traced_layer(tmp_path):
    import paddle
    from paddle import fluid

    with fluid.dygraph.guard():
        lin = fluid.dygraph.Linear(4, 2, act="relu")
        x = np.random.RandomState(0).rand(2, 4).astype("float32")
        out, traced = fluid.dygraph.TracedLayer.trace(lin, inputs=[fluid.dygraph.to_variable(x)])
        np.testing.assert_allclose(traced([x])[0].numpy(), out.numpy(), rtol=1e-6)
        traced.save_inference_model(str(tmp_path / "t"))
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "t"), exe)
    np.testing.assert_allclose(exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)[0], out.numpy(), rtol=1e-6)
