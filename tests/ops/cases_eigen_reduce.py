"""Full sums and means of float32 / float64 CPU tensors, to the last bit (engine/core/eigen_reduce.py): sizes around the
AVX packet (8 floats, 4 doubles), two-packet pairs, Eigen's 1024-packet tree leaves and uneven tree splits, in
dygraph and in a static program. `run(paddle)` is recorded on 2.6.2 (sum and mean), `run(fluid)` on 1.8.5 (the
means: fluid.layers.mean and reduce_mean; 1.8's reduce_sum has no tree and ours follows 2.x's). Shared by
tools/oracle/rec_run26.py / rec_run18.py and tests/ops/test_eigen_reduce.py."""

import numpy as np

SIZES = {"float32": (1, 5, 8, 9, 16, 17, 24, 100, 1000, 8191, 8192, 8193, 8200, 16384, 16392, 24577, 65539, 100003,
                     1000003),
         "float64": (1, 3, 4, 7, 12, 4095, 4096, 4097, 12289, 50001)}


def inputs():
    rs = np.random.RandomState(12)
    return {f"{dt}_{n}": (rs.randn(n) * 100 + 3).astype(dt) for dt, sizes in SIZES.items() for n in sizes}


def _static_fluid(fluid, x):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        v = fluid.data("x", list(x.shape), str(x.dtype))
        outs = [fluid.layers.mean(v), fluid.layers.reduce_mean(v)]
    return fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": x}, fetch_list=outs)


def _static_paddle(paddle, x):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            v = paddle.static.data("x", list(x.shape), str(x.dtype))
            outs = [paddle.sum(v), paddle.mean(v)]
        return paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": x}, fetch_list=outs)
    finally:
        paddle.disable_static()


def run(api):
    res = {}
    xs = inputs()
    if hasattr(api, "layers"):  # fluid 1.8.5: static programs
        for k, x in xs.items():
            res[f"mean_{k}"], res[f"reduce_mean_{k}"] = (np.asarray(o) for o in _static_fluid(api, x))
        res["mean_3d"], res["reduce_mean_3d"] = (np.asarray(o) for o in _static_fluid(api, xs["float32_100"][:60]
                                                                                        .reshape(3, 4, 5)))
        return res
    paddle = api
    for k, x in xs.items():
        t = paddle.to_tensor(x)
        res[f"sum_{k}"], res[f"mean_{k}"] = paddle.sum(t).numpy(), paddle.mean(t).numpy()
    t = paddle.to_tensor(xs["float32_1000"][:840].reshape(7, 8, 15))
    res["tensor_sum_3d"], res["tensor_mean_3d"] = t.sum().numpy(), t.mean().numpy()
    res["sum_transposed"] = paddle.sum(paddle.transpose(t, [2, 0, 1])).numpy()
    a, b = (paddle.to_tensor(xs[f"float32_{n}"][:999]) for n in (1000, 8191))
    for red in ("mean", "sum"):  # losses reduce with paddle.mean / paddle.sum
        res[f"mse_{red}"] = paddle.nn.functional.mse_loss(a, b, reduction=red).numpy()
        res[f"l1_{red}"] = paddle.nn.functional.l1_loss(a, b, reduction=red).numpy()
    res["static_sum"], res["static_mean"] = (np.asarray(o) for o in _static_paddle(paddle, xs["float32_16392"]))
    return res
