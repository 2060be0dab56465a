"""Record tests/goldens/api26.json (and an empty api26.npz): run every case of tests/ops/cases_api26.py on real Paddle 2.6.2.

Run from /tmp with PYTHONPATH unset:  /work/oracle/p26/bin/python <repo>/tools/oracle/rec_api26.py
Each case gives {"value": plain data} or {"raised": exception type name}.
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import REPO, _jsonable, save  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "tests", "ops"))
from cases_api26 import CASES  # noqa: E402

import paddle  # noqa: E402

warnings.filterwarnings("ignore")


def main():
    out = {}
    for name, fn in CASES.items():
        try:
            out[name] = {"value": _jsonable(fn(paddle))}
        except Exception as e:  # noqa: BLE001 - the error is the behaviour recorded
            out[name] = {"raised": type(e).__name__, "message": str(e).splitlines()[0][:200]}
    save("api26", {}, {"paddle_version": paddle.__version__, "program": "tests/ops/cases_api26.py on real Paddle",
                       "cases": out})


if __name__ == "__main__":
    main()
