"""fluid.contrib.mixed_precision.decorate's loss scaling with Paddle 1.8.5: dynamic scaling over steps with finite
and inf gradients (increase after incr_every_n_steps good steps, decrease after decr_every_n_nan_or_inf bad ones,
not below 1, skipped updates), and static scaling. The white list is emptied (custom_black_list) because Paddle
1.8.5 has no float16 CPU kernels. Shared by tools/oracle/rec_run18.py (golden fluid18_amp) and
tests/fluid/test_amp18.py; numpy only."""

import numpy as np

rs = np.random.RandomState(1898)
W = rs.randn(4, 3).astype("float32")
XS = [rs.randn(2, 4).astype("float32") for _ in range(9)]
for _i in (3, 4, 7):
    XS[_i][0, 0] = np.inf  # inf / nan gradients


def run(fluid):
    res = {}
    for name, kw in (("dynamic", dict(init_loss_scaling=8.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=2,
                                      incr_ratio=2.0, decr_ratio=0.125)),
                     ("dynamic_floor", dict(init_loss_scaling=2.0, incr_every_n_steps=10, decr_every_n_nan_or_inf=1,
                                            decr_ratio=0.25)),
                     ("static", dict(init_loss_scaling=4.0, use_dynamic_loss_scaling=False))):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            x = fluid.data("x", [-1, 4], "float32")
            y = fluid.layers.fc(x, 3, act="relu", param_attr=fluid.ParamAttr(
                initializer=fluid.initializer.NumpyArrayInitializer(W)))
            loss = fluid.layers.mean(y)
            lists = fluid.contrib.mixed_precision.AutoMixedPrecisionLists(custom_black_list=["mul"])
            opt = fluid.contrib.mixed_precision.decorate(fluid.optimizer.SGD(0.1), amp_lists=lists, **kw)
            opt.minimize(loss)
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            for i, xv in enumerate(XS if name != "static" else XS[:3]):
                exe.run(main, feed={"x": xv}, fetch_list=[loss])
                res[f"{name}|step{i}|scaling"] = np.array(scope.find_var(opt.get_loss_scaling().name).get_tensor())
                res[f"{name}|step{i}|w"] = np.array(scope.find_var("fc_0.w_0").get_tensor())
    return res
