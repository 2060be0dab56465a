"""fluid.layers.data_norm (plain / slot_dim / scale-and-shift; output, the statistics' pseudo-gradients, trained
by SGD over two runs) and fluid.layers.nce (uniform / log_uniform / custom_dist samplers with a fixed seed,
with and without bias and sample weights; cost and parameter gradients; two SGD runs). Shared by
tools/oracle/rec_run18.py (golden fluid18_dn_nce) and tests/fluid/test_dn_nce18.py; numpy only."""

import numpy as np

rs = np.random.RandomState(1858)
X_DN = rs.randn(5, 4).astype("float32")
X_DN[0, 0:2] = 0.0
X_DN[3, 2] = 0.0
X_DN[:, 3] *= 3.0
WEIGHTS = np.arange(20, dtype="float32").reshape(5, 4) / 10.0
X_NCE = rs.randn(6, 4).astype("float32")
LBL = rs.randint(0, 9, (6, 1)).astype("int64")
LBL2 = rs.randint(0, 9, (6, 2)).astype("int64")
W_NCE = rs.randn(9, 4).astype("float32")
B_NCE = rs.randn(9, 1).astype("float32")
SW = rs.rand(6, 1).astype("float32") + 0.5
DIST = [0.05, 0.1, 0.2, 0.05, 0.2, 0.1, 0.1, 0.15, 0.05]


def _run(fluid, build, feed, fetch_names, steps=2):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        outs, loss, x = build(fluid)
        (gx,) = fluid.backward.gradients([loss], [x])
        fluid.optimizer.SGD(0.05).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    res = []
    with fluid.scope_guard(scope):
        exe.run(startup)
        for _ in range(steps):
            res.append(exe.run(main, feed=feed, fetch_list=outs + [gx] + fetch_names))
    return res


def _data_norm(fluid):
    res = {}
    cases = {
        "plain": dict(epsilon=1e-4),
        "dict_init": dict(param_attr={"batch_size": 5.0, "batch_sum": 1.0, "batch_square": 8.0}),
        "slot": dict(slot_dim=2, param_attr={"batch_size": 5.0, "batch_sum": 1.0, "batch_square": 8.0}),
        "slot_shift": dict(slot_dim=2, enable_scale_and_shift=True,
                           param_attr={"batch_size": 5.0, "batch_sum": 1.0, "batch_square": 8.0, "scale_w": 1.5,
                                       "bias": 0.25}),
        "shift_act": dict(enable_scale_and_shift=True, act="relu", name="dn2",
                          param_attr={"batch_size": 3.0, "batch_sum": 0.0, "batch_square": 2.0, "scale_w": 0.5,
                                      "bias": -0.1}),
    }
    for name, kw in cases.items():
        prefix = kw.get("name", "dn")
        stats = ["batch_size", "batch_sum", "batch_square_sum"] + (
            ["scale_w", "bias"] if kw.get("enable_scale_and_shift") else [])
        fetch = [f"{prefix}.{s}" for s in stats] + [f"{prefix}.{s}@GRAD" for s in stats]

        def build(F, kw=kw):
            x = F.data("x", [-1, 4], "float32")
            x.stop_gradient = False
            y = F.layers.data_norm(x, **kw)
            w = F.layers.assign(WEIGHTS)
            return [y], F.layers.reduce_sum(F.layers.elementwise_mul(F.layers.square(y), w)), x

        for i, outs in enumerate(_run(fluid, build, {"x": X_DN}, fetch)):
            for j, o in enumerate(outs):
                res[f"dn_{name}|run{i}|out{j}"] = np.array(o)
    return res


def _nce(fluid):
    res = {}
    cases = {
        "uniform": dict(sampler="uniform", seed=7),
        "uniform_nobias_weight": dict(sampler="uniform", seed=3, bias_attr=False, sample_weight=True),
        "log_uniform": dict(sampler="log_uniform", seed=21, num_neg_samples=4),
        "custom": dict(sampler="custom_dist", custom_dist=DIST, seed=5, num_neg_samples=3),
        "two_labels": dict(sampler="log_uniform", seed=9, num_neg_samples=2, labels=2),
    }
    for name, kw in cases.items():
        kw = dict(kw)
        two = kw.pop("labels", 1) == 2
        use_sw = kw.pop("sample_weight", False)
        fetch = ["nce_0.w_0", "nce_0.w_0@GRAD"] + ([] if kw.get("bias_attr") is False else ["nce_0.b_0@GRAD"])

        def build(F, kw=kw, two=two, use_sw=use_sw):
            x = F.data("x", [-1, 4], "float32")
            x.stop_gradient = False
            y = F.data("y", [-1, 2 if two else 1], "int64")
            sw = F.data("sw", [-1, 1], "float32") if use_sw else None
            pa = F.ParamAttr(initializer=F.initializer.NumpyArrayInitializer(W_NCE))
            ba = kw.pop("bias_attr", F.ParamAttr(initializer=F.initializer.NumpyArrayInitializer(B_NCE)))
            cost = F.layers.nce(x, y, 9, sample_weight=sw, param_attr=pa, bias_attr=ba, **kw)
            return [cost], F.layers.mean(cost), x

        feed = {"x": X_NCE, "y": LBL2 if two else LBL}
        if use_sw:
            feed["sw"] = SW
        for i, outs in enumerate(_run(fluid, build, feed, fetch)):
            for j, o in enumerate(outs):
                res[f"nce_{name}|run{i}|out{j}"] = np.array(o)
    return res


def run(fluid):
    res = _data_norm(fluid)
    res.update(_nce(fluid))
    return res
