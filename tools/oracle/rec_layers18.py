"""Record tests/fluid/cases_layers18.py (issue 24 item 3: fluid.layers behaviours) with real Paddle 1.8.5 ->
tests/goldens/layers18_cases.{npz,json}, through rec_run18.py's CASES format ("<case>/<key>" arrays).
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_run18 import main  # noqa: E402

if __name__ == "__main__":
    main("tests/fluid/cases_layers18.py", "layers18_cases")
