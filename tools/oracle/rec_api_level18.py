"""Record tools/oracle/api_level18_cases.py on real Paddle 1.8.5 -> tests/goldens/api_level18.{npz,json}.

Run with /work/oracle/p18 from /tmp with PYTHONPATH unset:  rec_api_level18.py"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paddle  # noqa: E402

from _common import save  # noqa: E402
from api_level18_cases import CASES  # noqa: E402


def main():
    arrays, meta = {}, {"paddle_version": paddle.__version__, "cases_module": "api_level18_cases", "errors": {}}
    for case in CASES:
        try:
            for k, v in case(paddle).items():
                arrays["%s__%s" % (case.__name__, k)] = v
        except Exception as e:  # noqa: BLE001
            meta["errors"][case.__name__] = "%s: %s" % (type(e).__name__, str(e)[:300])
    save("api_level18", arrays, meta)


if __name__ == "__main__":
    main()
