"""Record the errors of tools/oracle/lvl26_error_cases.py under real Paddle 2.6.2 (tests/goldens/lvl26_errors.json).

    /work/oracle/p26/bin/python tools/oracle/rec_lvl26_errors.py"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paddle  # noqa: E402

from _common import save_json  # noqa: E402
import lvl26_error_cases  # noqa: E402

if __name__ == "__main__":
    paddle.set_device("cpu")
    save_json("lvl26_errors", {"paddle": paddle.__version__, "rows": lvl26_error_cases.run(paddle)})
