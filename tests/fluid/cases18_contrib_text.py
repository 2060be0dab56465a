"""fluid.contrib.match_matrix_tensor (two channels, tanh and no activation, sequences of different lengths): out,
its LoD, tmp and the parameter name; sequence_topk_avg_pooling of its output (k beyond the column count too). Shared by tools/oracle/rec_run18.py (golden fluid18_contrib_text) and
tests/fluid/test_contrib_text18.py; numpy only. (1.8.5's CPU grad kernel of this op segfaults: no gradient golden.)"""

import numpy as np

rs = np.random.RandomState(1885)
X = rs.randn(5, 3).astype("float32")
Y = rs.randn(4, 3).astype("float32")
W = (np.arange(18, dtype="float32").reshape(3, 2, 3) / 20 - 0.4)


def run(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data("x", [3], lod_level=1)
        y = fluid.layers.data("y", [3], lod_level=1)
        outs = []
        for act in ("tanh", None):
            outs += fluid.contrib.match_matrix_tensor(
                x, y, 2, act=act, param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(W)))
        outs += [fluid.contrib.sequence_topk_avg_pooling(outs[0], x, y, [1, 2, 5], 2),
                 fluid.contrib.sequence_topk_avg_pooling(outs[2], x, y, [3], 2)]
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        place = fluid.CPUPlace()
        got = exe.run(main, feed={"x": fluid.create_lod_tensor(X, [[2, 3]], place),
                                  "y": fluid.create_lod_tensor(Y, [[1, 3]], place)},
                      fetch_list=outs, return_numpy=False)
    res = {f"mm|out{j}": np.array(o) for j, o in enumerate(got)}
    res["mm|lod"] = np.array(got[0].lod()[0], "int64")
    res["topk|lod"] = np.array(got[4].lod()[0], "int64")
    return res, {"names": [p.name for p in main.global_block().all_parameters()]}
