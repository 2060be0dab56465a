"""Paddle 2.6.2's CPU random stream (see rec_cases26.py): each case seeds with paddle.seed and draws with the CPU
kernels, several ops in a row (the engine's state carries over), op seeds, get/set_rng_state.
tests/api2x/test_paddle_rng.py replays them with paddle_compat.use_paddle_rng(True) and wants the same bits."""
import numpy as np


def _np(t):
    return np.asarray(t.numpy())


def uniform(paddle):
    paddle.seed(33)
    out = {"rand_f32": _np(paddle.rand([3, 4])), "rand_f64": _np(paddle.rand([5], "float64")),
           "uniform": _np(paddle.uniform([2, 3], min=-2.0, max=3.0)),
           "uniform_f64": _np(paddle.uniform([4], "float64", min=-1.0, max=1.0)),
           "op_seed": _np(paddle.uniform([4], min=0.0, max=1.0, seed=7)),
           "after_op_seed": _np(paddle.rand([2]))}
    paddle.seed(2 ** 40 + 5)
    out["big_seed"] = _np(paddle.rand([3], "float64"))
    paddle.seed(0)
    out["seed0"] = _np(paddle.rand([700]))  # crosses a twist of the engine
    return out


def gaussian(paddle):
    paddle.seed(33)
    return {"randn_f32": _np(paddle.randn([3, 3])), "randn_f64": _np(paddle.randn([5], "float64")),
            "normal": _np(paddle.normal(1.0, 2.0, [7])), "standard_normal": _np(paddle.standard_normal([4])),
            "randn_many": _np(paddle.randn([2000])), "randn_many_f64": _np(paddle.randn([999], "float64"))}


def randint(paddle):
    paddle.seed(33)
    x = paddle.zeros([2, 3])
    return {"small": _np(paddle.randint(0, 10, [8])), "neg_int32": _np(paddle.randint(-5, 5, [3, 3], "int32")),
            "wide": _np(paddle.randint(-2 ** 31, 2 ** 31 - 1, [6])), "high_none": _np(paddle.randint(10, shape=[4])),
            "like": _np(paddle.randint_like(x, 0, 100)), "like_i32": _np(paddle.randint_like(x, -3, 3, "int32")),
            "many": _np(paddle.randint(0, 1000, [1000]))}


def randperm(paddle):
    paddle.seed(33)
    return {"n10": _np(paddle.randperm(10)), "n7_i32": _np(paddle.randperm(7, "int32")),
            "n1000": _np(paddle.randperm(1000)), "n1_f32": _np(paddle.randperm(1, "float32")),
            "n6_f64": _np(paddle.randperm(6, "float64")), "after": _np(paddle.rand([3]))}


def bernoulli(paddle):
    paddle.seed(33)
    p = paddle.to_tensor(np.linspace(0.0, 1.0, 12, dtype="float32").reshape(3, 4))
    p64 = paddle.to_tensor(np.full([500], 0.3))
    return {"f32": _np(paddle.bernoulli(p)), "f64": _np(paddle.bernoulli(p64)), "after": _np(paddle.rand([3]))}


def poisson(paddle):
    paddle.seed(33)
    small = paddle.to_tensor(np.array([0.5, 3.0, 11.9, 0.0, 1.0, 7.25], "float32"))
    large = paddle.to_tensor(np.array([12.0, 50.0, 1000.0, 20.5, 13.7, 300.0, 12.0, 99.0]))
    many = paddle.to_tensor(np.linspace(0.0, 40.0, 400).astype("float32"))
    return {"small": _np(paddle.poisson(small)), "large": _np(paddle.poisson(large)),
            "many": _np(paddle.poisson(many)), "after": _np(paddle.rand([3]))}


def exponential(paddle):
    paddle.seed(33)
    x = paddle.zeros([3, 4])
    x.exponential_(2.0)
    y = paddle.zeros([500], "float64")
    y.exponential_()
    z = paddle.zeros([1000])
    z.exponential_(0.5)
    return {"f32": _np(x), "f64": _np(y), "many": _np(z), "after": _np(paddle.rand([3]))}


def inplace(paddle):
    paddle.seed(33)
    x = paddle.zeros([3, 4])
    x.uniform_(min=-1.0, max=1.0)
    y = paddle.zeros([5], "float64")
    y.uniform_()
    z = paddle.zeros([7])
    z.normal_(1.0, 3.0)
    w = paddle.zeros([4], "float64")
    w.normal_()
    return {"uniform_": _np(x), "uniform_f64": _np(y), "normal_": _np(z), "normal_f64": _np(w),
            "after": _np(paddle.rand([3]))}


def composed(paddle):
    """cauchy_ / geometric_: Paddle's Python over normal_ / uniform_ (then tan / log kernels: compared to float
    rounding; the draws they consumed show in `after`)."""
    paddle.seed(21)
    x = paddle.zeros([3, 4])
    x.cauchy_(loc=1.0, scale=2.0)
    y = paddle.zeros([6], "float64")
    y.geometric_(0.3)
    z = paddle.zeros([5])
    z.geometric_(0.6)
    return {"cauchy": _np(x), "geometric_f64": _np(y), "geometric": _np(z), "after": _np(paddle.rand([3]))}


def dropout(paddle):
    import paddle.nn.functional as F

    paddle.seed(100)
    x = paddle.to_tensor(np.arange(1, 21, dtype="float32").reshape(4, 5))
    return {"upscale": _np(F.dropout(x, 0.3)), "downscale": _np(F.dropout(x, 0.5, mode="downscale_in_infer")),
            "axis": _np(F.dropout(x, 0.4, axis=1)), "alpha": _np(F.alpha_dropout(x, 0.2)),
            "alpha_f64": _np(F.alpha_dropout(paddle.cast(x, "float64"), 0.5)), "after": _np(paddle.rand([3]))}


def gumbel(paddle):
    import paddle.nn.functional as F

    paddle.seed(33)
    x = paddle.to_tensor(np.linspace(-1.0, 1.0, 24, dtype="float32").reshape(4, 6))
    return {"hard": _np(F.gumbel_softmax(x, hard=True)), "soft": _np(F.gumbel_softmax(x, temperature=0.5)),
            "after": _np(paddle.rand([3]))}


def initializers(paddle):
    paddle.seed(33)
    lin = paddle.nn.Linear(3, 4)
    conv = paddle.nn.Conv2D(2, 3, 3)
    nrm = paddle.nn.Linear(4, 2, weight_attr=paddle.nn.initializer.Normal(0.5, 2.0))
    ku = paddle.nn.Linear(5, 3, weight_attr=paddle.nn.initializer.KaimingUniform())
    emb = paddle.nn.Embedding(6, 3)
    xn = paddle.nn.Linear(3, 5, weight_attr=paddle.nn.initializer.XavierNormal())
    kn = paddle.nn.Linear(4, 3, weight_attr=paddle.nn.initializer.KaimingNormal())
    u64 = paddle.create_parameter([5], "float64", default_initializer=paddle.nn.initializer.Uniform(-0.1, 0.3))
    n64 = paddle.create_parameter([3], "float64", default_initializer=paddle.nn.initializer.Normal(0.1, 0.7))
    return {"linear_w": _np(lin.weight), "conv_w": _np(conv.weight), "conv_b": _np(conv.bias),
            "normal_w": _np(nrm.weight), "kaiming_w": _np(ku.weight), "emb_w": _np(emb.weight),
            "xavier_normal_w": _np(xn.weight), "kaiming_normal_w": _np(kn.weight), "uniform_f64": _np(u64),
            "normal_f64": _np(n64), "after": _np(paddle.rand([3]))}


def sequence(paddle):
    paddle.seed(7)
    out = {"a": _np(paddle.rand([5])), "b": _np(paddle.randn([3])), "c": _np(paddle.randint(0, 7, [5])),
           "d": _np(paddle.randperm(9)), "e": _np(paddle.bernoulli(paddle.full([6], 0.5)))}
    st = paddle.get_rng_state()
    out["f"] = _np(paddle.randn([5], "float64"))
    out["g"] = _np(paddle.rand([4]))
    paddle.set_rng_state(st)
    out["f_again"] = _np(paddle.randn([5], "float64"))
    out["g_again"] = _np(paddle.rand([4]))
    paddle.seed(7)
    out["a_again"] = _np(paddle.rand([5]))
    return out


def static_program(paddle):
    """A static program: the startup program's initializers, then the main program's random ops, drawn when the
    executor runs them."""
    paddle.enable_static()
    try:
        paddle.seed(5)
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            lin = paddle.nn.Linear(3, 4)
            y = paddle.nn.functional.dropout(lin(x), 0.5)
            r = paddle.rand([4])
            n = paddle.randn([3])
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        w = np.asarray(paddle.static.global_scope().find_var(lin.weight.name).get_tensor())
        out = exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[y, r, n])
        out2 = exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[y, r, n])
    finally:
        paddle.disable_static()
    return {"w": w, "y": out[0], "r": out[1], "n": out[2], "y2": out2[0], "r2": out2[1], "n2": out2[2]}


CASES = [uniform, gaussian, randint, randperm, bernoulli, poisson, exponential, inplace, composed, dropout, gumbel,
         initializers, sequence, static_program]
