"""A generated MNIST-shaped data set for the hapi quick start (numpy only, no paddle import).

tools/oracle/rec_hapi_quickstart26.py trains real Paddle 2.6.2 on it; tests/vision/test_quickstart.py trains
paddle_compat on the same files. Ten classes, each a fixed smooth 28x28 template (a RandomState seeded by the
class) under per-image noise and a random shift, written in MNIST's gzipped idx format, so nothing is committed."""

import gzip
import os
import struct

import numpy as np


def _templates():
    yy, xx = np.mgrid[0:28, 0:28].astype("float64")
    out = []
    for c in range(10):
        r = np.random.RandomState(100 + c)
        img = np.zeros((28, 28))
        for _ in range(3):  # three gaussian strokes per class
            cy, cx, s = r.uniform(7, 21), r.uniform(7, 21), r.uniform(2.0, 4.5)
            img += np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * s * s))
        out.append(img / img.max())
    return np.stack(out)


def images_and_labels(n, seed):
    r = np.random.RandomState(seed)
    t = _templates()
    labels = r.randint(0, 10, size=n).astype("uint8")
    imgs = np.empty((n, 28, 28), "uint8")
    for i, c in enumerate(labels):
        dy, dx = r.randint(-2, 3, size=2)
        img = np.roll(np.roll(t[c], dy, 0), dx, 1) * 230 + r.normal(0, 40, (28, 28))
        imgs[i] = np.clip(img, 0, 255).astype("uint8")
    return imgs, labels


def write_idx(folder, mode, n, seed):
    """(image_path, label_path) of `<mode>-images-idx3-ubyte.gz` / `<mode>-labels-idx1-ubyte.gz` in folder."""
    imgs, labels = images_and_labels(n, seed)
    os.makedirs(folder, exist_ok=True)
    ip = os.path.join(folder, f"{mode}-images-idx3-ubyte.gz")
    lp = os.path.join(folder, f"{mode}-labels-idx1-ubyte.gz")
    with gzip.GzipFile(ip, "wb", mtime=0) as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28) + imgs.tobytes())
    with gzip.GzipFile(lp, "wb", mtime=0) as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())
    return ip, lp


# the quick start's sizes: train / test images and their seeds
TRAIN, TEST = (600, 1), (200, 2)  # multiples of 100: Paddle reads idx files in blocks of 100


def xy_data():
    """The EarlyStopping checks' data: 64 points in 8-d, three classes from the first three coordinates."""
    r = np.random.RandomState(5)
    x = r.randn(64, 8).astype("float32")
    return x, (np.argmax(x[:, :3], 1) % 3).astype("int64")[:, None]


def linear_model(paddle, optimizer="SGD", lr=0.1, metrics=False, amp_configs=None):
    """(net, model, data set): a Linear(8, 3) with the weight rule, prepared with `optimizer`(lr), cross entropy
    and (metrics) Accuracy, over xy_data; `paddle` is real Paddle in the recorder, ours in the tests."""
    try:
        from tests.vision.model_weights import weight_for
    except ImportError:  # the recorder: tests/vision is on sys.path
        from model_weights import weight_for
    net = paddle.nn.Linear(8, 3)
    net.set_state_dict({k: weight_for(k, v.shape) for k, v in net.state_dict().items()})
    model = paddle.Model(net)
    model.prepare(getattr(paddle.optimizer, optimizer)(lr, parameters=net.parameters()), paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy() if metrics else None, amp_configs=amp_configs)
    return net, model, paddle.io.TensorDataset([paddle.to_tensor(a) for a in xy_data()])
