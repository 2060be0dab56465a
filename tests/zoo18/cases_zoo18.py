"""Reduced cases of the PaddlePaddle/models release/1.8 failure classes (tools/zoo18/run.py found them), one row
each, run under real 1.8.5 by tools/oracle/rec_run18.py (golden tests/goldens/zoo18_classes) and here by
tests/zoo18/test_zoo18_classes.py. Each case builds its own program and sets every parameter explicitly.

- act_*: `act="name"` strings append the op with its C++ attribute defaults (hard_sigmoid slope 0.2, ...).
- se_block: MobileNetV3's hard_swish and squeeze-excitation (conv2d act='hard_sigmoid', elementwise_mul axis=0).
- lstm_*: dynamic_lstm training, two SGD steps: loss and every gradient of step 1, loss of step 2, for hidden
  sizes that take 1.8.5's AVX kernel (multiple of 8) and that do not, with and without peepholes, reversed,
  and with the Cell output in the loss.
- depthwise_names: parameter names of unnamed depthwise convolutions (use_cudnn False / True).
- sparse_opt_*: an is_sparse embedding (ncf's GMF / MLP / NeuMF) against a dense one under each optimizer, with
  and without L2Decay: 1.8.5's Adam on a SelectedRows gradient corrects step t with b^(t+1), and lazy_mode.
"""
import numpy as np

ACTS = ("hard_sigmoid", "leaky_relu", "relu6", "hard_swish", "elu", "swish", "softplus", "brelu", "soft_relu",
        "stanh", "thresholded_relu", "hard_shrink", "softshrink", "gelu", "selu", "softsign", "tanh_shrink")
X_ACT = np.array([[-30.0, -2.5, -1.5, -0.4], [0.25, 0.9, 1.5, 2.5], [3.5, 7.0, 30.0, 45.0]], "float32")


def _fresh(fluid):
    return fluid.Program(), fluid.Program(), fluid.Scope()


def _set(fluid, scope, names, seed, std=0.3):
    rng = np.random.RandomState(seed)
    for n in sorted(names):
        t = scope.find_var(n).get_tensor()
        t.set(rng.normal(0.0, std, np.array(t).shape).astype("float32"), fluid.CPUPlace())


def acts(fluid):
    main, start, scope = _fresh(fluid)
    out = {}
    with fluid.program_guard(main, start), fluid.unique_name.guard():
        x = fluid.data("x", [3, 4], "float32")
        eye = fluid.initializer.NumpyArrayInitializer(np.eye(4, dtype="float32"))
        ys = [fluid.layers.fc(x, 4, act=a, bias_attr=False, param_attr=fluid.ParamAttr(initializer=eye))
              for a in ACTS]
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(scope):
        exe.run(start)
        for a, v in zip(ACTS, exe.run(main, feed={"x": X_ACT}, fetch_list=ys)):
            out[a] = np.abs(v) if a in ("thresholded_relu",) else v  # 1.8.5 keeps -0.0 there; the value is 0
    return out


def se_block(fluid):
    """MobileNetV3 (PaddleCV/image_classification/models/mobilenet_v3.py) hard_swish and se_block, written
    here from their description: x * relu6(x + 3) / 6; global avg pool, 1x1 conv act relu, 1x1 conv
    act hard_sigmoid, elementwise_mul(x, gate, axis=0). Forward, then one SGD step's loss and gradients."""
    main, start, scope = _fresh(fluid)
    with fluid.program_guard(main, start), fluid.unique_name.guard():
        x = fluid.data("x", [2, 8, 5, 5], "float32")
        h = x * fluid.layers.relu6(x + 3) / 6.0
        pool = fluid.layers.pool2d(h, pool_type="avg", global_pooling=True, use_cudnn=False)
        c1 = fluid.layers.conv2d(pool, 2, 1, act="relu")
        c2 = fluid.layers.conv2d(c1, 8, 1, act="hard_sigmoid")
        y = fluid.layers.elementwise_mul(x=h, y=c2, axis=0)
        loss = fluid.layers.mean(y * y)
        fluid.optimizer.SGD(0.5).minimize(loss)
        params = [p.name for p in main.global_block().all_parameters()]
    exe = fluid.Executor(fluid.CPUPlace())
    rng = np.random.RandomState(3)
    xv = rng.normal(0, 2.0, (2, 8, 5, 5)).astype("float32")
    with fluid.scope_guard(scope):
        exe.run(start)
        _set(fluid, scope, params, 4, std=1.0)
        got = exe.run(main, feed={"x": xv}, fetch_list=[c2, y, loss] + [p + "@GRAD" for p in sorted(params)])
        (loss2,) = exe.run(main, feed={"x": xv}, fetch_list=[loss])
    out = {"gate": got[0], "out": got[1], "loss1": got[2], "loss2": loss2}
    out.update({"grad_" + p: g for p, g in zip(sorted(params), got[3:])})
    return out


def _lstm(hid, reverse=False, peep=True, use_cell=False):
    def case(fluid):
        main, start, scope = _fresh(fluid)
        with fluid.program_guard(main, start), fluid.unique_name.guard():
            x = fluid.data("x", [None, 6], "float32", lod_level=1)
            fc0 = fluid.layers.fc(x, 4 * hid)
            h, c = fluid.layers.dynamic_lstm(fc0, 4 * hid, use_peepholes=peep, is_reverse=reverse)
            p = fluid.layers.sequence_pool(h, "max")
            loss = fluid.layers.mean(fluid.layers.fc(fluid.layers.tanh(p), 1))
            if use_cell:
                loss = loss + fluid.layers.mean(fluid.layers.sequence_last_step(c))
            fluid.optimizer.SGD(0.5).minimize(loss)
            params = sorted(v.name for v in main.global_block().all_parameters())
        exe = fluid.Executor(fluid.CPUPlace())
        rng = np.random.RandomState(7)
        xv = rng.normal(0, 1, (9, 6)).astype("float32")
        with fluid.scope_guard(scope):
            exe.run(start)
            _set(fluid, scope, params, 8)
            feed = {"x": fluid.create_lod_tensor(xv, [[4, 5]], fluid.CPUPlace())}
            got = [np.array(t) for t in exe.run(main, feed=feed, fetch_list=[loss, h] + [n + "@GRAD" for n in params],
                                                return_numpy=False)]
            (loss2,) = exe.run(main, feed=feed, fetch_list=[loss])
        out = {"loss1": got[0], "hidden": got[1], "loss2": loss2}
        out.update({"grad_" + n: g for n, g in zip(params, got[2:])})
        return out

    return case


def depthwise_names(fluid):
    main, start, _ = _fresh(fluid)
    with fluid.program_guard(main, start), fluid.unique_name.guard():
        x = fluid.data("x", [2, 4, 8, 8], "float32")
        fluid.layers.conv2d(x, 4, 3, groups=4)
        fluid.layers.conv2d(x, 4, 3, groups=4, use_cudnn=False)
        fluid.layers.conv2d(x, 8, 3, groups=4, use_cudnn=False)
        fluid.layers.conv2d(x, 4, 3, groups=2, use_cudnn=False)
        fluid.layers.conv2d(x, 4, 3, groups=4, use_cudnn=False, name="named")
        fluid.layers.conv2d(x, 4, 3, groups=4, use_cudnn=False, bias_attr=False)
    return {"names": np.array([p.name for p in main.global_block().all_parameters()])}


def create_parameter_names(fluid):
    """Unnamed fluid.layers.create_parameter: create_parameter_N.w_0 / .b_0 (xdeepfm's b_linear)."""
    main, start, _ = _fresh(fluid)
    with fluid.program_guard(main, start), fluid.unique_name.guard():
        fluid.layers.create_parameter([1], "float32")
        fluid.layers.create_parameter([2], "float32", is_bias=True)
        fluid.layers.create_parameter([2], "float32", name="named")
    return {"names": np.array([p.name for p in main.global_block().all_parameters()])}


def auc_no_window(fluid):
    """fluid.layers.auc(slide_steps=0) (deepfm, xdeepfm): the batch AUC accumulates over runs like the global."""
    main, start, scope = _fresh(fluid)
    with fluid.program_guard(main, start), fluid.unique_name.guard():
        x = fluid.data("x", [6, 2], "float32")
        y = fluid.data("y", [6, 1], "int64")
        g, b, _ = fluid.layers.auc(x, y, slide_steps=0, num_thresholds=15)
    rng = np.random.RandomState(5)
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    with fluid.scope_guard(scope):
        exe.run(start)
        for i in range(3):
            p = rng.uniform(0, 1, (6, 1)).astype("float32")
            got = exe.run(main, feed={"x": np.concatenate([1 - p, p], 1), "y": rng.randint(0, 2, (6, 1))},
                          fetch_list=[g, b])
            out["global%d" % i], out["batch%d" % i] = np.array(got[0]), np.array(got[1])
    return out


CASES = {"acts": acts, "create_parameter_names": create_parameter_names, "auc_no_window": auc_no_window, "se_block": se_block, "depthwise_names": depthwise_names}
for _h in (4, 8, 16):
    CASES["lstm_h%d" % _h] = _lstm(_h)
CASES["lstm_h8_reverse"] = _lstm(8, reverse=True)
CASES["lstm_h8_nopeep"] = _lstm(8, peep=False)
CASES["lstm_h8_cell_in_loss"] = _lstm(8, use_cell=True)
CASES["lstm_h6_cell_in_loss"] = _lstm(6, use_cell=True)


# the optimizers 1.8.5 runs on a SelectedRows gradient (its Adamax, DecayedAdagrad, Adadelta and Ftrl kernels
# reject one)
SPARSE_OPTS = (("SGD", {}), ("Momentum", {"momentum": 0.9}), ("Adagrad", {}), ("Adam", {}),
               ("Adam_lazy", {"lazy_mode": True}), ("RMSProp", {}), ("Lamb", {}))


def _sparse_opt(name, kw, sparse, l2):
    """An is_sparse embedding (a SelectedRows gradient in 1.8.5) against the same net with a dense one, trained
    three steps by optimizer `name` (ncf's GMF / MLP / NeuMF: Adam on is_sparse embeddings), with and without
    an L2Decay regularizer: the table after each step. Step 2 looks up one row twice, step 3 two other rows."""

    def case(fluid):
        main, start, scope = _fresh(fluid)
        with fluid.program_guard(main, start), fluid.unique_name.guard():
            ids = fluid.data("ids", [None, 1], "int64")
            init = fluid.initializer.NumpyArrayInitializer(
                np.random.RandomState(3).normal(0.0, 0.5, [5, 3]).astype("float32"))
            emb = fluid.embedding(ids, size=[5, 3], is_sparse=sparse, param_attr=fluid.ParamAttr(name="w", initializer=init))
            loss = fluid.layers.mean(fluid.layers.square(emb - 0.3))
            opt = getattr(fluid.optimizer, name.split("_")[0])(
                learning_rate=0.1, regularization=fluid.regularizer.L2Decay(0.5) if l2 else None, **kw)
            opt.minimize(loss)
        exe = fluid.Executor(fluid.CPUPlace())
        out = {}
        with fluid.scope_guard(scope):
            exe.run(start)
            for i, rows in enumerate(([[1], [3]], [[1], [1]], [[0], [4]])):
                out["loss%d" % i] = exe.run(main, feed={"ids": np.array(rows, "int64")}, fetch_list=[loss])[0]
                out["w%d" % i] = np.array(scope.find_var("w").get_tensor())
        return out

    return case


for _name, _kw in SPARSE_OPTS:
    for _sparse in (False, True):
        for _l2 in (False, True):
            CASES["sparse_opt_%s_%s%s" % (_name, "sparse" if _sparse else "dense", "_l2" if _l2 else "")] = \
                _sparse_opt(_name, _kw, _sparse, _l2)
