"""fluid.layers.pool2d / conv2d with windows larger than their input (issue 24's GoogLeNet case: pool_size=7,
pool_stride=7 on a 6x6 map), as Paddle 1.8.5 computes them: the output size in C integer division, the window
clipped to the input (pool) or reading zeros (conv). `CASES[name](fluid)` builds a static program and returns the
output and the gradients of sum(out * w) (w = 1, 2, 3, ...) for the input (and the filter); a configuration
Paddle refuses returns {"raised": True}. Recorded by tools/oracle/rec_run18.py into
tests/goldens/windows26_fluid18.*, replayed by tests/nn/test_windows26.py; numpy only.

NOTE: exclusive=False is left out: Paddle 1.8.5 divides by pool_size**2 whatever the clipping (2.6 divides by the
window clipped to the padded input); that divisor is the fluid pool2d exclusive=False work of issue 11.
"""

import numpy as np

TABLE = [
    ("pool2d_avg_k7s7_6x6", (1, 2, 6, 6), dict(pool_size=7, pool_stride=7, pool_type="avg"), None),
    ("pool2d_max_k7s7_6x6", (1, 2, 6, 6), dict(pool_size=7, pool_stride=7, pool_type="max"), None),
    ("pool2d_max_k7s1_6x6", (1, 2, 6, 6), dict(pool_size=7, pool_stride=1, pool_type="max"), None),
    ("pool2d_avg_k3s2_2x2", (2, 2, 2, 2), dict(pool_size=3, pool_stride=2, pool_type="avg"), None),
    ("pool2d_max_k3s2_2x2_p1", (1, 2, 2, 2), dict(pool_size=3, pool_stride=2, pool_type="max", pool_padding=1),
     None),
    ("pool2d_avg_k5s2_2x2_p1", (1, 2, 2, 2), dict(pool_size=5, pool_stride=2, pool_type="avg", pool_padding=1),
     None),
    ("pool2d_avg_k3s2_2x2_ceil", (1, 2, 2, 2), dict(pool_size=3, pool_stride=2, pool_type="avg", ceil_mode=True),
     None),
    ("pool2d_max_k3s2_2x2_ceil", (1, 2, 2, 2), dict(pool_size=3, pool_stride=2, pool_type="max", ceil_mode=True),
     None),
    ("pool2d_max_k3s2_2x3_nhwc", (1, 2, 3, 2), dict(pool_size=3, pool_stride=2, pool_type="max",
                                                    data_format="NHWC"), None),
    ("conv2d_k3s2_2x2", (1, 2, 2, 2), dict(num_filters=3, filter_size=3, stride=2), (3, 2, 3, 3)),
    ("conv2d_k3s2_2x3_p1", (1, 2, 2, 3), dict(num_filters=2, filter_size=5, stride=3, padding=1), (2, 2, 5, 5)),
    ("conv2d_k3s2_2x2_groups", (1, 4, 2, 2), dict(num_filters=4, filter_size=3, stride=2, groups=2), (4, 2, 3, 3)),
    ("conv2d_k3s1_2x2", (1, 2, 2, 2), dict(num_filters=3, filter_size=3, stride=1), (3, 2, 3, 3)),
]


def _case(x_shape, kwargs, w_shape, seed):
    def run(fluid):
        rs = np.random.RandomState(seed)
        xv = rs.rand(*x_shape).astype("float32")
        main, startup = fluid.Program(), fluid.Program()
        try:
            with fluid.program_guard(main, startup), fluid.unique_name.guard():
                x = fluid.data("x", list(x_shape), "float32")
                x.stop_gradient = False
                if w_shape is None:
                    y = fluid.layers.pool2d(x, **kwargs)
                else:
                    init = fluid.initializer.NumpyArrayInitializer(rs.rand(*w_shape).astype("float32") - 0.5)
                    y = fluid.layers.conv2d(x, param_attr=fluid.ParamAttr(name="w", initializer=init),
                                            bias_attr=False, **kwargs)
                wts = fluid.data("wts", list(y.shape), "float32")
                wrt = [x] + ([main.global_block().var("w")] if w_shape is not None else [])
                grads = fluid.gradients(fluid.layers.reduce_sum(y * wts), wrt)
        except Exception:  # noqa: BLE001 - Paddle refuses the configuration (output size below 1)
            return {"raised": np.array(True)}
        exe = fluid.Executor(fluid.CPUPlace())
        scope = fluid.Scope()
        fetch = [y] + list(grads)
        with fluid.scope_guard(scope):
            exe.run(startup)
            wv = np.arange(1, int(np.prod(y.shape)) + 1, dtype="float32").reshape(y.shape)
            got = exe.run(main, feed={"x": xv, "wts": wv}, fetch_list=fetch)
        return dict(zip(["out", "x_grad", "w_grad"], [np.array(g) for g in got]))

    return run


CASES = {name: _case(shape, kw, w, 200 + i) for i, (name, shape, kw, w) in enumerate(TABLE)}
