"""paddle.dataset.uci_housing and the housing.data parser paddle.text.UCIHousing shares."""

from __future__ import annotations

import os
import tarfile
import tempfile
from collections.abc import Callable, Iterator

import numpy as np

from paddle_compat.paddle2.dataset.common import export_names
from paddle_compat.paddle2.utils.download import download

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT"]
FLUID_URL_MODEL = "https://github.com/PaddlePaddle/book/raw/develop/01.fit_a_line/fluid/fit_a_line.fluid.tar"
FLUID_MD5_MODEL = "6e6dd637ccd5993961f68bfbde46090b"
UCI_TRAIN_DATA = None
UCI_TEST_DATA = None


def read_housing(filename: str, feature_num: int = 14, ratio: float = 0.8) -> tuple[np.ndarray, np.ndarray]:
    """(train rows, test rows), float64: features centred on their mean and divided by their range (the
    target column kept), the first `ratio` of the rows for training."""
    data = np.fromfile(filename, sep=" ")
    data = data.reshape(data.shape[0] // feature_num, feature_num)
    maximums, minimums = data.max(axis=0), data.min(axis=0)
    avgs = data.sum(axis=0) / data.shape[0]
    for i in range(feature_num - 1):
        data[:, i] = (data[:, i] - avgs[i]) / (maximums[i] - minimums[i])
    offset = int(data.shape[0] * ratio)
    return data[:offset], data[offset:]


def feature_range(maximums: np.ndarray, minimums: np.ndarray) -> None:
    """Paddle draws image/ranges.png with matplotlib here; kept as a function, drawing only if matplotlib is
    installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots()
    n = len(maximums)
    ax.bar(list(range(n)), maximums - minimums, color="r", align="center")
    ax.set_title("feature scale")
    plt.xticks(list(range(n)), feature_names)
    plt.xlim([-1, n])
    fig.set_figheight(6)
    fig.set_figwidth(10)
    os.makedirs("./image", exist_ok=True)
    fig.savefig("image/ranges.png", dpi=48)
    plt.close(fig)


def load_data(filename: str, feature_num: int = 14, ratio: float = 0.8) -> None:
    """Fills UCI_TRAIN_DATA / UCI_TEST_DATA once (as Paddle: a later call with another file changes nothing)."""
    global UCI_TRAIN_DATA, UCI_TEST_DATA
    if UCI_TRAIN_DATA is not None and UCI_TEST_DATA is not None:
        return
    UCI_TRAIN_DATA, UCI_TEST_DATA = read_housing(filename, feature_num, ratio)


def _rows(which: str) -> Callable:
    load_data(download(URL, "uci_housing", MD5))

    def reader() -> Iterator[tuple]:
        for d in globals()[which]:
            yield d[:-1], d[-1:]

    return reader


def train() -> Callable:
    """Samples (13 float64 features, [price])."""
    return _rows("UCI_TRAIN_DATA")


def test() -> Callable:
    return _rows("UCI_TEST_DATA")


def predict_reader() -> tuple:
    load_data(download(URL, "uci_housing", MD5))
    return (UCI_TEST_DATA[0][:-1],)


def fluid_model() -> str:
    """The fit_a_line inference model of Paddle's book, unpacked into a new temporary folder."""
    tar = download(FLUID_URL_MODEL, "uci_housing", FLUID_MD5_MODEL, "fit_a_line.fluid.tar")
    dirpath = tempfile.mkdtemp()
    with tarfile.TarFile(tar, mode="r") as f:
        f.extractall(path=dirpath)
    return dirpath


def fetch() -> None:
    download(URL, "uci_housing", MD5)


export_names(globals(), "paddle.dataset.uci_housing", (
    "train", "test", "fetch", "predict_reader", "fluid_model", "load_data", "feature_range", "feature_names", "URL",
    "MD5", "FLUID_URL_MODEL", "FLUID_MD5_MODEL"))
