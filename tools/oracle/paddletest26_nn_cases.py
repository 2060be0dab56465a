"""Cases over the public API (each takes the `paddle` module, returns {name: array}) reduced from PaddleTest
`framework/api/nn` failures (tools/paddletest/run.py --areas nn): recorded on Paddle 2.6.2 by
`rec_cases26.py paddletest26_nn_cases paddletest26_nn`, replayed by tests/api2x/test_paddletest26_nn.py
(an expected error: record it with paddletest26_cases._raises)."""
import numpy as np

X23 = np.array([[0.5, -1.25, 2.0], [-3.0, 0.0, 1.5]])


def alpha_dropout_p1(paddle):
    """p=1 in training gives scale(x, 0.0); p=0 gives x; both layer and functional (nn/test_alpha_dropout2, 3)."""
    x = paddle.to_tensor(X23)
    out = {}
    for p in (0.0, 1.0):
        out[f"functional_p{p:g}"] = paddle.nn.functional.alpha_dropout(x, p=p).numpy()
        out[f"layer_p{p:g}"] = paddle.nn.AlphaDropout(p=p)(x).numpy()
    out["eval_p1"] = paddle.nn.functional.alpha_dropout(x, p=1.0, training=False).numpy()
    return out


CASES = [alpha_dropout_p1]


# --- helper nn2's cases (separate block: nn1 appends above) ---------------------------------------------------
from paddletest26_cases import _raises  # noqa: E402


def clip_grad_checks(paddle):
    """ClipGradByNorm: clip_norm <= 0 raises ValueError when clipping, the CPU kernel is float32 only (RuntimeError);
    ClipGradByValue(max) with min=None asserts max > 0 (a str max: TypeError), min > max raises ValueError when
    clipping; paddle.clip too (nn/test_clip_grad_by_norm3, 6, test_clip_grad_by_value_norm6, 7)."""
    g = paddle.to_tensor(np.array([[0.5, 3.0], [-4.0, 1.0]], dtype="float32"))
    w = paddle.ones([2, 2])
    out = {"norm_1e-30": paddle.nn.ClipGradByNorm(1e-30)([(w, g)])[0][1].numpy(),
           "norm_2": paddle.nn.ClipGradByNorm(2.0)([(w, g)])[0][1].numpy()}
    for n in (-1.0, 0.0):
        out[f"norm_{n:g}"] = _raises(lambda n=n: paddle.nn.ClipGradByNorm(n)([(w, g)]), ValueError)
    for dt in ("int8", "int32", "int64", "float16", "float64"):
        out[f"norm_{dt}"] = _raises(lambda dt=dt: paddle.nn.ClipGradByNorm(1.0)([(w, g.astype(dt))]), RuntimeError)
    for mx in (-1.0, 0.0):
        out[f"value_max{mx:g}"] = _raises(lambda mx=mx: paddle.nn.ClipGradByValue(mx), AssertionError)
    out["value_max_str"] = _raises(lambda: paddle.nn.ClipGradByValue("1"), TypeError)
    out["value_min_gt_max"] = _raises(lambda: paddle.nn.ClipGradByValue(1.0, 2.0)([(w, g)]), ValueError)
    out["value_str_min"] = paddle.nn.ClipGradByValue(1, "0")([(w, g)])[0][1].numpy()
    out["value_neg"] = paddle.nn.ClipGradByValue(-1.0, -2.0)([(w, g)])[0][1].numpy()
    out["clip_min_gt_max"] = _raises(lambda: paddle.clip(g, 2.0, 1.0), ValueError)
    return out


CASES += [clip_grad_checks]


def initializer_assign_shape(paddle):
    """Assign(array) whose shape differs from the parameter's: the parameter takes the array's shape and the layer
    computes with it (nn/test_initializer_assign2-5)."""
    w = np.linspace(-1.0, 1.0, 54).astype("float32").reshape(2, 3, 3, 3)
    x = paddle.to_tensor(np.linspace(0.0, 1.0, 48).astype("float32").reshape(1, 3, 4, 4))
    out = {}
    for k, (ks, wv, bv) in {"k2_w3": ([2, 2], w, np.array([1.0, 2.0])),
                            "k3_w1": ([3, 3], w[:1], np.array([1.0, 2.0]))}.items():
        conv = paddle.nn.Conv2D(3, 2, ks, weight_attr=paddle.nn.initializer.Assign(wv),
                                bias_attr=paddle.nn.initializer.Assign(bv))
        out[k + "_wshape"] = np.array(conv.weight.shape)
        out[k] = conv(x).numpy()
    p = paddle.create_parameter([2, 3], "float64", default_initializer=paddle.nn.initializer.Assign(np.ones([7])))
    out["create_parameter"] = p.numpy()
    return out


CASES += [initializer_assign_shape]


def normal_negative_std(paddle):
    """A negative std samples N(mean, |std|) (Paddle computes mean + std * z), in the Normal and TruncatedNormal
    initializers and paddle.normal (nn/test_initializer_normal_new::test_initializer_normal2); rounded statistics
    of 40000 draws, since the draws themselves come from another generator here."""
    def stats(v):
        v = v.numpy().astype("float64")
        return np.array([np.round(v.mean()), np.round(v.std()), v.min() >= -12.0, v.max() <= 8.0])

    init = paddle.nn.initializer
    out = {}
    for dt in ("float32", "float64"):
        out["Normal_" + dt] = stats(paddle.create_parameter([200, 200], dt, default_initializer=init.Normal(-2.0, -5.0)))
    out["TruncatedNormal"] = stats(paddle.create_parameter([200, 200], "float32",
                                                           default_initializer=init.TruncatedNormal(-2.0, -5.0)))
    out["normal"] = stats(paddle.normal(-2.0, -5.0, [200, 200]))
    out["normal_tensor"] = stats(paddle.normal(paddle.full([200, 200], -2.0), paddle.full([200, 200], -5.0)))
    out["normal_std0"] = paddle.normal(-2.0, 0.0, [3]).numpy()
    return out


CASES += [normal_negative_std]


def weight_norm_static(paddle):
    """paddle.nn.utils.weight_norm / remove_weight_norm on a layer built in static mode: new parameters weight_v /
    weight_g assigned by main-program ops, the forward recomputes the weight (nn/test_functional_utils_weight_norm)."""
    x = np.linspace(-1, 1, 2 * 3 * 5 * 5).astype("float32").reshape(2, 3, 5, 5)
    w = np.linspace(-2, 3, 108).reshape(4, 3, 3, 3)
    out = {}
    for dim in (0, 1, 3):
        paddle.enable_static()
        try:
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start):
                xs = paddle.static.data("x", [2, 3, 5, 5], "float32")
                c = paddle.nn.Conv2D(3, 4, 3, weight_attr=paddle.nn.initializer.Assign(w))
                paddle.nn.utils.weight_norm(c, dim=dim)
                y, g, v = c(xs), c.weight_g, c.weight_v
                paddle.nn.utils.remove_weight_norm(c)
                y2 = c(xs)
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(start)
            res = exe.run(main, feed={"x": x}, fetch_list=[y, g, v, y2])
        finally:
            paddle.disable_static()
        for k, r in zip(("y", "g", "v", "removed_y"), res):
            out[f"dim{dim}_{k}"] = r
        c = paddle.nn.Conv2D(3, 4, 3, weight_attr=paddle.nn.initializer.Assign(w))
        paddle.nn.utils.weight_norm(c, dim=dim)
        out[f"dim{dim}_dygraph_y"] = c(paddle.to_tensor(x)).numpy()
    return out


CASES += [weight_norm_static]


def rnncellbase_initial_states(paddle):
    """RNNCellBase.get_initial_states: Paddle's NotImplementedError messages for state_shape / state_dtype, dtype
    None gives the default float type (not batch_ref's), a leading -1 of a shape is the batch dim
    (nn/test_rnncellbase7)."""
    x = paddle.randn((4, 16)).astype("float64")
    b = paddle.nn.RNNCellBase()
    out = {}
    for k, kw in {"lead_m1": dict(shape=(-1, 16)), "no_m1": dict(shape=(4, 16)), "nested": dict(shape=((3,), (5, 2))),
                  "batch_dim1": dict(shape=(16,), batch_dim_idx=1), "init2": dict(shape=(2,), init_value=-2.0),
                  "int": dict(shape=(2,), dtype="int32", init_value=3)}.items():
        s = b.get_initial_states(x, **kw)
        for i, t in enumerate(s if isinstance(s, (list, tuple)) else [s]):
            out[f"{k}_{i}"] = t.numpy()
            out[f"{k}_{i}_dtype"] = np.array(str(t.dtype).split(".")[-1].lower() in ("float32", "fp32"))
    for k, f in {"state_shape": lambda: b.get_initial_states(x), "state_dtype": lambda: b.state_dtype}.items():
        try:
            f()
            out[k] = np.array(0)
        except NotImplementedError as e:
            out[k] = np.array(f"Please add implementaion for `{k}` in the used cell." in e.args[0])
    out["bad_shape"] = _raises(lambda: b.get_initial_states(x, shape=(-1, -1)), ValueError)
    for cell in ("SimpleRNNCell", "LSTMCell", "GRUCell"):
        s = getattr(paddle.nn, cell)(16, 8).get_initial_states(x)
        out[cell + "_fp32"] = np.array([str(t.dtype).split(".")[-1].lower() in ("float32", "fp32")
                                        for t in (s if isinstance(s, (list, tuple)) else [s])])
    return out


CASES += [rnncellbase_initial_states]


def static_feed_lower_rank(paddle):
    """Executor feed check: only the fed tensor's dims are compared with the variable's leading dims, so a feed of
    lower rank that matches them runs with its own shape (nn/test_functional_sequence_mask8: [3] fed to [3, 1]);
    a higher rank or a mismatched dim is a ValueError."""
    pairs = [([3, 1], [3]), ([-1, 1], [7]), ([3, 2], [3]), ([3, 1, 1], [3, 1]), ([3, 4, 1], [3, 4]), ([-1, -1], [3]),
             ([3, 1], [1, 3]), ([3, 1], [3, 1, 1]), ([3, 1], [6]), ([1, 3], [3]), ([3, 1, 4], [3, 4]), ([3, 1], []),
             ([3], [3, 1])]
    out = {}
    paddle.enable_static()
    try:
        for decl, fed in pairs:
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start):
                y = paddle.static.data("x", decl, "float32") * 2
            key = "x".join(map(str, decl)) + "_fed_" + ("x".join(map(str, fed)) or "0d")
            feed = {"x": np.arange(int(np.prod(fed)), dtype="float32").reshape(fed)}
            try:
                out[key] = paddle.static.Executor(paddle.CPUPlace()).run(main, feed=feed, fetch_list=[y])[0]
            except ValueError:
                out[key] = np.array(-1.0)  # ValueError
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            m = paddle.nn.functional.sequence_mask(paddle.static.data("x8", [3, 1], "float32"), maxlen=6,
                                                   dtype="float64")
        out["sequence_mask"] = paddle.static.Executor(paddle.CPUPlace()).run(
            main, feed={"x8": np.array([5.0, 3.0, 1.0], "float32")}, fetch_list=[m])[0]
    finally:
        paddle.disable_static()
    return out


CASES += [static_feed_lower_rank]


def program_seed_initializers(paddle):
    """A seed-0 initializer takes the random_seed of the program it initializes in (the default main program in
    dygraph; _manual_program_seed sets it), and a nonzero seed restarts the sampler, so two layers of one shape
    start with equal parameters (nn/test_TransformerEncoderLayer, test_TransformerDecoderLayer build a second
    MultiHeadAttention and expect the first's weights); with random_seed 0 they differ. Equalities only: the draws
    come from another generator here."""
    def same(a, b):
        return np.array([np.array_equal(p.numpy(), q.numpy()) for p, q in zip(a.parameters(), b.parameters())])

    main = paddle.static.default_main_program()
    old = main.random_seed
    out = {}
    try:
        main.random_seed = 0
        out["seed0_linear"] = same(paddle.nn.Linear(4, 4), paddle.nn.Linear(4, 4))
        paddle.framework.random._manual_program_seed(2020)
        out["seeded_linear"] = same(paddle.nn.Linear(4, 4), paddle.nn.Linear(4, 4))
        out["seeded_mha"] = same(paddle.nn.MultiHeadAttention(8, 2), paddle.nn.MultiHeadAttention(8, 2))
        out["seeded_conv"] = same(paddle.nn.Conv2D(2, 3, 3), paddle.nn.Conv2D(2, 3, 3))
        init = paddle.nn.initializer
        for k, i in {"Normal": init.Normal(), "TruncatedNormal": init.TruncatedNormal(), "Uniform": init.Uniform(),
                     "XavierNormal": init.XavierNormal(), "KaimingUniform": init.KaimingUniform()}.items():
            a = paddle.create_parameter([3, 5], "float32", default_initializer=i)
            b = paddle.create_parameter([3, 5], "float32", default_initializer=i)
            out["seeded_" + k] = np.array(np.array_equal(a.numpy(), b.numpy()))
        sticky = init.Uniform()
        a = paddle.create_parameter([3, 5], "float32", default_initializer=sticky)
        main.random_seed = 0  # the initializer keeps the seed it took on first use
        b = paddle.create_parameter([3, 5], "float32", default_initializer=sticky)
        c = paddle.create_parameter([3, 5], "float32", default_initializer=init.Uniform())
        d = paddle.create_parameter([3, 5], "float32", default_initializer=init.Uniform())
        out["sticky"] = np.array([np.array_equal(a.numpy(), b.numpy()), np.array_equal(c.numpy(), d.numpy())])
    finally:
        paddle.static.default_main_program().random_seed = old
        paddle.static.default_startup_program().random_seed = old
    paddle.enable_static()
    try:
        prog, start = paddle.static.Program(), paddle.static.Program()
        start.random_seed = 3
        with paddle.static.program_guard(prog, start):
            x = paddle.static.data("x", [2, 4], "float32")
            y1, y2 = paddle.static.nn.fc(x, 4), paddle.static.nn.fc(x, 4)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        r1, r2 = exe.run(prog, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[y1, y2])
        out["static_startup_seed"] = np.array(np.array_equal(r1, r2))
    finally:
        paddle.disable_static()
    return out


CASES += [program_seed_initializers]
