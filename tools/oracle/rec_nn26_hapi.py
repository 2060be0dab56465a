"""hapi with Paddle 2.6.2: paddle.summary / paddle.flops text, Model.fit / evaluate / predict logs and results for
a fixed conv+bn net, data and init (shuffle=False), and Precision / Recall / Auc / Accuracy on fixed data.

Run with /work/oracle/p26 from /tmp with PYTHONPATH unset. Paddle 2.6.2's flops() fails under numpy 2
(int() of a [1]-shaped buffer); the recorder patches Tensor.__int__ to read the single element first."""
import contextlib
import io
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import numpy.random  # noqa: E402,F401
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402

from _common import save  # noqa: E402

_orig_int = paddle.Tensor.__int__
paddle.Tensor.__int__ = lambda self: int(self.numpy().reshape(-1)[0]) if self.size == 1 else _orig_int(self)


def capture(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = fn()
    text = re.sub(r"\d+(ms|us|s)/step", "<T>/step", buf.getvalue())
    text = re.sub(r"ETA: \S+ ", "", text)
    return r, text


def net_convbn():
    return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(),
                         nn.Linear(64, 3))


class LeNetish(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                                      nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))

    def forward(self, x):
        x = self.features(x)
        x = paddle.flatten(x, 1)
        return self.fc(x)


class DS(paddle.io.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    meta, arrays = {"paddle_version": paddle.__version__}, {}
    r, t = capture(lambda: paddle.summary(net_convbn(), (2, 1, 8, 8)))
    meta["summary_convbn"] = {"text": t, "ret": {k: int(v) for k, v in r.items()}}
    r, t = capture(lambda: paddle.summary(LeNetish(), (1, 1, 28, 28)))
    meta["summary_lenet"] = {"text": t, "ret": {k: int(v) for k, v in r.items()}}
    r, t = capture(lambda: paddle.flops(LeNetish(), [1, 1, 28, 28], print_detail=True))
    meta["flops_lenet"] = {"text": t, "ret": int(r)}
    r, t = capture(lambda: paddle.flops(net_convbn(), [2, 1, 8, 8]))
    meta["flops_convbn"] = {"text": t, "ret": int(r)}

    rng = np.random.RandomState(5)
    x = rng.standard_normal((20, 1, 8, 8)).astype("float32")
    y = rng.randint(0, 3, (20, 1)).astype("int64")
    arrays.update(x=x, y=y)
    net = net_convbn()
    init = {k: (rng.standard_normal(v.shape) * 0.3).astype("float32") for k, v in net.state_dict().items()}
    init["1._variance"] = np.abs(init["1._variance"]) + 0.5
    net.set_state_dict(init)
    for k, v in init.items():
        arrays["init__" + k] = v
    model = paddle.Model(net, paddle.static.InputSpec([None, 1, 8, 8], "float32", "x"),
                         paddle.static.InputSpec([None, 1], "int64", "label"))
    model.prepare(paddle.optimizer.Momentum(0.05, parameters=net.parameters()), nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy(topk=(1, 2)))
    _, t = capture(lambda: model.fit(DS(x, y), DS(x[:12], y[:12]), batch_size=8, epochs=2, log_freq=2, verbose=2,
                                     shuffle=False))
    meta["fit_text"] = t
    r, t = capture(lambda: model.evaluate(DS(x, y), batch_size=8, verbose=2))
    meta["evaluate"] = {"text": t, "ret": {k: (list(map(float, v)) if isinstance(v, list) else float(v))
                                           for k, v in r.items()}}
    r, t = capture(lambda: model.predict(DS(x, y), batch_size=8, verbose=2, stack_outputs=True))
    meta["predict_text"] = t
    arrays["predict"] = r[0]
    for k, v in net.state_dict().items():
        arrays["final__" + k] = v.numpy()

    preds = rng.uniform(0, 1, (40,)).astype("float32")
    labels = rng.randint(0, 2, (40,)).astype("int64")
    arrays.update(bin_preds=preds, bin_labels=labels)
    p, rc, auc = paddle.metric.Precision(), paddle.metric.Recall(), paddle.metric.Auc(num_thresholds=255)
    p.update(preds, labels)
    rc.update(preds, labels)
    auc.update(np.stack([1 - preds, preds], 1), labels)
    meta["precision"], meta["recall"], meta["auc"] = p.accumulate(), rc.accumulate(), float(auc.accumulate())
    logits = rng.standard_normal((10, 5)).astype("float32")
    lab = rng.randint(0, 5, (10, 1)).astype("int64")
    arrays.update(acc_logits=logits, acc_labels=lab)
    acc = paddle.metric.Accuracy(topk=(1, 3))
    c = acc.compute(paddle.to_tensor(logits), paddle.to_tensor(lab))
    meta["acc_update"] = [float(v) for v in acc.update(c)]
    meta["acc_name"] = acc.name()
    arrays["acc_correct"] = c.numpy()
    save("nn26_hapi", arrays, meta)


if __name__ == "__main__":
    main()
