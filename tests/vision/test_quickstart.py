"""The hapi quick start end to end: paddle.Model(LeNet()) on MNIST-format files (generated: quickstart_data.py)
with Adam, CrossEntropyLoss, Accuracy and the callbacks ModelCheckpoint / EarlyStopping / LRScheduler, against
real Paddle 2.6.2 (tests/goldens/hapi_quickstart26, tools/oracle/rec_hapi_quickstart26.py): the printed logs,
Model.summary, evaluate / predict, the checkpoint files and the trained weights."""

import contextlib
import io
import os
import re

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.nn.test_hapi import _values
from tests.vision.model_weights import summarize, weight_for
from tests.vision.quickstart_data import TEST, TRAIN, write_idx

META, ARR = load_golden("hapi_quickstart26")


def _capture(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = fn()
    text = re.sub(r"\d+(ms|us|s)/step", "<T>/step", buf.getvalue())
    return r, re.sub(r"\S*/ck/", "<D>/", text)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    from paddle.vision.datasets import MNIST
    from paddle.vision.transforms import Normalize

    d = str(tmp_path_factory.mktemp("mnist"))
    t = Normalize(mean=[127.5], std=[127.5], data_format="CHW")
    return (MNIST(*write_idx(d, "train", *TRAIN), mode="train", transform=t, download=False),
            MNIST(*write_idx(d, "t10k", *TEST), mode="test", transform=t, download=False))


@pytest.mark.parametrize("static", [False, True], ids=["dygraph", "static"])
def test_quick_start_matches_paddle(data, tmp_path, static):
    """One golden for both: in static mode hapi's static adapter builds the programs around the same LeNet."""
    import paddle
    from paddle.static import InputSpec
    from paddle.vision.models import LeNet

    train, test = data
    if static:
        paddle.enable_static()
    net = LeNet()
    net.set_state_dict({k: weight_for(k, v.shape) for k, v in net.state_dict().items()})
    specs = [InputSpec([None, 1, 28, 28], "float32", "image"), InputSpec([None, 1], "int64", "label")]
    model = paddle.Model(net, *specs)
    sched = paddle.optimizer.lr.StepDecay(0.001, step_size=1, gamma=0.5)
    model.prepare(paddle.optimizer.Adam(sched, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy())
    ret, text = _capture(lambda: model.summary())
    assert (ret, text) == (META["summary_ret"], META["summary_text"])
    ck = str(tmp_path / "ck")
    cbs = [paddle.callbacks.ModelCheckpoint(save_freq=1, save_dir=ck),
           paddle.callbacks.EarlyStopping(monitor="acc", mode="max", patience=1, save_best_model=True),
           paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)]
    _, text = _capture(lambda: model.fit(train, test, epochs=3, batch_size=64, shuffle=False, verbose=2, log_freq=4,
                                         save_dir=ck, callbacks=cbs))
    assert text == META["fit_text"]
    assert sched.get_lr() == META["lr_after"]
    assert sorted(os.listdir(ck)) == META["checkpoint_files"]
    ret, text = _capture(lambda: model.evaluate(test, batch_size=64, verbose=2))
    assert text == META["evaluate_text"]
    assert ret["acc"] == META["evaluate"]["acc"]
    np.testing.assert_allclose(ret["loss"], META["evaluate"]["loss"], rtol=1e-4)
    pred, text = _capture(lambda: model.predict(test, batch_size=64, stack_outputs=True, verbose=2))
    assert text == META["predict_text"] and list(pred[0].shape) == META["predict_shape"]
    np.testing.assert_allclose(summarize(pred[0]), ARR["predict"], rtol=1e-4, atol=1e-4)
    for k, v in _values(net.state_dict()).items():  # 30 Adam steps: values to 1e-4; sums to 1e-5 of the abs sum
        got, want = summarize(v), ARR["final__" + k]
        np.testing.assert_allclose(got[:-2], want[:-2], rtol=1e-4, atol=1e-5, err_msg=k)
        np.testing.assert_allclose(got[-2:], want[-2:], rtol=0, atol=1e-5 * want[-1], err_msg=k)
    # the best model EarlyStopping saved loads back into a fresh network
    net2 = LeNet()
    m2 = paddle.Model(net2, *specs)
    m2.prepare(paddle.optimizer.Adam(0.001, parameters=net2.parameters()), paddle.nn.CrossEntropyLoss(),
               paddle.metric.Accuracy())
    m2.load(os.path.join(ck, "best_model"))
    assert m2.evaluate(test, batch_size=64, verbose=0)["acc"] == pytest.approx(0.7750, abs=0.03)


def test_quick_start_as_written_learns(data):
    """The quick start with Paddle's own initialisers: our random stream is torch's, so the accuracy is set beside
    real Paddle's (META['default_evaluate']), not equal to it."""
    import paddle
    from paddle.vision.models import LeNet

    train, test = data
    paddle.seed(2024)
    model = paddle.Model(LeNet())
    model.prepare(paddle.optimizer.Adam(0.001, parameters=model.parameters()), paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy())
    model.fit(train, epochs=2, batch_size=64, verbose=0)
    acc = model.evaluate(test, batch_size=64, verbose=0)["acc"]
    assert acc > META["default_evaluate"]["acc"] - 0.15, (acc, META["default_evaluate"])


@pytest.mark.parametrize("name", sorted(META["summaries"]))
def test_vision_model_summaries_match_paddle(name):
    """paddle.summary tables of vision models (Paddle's layer class names and counters, shapes, parameter counts,
    sizes), as real Paddle 2.6.2 prints them (rec_hapi_quickstart26.py SUMMARIES)."""
    import paddle

    ctor, kwargs, size = {"resnet18": ("resnet18", {"num_classes": 10}, (1, 3, 32, 32)),
                          "mobilenet_v3_small": ("mobilenet_v3_small", {"scale": 0.5, "num_classes": 10},
                                                 (1, 3, 32, 32)),
                          "googlenet": ("googlenet", {"num_classes": 10}, (1, 3, 192, 192))}[name]
    ret, text = _capture(lambda: paddle.summary(getattr(paddle.vision.models, ctor)(**kwargs), size))
    want = META["summaries"][name]
    if text != want["text"]:
        got_lines, want_lines = text.splitlines(), want["text"].splitlines()
        first = next(i for i, (a, b) in enumerate(zip(got_lines + [""], want_lines + [""])) if a != b)
        raise AssertionError(f"{name}: line {first}:\n{got_lines[first:first + 3]}\nvs Paddle's\n"
                             f"{want_lines[first:first + 3]}")
    assert ret == want["ret"]
