"""Static programs as scripts see them (issue 25 item 4), recorded with Paddle 2.6.2: the CASES of
tests/api2x/cases_static26.py -> tests/goldens/static26_programs.* (compared by tests/api2x/test_static26.py).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python <this file>"""
import os
import sys

import numpy.random  # noqa: F401 - before paddle: importing it after paddle 2.6.2 breaks zlib (segfault)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_run18 import main  # noqa: E402

if __name__ == "__main__":
    main("tests/api2x/cases_static26.py", "static26_programs", pass_fluid=False)
