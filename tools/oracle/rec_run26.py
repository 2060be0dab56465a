"""rec_run18.py for Paddle 2.6.2: the case module's run(paddle) (e.g. tests/fluid/cases26_optimizers.py).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python <this file> <module in tests/fluid> <golden>"""
import os
import sys

import numpy.random  # noqa: F401 - before paddle: importing it after paddle 2.6.2 breaks zlib (segfault)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_run18 import main  # noqa: E402

if __name__ == "__main__":
    main(*sys.argv[1:3], pass_fluid=False)
