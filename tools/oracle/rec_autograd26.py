"""Record tests/goldens/autograd26 from real Paddle 2.6.2: every case of autograd26_cases.py (paddle.autograd
PyLayer, jacobian / hessian, backward, saved_tensors_hooks). Run with /work/oracle/p26 from /tmp with PYTHONPATH
unset."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy.random  # noqa: E402,F401 - before paddle (its zlib breaks the lazy numpy.random import)
import paddle  # noqa: E402

import autograd26_cases  # noqa: E402
from _common import save  # noqa: E402


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    arrays, meta = {}, {"paddle_version": paddle.__version__, "errors": {}}
    for case in autograd26_cases.CASES:
        try:
            for k, v in case(paddle).items():
                arrays[f"{case.__name__}__{k}"] = v
        except Exception as e:  # noqa: BLE001
            meta["errors"][case.__name__] = f"{type(e).__name__}: {str(e)[:300]}"
    save("autograd26", arrays, meta)


if __name__ == "__main__":
    main()
