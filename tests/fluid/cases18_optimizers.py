"""fluid.optimizer Ftrl, LarsMomentum, Dpsgd, RecomputeOptimizer, LookaheadOptimizer, ModelAverage and
ExponentialMovingAverage training a small MLP from fixed parameters: the loss and every parameter after each
step, and for ModelAverage / EMA the parameters inside apply() and after restore(). Shared by
tools/oracle/rec_run18.py (golden fluid18_optimizers) and tests/fluid/test_optimizers18.py; numpy only."""

import numpy as np

rs = np.random.RandomState(1808)
X = rs.randn(6, 4).astype("float32")
Y = rs.randn(6, 2).astype("float32")
W = {"fc_0.w_0": rs.randn(4, 3).astype("float32") * 0.5, "fc_0.b_0": rs.randn(3).astype("float32") * 0.1,
     "fc_1.w_0": rs.randn(3, 2).astype("float32") * 0.5, "fc_1.b_0": rs.randn(2).astype("float32") * 0.1}


def _net(fluid):
    x = fluid.data("x", [-1, 4], "float32")
    y = fluid.data("y", [-1, 2], "float32")
    h = fluid.layers.fc(x, 3, act="tanh")
    out = fluid.layers.fc(h, 2)
    return fluid.layers.reduce_mean(fluid.layers.square(out - y))


def _opts(fluid):
    O = fluid.optimizer
    return {
        "ftrl": lambda: O.Ftrl(0.1, l1=0.01, l2=0.2),
        "ftrl_power": lambda: O.FtrlOptimizer(0.05, l1=0.0, lr_power=-0.6),
        "lars": lambda: O.LarsMomentum(0.1, 0.9, lars_coeff=0.01, lars_weight_decay=0.001),
        "dpsgd": lambda: O.Dpsgd(0.1, clip=0.5, batch_size=4.0),
        "recompute": lambda: O.RecomputeOptimizer(O.SGD(0.1)),
        "lookahead": lambda: O.LookaheadOptimizer(O.SGD(0.1), alpha=0.4, k=2),
        "model_average": lambda: O.SGD(0.2),
        "ema": lambda: O.SGD(0.2),
        "ema_thres": lambda: O.Momentum(0.1, 0.5),
    }


def _case(fluid, name, make, steps=5):
    res = {}
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        loss = _net(fluid)
        opt = make()
        if name == "recompute":
            opt._set_checkpoints([main.global_block().var("fc_0.tmp_2")])
        opt.minimize(loss)
        extra = None
        if name == "model_average":
            extra = fluid.optimizer.ModelAverage(0.5, min_average_window=2, max_average_window=3)
        elif name.startswith("ema"):
            thres = None
            if name == "ema_thres":
                thres = fluid.layers.autoincreased_step_counter("@THRES@")
            extra = fluid.optimizer.ExponentialMovingAverage(0.8, thres_steps=thres)
            extra.update()
    names = sorted(W)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for n in names:
            scope.find_var(n).get_tensor().set(W[n], fluid.CPUPlace())
            if name == "lookahead":  # the startup program copied the random initial values: the slow weights too
                scope.find_var(n + "@SLOW").get_tensor().set(W[n], fluid.CPUPlace())
        for i in range(steps):
            outs = exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss] + names)
            res[f"{name}|step{i}|loss"] = np.array(outs[0])
            for n, v in zip(names, outs[1:]):
                res[f"{name}|step{i}|{n}"] = np.array(v)
        if extra is not None:
            with extra.apply(exe):
                for n in names:
                    res[f"{name}|applied|{n}"] = np.array(scope.find_var(n).get_tensor())
            for n in names:
                res[f"{name}|restored|{n}"] = np.array(scope.find_var(n).get_tensor())
    return res


def run(fluid):
    res = {}
    for name, make in sorted(_opts(fluid).items()):
        res.update(_case(fluid, name, make))
    return res
