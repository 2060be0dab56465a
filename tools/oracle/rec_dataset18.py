"""Record Paddle 1.8.5's fluid.dataset + Executor.train_from_dataset behaviour on tests/data/dataset_cases.py
-> tests/goldens/dataset18.json. Runs under the 1.8.5 venv:
    cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python -s <repo>/tools/oracle/rec_dataset18.py"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data"))
from _common import save_json  # noqa: E402

import dataset_cases  # noqa: E402
import paddle.fluid as fluid  # noqa: E402


def capture(fn):
    """What fn prints to file descriptor 1 (Paddle's C++ workers write there)."""
    sys.stdout.flush()
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(1)
        os.dup2(tmp.fileno(), 1)
        try:
            fn()
            sys.stdout.flush()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode()


def main():
    out = dataset_cases.cases(fluid, tempfile.mkdtemp(), capture)
    save_json("dataset18", out)


if __name__ == "__main__":
    main()
