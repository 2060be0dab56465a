"""paddle.inference over inference models written by real Paddle 2.6.2 (tests/goldens/inference26: vision models
from paddle.jit.save, a dy2static model with conditional_block / while; tools/oracle/rec_inference26.py), by real
Paddle 1.8.5 (tests/goldens/pdmodel/fluid18) and by us; the Config / Predictor / Tensor / enum API."""

import gzip
import os

import numpy as np
import pytest

from paddle_compat.engine.static.io import tensor_to_bytes
from tests.conftest import GOLDENS, load_golden
from tests.vision.model_weights import model_input, weight_for

META, ARR = load_golden("inference26")
INF = os.path.join(GOLDENS, "inference26")
# the big programs (same op types as the others) run with PADDLE_COMPAT_FULL_MODELS=1, as tests/vision/test_models.py
BIG = {"densenet121", "inception_v3", "mobilenet_v3_large", "resnext50_32x4d"}
FULL = os.environ.get("PADDLE_COMPAT_FULL_MODELS") == "1"
VISION = [m if FULL or m not in BIG else pytest.param(m, marks=pytest.mark.skip(
    reason="PADDLE_COMPAT_FULL_MODELS=1 runs it")) for m in META["models"] if m != "cond_while"]


def _write_vision_model(name, tmp_path):
    """The .pdmodel Paddle wrote, and its .pdiparams rebuilt from the weight rule (sorted variable names)."""
    import paddle

    model = gzip.decompress(open(os.path.join(INF, name + ".pdmodel.gz"), "rb").read())
    params = META["models"][name]["params"]
    prog = paddle.static.deserialize_program(model)
    shapes = {v.name: v.shape for v in prog.global_block().vars.values()
              if v.persistable and v.name not in ("feed", "fetch")}
    assert set(shapes) == set(params)
    prefix = tmp_path / name
    (tmp_path / (name + ".pdmodel")).write_bytes(model)
    (tmp_path / (name + ".pdiparams")).write_bytes(
        b"".join(tensor_to_bytes(weight_for(params[n], shapes[n])) for n in sorted(shapes)))
    return str(prefix)


def _predict(config, feeds):
    import paddle.inference as pi

    pred = pi.create_predictor(config)
    for name, arr in zip(pred.get_input_names(), feeds):
        h = pred.get_input_handle(name)
        h.reshape(list(arr.shape))
        h.copy_from_cpu(arr)
    assert pred.run() is True
    return pred, [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]


@pytest.mark.parametrize("name", VISION)
def test_vision_models_exported_by_paddle(name, tmp_path):
    import paddle.inference as pi

    info = META["models"][name]
    prefix = _write_vision_model(name, tmp_path)
    config = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_gpu()
    pred, outs = _predict(config, [model_input(info["input_shape"])])
    assert pred.get_input_names() == info["inputs"] and pred.get_output_names() == info["outputs"]
    for i, out in enumerate(outs):
        np.testing.assert_allclose(out, ARR[f"{name}__out{i}"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", ["pos", "neg", "zero_trips"])
def test_control_flow_model_exported_by_paddle(case, tmp_path):
    """dy2static if / while: conditional_block, select_input and while sub-blocks, both branches."""
    import paddle.inference as pi

    (tmp_path / "m.pdmodel").write_bytes(gzip.decompress(open(os.path.join(INF, "cond_while.pdmodel.gz"),
                                                              "rb").read()))
    config = pi.Config(str(tmp_path / "m.pdmodel"), os.path.join(INF, "cond_while.pdiparams"))
    pred, outs = _predict(config, [ARR[f"cond_while_{case}__in0"], ARR[f"cond_while_{case}__in1"]])
    assert pred.get_input_names() == ["x", "n"]
    for i, out in enumerate(outs):
        want = ARR[f"cond_while_{case}__out{i}"]
        assert out.dtype == want.dtype and out.shape == want.shape
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    assert pred.get_output_handle(pred.get_output_names()[1]).type() == pi.DataType.INT64


@pytest.mark.parametrize("model,form", [("mlp", "dir"), ("mlp", "combined"), ("cnn", "dir"), ("misc", "dir"),
                                        ("legacy", "dir"), ("control", "dir")])
def test_fluid18_models(model, form):
    """Config(model_dir) reads `__model__` with one file per parameter; Config(prog, params) a combined file;
    `control` is fluid's cond + While (conditional_block / while sub-blocks, tensor arrays)."""
    import paddle.inference as pi

    meta, arrays = load_golden("pdmodel/fluid18")
    if form == "dir":
        config = pi.Config(os.path.join(GOLDENS, "pdmodel", "fluid18", model))
        assert config.model_dir().endswith(model)
    else:
        d = os.path.join(GOLDENS, "pdmodel", "fluid18_combined", model)
        config = pi.Config(os.path.join(d, "__model__"), os.path.join(d, "__params__"))
    feeds = meta[model]["fluid18"]["feed_names"]
    pred, outs = _predict(config, [arrays[f"{model}__in__{n}"] for n in feeds])
    assert pred.get_input_names() == feeds
    for i, out in enumerate(outs):
        np.testing.assert_allclose(out, arrays[f"{model}__out__{i}"], rtol=1e-5, atol=1e-6)


def test_model_saved_here_and_from_memory(tmp_path):
    """paddle.jit.save of our LeNet, read back by a predictor (from files and from buffers), gives the dygraph
    output; creating a predictor leaves the user's dygraph mode alone."""
    import paddle
    import paddle.inference as pi

    net = paddle.vision.models.LeNet()
    net.eval()
    x = model_input([2, 1, 28, 28])
    want = net(paddle.to_tensor(x)).numpy()
    prefix = str(tmp_path / "lenet")
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 1, 28, 28], "float32", "x")])
    _, outs = _predict(pi.Config(prefix + ".pdmodel", prefix + ".pdiparams"), [x])
    np.testing.assert_allclose(outs[0], want, rtol=1e-5, atol=1e-6)
    config = pi.Config()
    model, params = open(prefix + ".pdmodel", "rb").read(), open(prefix + ".pdiparams", "rb").read()
    config.set_model_buffer(model, len(model), params, len(params))
    assert config.model_from_memory()
    pred = pi.create_predictor(config)
    out = pred.run([paddle.to_tensor(x)])
    np.testing.assert_allclose(out[0].numpy(), want, rtol=1e-5, atol=1e-6)
    assert paddle.in_dynamic_mode()


@pytest.mark.parametrize("name,kwargs,side", [
    ("mobilenet_v3_small", {"scale": 0.5, "num_classes": 10}, 32), ("shufflenet_v2_swish", {"num_classes": 10}, 32),
    ("googlenet", {"num_classes": 10}, 192)])
def test_vision_models_saved_here(name, kwargs, side, tmp_path):
    """paddle.jit.save of our vision models (hardswish / SE blocks, channel shuffle, GoogLeNet's three outputs),
    run by a predictor, gives the dygraph outputs exactly."""
    import paddle
    import paddle.inference as pi

    net = getattr(paddle.vision.models, name)(**kwargs)
    net.eval()
    x = model_input([2, 3, side, side])
    want = net(paddle.to_tensor(x))
    want = want if isinstance(want, (list, tuple)) else [want]
    prefix = str(tmp_path / name)
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 3, side, side], "float32", "x")])
    _, outs = _predict(pi.Config(prefix + ".pdmodel", prefix + ".pdiparams"), [x])
    assert len(outs) == len(want)
    for out, w in zip(outs, want):
        np.testing.assert_array_equal(out, w.numpy())


def test_api_and_errors(tmp_path):
    import paddle
    import paddle.inference as pi

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    prefix = _write_vision_model("lenet", tmp_path)
    x = model_input([2, 1, 28, 28])
    config = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    assert (config.prog_file(), config.use_gpu(), config.ir_optim()) == (prefix + ".pdmodel", False, True)
    assert "| model_file " in config.summary() and "| use_gpu                  | false" in config.summary()
    with pytest.raises(UnsupportedAPIError, match="enable_tensorrt_engine"):
        config.enable_tensorrt_engine()
    pool = pi.PredictorPool(config, 2)
    a, b = pool.retrive(0), pool.retrive(1)
    with pytest.raises(ValueError, match="each config can only be used for one predictor"):
        pi.create_predictor(config)
    h = a.get_input_handle("x")
    assert h.shape() == [0] and h.type() == pi.DataType.FLOAT32
    with pytest.raises(RuntimeError, match=r"inputs \['x'\] have no data"):
        a.run()
    with pytest.raises(RuntimeError, match="no input named 'nope'"):
        a.get_input_handle("nope")
    h.copy_from_cpu(x)
    a.run()
    b.get_input_handle("x").copy_from_cpu(x[:1])
    b.run()
    out_a = a.get_output_handle(a.get_output_names()[0])
    assert out_a.shape() == [2, 10] and out_a.lod() == []
    np.testing.assert_allclose(b.get_output_handle(b.get_output_names()[0]).copy_to_cpu(), out_a.copy_to_cpu()[:1],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out_a.copy_to_cpu(), ARR["lenet__out0"], rtol=1e-4, atol=1e-5)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        h.copy_from_cpu(paddle.to_tensor(x))
    seen = []
    c = a.clone()
    c.register_output_hook(lambda op, name, t: seen.append((name, t.shape())))
    c.get_input_handle("x").copy_from_cpu(x)
    c.run()
    assert seen == [(a.get_output_names()[0], [2, 10])]
    assert repr(pi.DataType.FLOAT32) == "<PaddleDType.FLOAT32: 0>" and str(pi.PlaceType.GPU) == "PaddlePlace.GPU"
    assert [pi.get_num_bytes_of_data_type(t) for t in pi.DataType] == [-1, 4, -1, 8, 4, 1, -1, -1]
    assert pi.PrecisionType.Half == 2 and pi.Config.Precision.Int8 == 1
    assert pi.get_trt_compile_version() == (0, 0, 0) and pi.get_version().startswith("version: ")
