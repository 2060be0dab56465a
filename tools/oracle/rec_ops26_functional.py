"""Record tests/goldens/ops26_functional.npz: replay every sample of tests/ops/rows_functional.py
(paddle.nn.functional) on real Paddle 2.6.2. Same conventions as rec_ops26.py (whose helpers it reuses).
`rec_ops26_functional.py ROWS_MODULE` records another rows module (one that names its GOLDEN, e.g.
rows_functional2x.py) into tests/goldens/<GOLDEN>.

Run from /tmp with PYTHONPATH unset:  /work/oracle/p26/bin/python <repo>/tools/oracle/rec_ops26_functional.py
Random rows are recorded with paddle.seed(0) (the tests compare their shapes only).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from rec_ops26 import record  # noqa: E402  (also puts tests/ops on sys.path)



def main(module="rows_functional", case=None):
    import importlib

    mod = importlib.import_module(module)
    case = case or getattr(mod, "GOLDEN", "ops26_functional")
    record(mod.ROWS, case, f"tests/ops/{module}.py samples replayed in dygraph")


if __name__ == "__main__":
    main(*sys.argv[1:3])
