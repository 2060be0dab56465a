"""Numbers that were silently wrong (issue 12 item 4), each a case run by real Paddle 2.6.2
(tools/oracle/rec_run26.py -> tests/goldens/nn26_numbers.*) and by us (tests/nn/test_numbers26.py).

`CASES[name](paddle)` returns {key: array}; the golden holds `<name>/<key>`. Values Paddle 2.6 returns as 0-D
are compared by value (we give shape [1], as Paddle 2.4). Paddle 2.6.2 under numpy 2 cannot float() a [1]
tensor, so the cases never do; they read values with .numpy().
"""

import numpy as np

INF = float("inf")


def _grad(paddle, fn, *arrays, dtype="float64"):
    """fn(*tensors) -> out; returns out and the gradient of out.sum() (or of out weighted, for outputs of
    several values) w.r.t. each input."""
    xs = [paddle.to_tensor(np.asarray(a, dtype), stop_gradient=False) for a in arrays]
    out = fn(*xs)
    w = paddle.to_tensor(np.arange(1, out.numpy().size + 1, dtype=dtype).reshape(out.shape))
    (out * w).sum().backward()
    return [out.numpy()] + [x.grad.numpy() for x in xs]


def multiplicative_decay(paddle):
    lr = paddle.optimizer.lr
    s = lr.MultiplicativeDecay(1.0, lambda e: 0.1)
    seq, got = [s()], [s.get_lr()]
    for _ in range(3):
        s.step()
        seq.append(s())
        got.append(s.get_lr())  # get_lr() is pure: it recomputes from base_lr and last_epoch
    s2 = lr.MultiplicativeDecay(0.5, lambda e: 0.9 ** e)
    jumps = []
    for e in (1, 2, 5, 3, 0):
        s2.step(e)
        jumps.append(s2())
    return {"steps": np.array(seq), "get_lr": np.array(got), "epoch_jumps": np.array(jumps)}


TIES = [[1.0, -3.0, 3.0], [2.0, 2.0, -1.0]]


def inf_norm_ties(paddle):
    """p=inf / -inf norms with tied extremes: Paddle gives each tied element the full gradient."""
    res = {}
    for tag, kw in (("all_inf", dict(p=INF)), ("axis1_inf", dict(p=INF, axis=1)),
                    ("axis0_ninf", dict(p=-INF, axis=0)), ("all_ninf", dict(p=-INF))):
        out, g = _grad(paddle, lambda x: paddle.norm(x, **kw), TIES)
        res[tag], res[tag + "_grad"] = out, g
    out, g = _grad(paddle, lambda x: paddle.linalg.norm(x, p=INF, axis=-1, keepdim=True), TIES)
    res["linalg_keepdim"], res["linalg_keepdim_grad"] = out, g
    out, g = _grad(paddle, lambda x: paddle.norm(x, p=0, axis=1), [[1.0, 0.0, 3.0], [0.0, 0.0, -1.0]])
    res["axis1_p0"], res["axis1_p0_grad"] = out, g
    return res


def pairwise_distance_inf(paddle):
    x = [[1.0, 4.0, 2.0], [0.0, 1.0, 5.0]]
    y = [[2.0, 3.0, 1.0], [3.0, 1.0, 2.0]]  # |x - y| has ties in each row
    res = {}
    for tag, p in (("inf", INF), ("ninf", -INF), ("p2", 2.0), ("p0", 0.0)):
        out, gx, gy = _grad(paddle, lambda a, b: paddle.nn.PairwiseDistance(p=p, epsilon=0.0, keepdim=p < 0)(a, b),
                            x, y)
        res[tag], res[tag + "_gx"], res[tag + "_gy"] = out, gx, gy
    return res


def trace_axes(paddle):
    """offset counts along (axis1, axis2) in the order given, also when axis1 > axis2."""
    res = {}
    for shape, offset, a1, a2 in (((2, 4, 3), -1, 2, -2), ((2, 4, 3), 1, 2, 1), ((3, 2, 4, 3), 1, 0, 2),
                                  ((3, 2, 4, 3), 0, -1, 0), ((3, 2, 4, 3), 2, 3, 1), ((3, 2, 4, 3), -2, 1, 2),
                                  ((3, 4), 1, 1, 0), ((3, 4), -1, 0, 1)):
        x = np.arange(int(np.prod(shape)), dtype="float64").reshape(shape) / 7.0
        out, g = _grad(paddle, lambda t: paddle.trace(t, offset=offset, axis1=a1, axis2=a2), x)
        tag = f"{len(shape)}d_o{offset}_a{a1}_a{a2}"
        res[tag], res[tag + "_grad"] = out, g
    return res


def relu6_kinks(paddle):
    x = [-1.0, 0.0, 0.5, 3.0, 6.0, 7.0]
    out, g = _grad(paddle, paddle.nn.functional.relu6, x)
    out2, g2 = _grad(paddle, paddle.nn.ReLU6(), x, dtype="float32")
    return {"f64": out, "f64_grad": g, "f32": out2, "f32_grad": g2}


def bce_with_logits_pos_weight(paddle):
    """Paddle's kernel with pos_weight: its value and its gradient (which is not the value's derivative for x > 0),
    0/1 and soft labels."""
    logit = [[0.5, -1.0, 2.0], [-0.3, 0.8, -2.5], [0.0, 1.5, -0.7]]
    label = np.array([[1.0, 0.0, 1.0], [0.3, 1.0, 0.0], [1.0, 0.5, 0.8]])
    pos_weight = [2.0, 0.25, 3.0]
    weight = [[1.0, 2.0, 0.5]]
    F = paddle.nn.functional
    res = {}
    for red in ("none", "mean", "sum"):
        out, g = _grad(paddle, lambda z: F.binary_cross_entropy_with_logits(
            z, paddle.to_tensor(label), pos_weight=paddle.to_tensor(np.array(pos_weight)), reduction=red), logit)
        res[f"f_{red}"], res[f"f_{red}_grad"] = out, g
    out, g = _grad(paddle, lambda z: paddle.nn.BCEWithLogitsLoss(
        weight=paddle.to_tensor(np.array(weight)), pos_weight=paddle.to_tensor(np.array(pos_weight)),
        reduction="mean")(z, paddle.to_tensor(label)), logit)
    res["layer_weight_mean"], res["layer_weight_mean_grad"] = out, g
    return res


def _set_params(layer, seed):
    rs = np.random.RandomState(seed)
    for p in layer.parameters():
        p.set_value(rs.uniform(-0.5, 0.5, p.shape).astype(p.numpy().dtype))


def losses_trained(paddle):
    """PaddleTest's loss runner: paddle.set_default_dtype(np.float32 or np.float64) (a numpy type), a Linear(10, 2) (log_loss: 1)
    whose parameters then have that dtype, a loss, three SGD steps; the losses and the final weight.
    log_loss has a float32 CPU kernel only."""
    F = paddle.nn.functional
    rs = np.random.RandomState(3)
    x = rs.random_sample((5, 10))
    prob_label = rs.random_sample((5, 2))
    hard_label = rs.randint(0, 2, (5, 1)).astype("int64")
    bin_label = rs.randint(0, 2, (5, 2))
    losses = {
        "kl_div": lambda o, d: F.kl_div(o, paddle.to_tensor(prob_label.astype(d)), reduction="mean"),
        "log_loss": lambda o, d: F.log_loss(F.sigmoid(o), paddle.to_tensor(bin_label[:, :1].astype(d))).mean(),
        "sigmoid_focal_loss": lambda o, d: F.sigmoid_focal_loss(o, paddle.to_tensor(bin_label.astype(d)),
                                                                reduction="sum"),
        "softmax_with_cross_entropy": lambda o, d: F.softmax_with_cross_entropy(o, paddle.to_tensor(hard_label)).mean(),
    }
    res = {}
    try:
        for dtype in (np.float32, np.float64):
            paddle.set_default_dtype(dtype)
            d = np.dtype(dtype).name
            for name, loss_fn in losses.items():
                if name == "log_loss" and d == "float64":
                    continue
                lin = paddle.nn.Linear(10, 1 if name == "log_loss" else 2)
                tag = f"{name}_{d}"
                res[tag + "_dtype"] = np.array([str(lin.weight.dtype).endswith(d)])
                _set_params(lin, 5)
                opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=lin.parameters())
                vals = []
                for _ in range(3):
                    loss = loss_fn(lin(paddle.to_tensor(x.astype(d))), d)
                    loss.backward()
                    opt.step()
                    opt.clear_grad()
                    vals.append(loss.numpy().reshape(-1)[0])
                res[tag] = np.array(vals)
                res[tag + "_weight"] = lin.weight.numpy()
    finally:
        paddle.set_default_dtype("float32")
    return res


def nn_float64(paddle):
    """PaddleTest's nn checks in float64 (set_default_dtype): layer outputs and input gradients."""
    F = paddle.nn.functional
    rs = np.random.RandomState(4)
    x4 = rs.standard_normal((2, 3, 5, 4))
    x3 = rs.standard_normal((2, 3, 5))
    res = {}
    paddle.set_default_dtype("float64")
    try:
        conv = paddle.nn.Conv2D(3, 2, 3, padding=1, stride=(2, 1))
        _set_params(conv, 6)
        bn = paddle.nn.BatchNorm2D(3)
        _set_params(bn, 7)
        upl = paddle.nn.Upsample(scale_factor=2, mode="linear", align_corners=False, data_format="NCW")
        layers = {
            "conv2d": (conv, x4),
            "batch_norm_train": (bn, x4),
            "adaptive_max_pool2d": (lambda t: F.adaptive_max_pool2d(t, output_size=[2, 3]), x4),
            "pad_reflect": (lambda t: F.pad(t, [1, 2, 2, 0], mode="reflect"), x4),
            "pad_replicate_ncl": (lambda t: F.pad(t, [2, 1], mode="replicate", data_format="NCL"), x3),
            "upsample_linear": (upl, x3),
            "upsample_linear_align": (lambda t: F.interpolate(t, size=[8], mode="linear", align_corners=True,
                                                              data_format="NCW"), x3),
        }
        for name, (fn, x) in layers.items():
            out, g = _grad(paddle, fn, x)
            res[name], res[name + "_grad"] = out, g
        res["conv2d_dtype"] = np.array([str(conv.weight.dtype).endswith("float64")])
        res["batch_norm_mean"] = bn._mean.numpy()
        res["batch_norm_variance"] = bn._variance.numpy()
        bn.eval()
        res["batch_norm_eval"] = bn(paddle.to_tensor(x4)).numpy()
    finally:
        paddle.set_default_dtype("float32")
    return res


CASES = {f.__name__: f for f in (multiplicative_decay, inf_norm_ties, pairwise_distance_inf, trace_axes, relu6_kinks,
                                  bce_with_logits_pos_weight, losses_trained, nn_float64)}

