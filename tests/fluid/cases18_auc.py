"""fluid.layers.auc over five batches, with sliding windows of 1 and 3 batches: every run's global AUC, window AUC
and the four persistable histograms. Shared by tools/oracle/rec_run18.py and tests/fluid/test_auc18.py."""

import numpy as np


def run(fluid):
    """-> {"s<slide>_step<k>_out<i>": array}; out0 auc, out1 batch auc, out2..5 the histograms."""
    rs = np.random.RandomState(3)
    res = {}
    for slide in (1, 3):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            p = fluid.data("p", [None, 2], "float32")
            lab = fluid.data("l", [None, 1], "int64")
            a, ba, stats = fluid.layers.auc(p, lab, num_thresholds=50, slide_steps=slide)
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            for step in range(5):
                pr = rs.rand(6, 1).astype("float32")
                feed = {"p": np.concatenate([1 - pr, pr], 1), "l": (rs.rand(6, 1) < pr).astype("int64")}
                for i, o in enumerate(exe.run(main, feed=feed, fetch_list=[a, ba] + stats)):
                    res[f"s{slide}_step{step}_out{i}"] = np.array(o)
    return res
