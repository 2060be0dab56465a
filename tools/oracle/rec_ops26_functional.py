"""Record tests/goldens/ops26_functional.npz: replay every sample of tests/ops/rows_functional.py
(paddle.nn.functional) on real Paddle 2.6.2. Same conventions as rec_ops26.py (whose helpers it reuses).

Run from /tmp with PYTHONPATH unset:  /work/oracle/p26/bin/python <repo>/tools/oracle/rec_ops26_functional.py
Random rows are recorded with paddle.seed(0) (the tests compare their shapes only).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import save  # noqa: E402
from rec_ops26 import outputs, paddle, resolve, to_paddle  # noqa: E402  (also puts tests/ops on sys.path)

from optable import golden_key  # noqa: E402
import rows_functional  # noqa: E402


def main():
    arrays, failed = {}, {}
    paddle.seed(0)
    for row in rows_functional.ROWS:
        if not row.golden:
            continue
        for s in row.samples(np.random.RandomState(0)):
            try:
                out = resolve(row.api)(*[to_paddle(a) for a in s.args],
                                       **{k: to_paddle(v) for k, v in s.kwargs.items()})
            except Exception as e:  # noqa: BLE001
                failed[f"{row.api}|{s.id}"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                continue
            for i, o in enumerate(outputs(out)):
                arrays[golden_key(row.api, s.id, i)] = o
    for k, v in sorted(failed.items()):
        print("FAILED", k, v)
    save("ops26_functional", arrays, {"paddle_version": paddle.__version__, "failed": failed,
                                      "program": "tests/ops/rows_functional.py samples replayed in dygraph"})


if __name__ == "__main__":
    main()
