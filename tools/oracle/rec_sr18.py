"""Record tests/fluid/cases_sr18.py (issue 24 item 3: SelectedRows gradients, merge_selected_rows,
get_tensor_from_selected_rows) with real Paddle 1.8.5 -> tests/goldens/sr18_selected_rows.{npz,json}.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rec_run18 import main  # noqa: E402

if __name__ == "__main__":
    main("tests/fluid/cases_sr18.py", "sr18_selected_rows")
