"""hapi (paddle.Model, summary, flops, callbacks), paddle.metric and paddle.io against Paddle 2.6.2
(tests/goldens/nn26_hapi, recorded by tools/oracle/rec_nn26_hapi.py). Printed timings are normalised to <T>."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pytest

from tests.conftest import load_golden

META, G = load_golden("nn26_hapi")


def _capture(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = fn()
    text = re.sub(r"\d+(ms|us|s)/step", "<T>/step", buf.getvalue())
    text = re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class \1>", text)
    return r, text


def _norm_classes(text):
    return re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class \1>", text)


def _net():
    import paddle.nn as nn

    return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(),
                         nn.Linear(64, 3))


def _lenet():
    import paddle
    import paddle.nn as nn

    class LeNetish(nn.Layer):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                                          nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))

        def forward(self, x):
            return self.fc(paddle.flatten(self.features(x), 1))

    return LeNetish()


def test_summary_tables_match_paddle():
    import paddle

    r, text = _capture(lambda: paddle.summary(_net(), (2, 1, 8, 8)))
    assert text == META["summary_convbn"]["text"]
    assert r == META["summary_convbn"]["ret"]
    r, text = _capture(lambda: paddle.summary(_lenet(), (1, 1, 28, 28)))
    assert text == META["summary_lenet"]["text"]
    assert r == META["summary_lenet"]["ret"]


def test_flops_match_paddle():
    import paddle

    r, text = _capture(lambda: paddle.flops(_net(), [2, 1, 8, 8]))
    assert r == META["flops_convbn"]["ret"]
    assert text == _norm_classes(META["flops_convbn"]["text"])
    r, text = _capture(lambda: paddle.flops(_lenet(), [1, 1, 28, 28], print_detail=True))
    assert r == META["flops_lenet"]["ret"]
    want = _norm_classes(META["flops_lenet"]["text"]).splitlines()
    got = text.splitlines()
    assert got[-1] == want[-1]  # Total Flops / Total Params line
    assert [ln for ln in got if ln.startswith("<class") or ln.startswith("Cannot")] == \
        [ln for ln in want if ln.startswith("<class") or ln.startswith("Cannot")]
    # the table: same Params / Flops columns per row (Paddle 2.6.2 prints np.int64(...) shapes under numpy 2)
    rows = [[c.strip() for c in ln.split("|")[1:-1]] for ln in got if ln.startswith("|")][1:]
    wrows = [[c.strip() for c in ln.split("|")[1:-1]] for ln in want if ln.startswith("|")][1:]
    assert [r_[3:] for r_ in rows] == [w[3:] for w in wrows]


def _values(state):
    """A state dict's values as numpy: dygraph Tensors, or static Parameters read from the global scope."""
    from paddle_compat.engine.framework.scope import global_scope

    return {k: v.numpy() if hasattr(v, "_t") else np.array(global_scope().find_var(v.name).get_tensor())
            for k, v in state.items()}


@pytest.mark.parametrize("static", [False, True], ids=["dygraph", "static"])
def test_model_fit_evaluate_predict_match_paddle(tmp_path, static):
    """The same Paddle 2.6.2 golden for both: hapi's static adapter trains, evaluates and predicts as dygraph does."""
    import paddle
    import paddle.nn as nn

    if static:
        paddle.enable_static()

    class DS(paddle.io.Dataset):
        def __init__(self, x, y):
            self.x, self.y = x, y

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return len(self.x)

    x, y = G["x"], G["y"]
    net = _net()
    net.set_state_dict({k[len("init__"):]: v for k, v in G.items() if k.startswith("init__")})
    model = paddle.Model(net, paddle.static.InputSpec([None, 1, 8, 8], "float32", "x"),
                         paddle.static.InputSpec([None, 1], "int64", "label"))
    model.prepare(paddle.optimizer.Momentum(0.05, parameters=net.parameters()), nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy(topk=(1, 2)))
    _, text = _capture(lambda: model.fit(DS(x, y), DS(x[:12], y[:12]), batch_size=8, epochs=2, log_freq=2,
                                         verbose=2, shuffle=False))
    assert text == META["fit_text"]
    r, text = _capture(lambda: model.evaluate(DS(x, y), batch_size=8, verbose=2))
    assert text == META["evaluate"]["text"]
    assert r["loss"] == pytest.approx(META["evaluate"]["ret"]["loss"], rel=1e-5)
    assert r["acc_top1"] == pytest.approx(META["evaluate"]["ret"]["acc_top1"])
    r, text = _capture(lambda: model.predict(DS(x, y), batch_size=8, verbose=2, stack_outputs=True))
    assert text == META["predict_text"]
    np.testing.assert_allclose(r[0], G["predict"], rtol=1e-5, atol=1e-6)
    for k, v in _values(net.state_dict()).items():
        np.testing.assert_allclose(v, G["final__" + k], rtol=1e-5, atol=1e-6, err_msg=k)
    # save / load round trip through Paddle's file format
    model.save(str(tmp_path / "ckpt" / "m"))
    if static:  # a second network in a fresh program and scope
        import paddle_compat.engine.framework.program as prog_mod
        import paddle_compat.engine.framework.scope as scope_mod

        saved = _values(net.state_dict())
        prog_mod._main[0], prog_mod._startup[0], scope_mod._global[0] = (paddle.static.Program(),
                                                                         paddle.static.Program(), scope_mod.Scope())
    else:
        saved = _values(net.state_dict())
    net2 = _net()
    specs = [paddle.static.InputSpec([None, 1, 8, 8], "float32", "x"), paddle.static.InputSpec([None, 1], "int64",
                                                                                                "label")]
    m2 = paddle.Model(net2, *specs) if static else paddle.Model(net2)
    m2.prepare(paddle.optimizer.Momentum(0.05, parameters=net2.parameters()), nn.CrossEntropyLoss())
    m2.load(str(tmp_path / "ckpt" / "m"))
    for (k, a), b in zip(saved.items(), _values(net2.state_dict()).values()):
        np.testing.assert_array_equal(a, b, err_msg=k)


def test_metrics_match_paddle():
    import paddle

    p, r, auc = paddle.metric.Precision(), paddle.metric.Recall(), paddle.metric.Auc(num_thresholds=255)
    p.update(G["bin_preds"], G["bin_labels"])
    r.update(G["bin_preds"], G["bin_labels"])
    auc.update(np.stack([1 - G["bin_preds"], G["bin_preds"]], 1), G["bin_labels"])
    assert p.accumulate() == pytest.approx(META["precision"])
    assert r.accumulate() == pytest.approx(META["recall"])
    assert auc.accumulate() == pytest.approx(META["auc"])
    acc = paddle.metric.Accuracy(topk=(1, 3))
    c = acc.compute(paddle.to_tensor(G["acc_logits"]), paddle.to_tensor(G["acc_labels"]))
    np.testing.assert_array_equal(c.numpy(), G["acc_correct"])
    assert acc.update(c) == pytest.approx(META["acc_update"])
    assert acc.name() == META["acc_name"]


def test_io_samplers_and_loader():
    import paddle

    ds = paddle.io.TensorDataset([paddle.to_tensor(np.arange(10, dtype="float32").reshape(10, 1)),
                                  paddle.to_tensor(np.arange(10))])
    loader = paddle.io.DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
    batches = list(loader)
    assert len(loader) == 3 and [b[0].shape for b in batches] == [[4, 1], [4, 1], [2, 1]]
    assert batches[2][1].numpy().reshape(-1).tolist() == [8, 9]
    bs = paddle.io.BatchSampler(sampler=paddle.io.SequenceSampler(ds), batch_size=3, drop_last=True)
    assert list(bs) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    # Paddle's split of 10 samples, batch 2, 3 ranks: padded to 12, batch-interleaved
    parts = [list(paddle.io.DistributedBatchSampler(ds, 2, num_replicas=3, rank=r)) for r in range(3)]
    assert parts == [[[0, 1], [6, 7]], [[2, 3], [8, 9]], [[4, 5], [0, 1]]]
    with pytest.raises(ValueError, match="batch_size should be a positive integer"):
        paddle.io.BatchSampler(ds, batch_size=0)


class _Squares:
    """A map-style dataset (module level: the workers are forked, nothing is pickled)."""

    def __getitem__(self, i):
        import paddle

        info = paddle.io.get_worker_info()
        return np.full([2], i * i, "float32"), np.int64(-1 if info is None else info.id)

    def __len__(self):
        return 10


def test_loader_worker_processes_give_the_in_process_batches():
    import paddle

    class Shards(paddle.io.IterableDataset):  # Paddle's rule: each worker iterates fully unless it shards
        def __iter__(self):
            info = paddle.io.get_worker_info()
            yield from (np.array([i], "int64") for i in range(info.id, 10, info.num_workers))

    ds = _Squares()
    one = [(x.numpy(), w.numpy()) for x, w in paddle.io.DataLoader(ds, batch_size=4)]
    two = [(x.numpy(), w.numpy()) for x, w in paddle.io.DataLoader(ds, batch_size=4, num_workers=2)]
    assert len(one) == len(two) == 3
    for (x1, w1), (x2, w2) in zip(one, two):
        np.testing.assert_array_equal(x1, x2)
        assert set(w1.tolist()) == {-1} and set(w2.tolist()) <= {0, 1}  # read in a worker, which knows its id
    got = sorted(v for b in paddle.io.DataLoader(Shards(), batch_size=3, num_workers=2) for v in b.numpy().ravel())
    assert got == list(range(10))
    assert paddle.io.get_worker_info() is None


def test_fit_steps_lr_scheduler_per_batch():
    """Values printed by Paddle 2.6.2 for this script: the default LRScheduler callback steps every batch."""
    import paddle
    import paddle.nn as nn

    class DS(paddle.io.Dataset):
        def __init__(self):
            r = np.random.RandomState(2)
            self.x, self.y = r.rand(12, 3).astype("float32"), r.rand(12, 1).astype("float32")

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return 12

    net = nn.Linear(3, 1)
    net.set_state_dict({"weight": np.full([3, 1], 0.2, "float32"), "bias": np.zeros(1, "float32")})
    sched = paddle.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.5)
    m = paddle.Model(net)
    m.prepare(paddle.optimizer.SGD(sched, parameters=net.parameters()), nn.MSELoss())
    m.fit(DS(), batch_size=4, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(net.weight.numpy().reshape(-1), [0.2582060396671295, 0.20683853328227997,
                                                                0.31759119033813477], rtol=1e-6)
    np.testing.assert_allclose(net.bias.numpy(), [0.2784385085105896], rtol=1e-6)
    assert sched.last_epoch == 6 and sched() == 0.0625


def test_static_model_saves_an_inference_model_and_checks_its_specs(tmp_path):
    import paddle

    paddle.enable_static()
    net = _net()
    x = G["x"][:8]
    with pytest.raises(Exception, match=r"paddle.Model in static mode: inputs\[0\] must be a paddle.static.InputSpec"):
        paddle.Model(net, paddle.static.InputSpec([None, 1, 8, 8], "float32"))
    model = paddle.Model(net, paddle.static.InputSpec([None, 1, 8, 8], "float32", "x"))
    model.prepare()  # no optimizer: eval and test programs only
    with pytest.raises(RuntimeError, match=r"train_batch: call prepare\(optimizer, loss\) first"):
        model.train_batch([x], [G["y"][:8]])
    want = model.predict_batch([x])[0]
    assert want.shape == (8, 3)
    model.save(str(tmp_path / "inf"), training=False)
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "inf"), exe)
    assert feeds == ["x"]
    got = exe.run(prog, feed={"x": x}, fetch_list=fetches)[0]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_static_program_reads_parameters_of_another_program_by_name():
    """A Layer built in one Program used while recording another: its parameters are found by name (through the
    Scope), as Paddle resolves them."""
    import paddle

    paddle.enable_static()
    lin = paddle.nn.Linear(3, 2)
    other = paddle.static.Program()
    with paddle.static.program_guard(other, paddle.static.default_startup_program()):
        x = paddle.static.data("x", [None, 3], "float32")
        y = lin(x)
    assert other.global_block().var(lin.weight.name).persistable
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(paddle.static.default_startup_program())
    xs = np.ones([2, 3], "float32")
    w = np.array(paddle.static.global_scope().find_var(lin.weight.name).get_tensor())
    b = np.array(paddle.static.global_scope().find_var(lin.bias.name).get_tensor())
    np.testing.assert_allclose(exe.run(other, feed={"x": xs}, fetch_list=[y])[0], xs @ w + b, rtol=1e-6)
