"""`paddle.fluid` keeps Paddle 1.8's shapes at every API level (docs/api_levels.md): scalar results are shape [1].
Cases written once over the fluid API (each takes the `paddle` module, returns {name: array}); recorded on real
Paddle 1.8.5 by tools/oracle/rec_api_level18.py -> tests/goldens/api_level18; tests/api_level/test_level26.py
replays them on paddle_compat at level 2.4 and 2.6 (the same shapes at both). Python 3.8, numpy only."""
import numpy as np

X = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
LBL = np.array([[0], [1]], "int64")


def _a(t):
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def fluid_dygraph(paddle):
    fluid = paddle.fluid
    L = fluid.layers
    out = {}
    with fluid.dygraph.guard(fluid.CPUPlace()):
        x = fluid.dygraph.to_variable(X)
        lbl = fluid.dygraph.to_variable(LBL)
        for n in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "mean"):
            out[n] = _a(getattr(L, n)(x))
        out["reduce_sum_twice"] = _a(L.reduce_sum(L.reduce_sum(x, dim=0), dim=0))
        out["reduce_all"] = _a(L.reduce_all(L.cast(x, "bool")))
        out["accuracy"] = _a(L.accuracy(L.softmax(x), lbl))
        out["ce_mean"] = _a(L.mean(L.cross_entropy(L.softmax(x), lbl)))
        out["x0"] = _a(x[0])
        out["fill_constant"] = _a(L.fill_constant([1], "float32", 2.0))
    return out


def fluid_static(paddle):
    fluid = paddle.fluid
    L = fluid.layers
    main, start = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, start):
        d = L.data("d", shape=[3], dtype="float32")
        lbl = L.data("lbl", shape=[1], dtype="int64")
        fc = L.fc(d, size=2, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)))
        loss = L.mean(L.cross_entropy(L.softmax(fc), lbl))
        acc = L.accuracy(L.softmax(fc), lbl)
        s = L.reduce_sum(d)
        mx = L.reduce_max(d)
        ranks = [len(v.shape) for v in (loss, acc, s, mx)]
        fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(start)
    feed = {"d": np.arange(6, dtype="float32").reshape(2, 3) / 6, "lbl": np.array([[0], [1]], "int64")}
    r = exe.run(main, feed=feed, fetch_list=[loss, acc, s, mx])
    out = {f"fetch{k}": np.asarray(a) for k, a in enumerate(r)}
    out["var_ranks"] = np.array(ranks)
    return out


CASES = [fluid_dygraph, fluid_static]
