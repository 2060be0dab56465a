"""Record a case module with real Paddle 1.8.5 -> tests/goldens/<golden>.*: either its `run(fluid)` returning
{name: array} (or ({name: array}, extra meta)) (tests/fluid/cases18_auc.py, cases18_spectral_norm.py, ...: runs
that set scope values or repeat runs, which the case table of rec_fluid18_layers.py cannot express), or its
`CASES` ({case name: fn(paddle) -> {key: array}}, saved as "<case>/<key>"). rec_run26.py does the same with
Paddle 2.6.2, passing `paddle`. The module is a name in tests/fluid or a .py path relative to the repo root.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file> <module> <golden>"""
import importlib
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
from _common import REPO, save  # noqa: E402


def _load(module):
    if not module.endswith(".py"):
        return importlib.import_module(module), f"tests/fluid/{module}.py"
    spec = importlib.util.spec_from_file_location("cases", os.path.join(REPO, module))
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    return cases, module


def main(module, golden, pass_fluid=True):
    cases, program = _load(module)  # before paddle: see rec_run26.py
    import numpy as np
    import paddle

    api = paddle.fluid if pass_fluid else paddle
    if hasattr(cases, "CASES"):
        arrays = {f"{name}/{k}": np.asarray(v) for name, fn in cases.CASES.items() for k, v in fn(api).items()}
        extra = {}
    else:
        out = cases.run(api)
        arrays, extra = out if isinstance(out, tuple) else (out, {})
    save(golden, arrays, dict(extra, paddle_version=paddle.__version__, program=program))


if __name__ == "__main__":
    main(*sys.argv[1:3])
