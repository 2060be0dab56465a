"""Record a case module whose `run(fluid)` returns {name: array} (or ({name: array}, extra meta)) with real Paddle
1.8.5 -> tests/goldens/<golden>.* (tests/fluid/cases18_auc.py, cases18_spectral_norm.py, ...: runs that set scope
values or repeat runs, which the case table of rec_fluid18_layers.py cannot express). rec_run26.py does the same
with Paddle 2.6.2, passing `paddle`.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file> <module in tests/fluid> <golden>"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
from _common import save  # noqa: E402


def main(module, golden, pass_fluid=True):
    cases = importlib.import_module(module)  # before paddle: see rec_run26.py
    import paddle

    out = cases.run(paddle.fluid if pass_fluid else paddle)
    arrays, extra = out if isinstance(out, tuple) else (out, {})
    save(golden, arrays, dict(extra, paddle_version=paddle.__version__, program=f"tests/fluid/{module}.py"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
