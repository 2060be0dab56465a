"""Record the LoD of fetched variables with real Paddle 1.8.5 -> tests/goldens/fluid18_fetch_lod.{npz,json}.
Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
import cases18_fetch_lod as C
import paddle
from _common import save
from paddle import fluid


def main():
    main_p, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main_p, startup):
        outs = C.build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    res = exe.run(main_p, feed=C.feed(fluid), fetch_list=list(outs.values()), return_numpy=False)
    meta = {"paddle_version": paddle.__version__, "program": "tests/fluid/cases18_fetch_lod.py",
            "lod": {k: r.lod() for k, r in zip(outs, res)}, "shape": {k: list(np.array(r).shape) for k, r in zip(outs, res)}}
    save("fluid18_fetch_lod", {}, meta)  # values depend on the random initialisation: only LoD and shapes


if __name__ == "__main__":
    main()
