"""Record paddle.vision.models with real Paddle 2.6.2 -> tests/goldens/models26.{npz,json}.

For each case (a constructor or class of paddle.vision.models with its arguments): the state_dict keys and
shapes in order, and the eval output on a fixed input after every tensor is set by the seed-free rule of
tests/vision/model_weights.py (summarised: 24 values spread over it, its sum and absolute sum). Also writes
tests/goldens/lenet26.pdparams, a LeNet state_dict saved by Paddle (paddle.seed(7) init), with its eval output.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_models26.py [case ...]
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "vision"))
from _common import GOLDEN_DIR, save  # noqa: E402
from model_weights import model_input, summarize, weight_for  # noqa: E402

import paddle  # noqa: E402
import paddle.vision.models as M  # noqa: E402

# case id -> (what to build, keyword arguments, input shape). "mod.Name" in a value resolves to
# paddle.vision.models.mod.Name; ["call", "mod.fn", args...] calls it.
S = [1, 3, 64, 64]
CASES = {}
CONSTRUCTORS = [
    "alexnet", "densenet121", "densenet161", "densenet169", "densenet201", "densenet264", "googlenet",
    "inception_v3", "mobilenet_v1", "mobilenet_v2", "mobilenet_v3_large", "mobilenet_v3_small", "resnet18",
    "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d", "resnext50_64x4d", "resnext101_32x4d",
    "resnext101_64x4d", "resnext152_32x4d", "resnext152_64x4d", "wide_resnet50_2", "wide_resnet101_2",
    "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5", "shufflenet_v2_x2_0", "shufflenet_v2_swish", "squeezenet1_0", "squeezenet1_1",
    "vgg11", "vgg13", "vgg16", "vgg19"]
SIZES = {"alexnet": [1, 3, 224, 224], "AlexNet": [1, 3, 224, 224], "googlenet": [1, 3, 192, 192],
         "GoogLeNet": [1, 3, 192, 192], "inception_v3": [1, 3, 80, 80], "InceptionV3": [1, 3, 80, 80],
         "LeNet": [2, 1, 28, 28]}
for c in CONSTRUCTORS:
    CASES[c] = (c, {}, SIZES.get(c, S))
CASES.update({
    "LeNet": ("LeNet", {}, SIZES["LeNet"]),
    "LeNet_c0": ("LeNet", {"num_classes": 0}, SIZES["LeNet"]),
    "AlexNet_c10": ("AlexNet", {"num_classes": 10}, SIZES["AlexNet"]),
    "VGG_A_bn_nopool": ("VGG", {"features": ["call", "vgg.make_layers", "vgg.cfgs.A", True], "with_pool": False,
                                "num_classes": 0}, S),
    "vgg11_bn": ("vgg11", {"batch_norm": True, "num_classes": 10}, S),
    "ResNet_basic18_feat": ("ResNet", {"block": "resnet.BasicBlock", "depth": 18, "num_classes": 0,
                                       "with_pool": False}, S),
    "ResNet_bottleneck50_g2": ("ResNet", {"block": "resnet.BottleneckBlock", "depth": 50, "width": 32,
                                          "groups": 2, "num_classes": 7}, S),
    "resnet18_nopool": ("resnet18", {"with_pool": False, "num_classes": 0}, S),
    "MobileNetV1_s025": ("MobileNetV1", {"scale": 0.25, "num_classes": 10}, S),
    "mobilenet_v1_s05_nopool": ("mobilenet_v1", {"scale": 0.5, "with_pool": False, "num_classes": 0}, S),
    "MobileNetV2_s05": ("MobileNetV2", {"scale": 0.5, "num_classes": 10}, S),
    "mobilenet_v2_s14": ("mobilenet_v2", {"scale": 1.4}, S),
    "MobileNetV3Small_s075": ("MobileNetV3Small", {"scale": 0.75, "num_classes": 10}, S),
    "MobileNetV3Large_nopool": ("MobileNetV3Large", {"with_pool": False, "num_classes": 0}, S),
    "mobilenet_v3_large_s05": ("mobilenet_v3_large", {"scale": 0.5}, S),
    "ShuffleNetV2_033_swish": ("ShuffleNetV2", {"scale": 0.33, "act": "swish", "num_classes": 10}, S),
    "SqueezeNet_10_c10": ("SqueezeNet", {"version": "1.0", "num_classes": 10}, S),
    "squeezenet1_1_nopool": ("squeezenet1_1", {"with_pool": False}, S),
    "DenseNet_121_drop": ("DenseNet", {"layers": 121, "bn_size": 2, "dropout": 0.1, "num_classes": 10}, S),
    "GoogLeNet_c10": ("GoogLeNet", {"num_classes": 10}, SIZES["GoogLeNet"]),
    "InceptionV3_c10": ("InceptionV3", {"num_classes": 10}, SIZES["InceptionV3"]),
    "GoogLeNet_feat": ("GoogLeNet", {"num_classes": 0, "with_pool": False}, [1, 3, 64, 64]),
    "InceptionV3_feat": ("InceptionV3", {"num_classes": 0}, [1, 3, 75, 75]),
})


def resolve(v):
    if isinstance(v, str) and "." in v and v.split(".")[0] in ("vgg", "resnet"):
        obj = M
        for part in v.split("."):
            obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
        return obj
    if isinstance(v, list) and v and v[0] == "call":
        return resolve(v[1])(*[resolve(a) for a in v[2:]])
    return v


def build(ctor, kwargs):
    return getattr(M, ctor)(**{k: resolve(v) for k, v in kwargs.items()})


def keys_text(sd):
    return ";".join(f"{k}:{','.join(str(int(d)) for d in v.shape)}" for k, v in sd.items())


def main(only):
    import zlib

    arrays, meta = {}, {"paddle_version": paddle.__version__, "cases": {}}
    if only:  # re-record these cases into the existing golden
        import json

        old = os.path.join(GOLDEN_DIR, "models26")
        arrays = {k: v for k, v in np.load(old + ".npz").items() if k.split("__")[0] not in only}
        with open(old + ".json") as f:
            meta["cases"] = {k: v for k, v in json.load(f)["cases"].items() if k not in only}
    for cid, (ctor, kwargs, shape) in CASES.items():
        if only and cid not in only:
            continue
        paddle.seed(0)
        model = build(ctor, kwargs)
        model.eval()
        sd = model.state_dict()
        text = keys_text(sd)
        model.set_state_dict({k: weight_for(k, v.shape) for k, v in sd.items()})
        out = model(paddle.to_tensor(model_input(shape)))
        outs = out if isinstance(out, (list, tuple)) else [out]
        meta["cases"][cid] = {"ctor": ctor, "kwargs": kwargs, "input": shape,
                              "out_shapes": [list(o.shape) for o in outs], "n_keys": len(sd),
                              "keys_crc": zlib.crc32(text.encode()),
                              "n_params": int(sum(int(np.prod(v.shape)) for v in sd.values()))}
        arrays[f"{cid}__keys"] = np.frombuffer(text.encode(), dtype="uint8")
        for i, o in enumerate(outs):
            arrays[f"{cid}__out{i}"] = summarize(o.numpy())
        print(cid, meta["cases"][cid]["out_shapes"], len(sd), flush=True)
    if not only:  # the LeNet written by Paddle (kept as it is when re-recording some cases)
        paddle.seed(7)
        lenet = M.LeNet()
        lenet.eval()
        paddle.save(lenet.state_dict(), os.path.join(GOLDEN_DIR, "lenet26.pdparams"))
        arrays["lenet26_pdparams_out"] = lenet(paddle.to_tensor(model_input([2, 1, 28, 28]))).numpy()
    save("models26", arrays, meta)


if __name__ == "__main__":
    main(sys.argv[1:])
