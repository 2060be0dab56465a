"""Record tests/goldens/ops26_functional.npz: replay every sample of tests/ops/rows_functional.py
(paddle.nn.functional) on real Paddle 2.6.2. Same conventions as rec_ops26.py (whose helpers it reuses).
`rec_ops26_functional.py ROWS_MODULE CASE` records another rows_functional*.py module into tests/goldens/CASE.

Run from /tmp with PYTHONPATH unset:  /work/oracle/p26/bin/python <repo>/tools/oracle/rec_ops26_functional.py
Random rows are recorded with paddle.seed(0) (the tests compare their shapes only).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from rec_ops26 import record  # noqa: E402  (also puts tests/ops on sys.path)



def main(module="rows_functional", case="ops26_functional"):
    import importlib

    rows = importlib.import_module(module).ROWS
    record(rows, case, f"tests/ops/{module}.py samples replayed in dygraph")


if __name__ == "__main__":
    main(*sys.argv[1:3])
