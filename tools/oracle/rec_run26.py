"""Record a case module's `CASES` ({name: fn(paddle) -> {key: array}}) with real Paddle 2.6.2 -> tests/goldens/<golden>.*
(the 2.x twin of rec_run18.py: tests/nn/cases26_numbers.py, ...). The module path is relative to the repo root.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <this file> tests/nn/cases26_numbers.py <golden>"""
import importlib.util
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import numpy.random  # noqa: E402,F401 - before paddle: importing it after paddle's zlib crashes Paddle 2.6.2
import paddle  # noqa: E402
from _common import REPO, save  # noqa: E402

warnings.filterwarnings("ignore")


def main(path, golden):
    spec = importlib.util.spec_from_file_location("cases", os.path.join(REPO, path))
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    paddle.disable_static()
    paddle.set_device("cpu")
    arrays = {}
    for name, fn in cases.CASES.items():  # {case name: fn(paddle) -> {key: array}}, saved as "<name>/<key>"
        for k, v in fn(paddle).items():
            arrays[f"{name}/{k}"] = np.asarray(v)
    save(golden, arrays, dict(paddle_version=paddle.__version__, program=path))


if __name__ == "__main__":
    main(*sys.argv[1:3])
