"""fluid.contrib.match_matrix_tensor (two channels, tanh and no activation, sequences of different lengths): out,
its LoD, tmp and the parameter name; sequence_topk_avg_pooling of its output (k beyond the column count too); var_conv_2d over it as 2-channel
images (odd kernel; even kernel with stride 2, tanh) and its gradients. Shared by tools/oracle/rec_run18.py (golden fluid18_contrib_text) and
tests/fluid/test_contrib_text18.py; numpy only. (1.8.5's CPU grad kernel of this op segfaults: no gradient golden.)"""

import numpy as np

rs = np.random.RandomState(1885)
X = rs.randn(5, 3).astype("float32")
Y = rs.randn(4, 3).astype("float32")
W = (np.arange(18, dtype="float32").reshape(3, 2, 3) / 20 - 0.4)
F1 = rs.randn(3, 18).astype("float32")
F2 = rs.randn(2, 12).astype("float32")
IMG = rs.randn(2 * (6 + 12), 1).astype("float32")


def image_and_sizes(fluid):
    """LoD data variables: m (the images' values, needing a gradient), r and c (their row and column counts)."""
    m = fluid.layers.data("m", [1], lod_level=1)
    m.stop_gradient = False
    return m, fluid.layers.data("r", [1], lod_level=1), fluid.layers.data("c", [1], lod_level=1)


def _conv_grad(fluid):
    """var_conv_2d's gradients to its input and filter (sum of squares, even kernel, stride 2 by 1)."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        m, r, c = image_and_sizes(fluid)
        out = fluid.contrib.var_conv_2d(m, r, c, 2, 2, [2, 3], stride=[2, 1], param_attr=fluid.ParamAttr(
            name="vw", initializer=fluid.initializer.NumpyArrayInitializer(F2)))
        grads = fluid.gradients(fluid.layers.reduce_sum(out * out), [m, main.global_block().var("vw")])
    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    feed = {"m": fluid.create_lod_tensor(IMG, [[12, 24]], place),
            "r": fluid.create_lod_tensor(np.zeros((5, 1), "float32"), [[2, 3]], place),
            "c": fluid.create_lod_tensor(np.zeros((7, 1), "float32"), [[3, 4]], place)}
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        got = exe.run(main, feed=feed, fetch_list=[out] + grads, return_numpy=False)
    return {f"conv_grad|{k}": np.array(t) for k, t in zip(("out", "d_input", "d_filter"), got)}


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
        init = fluid.initializer.NumpyArrayInitializer
        outs += [fluid.contrib.var_conv_2d(outs[0], x, y, 2, 3, 3, param_attr=fluid.ParamAttr(initializer=init(F1))),
                 fluid.contrib.var_conv_2d(outs[2], x, y, 2, 2, [2, 3], stride=[2, 1], act="tanh",
                                           param_attr=fluid.ParamAttr(initializer=init(F2)))]
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
    res["conv|lod0"] = np.array(got[6].lod()[0], "int64")
    res["conv|lod1"] = np.array(got[7].lod()[0], "int64")
    res.update(_conv_grad(fluid))
    return res, {"names": [p.name for p in main.global_block().all_parameters()]}
