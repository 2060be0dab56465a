"""Run Paddle 2.x model zoos (PaddleClas, PaddleSeg, PaddleDetection, PaddleNLP) under real Paddle 2.6.2 and here.

The zoo code is never copied into this repository: it is imported from checkouts under ``--root``
(default /tmp/zoo26), made for instance with
  git --git-dir=/work/.mirror/PaddlePaddle+PaddleClas/repo archive release/2.5 ppcls | tar -x -C /tmp/zoo26/PaddleClas
  git --git-dir=/work/.mirror/PaddlePaddle+PaddleSeg/repo archive release/2.8 paddleseg | tar -x -C /tmp/zoo26/PaddleSeg
  git --git-dir=/work/.mirror/PaddlePaddle+PaddleDetection/repo archive release/2.6 ppdet | tar -x -C /tmp/zoo26/PaddleDetection
  pip download --no-deps paddlenlp==2.1.1; unzip it to /tmp/zoo26/nlp/src211
Their pure-Python import-time dependencies (six, yaml, requests, ...) come from the environment (for our side a
``pip install --target`` folder put on PYTHONPATH after the shims); modules they import but no model here uses
(sklearn, pycocotools, the paddlenlp downloader) are replaced by empty stub modules.

Modes, per model (the side is found from what ``import paddle`` gives):
  dygraph: parameters set from their state_dict names (seeded numpy per name, see ``param_value``), dropout
           probabilities set to 0; records the eval-mode output, the loss of one SGD step in train mode
           (loss = sum over float outputs of mean(out**2)), the eval-mode output after that step.
  static:  the same under ``paddle.enable_static()``: the model is built inside a program, ``clone(for_test=True)``
           gives the eval program, ``SGD.minimize`` the step; parameters are set in the scope by the same names.
  jit:     real Paddle runs ``paddle.jit.to_static`` + ``paddle.jit.save`` to <dir>/jit/<zoo>/<model> and records
           ``paddle.jit.load``'s and ``paddle.inference``'s outputs; our side loads those files with
           ``paddle.jit.load`` and with ``paddle.inference.Config(model, params)`` + ``create_predictor``.
Each run writes <dir>/<zoo>/<model>.<mode>.<side>.npz and .json (status and first error); compare.py makes the table.

  /work/oracle/p26/bin/python tools/zoo26/run.py --zoo clas --mode dygraph            # all models, real Paddle
  PYTHONPATH=$PWD:$PWD/shims:/tmp/zoo26/site python tools/zoo26/run.py --zoo clas --mode dygraph
  python tools/zoo26/compare.py                                                       # the table

A row 2.6.2 cannot reproduce in float32 (compare.py: "2.6.2 disagrees with itself"), dygraph, one model:
  /work/oracle/p26/bin/python tools/zoo26/run.py ... --model M --jitter 1e-6 --jitter-seed S   # S = 1..7: more draws
  both sides: ... --model M --float64            # the same run in float64 (ref64 / ours64), read by compare.py
  both sides: ... --model M --trace [--float64]  # every sublayer output, gradient, parameter after the step
  python tools/zoo26/trace_diff.py --model M [--float64]                  # array by array, against the draws
"""

import argparse
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import traceback
import types
import zlib

import numpy as np

ROOT = os.environ.get("ZOO26_ROOT", "/tmp/zoo26")

# ---------------------------------------------------------------------------------------------------------------
# import helpers


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Empty modules for packages a zoo imports at import time but no model here calls."""

    def __init__(self, prefixes):
        self.prefixes = tuple(prefixes)

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.prefixes:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        m = types.ModuleType(spec.name)
        m.__path__ = []

        def _getattr(attr, _n=spec.name):
            if attr.startswith("__"):
                raise AttributeError(attr)
            return _Unused(_n + "." + attr)

        m.__getattr__ = _getattr
        return m

    def exec_module(self, module):
        pass


class _Unused:
    def __init__(self, name):
        self._name = name

    def __call__(self, *a, **k):
        raise RuntimeError("zoo26 runner: stubbed %s was called" % self._name)

    def __getattr__(self, attr):
        return _Unused(self._name + "." + attr)

    def __mro_entries__(self, bases):
        return (object,)


def stub(*prefixes):
    sys.meta_path.insert(0, _StubFinder(prefixes))


def pkg_stub(name, path=None, **attrs):
    m = types.ModuleType(name)
    if path is not None:
        m.__path__ = [path]
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def load_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------------------------------------------------------
# zoos: each entry gives (builder, inputs); builder() -> Layer; inputs: list of (name, shape, dtype, high)

def _clas_module(fn):
    root = os.path.join(ROOT, "PaddleClas")
    for pkg in ("ppcls", "ppcls.arch", "ppcls.arch.backbone", "ppcls.arch.backbone.model_zoo",
                "ppcls.arch.backbone.legendary_models", "ppcls.arch.backbone.base", "ppcls.utils"):
        if pkg not in sys.modules:
            pkg_stub(pkg, os.path.join(root, *pkg.split(".")))
    if "ppcls.utils.save_load" not in sys.modules:
        def _refuse(*a, **k):
            raise RuntimeError("zoo26: pretrained weights are not used")
        pkg_stub("ppcls.utils.save_load", load_dygraph_pretrain=_refuse, load_dygraph_pretrain_from_url=_refuse)
    bb = os.path.join(root, "ppcls", "arch", "backbone")
    for sub in ("legendary_models", "model_zoo"):
        p = os.path.join(bb, sub, fn + ".py")
        if os.path.exists(p):
            name = "ppcls.arch.backbone.%s.%s" % (sub, fn)
            return sys.modules.get(name) or load_file(name, p)
    raise FileNotFoundError(fn)


def clas(fn, ctor, size=64, classes=True, **kw):
    def build():
        return getattr(_clas_module(fn), ctor)(**(dict(kw, class_num=10) if classes else kw))
    return build, [("x", [2, 3, size, size], "float32", None)]


# PaddleClas 2.5: the smallest variant of each model file of ppcls/arch/backbone/{legendary_models,model_zoo}
# (one row per file, 55 files; ResNet50 and GhostNet_x1_0 kept as extra rows), 64x64 unless the net needs its
# training size (a fixed-size classifier, window / position tables sized for 224, a 112 face input)
def _cae_base():
    # cae_base_patch16_224(pretrained=False) fails in the zoo itself (its _load_pretrained reads `checkpoint`
    # unset), so the row builds the VisionTransformer it builds, with the finetune config's arguments
    import functools

    import paddle

    def build():
        return _clas_module("cae").VisionTransformer(
            patch_size=16, embed_dim=768, depth=12, num_heads=12, mlp_ratio=4, qkv_bias=True,
            norm_layer=functools.partial(paddle.nn.LayerNorm, epsilon=1e-6), class_num=10, use_mean_pooling=True,
            init_scale=0.001, use_rel_pos_bias=True, use_abs_pos_emb=False, init_values=0.1, lin_probe=False,
            sin_pos_emb=True)
    return build, [("x", [2, 3, 224, 224], "float32", None)]


CLAS = {
    # legendary_models
    "ESNet_x0_25": clas("esnet", "ESNet_x0_25"),
    "HRNet_W18_C": clas("hrnet", "HRNet_W18_C"),
    "InceptionV3": clas("inception_v3", "InceptionV3", size=299),
    "MobileNetV1_x0_25": clas("mobilenet_v1", "MobileNetV1_x0_25"),
    "MobileNetV3_small_x0_35": clas("mobilenet_v3", "MobileNetV3_small_x0_35"),
    "PPHGNet_tiny": clas("pp_hgnet", "PPHGNet_tiny"),
    "PPLCNet_x0_25": clas("pp_lcnet", "PPLCNet_x0_25"),
    "PPLCNetV2_base": clas("pp_lcnet_v2", "PPLCNetV2_base"),
    "ResNet18": clas("resnet", "ResNet18"),
    "ResNet50": clas("resnet", "ResNet50"),
    "SwinTransformer_tiny_patch4_window7_224": clas("swin_transformer", "SwinTransformer_tiny_patch4_window7_224",
                                                    size=224),
    "VGG11": clas("vgg", "VGG11", size=224),
    # model_zoo
    "AdaFace_IR_18": clas("adaface_ir_net", "AdaFace_IR_18", size=112, classes=False),
    "AlexNet": clas("alexnet", "AlexNet", size=224),
    "cae_base_patch16_224": _cae_base(),
    "ConvNeXt_tiny": clas("convnext", "ConvNeXt_tiny"),
    "CSPDarkNet53": clas("cspnet", "CSPDarkNet53"),
    "CSWinTransformer_tiny_224": clas("cswin_transformer", "CSWinTransformer_tiny_224", size=224),
    "DarkNet53": clas("darknet", "DarkNet53"),
    "DenseNet121": clas("densenet", "DenseNet121"),
    "DeiT_tiny_patch16_224": clas("distilled_vision_transformer", "DeiT_tiny_patch16_224", size=224),
    "DLA34": clas("dla", "DLA34"),
    "DPN68": clas("dpn", "DPN68"),
    "EfficientNetB0": clas("efficientnet", "EfficientNetB0"),
    "GhostNet_x0_5": clas("ghostnet", "GhostNet_x0_5"),
    "GhostNet_x1_0": clas("ghostnet", "GhostNet_x1_0"),
    "GoogLeNet": clas("googlenet", "GoogLeNet", size=224),
    "pcpvt_small": clas("gvt", "pcpvt_small", size=224),
    "HarDNet39_ds": clas("hardnet", "HarDNet39_ds"),
    "InceptionV4": clas("inception_v4", "InceptionV4", size=299),
    "LeViT_128S": clas("levit", "LeViT_128S", size=224),
    "MixNet_S": clas("mixnet", "MixNet_S", size=224),
    "MobileNetV2_x0_25": clas("mobilenet_v2", "MobileNetV2_x0_25"),
    "MobileViT_XXS": clas("mobilevit", "MobileViT_XXS"),
    "PeleeNet": clas("peleenet", "PeleeNet"),
    "PVT_V2_B0": clas("pvt_v2", "PVT_V2_B0", size=224),
    "RedNet26": clas("rednet", "RedNet26"),
    "RegNetX_200MF": clas("regnet", "RegNetX_200MF"),
    "RepVGG_A0": clas("repvgg", "RepVGG_A0"),
    "Res2Net50_26w_4s": clas("res2net", "Res2Net50_26w_4s"),
    "Res2Net50_vd_26w_4s": clas("res2net_vd", "Res2Net50_vd_26w_4s"),
    "ResNeSt50_fast_1s1x64d": clas("resnest", "ResNeSt50_fast_1s1x64d"),
    "ResNet50_vc": clas("resnet_vc", "ResNet50_vc"),
    "ResNeXt50_32x4d": clas("resnext", "ResNeXt50_32x4d"),
    "ResNeXt101_32x8d_wsl": clas("resnext101_wsl", "ResNeXt101_32x8d_wsl"),
    "ResNeXt50_vd_32x4d": clas("resnext_vd", "ResNeXt50_vd_32x4d"),
    "ReXNet_1_0": clas("rexnet", "ReXNet_1_0"),
    "SE_ResNet18_vd": clas("se_resnet_vd", "SE_ResNet18_vd"),
    "SE_ResNeXt50_32x4d": clas("se_resnext", "SE_ResNeXt50_32x4d"),
    "SE_ResNeXt50_vd_32x4d": clas("se_resnext_vd", "SE_ResNeXt50_vd_32x4d"),
    "ShuffleNetV2_x0_25": clas("shufflenet_v2", "ShuffleNetV2_x0_25"),
    "SqueezeNet1_0": clas("squeezenet", "SqueezeNet1_0"),
    "TNT_small": clas("tnt", "TNT_small", size=224),
    "VAN_B0": clas("van", "VAN_B0"),
    "ViT_small_patch16_224": clas("vision_transformer", "ViT_small_patch16_224", size=224),
    "Xception41": clas("xception", "Xception41"),
    "Xception41_deeplab": clas("xception_deeplab", "Xception41_deeplab"),
}


def _seg():
    stub(*[m for m in ("sklearn", "visualdl", "filelock") if importlib.util.find_spec(m) is None])
    sys.path.insert(0, os.path.join(ROOT, "PaddleSeg"))
    import paddleseg.models as M
    return M


def seg(build_fn, size=64):
    def build():
        return build_fn(_seg())
    return build, [("x", [2, 3, size, size], "float32", None)]


SEG = {
    "UNet": seg(lambda M: M.UNet(num_classes=4)),
    "BiSeNetV2": seg(lambda M: M.BiSeNetV2(num_classes=4)),
    "FCN_HRNetW18": seg(lambda M: M.FCN(num_classes=4, backbone=M.backbones.HRNet_W18(), backbone_indices=[-1])),
    "DeepLabV3P_ResNet18vd": seg(lambda M: M.DeepLabV3P(num_classes=4, backbone=M.backbones.ResNet18_vd())),
    "PPLiteSeg_STDC1": seg(lambda M: M.PPLiteSeg(num_classes=4, backbone=M.backbones.STDC1())),
    "SegFormer_B0": seg(lambda M: M.SegFormer(num_classes=4, backbone=M.backbones.MixVisionTransformer_B0(),
                                              embedding_dim=64)),
}


def _det():
    stub(*[m for m in ("pycocotools", "sklearn", "shapely", "lap", "motmetrics", "visualdl", "matplotlib",
                       "terminaltables", "typeguard", "Polygon", "cython_bbox", "filterpy", "mpl_toolkits", "pycocotools",
                       "sklearn", "imgaug", "albumentations", "skimage", "numba", "pandas", "pkg_resources")
           if importlib.util.find_spec(m) is None])
    sys.path.insert(0, os.path.join(ROOT, "PaddleDetection"))
    import ppdet.modeling.backbones as B
    return B


class _DictIn:
    """Detection backbones take {'image': x} and return a list of feature maps."""

    def __init__(self, build_fn):
        self.build_fn = build_fn

    def __call__(self):
        import paddle

        body = self.build_fn(_det())

        class DetBackbone(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.body = body

            def forward(self, x):
                return self.body({"image": x})

        return DetBackbone()


def det(build_fn, size=64):
    return _DictIn(build_fn), [("x", [2, 3, size, size], "float32", None)]


DET = {
    "ResNet50": det(lambda B: B.ResNet(depth=50, return_idx=[1, 2, 3])),
    "ResNet34_vd": det(lambda B: B.ResNet(depth=34, variant="d", return_idx=[1, 2, 3])),
    "MobileNetV3_large": det(lambda B: B.MobileNetV3(model_name="large", feature_maps=[6, 12, 15])),
    "CSPResNet_s": det(lambda B: B.CSPResNet(width_mult=0.5, depth_mult=0.33, use_large_stem=True)),
    "ESNet_s": det(lambda B: B.ESNet(scale=0.75, feature_maps=[4, 11, 14])),
    "LCNet": det(lambda B: B.LCNet(scale=0.5, feature_maps=[3, 4, 5])),
}


def _nlp(family):
    src = os.path.join(ROOT, "nlp", "src211", "paddlenlp")
    if "paddlenlp.transformers" not in sys.modules:
        import logging
        pkg_stub("paddlenlp", src, __version__="2.1.1")
        pkg_stub("paddlenlp.utils", os.path.join(src, "utils"))
        pkg_stub("paddlenlp.utils.log", logger=logging.getLogger("paddlenlp"))

        def _refuse(*a, **k):
            raise RuntimeError("zoo26: no downloads")
        pkg_stub("paddlenlp.utils.downloader", get_path_from_url=_refuse, COMMUNITY_MODEL_PREFIX="")

        class GenerationMixin:
            pass

        tr = pkg_stub("paddlenlp.transformers", os.path.join(src, "transformers"))
        pkg_stub("paddlenlp.transformers.generation_utils", GenerationMixin=GenerationMixin)
        mu = importlib.import_module("paddlenlp.transformers.model_utils")
        tr.PretrainedModel, tr.register_base_model = mu.PretrainedModel, mu.register_base_model
    return importlib.import_module("paddlenlp.transformers.%s.modeling" % family)


SMALL = dict(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
             hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, max_position_embeddings=64,
             type_vocab_size=2, initializer_range=0.02, pad_token_id=0)


def nlp(family, cls, drop=(), **over):
    def build():
        cfg = {k: v for k, v in SMALL.items() if k not in drop}
        cfg.update(over)
        m = getattr(_nlp(family), cls)
        if cls.endswith("Model"):
            return m(**cfg)
        base = getattr(_nlp(family), cls.split("For")[0] + "Model")
        return m(base(**cfg), num_classes=3) if "Sequence" in cls else m(base(**cfg))
    return build, [("input_ids", [2, 16], "int64", 100)]


NLP = {
    "BertModel": nlp("bert", "BertModel"),
    "BertForSequenceClassification": nlp("bert", "BertForSequenceClassification"),
    "ErnieModel": nlp("ernie", "ErnieModel"),
    "ErnieForSequenceClassification": nlp("ernie", "ErnieForSequenceClassification"),
    "RobertaModel": nlp("roberta", "RobertaModel"),
    "ElectraModel": nlp("electra", "ElectraModel", drop=("hidden_size",), embedding_size=16, hidden_size=32,
                         hidden_act="gelu"),
    "TinyBertModel": nlp("tinybert", "TinyBertModel", fit_size=32),
}

ZOOS = {"clas": CLAS, "seg": SEG, "det": DET, "nlp": NLP}

# ---------------------------------------------------------------------------------------------------------------
# the common protocol


def param_value(key, shape):
    """Deterministic value for the state_dict entry `key`: seeded by the name, scaled by its role."""
    rng = np.random.RandomState(zlib.crc32(key.encode()) & 0x7FFFFFFF)
    shape = tuple(int(s) for s in shape)
    n = rng.standard_normal(shape)
    leaf = key.rsplit(".", 1)[-1]
    if "variance" in leaf or leaf == "running_var":
        return rng.uniform(0.5, 1.5, shape).astype("float32")
    if "mean" in leaf:
        return (0.1 * n).astype("float32")
    if len(shape) <= 1:
        return ((1.0 if leaf in ("weight", "scale", "w_0") else 0.0) + 0.1 * n).astype("float32")
    fan_in = shape[0] if len(shape) == 2 else int(np.prod(shape[1:]))
    return (n / np.sqrt(max(fan_in, 1))).astype("float32")


TRACE = None  # set by --trace: a dict filled by run_dygraph, written to <stem>.trace.npz
JITTER = 0.0  # set by --jitter: float inputs scaled by (1 + JITTER * uniform(-1, 1)), a sensitivity probe
FLOAT = None  # --float64: parameters and buffers (cast after they are set) and float inputs in float64
JITTER_SEED = 27  # --jitter-seed: another draw of that perturbation (the spread of 2.6.2 against itself)


def make_inputs(inputs):
    rng = np.random.RandomState(26)
    out = []
    for _name, shape, dtype, high in inputs:
        if high is not None:
            out.append(rng.randint(1, high, shape).astype(dtype))
        else:
            x = rng.standard_normal(shape)
            if JITTER:
                x = x * (1.0 + JITTER * np.random.RandomState(JITTER_SEED).uniform(-1.0, 1.0, shape))
            out.append(x.astype(dtype).astype(FLOAT) if dtype == "float32" and FLOAT else x.astype(dtype))
    return out


def no_dropout(layer):
    for sub in [layer] + list(layer.sublayers()):
        if "Dropout" in type(sub).__name__ and hasattr(sub, "p"):
            sub.p = 0.0
        # drop_connect_rate: PaddleClas EfficientNet's MbConvBlock draws its drop-connect mask in train mode
        for attr in ("drop_prob", "drop_path_prob", "drop_rate", "drop_connect_rate"):
            # a float, or a numpy value (PaddleSeg's MixVisionTransformer takes them from linspace(...).numpy())
            if isinstance(getattr(sub, attr, None), (float, np.floating, np.ndarray)):
                setattr(sub, attr, 0.0)


def flat(out):
    if isinstance(out, dict):
        return [t for k in out for t in flat(out[k])]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in flat(o)]
    return [out] if out is not None else []


def float_outs(outs):
    return [o for o in flat(outs) if "float" in str(o.dtype)]


def loss_of(paddle, outs):
    terms = [paddle.mean(paddle.square(o)) for o in float_outs(outs)]
    loss = terms[0]
    for t in terms[1:]:
        loss = loss + t
    return loss


def run_dygraph(paddle, build, inputs, res):
    paddle.disable_static()
    paddle.seed(26)
    layer = build()
    no_dropout(layer)
    sd = layer.state_dict()
    res["params"] = {k: list(v.shape) for k, v in sd.items()}
    for k, v in sd.items():
        if "float" in str(v.dtype):
            v.set_value(param_value(k, v.shape))
    if FLOAT:  # the floating point ones only: Layer.to(dtype=...) casts the int64 index buffers too (LeViT's)
        layer._to_impl(dtype=FLOAT, floating_only=True)
    xs = [paddle.to_tensor(a) for a in make_inputs(inputs)]
    hooks = _trace_hooks(layer) if TRACE is not None else []
    layer.eval()
    if TRACE is not None:
        TRACE["_phase"] = "eval"
    for i, o in enumerate(float_outs(layer(*xs))):
        res["eval_%d" % i] = o.numpy()
    layer.train()
    if TRACE is not None:
        TRACE["_phase"] = "train"
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=layer.parameters())
    outs = layer(*xs)
    for i, o in enumerate(float_outs(outs)):
        res["train_%d" % i] = o.numpy()
    loss = loss_of(paddle, outs)
    loss.backward()
    if TRACE is not None:
        for name, p in layer.named_parameters():
            if p.grad is not None:
                TRACE["grad/" + name] = np.asarray(p.grad.numpy())
    opt.step()
    if TRACE is not None:
        for name, p in layer.named_parameters():
            TRACE["post/" + name] = np.asarray(p.numpy())
        pnames = {n for n, _ in layer.named_parameters()}
        for name, v in layer.state_dict().items():  # the BatchNorm statistics the train forward updated
            if name not in pnames and "float" in str(v.dtype):
                TRACE["stat/" + name] = np.asarray(v.numpy())
    opt.clear_grad()
    res["loss"] = np.asarray(loss.numpy()).reshape(-1)
    layer.eval()
    if TRACE is not None:
        TRACE["_phase"] = "after"
    for i, o in enumerate(float_outs(layer(*xs))):
        res["after_%d" % i] = o.numpy()
    for h in hooks:
        h.remove()


def _trace_hooks(layer):
    """Forward post-hooks recording every sublayer's float outputs, keyed '<eval|train>/<sublayer name>/<i>'."""
    hooks = []
    for name, sub in layer.named_sublayers():
        def hook(mod, inp, out, _name=name):
            for i, o in enumerate(float_outs(out)):
                TRACE["%s/%s/%d" % (TRACE["_phase"], _name, i)] = np.asarray(o.numpy())
        hooks.append(sub.register_forward_post_hook(hook))
    return hooks


def run_static(paddle, build, inputs, res):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = 26
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        layer = build()
        no_dropout(layer)
        feeds = [paddle.static.data(n, shape=s, dtype=d) for n, s, d, _ in inputs]
        layer.train()
        outs = float_outs(layer(*feeds))
        loss = loss_of(paddle, outs)
        test = main.clone(for_test=True)
        paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    sd = layer.state_dict()
    res["params"] = {k: list(v.shape) for k, v in sd.items()}
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    for k, v in sd.items():
        if "float" in str(v.dtype).lower() or "FP32" in str(v.dtype):
            scope.find_var(v.name).get_tensor().set(param_value(k, v.shape), paddle.CPUPlace())
    feed = dict(zip([n for n, *_ in inputs], make_inputs(inputs)))
    for i, o in enumerate(exe.run(test, feed=feed, fetch_list=outs)):
        res["eval_%d" % i] = np.asarray(o)
    res["loss"] = np.asarray(exe.run(main, feed=feed, fetch_list=[loss])[0]).reshape(-1)
    for i, o in enumerate(exe.run(test, feed=feed, fetch_list=outs)):
        res["after_%d" % i] = np.asarray(o)


def run_jit(paddle, build, inputs, res, path, real):
    paddle.disable_static()
    xs = make_inputs(inputs)
    if real:
        paddle.seed(26)
        layer = build()
        no_dropout(layer)
        for k, v in layer.state_dict().items():
            if "float" in str(v.dtype):
                v.set_value(param_value(k, v.shape))
        layer.eval()
        spec = [paddle.static.InputSpec(s, d, n) for n, s, d, _ in inputs]
        static_layer = paddle.jit.to_static(layer, input_spec=spec)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        paddle.jit.save(static_layer, path)
    loaded = paddle.jit.load(path)
    loaded.eval()
    for i, o in enumerate(float_outs(loaded(*[paddle.to_tensor(a) for a in xs]))):
        res["jitload_%d" % i] = o.numpy()
    from paddle import inference
    cfg = inference.Config(path + ".pdmodel", path + ".pdiparams")
    cfg.disable_gpu()
    pred = inference.create_predictor(cfg)
    for name, a in zip(pred.get_input_names(), xs):
        pred.get_input_handle(name).copy_from_cpu(a)
    pred.run()
    outs = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
    for i, o in enumerate([o for o in outs if o.dtype.kind == "f"]):
        res["infer_%d" % i] = o


def run_one(args):
    import paddle

    real = "paddle_compat" not in sys.modules
    side = ("ref" if real else "ours") + ("jitter" if args.jitter else "")
    if args.jitter and args.jitter_seed != 27:
        side += str(args.jitter_seed)
    global JITTER, JITTER_SEED, TRACE, FLOAT
    if args.float64:
        if args.mode != "dygraph":
            raise SystemExit("--float64 is for dygraph")
        FLOAT = "float64"
        side += "64"
    JITTER_SEED = args.jitter_seed
    JITTER = args.jitter
    if args.trace:
        if args.mode != "dygraph":
            raise SystemExit("--trace is for dygraph")
        TRACE = {}
    if JITTER and args.mode == "jit":
        raise SystemExit("--jitter is for dygraph / static (jit would overwrite the saved model)")
    build, inputs = ZOOS[args.zoo][args.model]
    out_dir = os.path.join(args.dir, args.zoo)
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.join(out_dir, "%s.%s.%s" % (args.model, args.mode, side))
    res, status = {}, {"ok": True}
    try:
        if args.mode == "dygraph":
            run_dygraph(paddle, build, inputs, res)
        elif args.mode == "static":
            run_static(paddle, build, inputs, res)
        else:
            run_jit(paddle, build, inputs, res, os.path.join(args.dir, "jit", args.zoo, args.model), real)
    except BaseException as e:  # noqa: BLE001 - every failure becomes a table row
        tb = traceback.extract_tb(e.__traceback__)
        where = ["%s:%d" % (os.path.basename(f.filename), f.lineno) for f in tb[-3:]]
        status = {"ok": False, "error": "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:300]
                                                       if str(e).strip() else ""), "where": where}
        traceback.print_exc()
    params = res.pop("params", None)
    if params is not None:
        status["params"] = params
    status["keys"] = sorted(res)
    np.savez(stem + ".npz", **res)
    if TRACE is not None:
        TRACE.pop("_phase", None)
        np.savez(stem + ".trace.npz", **TRACE)
    with open(stem + ".json", "w") as f:
        json.dump(status, f)
    print("%s %s %s %s: %s" % (side, args.zoo, args.mode, args.model, "ok" if status["ok"] else status["error"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--zoo", choices=sorted(ZOOS), required=True)
    ap.add_argument("--mode", choices=("dygraph", "static", "jit"), required=True)
    ap.add_argument("--model", help="one model; default: every model of the zoo, each in its own process")
    ap.add_argument("--dir", default=os.path.join(ROOT, "out"))
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--jitter", type=float, default=0.0,
                    help="scale the float inputs by 1 + J * uniform(-1, 1) and write side 'refjitter' / 'oursjitter': "
                         "how far the same implementation moves under a perturbation of the size of float32 "
                         "rounding differences accumulated over a deep net (compare.py reads it, see there)")
    ap.add_argument("--jitter-seed", type=int, default=27,
                    help="seed of the --jitter draw; other than 27 it is appended to the side ('refjitter5')")
    ap.add_argument("--float64", action="store_true",
                    help="dygraph: floating point parameters and buffers (the same values) and float inputs in float64, side 'ref64' / 'ours64': "
                         "with rounding 1e-9 times smaller, a row that is only ill-conditioned in float32 agrees "
                         "closely there, while a wrong op still differs")
    ap.add_argument("--trace", action="store_true",
                    help="dygraph, one --model: also write <stem>.trace.npz with every sublayer's output (eval and "
                         "train forward), every parameter's gradient ('grad/<name>') and value after the SGD step "
                         "('post/<name>'); tools/zoo26/trace_diff.py compares two of them")
    args = ap.parse_args()
    if args.trace and not args.model:
        raise SystemExit("--trace needs --model")
    if args.model:
        return run_one(args)
    for name in ZOOS[args.zoo]:
        cmd = [sys.executable, os.path.abspath(__file__), "--zoo", args.zoo, "--mode", args.mode, "--model", name,
               "--dir", args.dir, "--jitter", str(args.jitter), "--jitter-seed", str(args.jitter_seed)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            print((p.stdout.strip().splitlines() or ["%s: no output, rc %d: %s" % (
                name, p.returncode, p.stderr.strip()[-300:])])[-1], flush=True)
        except subprocess.TimeoutExpired:
            print("%s: timed out after %ds" % (name, args.timeout), flush=True)


if __name__ == "__main__":
    main()
