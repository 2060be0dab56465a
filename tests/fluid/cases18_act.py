"""fluid.layers.hard_swish / hard_sigmoid (with their default and other attributes) and fc(act=...) strings: the
outputs, the op types in the program, and the gradients, on inputs that hit the kinks exactly. Shared by
tools/oracle/rec_run18.py (golden fluid18_act) and tests/fluid/test_act18.py."""

import numpy as np


def _inputs():
    x = np.random.RandomState(0).randn(997).astype("float32") * 4
    kinks = [-6, -3, -2.9999998, -1.5, 0, 0.5, 2.9999998, 3, 3.0000002, 6, 6.0000005]
    return np.concatenate([x, np.array(kinks, "float32")])


LAYERS = {
    "hard_swish": lambda L, v: L.hard_swish(v),
    "hard_swish_attrs": lambda L, v: L.hard_swish(v, threshold=4.0, scale=5.0, offset=2.0),
    "hard_sigmoid": lambda L, v: L.hard_sigmoid(v),
    "hard_sigmoid_attrs": lambda L, v: L.hard_sigmoid(v, slope=0.5, offset=1.5),
}


def run(fluid):
    """-> {"<layer>_out", "<layer>_dx": array, "<layer>_ops": the op types as one string's bytes}"""
    x = _inputs()
    g = np.random.RandomState(1).randn(x.size).astype("float32")
    res = {}
    for name, fn in LAYERS.items():
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            xv = fluid.layers.data("x", [x.size], append_batch_size=False, stop_gradient=False)
            gv = fluid.layers.data("g", [x.size], append_batch_size=False)
            y = fn(fluid.layers, xv)
            forward_ops = [op.type for op in main.global_block().ops]
            dx = fluid.gradients([fluid.layers.reduce_sum(y * gv)], [xv])[0]
        exe = fluid.Executor(fluid.CPUPlace())
        out, grad = exe.run(main, feed={"x": x, "g": g}, fetch_list=[y, dx])
        res[f"{name}_out"], res[f"{name}_dx"] = np.asarray(out), np.asarray(grad)
        res[f"{name}_ops"] = np.frombuffer(" ".join(forward_ops).encode(), dtype=np.uint8)
    return res
