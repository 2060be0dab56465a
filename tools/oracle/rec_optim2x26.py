"""Record tests/goldens/optim2x26 from real Paddle 2.6.2: the LinearLR / CosineAnnealingWarmRestarts schedules
(stepped, and stepped with explicit epochs) and LBFGS runs (with and without the strong-Wolfe line search) of
optim2x26_cases.py. Run with /work/oracle/p26 from /tmp with PYTHONPATH unset."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy.random  # noqa: E402,F401 - before paddle (its zlib breaks the lazy numpy.random import)
import paddle  # noqa: E402

import optim2x26_cases as C  # noqa: E402
from _common import save  # noqa: E402


def main():
    paddle.disable_static()
    arrays = {}
    for cid, fn in C.CASES.items():
        for k, v in fn(paddle).items():
            arrays[f"{cid}__{k}"] = v
    save("optim2x26", arrays, {"paddle_version": paddle.__version__})


if __name__ == "__main__":
    main()
