"""Record Paddle 1.8.5's DataFeeder / PyReader / py_reader queue / from_generator(iterable=False) behaviour on
the cases of tests/data/feed_cases.py -> tests/goldens/feed18.json. Runs under the 1.8.5 venv:
    cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python -s <repo>/tools/oracle/rec_feed18.py"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data"))
from _common import save_json  # noqa: E402

import feed_cases  # noqa: E402
import paddle.fluid as fluid  # noqa: E402


def main():
    out = {"feeder": feed_cases.feeder_cases(fluid), "readers": feed_cases.reader_cases(fluid)}
    save_json("feed18", out)


if __name__ == "__main__":
    main()
