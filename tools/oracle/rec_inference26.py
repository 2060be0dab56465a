"""Inference models exported by real Paddle 2.6.2 for paddle.inference / load_inference_model ->
tests/goldens/inference26/ and tests/goldens/inference26.{npz,json}.

- vision models (paddle.jit.save of a paddle.vision.models model with InputSpec [None, C, H, W] named 'x'): only
  the program is kept, gzipped (`<name>.pdmodel.gz`); the parameters follow the seed-free rule of
  tests/vision/model_weights.py, keyed by state_dict name; meta "params" maps each saved variable name to that
  key, so the test rebuilds the `.pdiparams` file (sorted variable names, Paddle's tensor format).
- control flow (dy2static): `cond` (if on a tensor -> conditional_block + select_input) and a tensor `while`
  loop: `cond_while.pdmodel.gz` with its (tiny) `.pdiparams`.
Outputs are what paddle.inference's Predictor returns (copy_to_cpu), with the input and output names.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_inference26.py"""
import gzip
import os
import shutil
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "vision"))
from _common import GOLDEN_DIR, save  # noqa: E402
from model_weights import model_input, weight_for  # noqa: E402

import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402
import paddle.vision.models as M  # noqa: E402
from paddle import nn  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

OUT = os.path.join(GOLDEN_DIR, "inference26")
VISION = {
    "lenet": (M.LeNet, {}, [2, 1, 28, 28]),
    "resnet18": (M.resnet18, {"num_classes": 10}, [2, 3, 32, 32]),
    "mobilenet_v2": (M.mobilenet_v2, {"scale": 0.5, "num_classes": 10}, [2, 3, 32, 32]),
    "mobilenet_v3_small": (M.mobilenet_v3_small, {"scale": 0.5, "num_classes": 10}, [2, 3, 32, 32]),
    "shufflenet_v2_swish": (M.shufflenet_v2_swish, {"num_classes": 10}, [2, 3, 32, 32]),
    "squeezenet1_1": (M.squeezenet1_1, {"num_classes": 10}, [2, 3, 48, 48]),
    "googlenet": (M.googlenet, {"num_classes": 10}, [1, 3, 192, 192]),
    "mobilenet_v1": (M.mobilenet_v1, {"scale": 0.25, "num_classes": 10}, [2, 3, 32, 32]),
    "mobilenet_v3_large": (M.mobilenet_v3_large, {"scale": 0.5, "num_classes": 10}, [2, 3, 32, 32]),
    "resnext50_32x4d": (M.resnext50_32x4d, {"num_classes": 10}, [1, 3, 32, 32]),
    "densenet121": (M.densenet121, {"num_classes": 10}, [1, 3, 32, 32]),
    "inception_v3": (M.inception_v3, {"num_classes": 10}, [1, 3, 96, 96]),
    # VGG's classifier (25088 x 4096) is big and its ops (dropout, matmul) are covered above: the features
    "vgg11_bn": (M.vgg11, {"batch_norm": True, "num_classes": 0}, [2, 3, 32, 32]),
}


class CondWhile(nn.Layer):
    """if on a tensor and a tensor-bounded while loop (dy2static: conditional_block, select_input, while)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32", "x"), InputSpec([1], "int64", "n")],
                          full_graph=True)
    def forward(self, x, n):
        y = self.fc(x)
        if paddle.mean(y) > 0:
            y = y * 2.0 + 1.0
        else:
            y = paddle.abs(y) - 3.0
        i = paddle.zeros([1], "int64")
        while i < n:
            y = y * 0.5 + paddle.cast(i, "float32")
            i = i + 1
        return y, i


def predict(prefix, feeds):
    config = pi.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_gpu()
    config.disable_glog_info()
    pred = pi.create_predictor(config)
    for name, arr in zip(pred.get_input_names(), feeds):
        h = pred.get_input_handle(name)
        h.reshape(list(arr.shape))
        h.copy_from_cpu(arr)
    pred.run()
    names = pred.get_output_names()
    return pred.get_input_names(), names, [pred.get_output_handle(n).copy_to_cpu() for n in names]


def main():
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp()
    arrays, meta = {}, {"paddle_version": paddle.__version__, "models": {}}
    for name, (ctor, kwargs, shape) in VISION.items():
        model = ctor(**kwargs)
        model.eval()
        sd = model.state_dict()
        params = {v.name: k for k, v in sd.items()}
        model.set_state_dict({k: weight_for(k, v.shape) for k, v in sd.items()})
        prefix = os.path.join(tmp, name)
        paddle.jit.save(model, prefix, input_spec=[InputSpec([None] + shape[1:], "float32", "x")])
        with open(prefix + ".pdmodel", "rb") as f, open(os.path.join(OUT, name + ".pdmodel.gz"), "wb") as g:
            g.write(gzip.compress(f.read(), mtime=0))
        x = model_input(shape)
        ins, outs, values = predict(prefix, [x])
        meta["models"][name] = {"inputs": ins, "outputs": outs, "params": params, "input_shape": shape}
        for i, v in enumerate(values):
            arrays[f"{name}__out{i}"] = v
        print(name, ins, outs, [v.shape for v in values], flush=True)
    paddle.seed(11)
    net = CondWhile()
    net.eval()
    rs = np.random.RandomState(4)
    net.fc.weight.set_value(rs.uniform(-1, 1, (4, 3)).astype("float32"))
    net.fc.bias.set_value(np.array([0.5, -0.2, 0.1], "float32"))
    prefix = os.path.join(OUT, "cond_while")
    paddle.jit.save(net, prefix)
    os.remove(prefix + ".pdiparams.info") if os.path.exists(prefix + ".pdiparams.info") else None
    with open(prefix + ".pdmodel", "rb") as f:
        model_bytes = f.read()
    feeds = {"pos": [np.abs(rs.randn(3, 4)).astype("float32"), np.array([3], "int64")],
             "neg": [-np.abs(rs.randn(2, 4)).astype("float32") - 1, np.array([1], "int64")],
             "zero_trips": [rs.randn(2, 4).astype("float32"), np.array([0], "int64")]}
    import paddle.static as S  # the op types, for the record

    paddle.enable_static()
    prog, _, _ = S.load_inference_model(prefix, S.Executor())
    paddle.disable_static()
    meta["models"]["cond_while"] = {"op_types": sorted({op.type for b in prog.blocks for op in b.ops}),
                                    "blocks": prog.num_blocks}
    for case, feed in feeds.items():
        ins, outs, values = predict(prefix, feed)
        meta["models"]["cond_while"].update(inputs=ins, outputs=outs)
        for i, v in enumerate(feed):
            arrays[f"cond_while_{case}__in{i}"] = v
        for i, v in enumerate(values):
            arrays[f"cond_while_{case}__out{i}"] = v
    with open(prefix + ".pdmodel.gz", "wb") as g:
        g.write(gzip.compress(model_bytes, mtime=0))
    os.remove(prefix + ".pdmodel")
    print("cond_while", meta["models"]["cond_while"])
    shutil.rmtree(tmp)
    save("inference26", arrays, meta)


if __name__ == "__main__":
    main()
