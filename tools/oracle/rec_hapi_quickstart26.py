"""The hapi quick start (paddle.Model(LeNet()) on MNIST) in real Paddle 2.6.2 on the generated MNIST-format data
of tests/vision/quickstart_data.py -> tests/goldens/hapi_quickstart26.{npz,json}.

- "fixed": LeNet with the weight rule of tests/vision/model_weights.py, Adam(0.001), CrossEntropyLoss, Accuracy,
  fit(train, test, epochs=3, batch_size=64, shuffle=False, verbose=2) with the callbacks ModelCheckpoint,
  EarlyStopping(save_best_model) and LRScheduler(by_epoch) over a StepDecay: the printed logs, evaluate / predict,
  the final weights (summaries), the checkpoint files; Model.summary()'s table.
- "summaries": paddle.summary of vision models (SUMMARIES: constructor, kwargs, input size): table and totals.
- "early_stopping": EarlyStopping settings (EARLY) on a small linear classifier (fit 6 epochs, eval each epoch):
  what it prints, its state after fit, the saved best model.
- "accumulate": fit(accumulate_grad_batches=3) of the linear classifier with SGD (4 batches an epoch, 2 epochs):
  the final weights; in static mode Paddle refuses it (the error type).
- "default": the quick start as written (Paddle's own initialisers, paddle.seed(2024), shuffle=True): the
  accuracy only, to set beside ours (the random streams differ, so the numbers cannot be equal).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <repo>/tools/oracle/rec_hapi_quickstart26.py"""
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "vision"))
from _common import save  # noqa: E402
from model_weights import summarize, weight_for  # noqa: E402
from quickstart_data import TEST, TRAIN, linear_model, write_idx, xy_data  # noqa: E402

import paddle  # noqa: E402
from paddle.static import InputSpec  # noqa: E402
from paddle.vision.datasets import MNIST  # noqa: E402
from paddle.vision.models import LeNet  # noqa: E402
from paddle.vision.transforms import Normalize  # noqa: E402


SUMMARIES = {"resnet18": ("resnet18", {"num_classes": 10}, (1, 3, 32, 32)),
             "mobilenet_v3_small": ("mobilenet_v3_small", {"scale": 0.5, "num_classes": 10}, (1, 3, 32, 32)),
             "googlenet": ("googlenet", {"num_classes": 10}, (1, 3, 192, 192))}


EARLY = {"loss_p0": {"monitor": "loss", "patience": 0},
         "acc_p2_delta": {"monitor": "acc", "mode": "max", "patience": 2, "min_delta": 0.05},
         "loss_baseline": {"monitor": "loss", "mode": "min", "patience": 3, "baseline": 0.01},
         "unknown_mode": {"monitor": "loss", "mode": "weird", "patience": 1, "min_delta": 0.02},
         "no_such_monitor": {"monitor": "nope", "patience": 0}}


def early_stopping(d):
    out = {}
    for name, kw in EARLY.items():
        _, model, ds = linear_model(paddle, "Adam", 0.05, metrics=True)
        es = paddle.callbacks.EarlyStopping(**kw)
        save_dir = os.path.join(d, "ck")
        shutil.rmtree(save_dir, ignore_errors=True)
        _, text = capture(lambda: model.fit(ds, ds, batch_size=16, epochs=6, shuffle=False, verbose=0,
                                            save_dir=save_dir, save_freq=100, callbacks=[es]))
        best = es.best_value
        out[name] = {"kwargs": kw, "text": text, "best_value": float(best[0] if isinstance(best, list) else best),
                     "wait_epoch": es.wait_epoch, "stopped_epoch": es.stopped_epoch,
                     "stop_training": bool(model.stop_training),
                     "files": sorted(os.listdir(save_dir)) if os.path.isdir(save_dir) else []}
    return out


def accumulate():
    net, model, ds = linear_model(paddle)
    model.fit(ds, batch_size=16, epochs=2, shuffle=False, verbose=0, accumulate_grad_batches=3)
    out = {"final": {k: v.numpy().tolist() for k, v in net.state_dict().items()}}
    paddle.enable_static()
    try:
        net = paddle.nn.Linear(8, 3)
        model = paddle.Model(net, InputSpec([None, 8], "float32", "x"), InputSpec([None, 1], "int64", "y"))
        model.prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()), paddle.nn.CrossEntropyLoss())
        x, y = xy_data()
        model.fit(list(zip(x, y)), batch_size=16, epochs=1, verbose=0, accumulate_grad_batches=3)
    except Exception as e:  # noqa: BLE001 - recorded
        out["static_error"] = [type(e).__name__, str(e)]
    paddle.disable_static()
    return out


def capture(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = fn()
    text = re.sub(r"\d+(ms|us|s)/step", "<T>/step", buf.getvalue())
    return r, re.sub(r"\S*/ck/", "<D>/", text)


def datasets(d):
    tr, te = write_idx(d, "train", *TRAIN), write_idx(d, "t10k", *TEST)
    t = Normalize(mean=[127.5], std=[127.5], data_format="CHW")
    return (MNIST(*tr, mode="train", transform=t, download=False),
            MNIST(*te, mode="test", transform=t, download=False))


def main():
    arrays, meta = {}, {}
    with tempfile.TemporaryDirectory() as d:
        train, test = datasets(d)
        net = LeNet()
        net.set_state_dict({k: weight_for(k, v.shape) for k, v in net.state_dict().items()})
        model = paddle.Model(net, InputSpec([None, 1, 28, 28], "float32", "image"),
                             InputSpec([None, 1], "int64", "label"))
        sched = paddle.optimizer.lr.StepDecay(0.001, step_size=1, gamma=0.5)
        model.prepare(paddle.optimizer.Adam(sched, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                      paddle.metric.Accuracy())
        meta["summary_ret"], meta["summary_text"] = capture(lambda: model.summary())
        ck = os.path.join(d, "ck")
        cbs = [paddle.callbacks.ModelCheckpoint(save_freq=1, save_dir=ck),
               paddle.callbacks.EarlyStopping(monitor="acc", mode="max", patience=1, save_best_model=True),
               paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)]
        _, meta["fit_text"] = capture(lambda: model.fit(train, test, epochs=3, batch_size=64, shuffle=False,
                                                        verbose=2, log_freq=4, save_dir=ck, callbacks=cbs))
        meta["lr_after"] = sched.get_lr()
        meta["checkpoint_files"] = sorted(os.listdir(ck))
        meta["evaluate"], meta["evaluate_text"] = capture(lambda: model.evaluate(test, batch_size=64, verbose=2))
        pred, meta["predict_text"] = capture(lambda: model.predict(test, batch_size=64, stack_outputs=True,
                                                                   verbose=2))
        arrays["predict"] = summarize(pred[0])
        meta["predict_shape"] = list(pred[0].shape)
        for k, v in net.state_dict().items():
            arrays["final__" + k] = summarize(v.numpy())
        meta["early_stopping"] = early_stopping(d)
        meta["accumulate"] = accumulate()
        # the quick start as a user writes it
        paddle.seed(2024)
        net = LeNet()
        model = paddle.Model(net)
        model.prepare(paddle.optimizer.Adam(0.001, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                      paddle.metric.Accuracy())
        model.fit(train, epochs=2, batch_size=64, verbose=0)
        meta["default_evaluate"] = model.evaluate(test, batch_size=64, verbose=0)
    meta["summaries"] = {}
    for name, (ctor, kwargs, size) in SUMMARIES.items():
        with paddle.utils.unique_name.guard():  # fresh layer-name counters (the table numbers layers by them)
            ret, text = capture(lambda: paddle.summary(getattr(paddle.vision.models, ctor)(**kwargs), size))
        meta["summaries"][name] = {"ret": ret, "text": text, "ctor": ctor, "kwargs": kwargs, "size": size}
    meta["paddle_version"] = paddle.__version__
    save("hapi_quickstart26", arrays, meta)


if __name__ == "__main__":
    main()
