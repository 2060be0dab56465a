"""The hapi quick start end to end: paddle.Model(LeNet()) on MNIST-format files (generated: quickstart_data.py)
with Adam, CrossEntropyLoss, Accuracy and the callbacks ModelCheckpoint / EarlyStopping / LRScheduler, against
real Paddle 2.6.2 (tests/goldens/hapi_quickstart26, tools/oracle/rec_hapi_quickstart26.py): the printed logs,
Model.summary, evaluate / predict, the checkpoint files and the trained weights."""

import os
import re

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.nn.test_hapi import _capture as _hapi_capture
from tests.nn.test_hapi import _values
from tests.vision.model_weights import summarize, weight_for
from tests.vision.quickstart_data import TEST, TRAIN, linear_model, write_idx, xy_data

META, ARR = load_golden("hapi_quickstart26")


def _capture(fn):
    """test_hapi's capture (timings normalised), with the checkpoint folder written as <D>."""
    r, text = _hapi_capture(fn)
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

    want = META["summaries"][name]
    model = getattr(paddle.vision.models, want["ctor"])(**want["kwargs"])
    ret, text = _capture(lambda: paddle.summary(model, tuple(want["size"])))
    if text != want["text"]:
        got_lines, want_lines = text.splitlines(), want["text"].splitlines()
        first = next(i for i, (a, b) in enumerate(zip(got_lines + [""], want_lines + [""])) if a != b)
        raise AssertionError(f"{name}: line {first}:\n{got_lines[first:first + 3]}\nvs Paddle's\n"
                             f"{want_lines[first:first + 3]}")
    assert ret == want["ret"]


@pytest.mark.parametrize("name", sorted(META["early_stopping"]))
def test_early_stopping_matches_paddle(name, tmp_path):
    """When EarlyStopping stops fit, what it prints and saves, and its state (Paddle 2.6.2: patience counts the
    evaluation that sets the best value; the 'best checkpoint' line follows the settings)."""
    import warnings

    import paddle

    _, model, ds = linear_model(paddle, "Adam", 0.05, metrics=True)
    want = META["early_stopping"][name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        es = paddle.callbacks.EarlyStopping(**want["kwargs"])
        ck = str(tmp_path / "ck")
        _, text = _capture(lambda: model.fit(ds, ds, batch_size=16, epochs=6, shuffle=False, verbose=0,
                                             save_dir=ck, save_freq=100, callbacks=[es]))
    assert text == want["text"]
    best = es.best_value[0] if isinstance(es.best_value, list) else es.best_value
    assert float(best) == pytest.approx(want["best_value"], rel=1e-5)
    assert (es.wait_epoch, es.stopped_epoch, bool(model.stop_training)) == (
        want["wait_epoch"], want["stopped_epoch"], want["stop_training"])
    assert sorted(os.listdir(ck)) == want["files"]
    messages = [str(w.message) for w in caught]
    assert ("EarlyStopping mode weird is unknown, fallback to auto mode." in messages) == (name == "unknown_mode")
    assert ("Monitor of EarlyStopping should be loss or metric name." in messages) == (name == "no_such_monitor")


def test_fit_accumulates_gradients_over_batches():
    """fit(accumulate_grad_batches=3): the optimizer steps after batches 3 and 4 (the last) of each epoch, with the
    gradients summed since its last step (Paddle 2.6.2's weights); static mode refuses it as Paddle does."""
    import paddle
    from paddle.static import InputSpec

    want = META["accumulate"]
    net, model, ds = linear_model(paddle)
    model.fit(ds, batch_size=16, epochs=2, shuffle=False, verbose=0, accumulate_grad_batches=3)
    for k, v in net.state_dict().items():
        np.testing.assert_allclose(v.numpy(), want["final"][k], rtol=1e-5, atol=1e-6, err_msg=k)
    paddle.enable_static()
    net = paddle.nn.Linear(8, 3)
    model = paddle.Model(net, InputSpec([None, 8], "float32", "x"), InputSpec([None, 1], "int64", "y"))
    model.prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()), paddle.nn.CrossEntropyLoss())
    x, y = xy_data()
    err, msg = want["static_error"]
    with pytest.raises(AssertionError, match=re.escape(msg)):
        model.fit(list(zip(x, y)), batch_size=16, epochs=1, verbose=0, accumulate_grad_batches=3)
    assert err == "AssertionError"


@pytest.mark.parametrize("cfg,match", [
    ("O3", r"The level of amp_configs should be 'O0', 'O1' or 'O2'\."),
    ({"level": "O4"}, r"amp_configs\['level'\] should be 'O0', 'O1' or 'O2'\."),
    ({"level": "O1", "use_pure_fp16": True}, "'use_pure_fp16' is an invalid parameter"),
    ({"level": "O1", "bogus": 1}, r"must be accepted by mixed precision APIs, but \('bogus',\) could not be"),
    ({"level": "O1", "use_fp16_guard": True}, "'use_fp16_guard' is supported in static graph mode only.")])
def test_prepare_amp_configs_errors(cfg, match):
    """Paddle 2.6.2's checks of amp_configs, with its messages."""
    import paddle

    net = paddle.nn.Linear(8, 3)
    with pytest.raises(ValueError, match=match):
        paddle.Model(net).prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()),
                                  paddle.nn.CrossEntropyLoss(), amp_configs=cfg)


def test_fit_with_amp_configs_scales_the_loss():
    """amp_configs={'level': 'O1', 'init_loss_scaling': 1024, ...}: the forward runs under paddle.amp.auto_cast
    with the custom lists, the loss goes through one GradScaler built from the remaining keys, and training
    stays close to the float32 run."""
    import paddle

    def train(amp):
        net, model, ds = linear_model(paddle, amp_configs=amp)
        model.fit(ds, batch_size=16, epochs=2, shuffle=False, verbose=0)
        return model, net.weight.numpy()

    model, w_amp = train({"level": "O1", "init_loss_scaling": 1024, "custom_black_list": ["softmax"]})
    assert model._amp_level == "O1" and model._amp_custom_lists == {"custom_black_list": ["softmax"]}
    assert isinstance(model._scaler, paddle.amp.GradScaler) and model._scaler.get_init_loss_scaling() == 1024
    _, w32 = train(None)
    assert np.isfinite(w_amp).all() and not np.array_equal(w_amp, w32)
    np.testing.assert_allclose(w_amp, w32, atol=0.05)
