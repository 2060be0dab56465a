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
sensitivity (batch-norm nets at batch 2).
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


def ic(name, size=224, class_dim=1000):
    """PaddleCV/image_classification/models: `models.<name>().net(input, class_dim)`, softmax CE loss."""

    def build(fluid):
        _path("PaddleCV", "image_classification")
        import models

        image = fluid.data("image", [None, 3, size, size], "float32")
        label = fluid.data("label", [None, 1], "int64")
        model = getattr(models, name)()
        out = model.net(input=image, class_dim=class_dim)
        if isinstance(out, (list, tuple)):
            out = out[0]
        loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(out, label))
        return dict(feeds=[Feed("image", [2, 3, size, size]), Feed("label", [2, 1], "int64", class_dim)],
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
for _n in ("bow_net", "cnn_net", "lstm_net", "bilstm_net", "gru_net", "textcnn_net"):
    MODELS[_n] = nlp_cls(_n)
MODELS["lex_net"] = nlp_lex()


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
        std = float(init.std()) or 0.05
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


def make_opt(fluid, kind):
    if kind == "momentum":
        return fluid.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                        regularization=fluid.regularizer.L2Decay(1e-4))
    if kind == "adagrad":
        return fluid.optimizer.Adagrad(learning_rate=0.01)
    if kind == "adam":
        return fluid.optimizer.Adam(learning_rate=0.001)
    return fluid.optimizer.SGD(learning_rate=0.01)


def to_feed(fluid, spec, arrays, place):
    out = {}
    for f in spec:
        v = arrays["feed/" + f.name]
        if f.lod is not None:
            out[f.name] = fluid.create_lod_tensor(v, [list(f.lod)], place)
        else:
            out[f.name] = v
    return out


def run_static(name, side, outdir, nudge):
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
    inputs_path = os.path.join(outdir, name + ".inputs.npz")
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
            v = arrays[key]
            if nudge:
                v = np.nextafter(v, np.float32(np.inf))
            var.get_tensor().set(v, place)
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
            grads = [p + "@GRAD" for p in params if "param/" + p in arrays and main.global_block().has_var(p + "@GRAD")]
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


def main():
    global ZOO_ROOT
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=("ref", "ours"), required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--root", default=ZOO_ROOT)
    ap.add_argument("--out", default="/tmp/zoo18/out")
    ap.add_argument("--nudge", action="store_true")
    a = ap.parse_args()
    ZOO_ROOT = a.root
    os.makedirs(a.out, exist_ok=True)
    tag = a.side + ("_nudge" if a.nudge else "")
    t0 = time.time()
    family = MODELS[a.model][0] if a.model in MODELS else "?"
    status = {"model": a.model, "side": tag, "family": family}
    try:
        family, res = run_static(a.model, a.side, a.out, a.nudge)
        np.savez(os.path.join(a.out, "%s.%s.npz" % (a.model, tag)), **res)
        status["ok"] = True
        status["summary"] = {k: float(np.asarray(v).ravel()[0]) for k, v in res.items() if not k.startswith("trace")}
    except Exception as e:  # the first error is the result
        status["ok"] = False
        status["error"] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "")
        status["trace"] = traceback.format_exc()[-3000:]
    status["seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(a.out, "%s.%s.json" % (a.model, tag)), "w") as f:
        json.dump(status, f, indent=1)
    print(json.dumps({k: v for k, v in status.items() if k != "trace"}))


if __name__ == "__main__":
    main()
