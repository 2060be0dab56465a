"""Record a golden from real Paddle 2.6.2 by running the cases of a cases module: functions written once over the
public API, each taking the `paddle` module and returning {name: array} (autograd26_cases.py, optim2x26_cases.py,
incubate26_cases.py); tests/api2x replays them on paddle_compat. A case that raises is recorded in the meta.

Run with /work/oracle/p26 from /tmp with PYTHONPATH unset:  rec_cases26.py CASES_MODULE GOLDEN"""
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy.random  # noqa: E402,F401 - before paddle (its zlib breaks the lazy numpy.random import)
import paddle  # noqa: E402

from _common import save  # noqa: E402


def main(module, golden):
    paddle.disable_static()
    paddle.set_device("cpu")
    cases = importlib.import_module(module).CASES
    arrays, meta = {}, {"paddle_version": paddle.__version__, "cases_module": module, "errors": {}}
    for case in cases:
        try:
            for k, v in case(paddle).items():
                arrays[f"{case.__name__}__{k}"] = v
        except Exception as e:  # noqa: BLE001
            meta["errors"][case.__name__] = f"{type(e).__name__}: {str(e)[:300]}"
    save(golden, arrays, meta)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
