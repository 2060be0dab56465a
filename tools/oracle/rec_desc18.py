"""Record tests/fluid/cases_desc18.py (issue 24 item 3: Program.desc round trips) with real Paddle 1.8.5 ->
tests/goldens/desc18_programs.{npz,json}. Write our bytes first (tools/oracle/desc18_ours.py, our venv), so the
golden also holds how 1.8.5 parses them.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_run18 import main  # noqa: E402

if __name__ == "__main__":
    main("tests/fluid/cases_desc18.py", "desc18_programs")
