"""Record a case module whose `run(paddle)` returns {name: array} (or ({name: array}, extra meta)) with real Paddle
2.6.2 -> tests/goldens/<golden>.* (e.g. tests/fluid/cases26_optimizers.py).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python <this file> <module in tests/fluid> <golden>"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
import numpy.random  # noqa: E402,F401 - before paddle: importing it after paddle 2.6.2 breaks zlib (segfault)
from _common import save  # noqa: E402


def main(module, golden):
    cases = importlib.import_module(module)
    import paddle

    out = cases.run(paddle)
    arrays, extra = out if isinstance(out, tuple) else (out, {})
    save(golden, arrays, dict(extra, paddle_version=paddle.__version__, program=f"tests/fluid/{module}.py"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
