"""Record tools/oracle/fleet_cases.py from real Paddle into tests/goldens/<golden>.json.

Run from /tmp with PYTHONPATH unset:  /work/oracle/p18/bin/python -s rec_fleet.py fleet18
                                      /work/oracle/p26b/bin/python -s rec_fleet.py fleet26
(2.6.2's DistributedStrategy needs protobuf 3.20.x to read its *_configs: p26b is p26 with protobuf==3.20.3.)"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy.random  # noqa: E402,F401 - before paddle
import paddle  # noqa: E402

import fleet_cases  # noqa: E402
from _common import GOLDEN_DIR, _jsonable  # noqa: E402


def main(golden):
    cases = fleet_cases.CASES18 if golden == "fleet18" else fleet_cases.CASES26
    out = {"paddle_version": paddle.__version__, "cases": {}}
    for case in cases:
        out["cases"][case.__name__] = _jsonable(case(paddle))
    with open(os.path.join(GOLDEN_DIR, golden + ".json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", golden)


if __name__ == "__main__":
    main(sys.argv[1])
