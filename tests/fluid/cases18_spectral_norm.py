"""fluid.layers.spectral_norm with fixed U / V (set in the scope after the startup program), its output and the
weight's gradient, for dims 0 and 1 (all Paddle 1.8.5 accepts) and 1, 3 or 4 power iterations. Shared by tools/oracle/rec_run18.py and
tests/fluid/test_spectral_norm18.py."""

import numpy as np


def run(fluid):
    rs = np.random.RandomState(21)
    ws = rs.randn(4, 3, 2).astype("float32")
    res = {}
    for dim, iters in ((0, 1), (1, 3), (0, 4)):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            w = fluid.data("w", [4, 3, 2], "float32")
            w.stop_gradient = False
            out = fluid.layers.spectral_norm(w, dim=dim, power_iters=iters)
            loss = fluid.layers.reduce_sum(fluid.layers.square(out))
            (g,) = fluid.backward.gradients([loss], [w])
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            for name, n in (("spectral_norm_0.w_0", ws.shape[dim]), ("spectral_norm_0.w_1", ws.size // ws.shape[dim])):
                scope.find_var(name).get_tensor().set(rs.randn(n).astype("float32"), fluid.CPUPlace())
            o, gv = exe.run(main, feed={"w": ws}, fetch_list=[out, g])
        res[f"dim{dim}_iters{iters}_out"], res[f"dim{dim}_iters{iters}_grad"] = np.array(o), np.array(gv)
    return res
