"""Run one model of PaddlePaddle/models (branch release/1.8) under a given `paddle`, and dump its numbers.

Runs unchanged model code from a checkout outside this repository (``--root``, e.g. /tmp/zoo18, made with
``git archive`` of release/1.8); nothing of theirs is copied here. The same script runs on both sides:

    # real 1.8.5 (no PYTHONPATH): writes the shared parameters and feeds, then its numbers
    cd /tmp && /work/oracle/p18/bin/python TOOLS/zoo18/run.py --side ref --model ResNet50 --root /tmp/zoo18
    # ours: reads the same parameters and feeds, writes its numbers
    PYTHONPATH=WT:WT/shims /work/main/.venv/bin/python TOOLS/zoo18/run.py --side ours --model ResNet50 ...

Per model it records: the forward output of the test clone (eval mode), then the loss of three training
steps on the same batch (`loss1` before any update, `loss2` after one, `loss3` after two). The parameters are
set explicitly, identical on both sides: 1.8.5 runs its startup program, and each parameter (and each
persistable float variable the net creates, e.g. batch-norm statistics) is replaced by numbers drawn from a
numpy RandomState seeded by the CRC32 of its name, scaled like 1.8.5's own initial values (a constant c
becomes c plus noise). 1.8.5 writes them to ``<out>/<model>.inputs.npz``; our side loads them by name, so a
parameter 1.8.5 does not have (a naming difference) is an error of ours.

Runner-level choices, identical on both sides: dropout runs with probability 0 in training (its random mask
cannot match across frameworks); a fixed optimizer per family (Momentum 0.9 with L2Decay 1e-4 for image
classification, as its train.py; SGD / Adam as the other zoos' train.py); small inputs (batch 2).
``--nudge`` (ref side only) moves every parameter by one float32 ulp first, to measure 1.8.5's own
sensitivity (batch-norm nets at batch 2); ``--nudge-down`` moves them one ulp down, and ``--nudge-seed N`` moves
each element one ulp up or down at random (a RandomState seeded by N and the parameter's name), so that several
independent nudges give 1.8.5's own spread (``compare.py --spread``).
"""
import argparse
import json
import os
import sys
import time
import traceback
import zlib

import numpy as np

ZOO_ROOT = "/tmp/zoo18"
BATCH = 2  # --batch: the batch size of the image-classification rows (their feeds' first dim)
DUMP_ALL = bool(os.environ.get("ZOO18_TRACE"))


# ----------------------------------------------------------------------------------------------------------
# model table: name -> (family, kind, builder). A static builder returns dict(feeds=[FeedSpec], outs=[Var],
# loss=Var, opt=callable); a dygraph builder returns dict(model=Layer, feeds=[FeedSpec], run=callable, opt=...)
# ----------------------------------------------------------------------------------------------------------

class Feed(object):
    """One input: name, shape (batch included), dtype, and how to draw it (normal / ints in [0, high))."""

    def __init__(self, name, shape, dtype="float32", high=None, lod=None, value=None):
        self.name, self.shape, self.dtype, self.high, self.lod = name, list(shape), dtype, high, lod
        self.value = value

    def draw(self):
        if self.value is not None:
            return np.asarray(self.value, dtype=self.dtype).reshape(self.shape)
        rng = np.random.RandomState(zlib.crc32(self.name.encode()) & 0x7FFFFFFF)
        shape = list(self.shape)
        if self.lod is not None:
            shape[0] = int(sum(self.lod))
        if self.high is not None:
            return rng.randint(0, self.high, size=shape).astype(self.dtype)
        return rng.normal(0.0, 1.0, size=shape).astype(self.dtype)


def _path(*parts):
    p = os.path.join(ZOO_ROOT, *parts)
    if p not in sys.path:
        sys.path.insert(0, p)


IC_OPT = "momentum"


def ic(name, size=224, class_dim=1000, **ctor):
    """PaddleCV/image_classification/models: `models.<name>(**ctor).net(input, class_dim)`, softmax CE loss."""

    def build(fluid):
        _path("PaddleCV", "image_classification")
        import models

        image = fluid.data("image", [None, 3, size, size], "float32")
        label = fluid.data("label", [None, 1], "int64")
        model = getattr(models, name)(**ctor)
        out = model.net(input=image, class_dim=class_dim)
        if isinstance(out, (list, tuple)):
            out = out[0]
        loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(out, label))
        return dict(feeds=[Feed("image", [BATCH, 3, size, size]), Feed("label", [BATCH, 1], "int64", class_dim)],
                    outs=[out], loss=loss, opt=IC_OPT)

    return ("image_classification", "static", build)


def nlp_cls(net, dict_dim=100, class_dim=2, max_len=6):
    """PaddleNLP/shared_modules/models/classification/nets.py: `<net>(data, seq_len, label, dict_dim)`, padded
    words cut back to LoD by sequence_unpad (as sentiment_classification/run_classifier.py feeds them)."""

    def build(fluid):
        _path("PaddleNLP", "shared_modules", "models", "classification")
        import nets

        data = fluid.data("words", [None, max_len], "int64")
        label = fluid.data("label", [None, 1], "int64")
        seq_len = fluid.data("seq_len", [None], "int64")
        loss, pred = getattr(nets, net)(data, seq_len, label, dict_dim, class_dim=class_dim)[:2]
        return dict(feeds=[Feed("words", [2, max_len], "int64", dict_dim), Feed("seq_len", [2], "int64", value=[5, 3]),
                           Feed("label", [2, 1], "int64", class_dim)],
                    outs=[pred], loss=loss, opt="adagrad")

    return ("nlp_classification", "static", build)


def nlp_lex(bigru_num=2):
    """PaddleNLP/shared_modules/models/sequence_labeling/nets.py lex_net (bi-GRU + CRF), LoD words/targets."""

    def build(fluid):
        _path("PaddleNLP", "shared_modules", "models", "sequence_labeling")
        import nets

        class Args(object):
            word_emb_dim = 16
            grnn_hidden_dim = 16
            emb_learning_rate = 1.0
            crf_learning_rate = 1.0
            bigru_num = 2

        Args.bigru_num = bigru_num
        word = fluid.data("word", [None, 1], "int64", lod_level=1)
        target = fluid.data("target", [None, 1], "int64", lod_level=1)
        loss, decode = nets.lex_net(word, Args(), 50, 7, for_infer=False, target=target)
        return dict(feeds=[Feed("word", [-1, 1], "int64", 50, lod=[4, 6]),
                           Feed("target", [-1, 1], "int64", 7, lod=[4, 6])],
                    outs=[loss], loss=loss, opt="sgd")

    return ("nlp_sequence_labeling", "static", build)


def _dy_import(*parts, **kw):
    """Import a dygraph/ model file (module-level argparse reads sys.argv: give it none). cut="text": run the
    file only up to that line (ptb_dy.py trains at import time, after its classes)."""
    import importlib
    import types

    _path("dygraph", *parts[:-1])
    sys.argv = [parts[-1] + ".py"]
    if "cut" not in kw:
        return importlib.import_module(parts[-1])
    path = os.path.join(ZOO_ROOT, "dygraph", *parts) + ".py"
    src = open(path).read()
    mod = types.ModuleType(parts[-1])
    mod.__file__ = path
    exec(compile(src[:src.index(kw["cut"])], path, "exec"), mod.__dict__)
    return mod


def _ce(fluid, out, label, softmax=False):
    L = fluid.layers
    return L.mean(L.cross_entropy(L.softmax(out) if softmax else out, label))


def dy_mnist(fluid):
    mod = _dy_import("mnist", "train")
    model = mod.MNIST()
    return dict(model=model, feeds=[Feed("img", [2, 1, 28, 28]), Feed("label", [2, 1], "int64", 10)],
                fwd=lambda m, v: m(v["img"]), loss=lambda m, v: _ce(fluid, m(v["img"]), v["label"]), opt="adam")


def dy_resnet(fluid):
    mod = _dy_import("resnet", "train")
    model = mod.ResNet(layers=50, class_dim=102)
    return dict(model=model, feeds=[Feed("img", [2, 3, 224, 224]), Feed("label", [2, 1], "int64", 102)],
                fwd=lambda m, v: m(v["img"]), loss=lambda m, v: _ce(fluid, m(v["img"]), v["label"]),
                opt="momentum")


def dy_se_resnet(fluid):
    mod = _dy_import("se_resnet", "train")
    model = mod.SeResNeXt(layers=50, class_dim=102)
    return dict(model=model, feeds=[Feed("img", [2, 3, 224, 224]), Feed("label", [2, 1], "int64", 102)],
                fwd=lambda m, v: m(v["img"]), loss=lambda m, v: _ce(fluid, m(v["img"]), v["label"], softmax=True),
                opt="momentum")


def dy_ptb(fluid):
    mod = _dy_import("ptb_lm", "ptb_dy", cut="\ndef train_ptb_lm")
    steps, hid, layers = 5, 16, 2
    model = mod.PtbModel(hidden_size=hid, vocab_size=50, num_layers=layers, num_steps=steps, init_scale=0.1)
    feeds = [Feed("x", [2, steps, 1], "int64", 50), Feed("y", [2, steps, 1], "int64", 50),
             Feed("h0", [layers, 2, hid], value=np.zeros([layers, 2, hid])),
             Feed("c0", [layers, 2, hid], value=np.zeros([layers, 2, hid]))]

    def run(m, v):
        return m(v["x"], v["y"], v["h0"], v["c0"])[0]

    return dict(model=model, feeds=feeds, fwd=run, loss=run, opt="sgd")


def dy_sentiment(net):
    def build(fluid):
        mod = _dy_import("sentiment", "nets")
        seq_len, b = 8, 2
        if net != "BOW":  # their forward tests `if label:`, which holds for one nonzero label only
            b = 1
        model = getattr(mod, net)(100, b, seq_len)
        feeds = [Feed("doc", [b * seq_len], "int64", 100), Feed("label", [b, 1], "int64", value=[[1]] * b)]
        return dict(model=model, feeds=feeds, fwd=lambda m, v: m(v["doc"]),
                    loss=lambda m, v: m(v["doc"], v["label"])[0], opt="adagrad")

    return build


def dy_ocr(fluid):
    mod = _dy_import("ocr_recognition", "nets")
    model = mod.OCRAttention(batch_size=2, num_classes=20, encoder_size=200, decoder_size=128, word_vector_dim=128)
    feeds = [Feed("pixel", [2, 1, 48, 64]), Feed("label_in", [2, 4], "int64", 20),
             Feed("label_out", [2, 4], "int64", 20)]

    def fwd(m, v):
        return m(v["pixel"], v["label_in"])

    def loss(m, v):
        L = fluid.layers
        pred = L.reshape(fwd(m, v), [8, -1], inplace=False)
        return L.mean(L.cross_entropy(pred, L.reshape(v["label_out"], [-1, 1], inplace=False)))

    return dict(model=model, feeds=feeds, fwd=fwd, loss=loss, opt="adam")


def dy_seq2seq(fluid):
    mod = _dy_import("seq2seq", "base_model")
    model = mod.BaseModel(hidden_size=16, src_vocab_size=30, tar_vocab_size=30, batch_size=2, num_layers=2,
                          init_scale=0.1, dropout=0.0)
    feeds = [Feed("src", [2, 5], "int64", 30), Feed("tar", [2, 4], "int64", 30), Feed("lab", [2, 4, 1], "int64", 30),
             Feed("src_len", [2], "int64", value=[5, 3]), Feed("tar_len", [2], "int64", value=[4, 2])]

    def run(m, v):
        return m([v[k].numpy() for k in ("src", "tar", "lab", "src_len", "tar_len")])

    return dict(model=model, feeds=feeds, fwd=run, loss=run, opt="sgd")


def dy_transformer(fluid):
    mod = _dy_import("transformer", "model")
    n_head, L_src, L_trg, B = 2, 5, 4, 2
    model = mod.Transformer(30, 30, 16, 2, n_head, 8, 8, 16, 32, 0.0, 0.0, 0.0, "n", "da", False, 0, 1)
    feeds = [Feed("src_word", [B, L_src], "int64", 30), Feed("src_pos", [B, L_src], "int64", L_src),
             Feed("src_bias", [B, n_head, L_src, L_src], value=np.zeros([B, n_head, L_src, L_src])),
             Feed("trg_word", [B, L_trg], "int64", 30), Feed("trg_pos", [B, L_trg], "int64", L_trg),
             Feed("trg_bias", [B, n_head, L_trg, L_trg],
                  value=np.tile(np.triu(np.full([L_trg, L_trg], -1e9), 1), [B, n_head, 1, 1])),
             Feed("trg_src_bias", [B, n_head, L_trg, L_src], value=np.zeros([B, n_head, L_trg, L_src])),
             Feed("lbl", [B * L_trg, 1], "int64", 30), Feed("w", [B * L_trg, 1], value=np.ones([B * L_trg, 1]))]

    def fwd(m, v):
        return m(v["src_word"], v["src_pos"], v["src_bias"], v["trg_word"], v["trg_pos"], v["trg_bias"],
                 v["trg_src_bias"])

    def loss(m, v):
        return mod.CrossEntropyCriterion(0.1)(fwd(m, v), v["lbl"], v["w"])[1]

    return dict(model=model, feeds=feeds, fwd=fwd, loss=loss, opt="adam")


def _stub_absent(*names):
    """An empty module for a package the model file imports but the net never uses (mmoe_train.py and
    bmn_utils.py import pandas for their data readers; neither venv has it). Same on both sides."""
    import importlib.util
    import types

    for n in names:
        if n not in sys.modules and importlib.util.find_spec(n) is None:
            sys.modules[n] = types.ModuleType(n)


def _exec_cut(path, cut, name, extra=None):
    """Run the file at `path` only up to the line `cut` (scripts that train at import time), as module `name`."""
    import types

    src = open(path).read()
    mod = types.ModuleType(name)
    mod.__file__ = path
    mod.__dict__.update(extra or {})
    exec(compile(src[:src.index(cut)], path, "exec"), mod.__dict__)
    return mod


def _no_loader(fn):
    """Call a net function that builds a non-iterable DataLoader on its inputs with DataLoader.from_generator
    returning None: the runner feeds the inputs itself (a 1.8.5 non-iterable loader's queue lives in the global
    scope and its read op fails in the runner's own scope)."""

    def make(mod, fluid):
        loader = fluid.io.DataLoader.from_generator
        fluid.io.DataLoader.from_generator = staticmethod(lambda *a, **k: None)
        try:
            return fn(mod)
        finally:
            fluid.io.DataLoader.from_generator = loader

    return make


def rec(sub, module, fn, kwargs, loss_at, highs, opt="sgd", out_at=None, label_float=(), lods=None, values=None,
        cut=None, stub=()):
    """A PaddleRec network function that makes its own fluid.data inputs: `module.fn(**kwargs)`, the loss at
    `loss_at` of what it returns. Inputs are found as the variables the program reads but no op writes; ints
    are drawn in [0, highs[name]) (default highs["*"]), LoD inputs get sequence lengths [3, 2]. `fn` may be
    (Class, method): `Class(**kwargs).method()`, or a callable `fn(mod, fluid)`; `cut`: run the module file only
    up to that line (it trains at import)."""

    def build(fluid):
        import importlib

        _path("PaddleRec", *sub)
        _stub_absent(*stub)
        if cut:
            mod = _exec_cut(os.path.join(ZOO_ROOT, "PaddleRec", *sub + [module + ".py"]), cut, module)
        else:
            mod = importlib.import_module(module)
        if callable(fn):
            got = fn(mod, fluid)
        elif isinstance(fn, tuple):
            got = getattr(getattr(mod, fn[0])(**kwargs), fn[1])()
        else:
            got = getattr(mod, fn)(**kwargs)
        loss = got[loss_at]
        out = got[out_at] if out_at is not None else loss
        block = fluid.default_main_program().global_block()
        written = {n for op in block.ops for n in op.output_arg_names}
        feeds, seen = [], set()
        for op in block.ops:
            for n in op.input_arg_names:
                v = block.vars.get(n)
                if v is None or v.persistable or n in written or n in seen or "@" in n:
                    continue
                seen.add(n)
                dt = "int64" if "INT64" in str(v.dtype).upper() or "int64" in str(v.dtype) else "float32"
                shape = [2 if d is None or d < 0 else d for d in v.shape]
                lod = (lods or {}).get(n, [3, 2]) if v.lod_level else None
                if n in (values or {}):
                    feeds.append(Feed(n, shape, dt, value=values[n]))
                elif n in label_float:
                    feeds.append(Feed(n, shape, "float32", 2))
                elif dt == "int64":
                    feeds.append(Feed(n, shape, "int64", highs.get(n, highs["*"]), lod=lod))
                else:
                    feeds.append(Feed(n, shape, "float32", lod=lod))
        return dict(feeds=feeds, outs=[out], loss=loss, opt=opt)

    return ("PaddleRec", "static", build)


MODELS = {}
for _n in ("AlexNet", "VGG11", "VGG16", "GoogLeNet", "InceptionV4", "ResNet18", "ResNet34", "ResNet50",
           "ResNet50_vc", "ResNet50_vd", "ResNeXt50_32x4d", "ResNeXt50_vd_32x4d", "SE_ResNet18_vd",
           "SE_ResNeXt50_32x4d", "SE_ResNeXt50_vd_32x4d", "DPN68", "MobileNetV1", "MobileNetV1_x0_25",
           "MobileNetV2", "MobileNetV2_x0_25", "MobileNetV3_small_x1_0", "MobileNetV3_large_x1_0",
           "MobileNetV3_small_x0_25", "ShuffleNetV2_x1_0", "ShuffleNetV2_swish", "Xception41",
           "Xception41_deeplab", "DenseNet121", "SqueezeNet1_0", "SqueezeNet1_1", "DarkNet53",
           "ResNeXt101_32x8d_wsl", "EfficientNetB0", "Res2Net50_26w_4s", "Res2Net50_vd_26w_4s", "HRNet_W18_C",
           "SE_HRNet_W18_C", "DARTS_4M", "ResNet18_ACNet", "ResNet34_ACNet", "FastImageNet"):
    MODELS[_n] = ic(_n)
# The other size variants of each family in models/__init__.py, roughly smallest (FLOPs at 224) first.
IC_MORE = (
    "ShuffleNetV2_x0_25", "ShuffleNetV2_x0_33", "MobileNetV3_small_x0_5", "ShuffleNetV2_x0_5",
    "ShuffleNetV2_x0_5_swish", "MobileNetV3_large_x0_25", "MobileNetV3_small_x0_75", "MobileNetV3_large_x0_5",
    "MobileNetV2_x0_5", "MobileNetV1_x0_5", "MobileNetV3_small_x1_25", "MobileNetV2_x0_75",
    "MobileNetV3_large_x0_75", "MobileNetV1_x0_75", "MobileNetV1_x1_0", "MobileNetV2_x1_0", "MobileNetV3_large_x1_25",
    "ShuffleNetV2_x1_0_swish", "ShuffleNetV2", "ShuffleNetV2_x1_5", "ShuffleNetV2_x1_5_swish", "ShuffleNetV2_x2_0",
    "ShuffleNetV2_x2_0_swish", "MobileNetV2_x1_5", "EfficientNetB1", "MobileNetV2_x2_0", "EfficientNetB2",
    "DARTS_6M", "ResNet18_vd", "EfficientNetB3", "ResNet34_vd", "SE_ResNet34_vd", "DenseNet169", "ResNet50_ACNet",
    "SE_ResNet50_vd", "DenseNet201", "Res2Net50_48w_2s", "Res2Net50_vd_48w_2s", "Res2Net50_14w_8s",
    "Res2Net50_vd_14w_8s", "Res2Net50_26w_6s", "Res2Net50_vd_26w_6s", "EfficientNetB4", "HRNet_W30_C",
    "SE_HRNet_W30_C", "Res2Net50_26w_8s", "Res2Net50_vd_26w_8s", "HRNet_W32_C", "SE_HRNet_W32_C", "DPN92",
    "ResNet101", "ResNet101_vc", "ResNet101_vd", "ResNet101_ACNet", "DenseNet161", "ResNeXt50_64x4d",
    "ResNeXt50_vd_64x4d", "ResNeXt101_32x4d", "ResNeXt101_vd_32x4d", "SE_ResNeXt101_32x4d",
    "SE_ResNeXt101_vd_32x4d", "SE_ResNet101_vd", "Res2Net101_26w_4s", "Res2Net101_vd_26w_4s", "VGG13",
    "Xception65", "Xception65_deeplab", "DPN98", "ResNet152", "ResNet152_vc", "ResNet152_vd", "ResNet152_ACNet",
    "SE_ResNet152_vd", "Xception71", "Xception71_deeplab", "HRNet_W40_C", "SE_HRNet_W40_C", "DenseNet264",
    "Res2Net152_26w_4s", "Res2Net152_vd_26w_4s", "HRNet_W44_C", "SE_HRNet_W44_C", "EfficientNetB5", "VGG19",
    "ResNeXt152_32x4d", "ResNeXt152_vd_32x4d", "SE_ResNeXt152_32x4d", "DPN107", "ResNet200_vd", "SE_ResNet200_vd",
    "Res2Net200_vd_26w_4s", "HRNet_W48_C", "SE_HRNet_W48_C", "ResNeXt101_64x4d", "ResNeXt101_vd_64x4d",
    "DPN131", "ResNeXt101_32x16d_wsl", "EfficientNetB6", "HRNet_W60_C", "SE_HRNet_W60_C", "ResNeXt152_64x4d",
    "ResNeXt152_vd_64x4d", "HRNet_W64_C", "SE_HRNet_W64_C", "SENet154_vd", "EfficientNetB7",
    "ResNeXt101_32x32d_wsl", "ResNeXt101_32x48d_wsl", "Fix_ResNeXt101_32x48d_wsl")
for _n in IC_MORE:
    MODELS[_n] = ic(_n)
# drop_connect draws a random mask even in the test clone; rate 0 keeps every path (floor(1 + U) = 1).
for _n in ("EfficientNetB0", "EfficientNetB1", "EfficientNetB2", "EfficientNetB3", "EfficientNetB4",
           "EfficientNetB5", "EfficientNetB6", "EfficientNetB7"):
    MODELS[_n] = ic(_n, override_params={"drop_connect_rate": 0.0})
for _n in ("bow_net", "cnn_net", "lstm_net", "bilstm_net", "gru_net", "textcnn_net"):
    MODELS[_n] = nlp_cls(_n)
MODELS["lex_net"] = nlp_lex()
MODELS.update({
    "gru4rec": rec(["gru4rec"], "net", "all_vocab_network", dict(vocab_size=50, hid_size=16), 2, {"*": 50}),
    "gru4rec_bpr": rec(["gru4rec"], "net", "train_bpr_network", dict(vocab_size=50, neg_size=3, hid_size=16,
                                                                     drop_out=0.0), 3, {"*": 50, "pos_label": 4}),
    "gru4rec_ce": rec(["gru4rec"], "net", "train_cross_entropy_network",
                      dict(vocab_size=50, neg_size=3, hid_size=16, drop_out=0.0), 3, {"*": 50, "pos_label": 4}),
    "tagspace": rec(["tagspace"], "net", "network", dict(vocab_text_size=50, vocab_tag_size=10, emb_dim=8,
                                                         hid_dim=16, win_size=2, neg_size=3), 0, {"*": 10, "text": 50},
                     lods={"pos_tag": [1, 1], "neg_tag": [3, 3]}),
    "text_cnn": rec(["text_classification"], "net", "cnn_net", dict(dict_dim=50, max_len=6), 0, {"*": 50, "label": 2},
                     values={"seq_len": [5, 3]}),
    "deepfm": rec(["ctr", "deepfm"], "network_conf", "ctr_deepfm_model",
                  dict(embedding_size=4, num_field=5, num_feat=30, layer_sizes=[16, 8], act="relu", reg=1e-4),
                  0, {"*": 30}, label_float=("label",)),
    "xdeepfm": rec(["ctr", "xdeepfm"], "network_conf", "ctr_xdeepfm_model",
                   dict(embedding_size=4, num_field=5, num_feat=30, layer_sizes_dnn=[16, 8], act="relu", reg=1e-4,
                        layer_sizes_cin=[8, 8]), 0, {"*": 30}, label_float=("label",)),
    "din": rec(["ctr", "din"], "network", "network", dict(item_count=30, cat_count=10), 0,
               {"*": 10, "item": 30, "hist_item_seq": 30, "target_item": 30}, label_float=("label",)),
    "ssr": rec(["ssr"], "nets", ("SequenceSemanticRetrieval", "train"),
               dict(embedding_size=50, embedding_dim=8, hidden_size=8), 2, {"*": 50}, opt="adagrad", out_at=1),
    "multiview_simnet": rec(["multiview_simnet"], "nets", lambda mod, fluid: _simnet(mod, "bow"), {}, 1,
                            {"*": 50}, opt="adam"),
    "multiview_simnet_gru": rec(["multiview_simnet"], "nets", lambda mod, fluid: _simnet(mod, "gru"), {}, 1,
                                {"*": 50}, opt="adam"),
    "multiview_simnet_cnn": rec(["multiview_simnet"], "nets", lambda mod, fluid: _simnet(mod, "cnn"), {}, 1,
                                {"*": 50}, opt="adam"),
    "ncf_gmf": rec(["ncf"], "gmf", lambda mod, fluid: _ncf(mod.GMF().net, 8), {}, 0, {"*": 20, "label": 2},
                   opt="adam", out_at=1),
    "ncf_mlp": rec(["ncf"], "mlp", lambda mod, fluid: _ncf(mod.MLP().net, [16, 8]), {}, 0,
                   {"*": 20, "label": 2}, opt="adam", out_at=1),
    "ncf_neumf": rec(["ncf"], "neumf", lambda mod, fluid: _ncf(mod.NeuMF().net, 8, [16, 8]), {}, 0,
                     {"*": 20, "label": 2}, opt="adam", out_at=1),
    "youtube_dnn": rec(["youtube_dnn"], "youtubednn", lambda mod, fluid: _youtube(mod), {}, 0, {"*": 20},
                       out_at=2),
    "dssm": rec(["dssm"], "dssm", lambda mod, fluid: _dssm(mod), {}, 0, {"*": 2}, out_at=1,
                cut="\nargs = args.parse_args()"),
    "word2vec": rec(["word2vec"], "net", _no_loader(lambda mod: mod.skip_gram_word2vec(50, 8, neg_num=3)), {}, 0,
                    {"*": 50}),
    "esmm": rec(["multi_task", "esmm"], "net", lambda mod, fluid: _esmm(mod), {}, 0, {"*": 30, "ctr": 2, "cvr": 2},
                opt="adam", lods={"field_%d" % i: [2, 1] for i in range(23)}),
    "mmoe": rec(["multi_task", "mmoe"], "mmoe_train", "MMOE",
                dict(feature_size=12, expert_num=3, gate_num=2, expert_size=8, tower_size=4), 1, {"*": 2},
                opt="adam", out_at=2, cut="\nargs = parse_args()", stub=("pandas",),
                values={"label_income": [[1, 0], [0, 1]], "label_marital": [[0, 1], [0, 1]]}),
    "share_bottom": rec(["multi_task", "share_bottom"], "share_bottom", "share_bottom",
                        dict(feature_size=12, bottom_size=8, tower_nums=2, tower_size=4), 1, {"*": 2}, opt="adam",
                        out_at=2, cut="\nargs = parse_args()", stub=("pandas",),
                        values={"label_income": [[1, 0], [0, 1]], "label_marital": [[0, 1], [0, 1]]}),
})


def _simnet(mod, kind):
    """multiview_simnet/train.py's net: two slots each side, all with encoder `kind` (train.py's default is bow;
    the cnn encoder's sequence_conv rejects fluid.embedding's 3-D output under 1.8.5 itself, and bow's [-1, 1, 8]
    and gru's [-1, 8] do not concat, so the kinds are not mixed)."""
    factory = mod.SimpleEncoderFactory()
    m = mod.MultiviewSimnet(50, 8, 8)
    m.set_query_encoder([factory.create(kind, 8), factory.create(kind, 8)])
    m.set_title_encoder([factory.create(kind, 8), factory.create(kind, 8)])
    return m.train_net()


def _ncf(net, *args):
    """ncf/train.py: utils.input_data(True), then GMF / MLP / NeuMF `.net(inputs, users, items, ...)`."""
    import importlib

    return net(importlib.import_module("utils").input_data(True), 20, 20, *args)


def _youtube(mod):
    m = mod.YoutubeDNN()
    return m.net(m.input_data(6, 5, 4), 20, [16, 8, 4])


def _dssm(mod):
    """dssm.py's model(); its hit_prob slice reads the global args.batch_size, set to the batch here."""
    import argparse

    mod.args = argparse.Namespace(batch_size=2)
    loss, r, _ = mod.model(12, 8, 8, 4, 3)
    return loss, r


def _esmm(mod):
    m = mod.ESMM()
    return m.net(m.input_data(), 30, 4)


class _NS(object):
    def __init__(self, **kw):
        self.__dict__.update(kw)


def _uniform(name, shape, lo=0.0, hi=1.0):
    return np.random.RandomState(zlib.crc32(name.encode()) & 0x7FFFFFFF).uniform(lo, hi, size=shape)


def dy_bert(fluid):
    """dygraph/bert model/cls.py ClsModelLayer on a tiny config (2 layers, hidden 16, 2 heads)."""
    import importlib

    _path("dygraph", "bert")
    sys.argv = ["run_classifier.py"]
    cls = importlib.import_module("model.cls")
    config = {"hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 50,
              "max_position_embeddings": 16, "type_vocab_size": 2, "hidden_act": "gelu",
              "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0, "initializer_range": 0.02,
              "intermediate_size": 32}
    model = cls.ClsModelLayer(_NS(loss_scaling=1.0), config, num_labels=3)
    B, L = 2, 6
    mask = np.ones([B, L, 1], "float32")
    mask[1, 4:] = 0
    feeds = [Feed("src_ids", [B, L], "int64", 50), Feed("pos_ids", [B, L], "int64", value=np.tile(np.arange(L), [B, 1])),
             Feed("sent_ids", [B, L], "int64", 2), Feed("input_mask", [B, L, 1], value=mask),
             Feed("labels", [B, 1], "int64", 3)]

    def run(m, v):
        return m([v[k] for k in ("src_ids", "pos_ids", "sent_ids", "input_mask", "labels")])[0]

    return dict(model=model, feeds=feeds, fwd=run, loss=run, opt="adam")


def dy_bmn(fluid):
    """dygraph/bmn model.py BMN and bmn_loss_func on a tiny temporal scale (tscale = dscale = 8)."""
    _stub_absent("pandas")
    mod = _dy_import("bmn", "model")
    T = 8
    cfg = _NS(MODEL=_NS(tscale=T, dscale=T, prop_boundary_ratio=0.5, num_sample=4, num_sample_perbin=2))
    model = mod.BMN(cfg)
    feeds = [Feed("feat", [2, 400, T]), Feed("gt_iou_map", [2, T, T], value=_uniform("gt_iou_map", [2, T, T])),
             Feed("gt_start", [2, T], value=_uniform("gt_start", [2, T])),
             Feed("gt_end", [2, T], value=_uniform("gt_end", [2, T]))]

    def loss(m, v):
        bm, start, end = m(v["feat"])
        return mod.bmn_loss_func(bm, start, end, v["gt_iou_map"], v["gt_start"], v["gt_end"], cfg)[0]

    return dict(model=model, feeds=feeds, fwd=lambda m, v: m(v["feat"])[0], loss=loss, opt="adam")


def dy_tsm(fluid):
    """dygraph/tsm model.py TSM_ResNet (ResNet-50 with temporal shift), 2 segments of 64x64 frames."""
    mod = _dy_import("tsm", "model")
    cfg = _NS(MODEL=_NS(num_layers=50, seg_num=2, num_classes=5))
    model = mod.TSM_ResNet("TSM", cfg)
    feeds = [Feed("frames", [2, 2, 3, 64, 64]), Feed("label", [2, 1], "int64", 5)]
    return dict(model=model, feeds=feeds, fwd=lambda m, v: m(v["frames"]),
                loss=lambda m, v: _ce(fluid, m(v["frames"]), v["label"]), opt="momentum")


def dy_yolov3(fluid):
    """dygraph/yolov3 models/yolov3.py YOLOv3 (DarkNet-53) on 64x64 images, 3 boxes per image; the forward
    output is the first head's raw map (the model in train mode returns the yolov3_loss sum)."""
    import importlib

    _path("dygraph", "yolov3")
    sys.argv = ["train.py"]
    yolo = importlib.import_module("models.yolov3")
    yolo.cfg.label_smooth = True  # train.py merges its argument defaults into cfg (utility.py: label_smooth True)
    model = yolo.YOLOv3(3, is_train=True)
    n = 50
    box = np.zeros([2, n, 4], "float32")
    box[:, :3] = _uniform("gtbox", [2, 3, 4], 0.2, 0.6)
    lab = np.zeros([2, n], "int32")
    lab[:, :3] = np.arange(6).reshape(2, 3) * 7
    score = np.zeros([2, n], "float32")
    score[:, :3] = 1.0
    feeds = [Feed("image", [2, 3, 64, 64]), Feed("gtbox", [2, n, 4], value=box),
             Feed("gtlabel", [2, n], "int32", value=lab), Feed("gtscore", [2, n], value=score)]

    def loss(m, v):
        return m(v["image"], v["gtbox"], v["gtlabel"], v["gtscore"])

    def fwd(m, v):
        loss(m, v)
        return m.outputs[0]

    return dict(model=model, feeds=feeds, fwd=fwd, loss=loss, opt="momentum")


for _n, _b in (("dy_bert", dy_bert), ("dy_bmn", dy_bmn), ("dy_tsm", dy_tsm), ("dy_yolov3", dy_yolov3)):
    MODELS[_n] = ("dygraph", "dygraph", _b)
for _n, _b in (("dy_mnist", dy_mnist), ("dy_resnet50", dy_resnet), ("dy_se_resnext50", dy_se_resnet),
               ("dy_ptb_lm", dy_ptb), ("dy_ocr_attention", dy_ocr), ("dy_seq2seq_base", dy_seq2seq),
               ("dy_transformer", dy_transformer)):
    MODELS[_n] = ("dygraph", "dygraph", _b)
for _n in ("CNN", "BOW", "GRU", "BiGRU"):
    MODELS["dy_sentiment_" + _n] = ("dygraph", "dygraph", dy_sentiment(_n))


# ----------------------------------------------------------------------------------------------------------
# parameters
# ----------------------------------------------------------------------------------------------------------

def draw_like(name, init):
    """Numbers for variable `name`, seeded by its name, on the scale of 1.8.5's initial value `init`."""
    rng = np.random.RandomState(zlib.crc32(name.encode()) & 0x7FFFFFFF)
    init = np.asarray(init, dtype=np.float64)
    if init.size and np.all(init == init.flat[0]):
        c = float(init.flat[0])
        scale = 0.1 * abs(c) if c != 0 else 0.05
        v = c + rng.uniform(-scale, scale, size=init.shape)
    else:
        # two significant digits: a dygraph net's initial values are drawn unseeded, so their exact spread
        # differs run to run, and the inputs file must not
        std = float("%.2g" % init.std()) or 0.05
        v = rng.normal(0.0, std, size=init.shape)
    return v.astype(np.float32)


def patch_dropout(fluid):
    """Dropout with probability 0 (its mask is random); same on both sides."""
    import paddle.fluid.layers as L

    orig = L.dropout

    def dropout(x, dropout_prob=0.0, *args, **kwargs):
        return orig(x, 0.0, *args, **kwargs)

    for mod in (L, getattr(L, "nn", None)):
        if mod is not None and hasattr(mod, "dropout"):
            mod.dropout = dropout
    fluid.layers.dropout = dropout


def make_opt(fluid, kind, params=None):
    kw = {} if params is None else {"parameter_list": params}
    if kind == "momentum":
        return fluid.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                        regularization=fluid.regularizer.L2Decay(1e-4), **kw)
    if kind == "adagrad":
        return fluid.optimizer.Adagrad(learning_rate=0.01, **kw)
    if kind == "adam":
        return fluid.optimizer.Adam(learning_rate=0.001, **kw)
    return fluid.optimizer.SGD(learning_rate=0.01, **kw)


def to_feed(fluid, spec, arrays, place):
    out = {}
    for f in spec:
        v = arrays["feed/" + f.name]
        if f.lod is not None:
            out[f.name] = fluid.create_lod_tensor(v, [list(f.lod)], place)
        else:
            out[f.name] = v
    return out


def nudged(name, v, nudge):
    """Parameter `name`'s values `v` under a nudge: 0 none, 1 / -1 every element one float32 ulp up / down,
    ("seed", N) each element one ulp up or down at random (seeded by N and the name, so independent of order)."""
    if not nudge:
        return v
    if nudge in (1, -1):
        return np.nextafter(v, np.float32(np.inf if nudge > 0 else -np.inf))
    rng = np.random.RandomState((zlib.crc32(name.encode()) + 1000003 * nudge[1]) & 0x7FFFFFFF)
    up = rng.randint(0, 2, size=np.shape(v)).astype(bool)
    return np.where(up, np.nextafter(v, np.float32(np.inf)), np.nextafter(v, np.float32(-np.inf))).astype(v.dtype)


def run_static(name, side, outdir, nudge, stem=None):
    import paddle.fluid as fluid

    family, kind, build = MODELS[name]
    patch_dropout(fluid)
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = 1
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            spec = build(fluid)
            test = main.clone(for_test=True)
            before = {v.name for v in main.list_vars() if v.persistable}
            make_opt(fluid, spec["opt"]).minimize(spec["loss"])
    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    scope = fluid.Scope()
    inputs_path = os.path.join(outdir, (stem or name) + ".inputs.npz")
    with fluid.scope_guard(scope):
        exe.run(startup)
        params = sorted(before)
        if side == "ref" and not nudge:
            arrays = {}
            for p in params:
                var = scope.find_var(p)
                if var is None:
                    continue
                t = np.array(var.get_tensor())
                if t.dtype != np.float32:
                    continue
                arrays["param/" + p] = draw_like(p, t)
            for f in spec["feeds"]:
                arrays["feed/" + f.name] = f.draw()
            np.savez(inputs_path, **arrays)
        arrays = dict(np.load(inputs_path))
        missing = []
        for p in params:
            key = "param/" + p
            var = scope.find_var(p)
            if key not in arrays:
                if var is not None and np.array(var.get_tensor()).dtype == np.float32:
                    missing.append(p)
                continue
            var.get_tensor().set(nudged(p, arrays[key], nudge), place)
        if missing:
            raise RuntimeError("parameters 1.8.5 does not have: %s" % missing[:5])
        unset = sorted(k[6:] for k in arrays if k.startswith("param/") and k[6:] not in before)
        if unset:
            raise RuntimeError("1.8.5 parameters this program lacks: %s" % unset[:5])
        feed = to_feed(fluid, spec["feeds"], arrays, place)
        res = {}
        outs = exe.run(test, feed=feed, fetch_list=spec["outs"], return_numpy=False)
        res["fwd"] = np.array(outs[0])
        if DUMP_ALL:  # every forward output, in op order, to find where two sides part (compare.py --trace)
            names = []
            for op in test.global_block().ops:
                for n in op.output_arg_names:
                    v = test.global_block().vars.get(n)
                    if v is not None and not v.persistable and n not in names:
                        names.append(n)
            vals = exe.run(test, feed=feed, fetch_list=names, return_numpy=False)
            for i, (n, v) in enumerate(zip(names, vals)):
                v = np.array(v)
                if v.dtype == np.float32:
                    res["trace/%04d/%s" % (i, n)] = v
        grads = []
        if DUMP_ALL:  # the gradients of step 1 and the parameters after it
            blk = main.global_block()
            grads = [p + "@GRAD" for p in params if "param/" + p in arrays and blk.has_var(p + "@GRAD")
                     and "SELECTED_ROWS" not in str(getattr(blk.var(p + "@GRAD"), "type", ""))]  # 1.8.5 can't fetch
        for i in range(3):
            got = exe.run(main, feed=feed, fetch_list=[spec["loss"]] + (grads if i == 0 else []))
            res["loss%d" % (i + 1)] = np.array(got[0])
            if i == 0 and grads:
                for g, v in zip(grads, got[1:]):
                    res["trace/9%03d/%s" % (len(res) % 1000, g)] = np.array(v)
                for p in params:
                    if "param/" + p in arrays:
                        res["trace/9999/after1/" + p] = np.array(scope.find_var(p).get_tensor())
    return family, res


def run_dygraph(name, side, outdir, nudge, stem=None):
    import paddle.fluid as fluid

    family, kind, build = MODELS[name]
    patch_dropout(fluid)
    place = fluid.CPUPlace()
    inputs_path = os.path.join(outdir, (stem or name) + ".inputs.npz")
    with fluid.dygraph.guard(place):
        with fluid.unique_name.guard():
            spec = build(fluid)
        model = spec["model"]
        state = model.state_dict()
        if side == "ref" and not nudge:
            arrays = {"param/" + k: draw_like(k, v.numpy()) for k, v in state.items()
                      if v.numpy().dtype == np.float32}
            for f in spec["feeds"]:
                arrays["feed/" + f.name] = f.draw()
            np.savez(inputs_path, **arrays)
        arrays = dict(np.load(inputs_path))
        mine = {k for k, v in state.items() if v.numpy().dtype == np.float32}
        theirs = {k[6:] for k in arrays if k.startswith("param/")}
        if mine != theirs:
            raise RuntimeError("state_dict keys differ from 1.8.5's: ours only %s, 1.8.5 only %s"
                               % (sorted(mine - theirs)[:4], sorted(theirs - mine)[:4]))
        new = {}
        for k in mine:
            v = arrays["param/" + k]
            new[k] = nudged(k, v, nudge)
        model.set_dict(new)
        feeds = {f.name: fluid.dygraph.to_variable(arrays["feed/" + f.name]) for f in spec["feeds"]}
        for f in spec["feeds"]:
            feeds[f.name].stop_gradient = True
        res = {}
        model.eval()
        out = spec["fwd"](model, feeds)
        res["fwd"] = (out[0] if isinstance(out, (list, tuple)) else out).numpy()
        model.train()
        opt = make_opt(fluid, spec["opt"], model.parameters())
        for i in range(3):
            loss = spec["loss"](model, feeds)
            res["loss%d" % (i + 1)] = loss.numpy()
            loss.backward()
            opt.minimize(loss)
            model.clear_gradients()
    return family, res


def main():
    global ZOO_ROOT, BATCH
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=("ref", "ours"), required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--root", default=ZOO_ROOT)
    ap.add_argument("--out", default="/tmp/zoo18/out")
    ap.add_argument("--batch", type=int, default=2, help="batch size of the image-classification rows; files are "
                    "named MODEL_bN when it is not 2")
    ap.add_argument("--nudge", action="store_true", help="ref: every parameter one float32 ulp up")
    ap.add_argument("--nudge-down", action="store_true", help="ref: every parameter one float32 ulp down")
    ap.add_argument("--nudge-seed", type=int, help="ref: each parameter element one float32 ulp up or down at "
                    "random, seeded by this number (dumps tagged ref_nudge_sN)")
    a = ap.parse_args()
    ZOO_ROOT, BATCH = a.root, a.batch
    stem = a.model if a.batch == 2 else "%s_b%d" % (a.model, a.batch)
    os.makedirs(a.out, exist_ok=True)
    nudge = 1 if a.nudge else -1 if a.nudge_down else ("seed", a.nudge_seed) if a.nudge_seed is not None else 0
    if nudge and a.side != "ref":
        ap.error("--nudge / --nudge-down / --nudge-seed apply to --side ref only")
    tag = a.side + ("_nudge" if a.nudge else "_nudgedown" if a.nudge_down else
                    "_nudge_s%d" % a.nudge_seed if a.nudge_seed is not None else "")
    t0 = time.time()
    family = MODELS[a.model][0] if a.model in MODELS else "?"
    status = {"model": stem, "side": tag, "family": family, "batch": a.batch}
    try:
        runner = run_dygraph if MODELS[a.model][1] == "dygraph" else run_static
        family, res = runner(a.model, a.side, a.out, nudge, stem)
        np.savez(os.path.join(a.out, "%s.%s.npz" % (stem, tag)), **res)
        status["ok"] = True
        status["summary"] = {k: float(np.asarray(v).ravel()[0]) for k, v in res.items() if not k.startswith("trace")}
    except Exception as e:  # the first error is the result
        status["ok"] = False
        status["error"] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "")
        status["trace"] = traceback.format_exc()[-3000:]
    status["seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(a.out, "%s.%s.json" % (stem, tag)), "w") as f:
        json.dump(status, f, indent=1)
    print(json.dumps({k: v for k, v in status.items() if k != "trace"}))


if __name__ == "__main__":
    main()
