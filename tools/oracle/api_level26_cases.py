"""The observable 0-D results of Paddle 2.5+ (docs/api_levels.md), as cases written once over the public API: each
takes the `paddle` module and returns {name: array}, whose shape and dtype are the point (values are compared too).

Recorded on real Paddle 2.6.2 (tools/oracle/rec_cases26.py api_level26_cases api_level26 -> tests/goldens/
api_level26); tests/api_level/test_level26.py replays them on paddle_compat at API level 2.6 (same shapes) and at
the default level 2.4 (every 0-D result is shape [1] there, SHAPES_24 lists the other differences).
Plain Python 3.8+ over numpy and the `paddle` given; nothing here imports paddle_compat."""
import os
import tempfile

import numpy as np

X = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
V = np.array([1.0, 2.0, 3.0], "float32")


def _a(t):
    """A result as an array of its own shape and dtype (a Python number stays 0-D)."""
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def full_reductions(paddle):
    x = paddle.to_tensor(X)
    out = {}
    for name in ("sum", "mean", "max", "min", "prod", "amax", "amin", "std", "var", "median", "nansum", "nanmean",
                 "logsumexp", "numel", "argmax", "argmin", "count_nonzero", "trace"):
        out[name] = _a(getattr(paddle, name)(x))
    out["all"] = _a(paddle.all(x > 0))
    out["any"] = _a(paddle.any(x > 3))
    out["norm"] = _a(paddle.linalg.norm(x))
    out["method_sum"] = _a(x.sum())
    out["method_mean"] = _a(x.mean())
    return out


def reductions_over_axes(paddle):
    v = paddle.to_tensor(V)
    x = paddle.to_tensor(X)
    return {"sum_1d_axis0": _a(paddle.sum(v, axis=0)), "max_1d_axis0": _a(paddle.max(v, 0)),
            "mean_all_axes": _a(paddle.mean(x, axis=[0, 1])), "std_1d_axis0": _a(paddle.std(v, axis=0)),
            "prod_1d_axis0": _a(paddle.prod(v, axis=0)), "keepdim": _a(paddle.sum(x, keepdim=True)),
            "sum_axis1": _a(paddle.sum(x, axis=1))}


def to_tensor_scalars(paddle):
    t = paddle.to_tensor
    return {"float": _a(t(3.0)), "int": _a(t(3)), "bool": _a(t(True)), "np_float32": _a(t(np.float32(3))),
            "np_int64": _a(t(np.int64(2))), "np_0d": _a(t(np.array(3.0))), "list1": _a(t([3.0])),
            "complex": _a(t(1 + 2j))}


def indexing(paddle):
    x = paddle.to_tensor(X)
    v = paddle.to_tensor(V)
    return {"x01": _a(x[0, 1]), "v0": _a(v[0]), "v_last": _a(v[-1]), "x0": _a(x[0]), "x0_0": _a(x[0][0]),
            "slice": _a(v[1:2]), "iter": np.stack([_a(e) for e in v]), "iter_shape": np.array([len(e.shape) for e in v]),
            "unbind0": _a(paddle.unbind(v)[0]), "gather_0d": _a(paddle.gather(v, paddle.to_tensor(1)))}


def losses(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(X)
    v = paddle.to_tensor(V)
    lbl = paddle.to_tensor(np.array([[0], [1]], "int64"))
    return {"mse": _a(F.mse_loss(v, v * 2)), "l1_sum": _a(F.l1_loss(v, v * 2, reduction="sum")),
            "l1_none": _a(F.l1_loss(v, v * 2, reduction="none")), "ce": _a(F.cross_entropy(x, lbl)),
            "ce_sum": _a(F.cross_entropy(x, lbl, reduction="sum")),
            "nll": _a(F.nll_loss(F.log_softmax(x), lbl.flatten())),
            "bce": _a(F.binary_cross_entropy(F.sigmoid(v), v / 4)),
            "bce_logits": _a(F.binary_cross_entropy_with_logits(v, v / 4)),
            "smooth_l1": _a(F.smooth_l1_loss(v, v * 2)), "kl": _a(F.kl_div(v, v / 4, reduction="mean")),
            "layer_ce": _a(paddle.nn.CrossEntropyLoss()(x, lbl)),
            "layer_mse_sum": _a(paddle.nn.MSELoss(reduction="sum")(v, v * 2))}


def metrics(paddle):
    x = paddle.to_tensor(np.array([[0.1, 0.9], [0.8, 0.2]], "float32"))
    lbl = paddle.to_tensor(np.array([[1], [1]], "int64"))
    m = paddle.metric.Accuracy()
    c = m.compute(x, lbl)
    m.update(c)
    return {"accuracy": _a(paddle.metric.accuracy(x, lbl)), "compute": _a(c), "accumulate": _a(m.accumulate())}


def other_scalars(paddle):
    x = paddle.to_tensor(X)
    v = paddle.to_tensor(V)
    s = paddle.to_tensor(2.0)
    return {"dot": _a(paddle.dot(v, v)), "dot_2d": _a(paddle.dot(x, x)), "rank": _a(paddle.rank(x)),
            "allclose": _a(paddle.allclose(v, v)), "equal_all": _a(paddle.equal_all(v, v)),
            "is_empty": _a(paddle.is_empty(v)), "det": _a(paddle.linalg.det(x)), "cond": _a(paddle.linalg.cond(x)),
            "matrix_rank": _a(paddle.linalg.matrix_rank(x)), "kthvalue": _a(paddle.kthvalue(v, 1)[0]),
            "mode": _a(paddle.mode(v)[0]), "inner": _a(paddle.inner(v, v)), "trapezoid": _a(paddle.trapezoid(v)),
            "quantile": _a(paddle.quantile(v, 0.5)), "matmul_1d": _a(paddle.matmul(v, v)),
            "dist": _a(paddle.dist(v, v * 2)), "stack_scalars": _a(paddle.stack([s, s])),
            "where_0d": _a(paddle.where(paddle.to_tensor(True), s, s * 2)), "squeeze_1": _a(paddle.squeeze(v[:1])),
            "unsqueeze_0d": _a(paddle.unsqueeze(s, 0)), "flatten_0d": _a(paddle.flatten(s)),
            "assign_float": _a(paddle.assign(3.0)), "assign_np_scalar": _a(paddle.assign(np.float32(3)))}


def zero_d_arguments(paddle):
    t = paddle.to_tensor
    x = t(X)
    return {"sum_axis_0d": _a(paddle.sum(x, axis=t(1))), "concat_axis_0d": _a(paddle.concat([t([1.0]), t([2.0])],
                                                                                             axis=t(0))),
            "zeros_shape_0d": _a(paddle.zeros([t(2), 3])), "reshape_0d": _a(paddle.reshape(t(V)[:2], [t(2), t(1)])),
            "full_fill_0d": _a(paddle.full([2, 2], t(3.0))), "full_empty_shape": _a(paddle.full([], 1.0)),
            "ones_empty_shape": _a(paddle.ones([])), "expand_0d": _a(paddle.expand(t(1.0), [3])),
            "topk_k_0d": _a(paddle.topk(t(V), k=t(1))[0]), "arange_0d": _a(paddle.arange(t(3)))}


def gradients(paddle):
    w = paddle.to_tensor(2.0, stop_gradient=False)
    loss = w * w
    loss.backward()
    x = paddle.to_tensor(V, stop_gradient=False)
    l2 = paddle.mean(x * x)
    (g,) = paddle.grad(l2, x)
    l3 = paddle.mean(x * x)
    l3.backward()
    return {"grad_0d": _a(w.grad), "loss_0d": _a(loss), "paddle_grad": _a(g), "loss_mean": _a(l2),
            "item": np.asarray(l3.item()), "float": np.asarray(float(l3)), "int": np.asarray(int(l3)),
            "x_grad": _a(x.grad)}


def lr_scheduler(paddle):
    lin = paddle.nn.Linear(2, 1)
    lin.weight.set_value(np.array([[0.5], [-0.25]], "float32"))
    lin.bias.set_value(np.array([0.1], "float32"))
    sch = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=1)
    opt = paddle.optimizer.SGD(learning_rate=sch, parameters=lin.parameters())
    loss = lin(paddle.to_tensor(np.array([[1.0, 2.0]], "float32"))).mean()
    loss.backward()
    opt.step()
    sch.step()
    return {"loss": _a(loss), "lr": np.asarray(opt.get_lr()), "clip_norm": _a(paddle.nn.utils.clip_grad_norm_(
        lin.parameters(), 1.0))}


def save_load(paddle):
    d = tempfile.mkdtemp()
    z = paddle.to_tensor(3.5)
    paddle.save(z, os.path.join(d, "z.pdtensor"))
    paddle.save({"a": paddle.to_tensor(1.0), "b": paddle.to_tensor(V)}, os.path.join(d, "d.pdparams"))
    back = paddle.load(os.path.join(d, "d.pdparams"))
    return {"tensor": _a(paddle.load(os.path.join(d, "z.pdtensor"))), "dict_a": _a(back["a"]),
            "dict_b": _a(back["b"])}


def jit_save_inference(paddle):
    d = tempfile.mkdtemp()
    paddle.seed(1)

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc(x).sum()

    net = Net()
    net.fc.weight.set_value(np.arange(6, dtype="float32").reshape(3, 2) / 10)
    net.fc.bias.set_value(np.array([0.5, -0.5], "float32"))
    net.eval()
    path = os.path.join(d, "m")
    paddle.jit.save(net, path, input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
    feed = np.ones([2, 3], "float32")
    out = paddle.jit.load(path)(paddle.to_tensor(feed))
    cfg = paddle.inference.Config(path + ".pdmodel", path + ".pdiparams")
    pred = paddle.inference.create_predictor(cfg)
    pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(feed)
    pred.run()
    res = pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()
    return {"dygraph": _a(net(paddle.to_tensor(feed))), "jit_load": _a(out), "predictor": np.asarray(res)}


def static_program(paddle):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            d = paddle.static.data("d", shape=[], dtype="float32")
            e = paddle.static.data("e", shape=[3], dtype="float32")
            s = paddle.sum(e)
            m = paddle.mean(e * d)
            i = e[1]
            d3 = d * 3
            shapes = [list(v.shape) for v in (d, s, m, i)]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        r = exe.run(main, feed={"d": np.array(2.0, "float32"), "e": V}, fetch_list=[s, m, i, d3])
    finally:
        paddle.disable_static()
    out = {f"fetch{k}": np.asarray(a) for k, a in enumerate(r)}
    out["var_ranks"] = np.array([len(s) for s in shapes])
    return out


def static_lr_scheduler(paddle):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [2, 3], "float32")
            lin = paddle.nn.Linear(3, 1, weight_attr=paddle.nn.initializer.Constant(0.5))
            loss = paddle.mean(lin(x))
            sch = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=1)
            paddle.optimizer.SGD(learning_rate=sch).minimize(loss)
            lr = [v for v in main.list_vars() if v.name.startswith("learning_rate")][0]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        out = {}
        for i in range(2):
            loss_v, lr_v = exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[loss, lr])
            sch.step()
            out[f"loss{i}"], out[f"lr{i}"] = np.asarray(loss_v), np.asarray(lr_v)
        out["lr_var_rank"] = np.array(len(lr.shape))
    finally:
        paddle.disable_static()
    return out


def nn_zero_d(paddle):
    """paddle.nn on 0-D tensors (PaddleTest's nn area at level 2.6): an activation keeps its input's shape (prelu's
    one-element weight does not broadcast a 0-D x to [1]), a 0-D index drops its dim in one_hot / embedding, 0-D
    tensors as pad value / dropout p / interpolate scale, and flatten of a 0-D tensor from axis 1 is an error."""
    F = paddle.nn.functional
    t = paddle.to_tensor
    s = t(-0.7)
    x4 = t(np.arange(16, dtype="float32").reshape(1, 1, 4, 4))
    try:
        paddle.flatten(paddle.ones([]), start_axis=1)
        flatten_raises = False
    except ValueError:
        flatten_raises = True
    return {"prelu": _a(F.prelu(s, t(np.array([0.25], "float32")))), "prelu_layer": _a(paddle.nn.PReLU()(s)),
            "relu": _a(F.relu(s)), "gelu": _a(F.gelu(s)), "softmax": _a(F.softmax(s)), "sigmoid": _a(F.sigmoid(s)),
            "leaky_relu_layer": _a(paddle.nn.LeakyReLU()(s)), "hardtanh": _a(F.hardtanh(s)),
            "one_hot": _a(F.one_hot(t(1), 3)),
            "embedding": _a(F.embedding(t(1), t(np.arange(6, dtype="float32").reshape(3, 2)))),
            "cosine_similarity_1d": _a(F.cosine_similarity(t(V), t(V[::-1].copy()), axis=0)),
            "pad_value_0d": _a(F.pad(x4, [1, 1, 1, 1], value=t(2.0))),
            "dropout_p_0d": _a(F.dropout(x4, p=t(0.0))),
            "interpolate_scale_0d": _a(F.interpolate(x4, scale_factor=t(2.0))),
            "flatten_0d": _a(paddle.flatten(paddle.ones([]))), "flatten_0d_axis1_raises": np.array(flatten_raises)}


def version(paddle):
    return {"major_minor": np.array([int(paddle.version.major), int(paddle.version.minor)]),
            "dunder": np.array([int(p) for p in paddle.__version__.split(".")[:2]])}


def arange_dtypes(paddle):
    """paddle.arange without dtype: 2.5+ gives the default float dtype when a bound is a float number or tensor (2.4:
    int64, the float bounds truncated)."""
    return {"float_end": _a(paddle.arange(3.5)), "float_bound": _a(paddle.arange(1, 3.5)),
            "int_bounds": _a(paddle.arange(5)), "np_int": _a(paddle.arange(np.int32(5))),
            "float_tensor": _a(paddle.arange(paddle.to_tensor(5.0))),
            "int_tensor": _a(paddle.arange(paddle.to_tensor(5)))}


CASES = [full_reductions, reductions_over_axes, to_tensor_scalars, indexing, losses, metrics, other_scalars,
         zero_d_arguments, gradients, lr_scheduler, save_load, jit_save_inference, static_program, static_lr_scheduler,
         version, nn_zero_d, arange_dtypes]

# At level 2.4 every 0-D result of the golden is shape [1]; these differ otherwise: "case.name" -> 2.4's shape
# (None: the same as 2.6.2's, e.g. where the input itself was 0-D at 2.6 only)
SHAPES_24 = {
    "arange_dtypes.float_end": (3,),  # int64 [0, 1, 2] at 2.4 (VALUES_24 / DTYPES_24 in the test)
    "arange_dtypes.float_bound": (2,),
    "other_scalars.dot_2d": (2, 1),  # 2.4's DotInferMeta keeps the reduced dim
    "other_scalars.stack_scalars": (2, 1),  # the stacked scalars are [1] each
    "other_scalars.unsqueeze_0d": (1, 1),
    "other_scalars.assign_np_scalar": (),  # 2.6 wraps a numpy scalar in a list; ours at 2.4 keeps it 0-D
    "indexing.iter": None,  # iterating a Tensor gives 0-D elements here at every level (not x[i]'s [1] at 2.4)
    "indexing.iter_shape": None,
    "other_scalars.matmul_1d": None,
    "other_scalars.squeeze_1": None,  # squeeze of [1] is 0-D here at every level
    "indexing.unbind0": None,  # unbind gives 0-D pieces here at every level  # matmul of two vectors is 0-D here at every level
    "indexing.gather_0d": (1,),
    "to_tensor_scalars.np_0d": None,  # a 0-D numpy array stays 0-D at every level
    "static_program.var_ranks": None,
    "static_lr_scheduler.lr_var_rank": None,
    "static_program.fetch0": (1,),
    "static_program.fetch3": None,  # d is 0-D data at both levels
    "gradients.item": None,
    "gradients.float": None,
    "gradients.int": None,
    "lr_scheduler.lr": None,
    "metrics.accumulate": None,
    "version.major_minor": None,
    "version.dunder": None,
    "zero_d_arguments.full_empty_shape": None,  # an explicit shape [] is 0-D at every level
    "zero_d_arguments.ones_empty_shape": None,
    "nn_zero_d.one_hot": (1, 3),  # the index t(1) is [1] at 2.4
    "nn_zero_d.embedding": (1, 2),
    "nn_zero_d.flatten_0d": None,  # paddle.ones([]) is 0-D at every level; flatten gives [1]
    "nn_zero_d.flatten_0d_axis1_raises": None,  # a Python bool
}
