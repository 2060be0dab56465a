"""Record a case module whose `run(fluid)` returns {name: array} with real Paddle 1.8.5 -> tests/goldens/<golden>.*
(tests/fluid/cases18_auc.py, cases18_spectral_norm.py, ...: runs that set scope values or repeat runs, which the case
table of rec_fluid18_layers.py cannot express).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file> <module in tests/fluid> <golden>"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
import paddle
from _common import save
from paddle import fluid


def main(module, golden):
    cases = importlib.import_module(module)
    out = cases.run(fluid)  # {name: array}, or ({name: array}, extra meta)
    arrays, extra = out if isinstance(out, tuple) else (out, {})
    save(golden, arrays, dict(extra, paddle_version=paddle.__version__, program=f"tests/fluid/{module}.py"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
