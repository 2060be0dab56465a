"""Record fluid.layers.generate_mask_labels with real Paddle 1.8.5 -> tests/goldens/fluid18_dettrain_masks.{npz,json}.
The cases (MASK_CASES in tests/fluid/cases18_dettrain.py) feed gt_segms with 3 LoD levels, which the shared case
table (rec_fluid18_layers.py) cannot. Run: cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python <this file>"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fluid"))
import cases18_dettrain as C
import paddle
from _common import save
from paddle import fluid


def main():
    arrays, meta = {}, {"paddle_version": paddle.__version__, "program": "tests/fluid/cases18_dettrain.py MASK_CASES",
                        "lods": {}, "errors": {}}
    for name, (feed, ncls, res) in sorted(C.MASK_CASES.items()):
        prog, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(prog, startup):
            v = {n: fluid.layers.data(n, s, dtype=dt, lod_level=ll, append_batch_size=False)
                 for n, s, dt, ll in C.MASK_DATA}
            outs = C.mask_build(fluid.layers, v, ncls, res)
        exe = fluid.Executor(fluid.CPUPlace())
        fd = {n: fluid.create_lod_tensor(a, lens, fluid.CPUPlace()) if lens is not None else a
              for n, (a, lens) in feed.items()}
        res_ = exe.run(prog, feed=fd, fetch_list=outs, return_numpy=False)
        for i, r in enumerate(res_):
            arrays["%s|out%d" % (name, i)] = np.array(r)
            meta["lods"]["%s|out%d" % (name, i)] = r.lod()
    save("fluid18_dettrain_masks", arrays, meta)


if __name__ == "__main__":
    main()
