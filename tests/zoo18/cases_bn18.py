"""Training batch norm at batch 2 under the image-classification rows' optimizer (issue 24 item 2), one row each,
run under real 1.8.5 by tools/oracle/rec_run18.py (golden tests/goldens/zoo18_bn18) and here by
tests/zoo18/test_bn18.py.

The zoo's batch-norm nets at batch 2 (ResNet34, ResNet50_vc / _vd, ShuffleNetV2_x0_33, Xception41_deeplab,
MobileNetV3_large_x0_75) part from 1.8.5 after an optimizer step because a ReLU input within ~1e-5 of zero
takes the other sign (rounding noise of the size a one-ulp parameter nudge gives 1.8.5 itself), not because an op
computes differently. These rows pin the ops the step runs, with channels of low batch variance and no input near a
ReLU kink: conv2d + batch_norm (training: batch statistics, running-stat update, backward) + relu, a 2-D
batch_norm over two rows (N*HW = 2: the variance is ((a - b) / 2)^2), global pooling, fc, softmax cross entropy,
and Momentum 0.9 with L2Decay 1e-4 (a `scale` and a `sum` op per parameter, then `momentum`), three steps.
Each row records the loss of every step, every parameter's gradient of step 1 (after the decay is added), and every
persistable (parameters, running statistics, velocities) after each step.

sce_huge_logits: softmax_with_cross_entropy of a confidently wrong sample at logit scales up to 1e30 (VGG19 of
the zoo reaches 7e11 after two Momentum steps at batch 2): 1.8.5 clips the shifted logits at -64, so that sample
costs 64, and the gradient is softmax - label.
"""
import numpy as np

STEPS = 3


def _params(scope, main, fluid, seed, low_var):
    """Every parameter drawn by name; channels of `low_var` get a filter of scale 1e-3 on a shared offset, so
    their batch variance is ~1e-6 of the mean's square."""
    rng = np.random.RandomState(seed)
    for v in sorted(main.global_block().all_parameters(), key=lambda p: p.name):
        t = scope.find_var(v.name).get_tensor()
        shape = np.array(t).shape
        if v.name.startswith("batch_norm") and v.name.endswith((".w_1", ".w_2")):  # running mean 0, variance 1
            val = np.full(shape, 1.0 if v.name.endswith(".w_2") else 0.0)
        elif v.name.startswith("batch_norm") and v.name.endswith(".w_0"):
            val = 1.0 + rng.normal(0.0, 0.1, shape)
        elif v.name.startswith("batch_norm"):
            val = rng.normal(0.0, 0.1, shape)
        else:
            val = rng.normal(0.0, 0.3, shape)
            if v.name.startswith("conv2d") and len(shape) == 4 and low_var:
                val[:low_var] *= 1e-3
        t.set(val.astype("float32"), fluid.CPUPlace())


def _row(channels, size, low_var, bn_act, seed):
    def build(fluid):
        main, start, scope = fluid.Program(), fluid.Program(), fluid.Scope()
        main.random_seed = start.random_seed = 1
        with fluid.program_guard(main, start), fluid.unique_name.guard():
            x = fluid.data("x", [2, 3, size, size], "float32")
            label = fluid.data("label", [2, 1], "int64")
            h = fluid.layers.conv2d(x + 5.0, channels, 3, padding=1, bias_attr=False)
            h = fluid.layers.batch_norm(h, act=bn_act)
            if bn_act is None:
                h = fluid.layers.relu(h)
            h = fluid.layers.conv2d(h, channels, 1, bias_attr=False)
            h = fluid.layers.batch_norm(h, act="relu")
            pool = fluid.layers.pool2d(h, pool_type="avg", global_pooling=True)
            pool = fluid.layers.reshape(pool, [2, channels])
            logits = fluid.layers.fc(pool, 5)
            loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits, label))
            params = sorted(p.name for p in main.global_block().all_parameters() if p.trainable)
            fluid.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                     regularization=fluid.regularizer.L2Decay(1e-4)).minimize(loss)
        persist = sorted(v.name for v in main.list_vars() if v.persistable and "learning_rate" not in v.name)
        rng = np.random.RandomState(seed + 1)
        feed = {"x": rng.normal(0.0, 1.0, (2, 3, size, size)).astype("float32"),
                "label": np.array([[1], [3]], "int64")}
        exe = fluid.Executor(fluid.CPUPlace())
        out = {}
        with fluid.scope_guard(scope):
            exe.run(start)
            persist = [v for v in persist if np.array(scope.find_var(v).get_tensor()).dtype == np.float32]
            _params(scope, main, fluid, seed, low_var)
            for step in range(STEPS):
                got = exe.run(main, feed=feed, fetch_list=[loss] + ([p + "@GRAD" for p in params] if step == 0 else []))
                out["loss%d" % step] = np.asarray(got[0])
                if step == 0:
                    for p, g in zip(params, got[1:]):
                        out["grad/" + p] = np.asarray(g)
                for v in persist:
                    out["step%d/%s" % (step, v)] = np.array(scope.find_var(v).get_tensor())
        return out

    return build


def sce_huge_logits(fluid):
    main, start, scope = fluid.Program(), fluid.Program(), fluid.Scope()
    with fluid.program_guard(main, start), fluid.unique_name.guard():
        x = fluid.data("x", [2, 5], "float32")
        x.stop_gradient = False
        y = fluid.data("y", [2, 1], "int64")
        loss = fluid.layers.softmax_with_cross_entropy(x, y)
        mean = fluid.layers.mean(loss)
        grad = fluid.gradients([mean], [x])[0]
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    base = np.array([[1.0, 0.5, 0.0, 0.0, 0.0], [0.9, 0.1, -1.0, 0.0, 0.0]])
    with fluid.scope_guard(scope):
        for scale in (1.0, 1e2, 1e8, 2e9, 7e11, 1e30):
            got = exe.run(main, feed={"x": (base * scale).astype("float32"), "y": np.array([[0], [2]], "int64")},
                          fetch_list=[loss, mean, grad])
            for k, v in zip(("loss", "mean", "grad"), got):
                out["%s/%g" % (k, scale)] = np.asarray(v)
    return out


CASES = {
    "bn_relu_b2": _row(8, 6, 0, None, 3),
    "bn_relu_b2_low_var": _row(8, 6, 3, None, 5),
    "bn_act_relu_b2_low_var": _row(8, 6, 3, "relu", 7),
    "bn_relu_b2_1x1": _row(4, 1, 2, None, 11),
    "sce_huge_logits": sce_huge_logits,
}
