"""Parity with real Paddle: programs replayed on goldens recorded by tools/oracle (tests/goldens/README.md)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from conftest import key, load_golden

RTOL = 1e-5
# each golden replays on CPU and, where there is one, on a GPU (the same numbers at fp32 precision)
PLACES = ["cpu", pytest.param("gpu", marks=pytest.mark.skipif(not torch.cuda.is_available(),
                                                                reason="needs a CUDA device"))]


def _place(where):
    import paddle

    return paddle.CPUPlace() if where == "cpu" else paddle.CUDAPlace(0)


def _set_params(scope, arrays, names, place):
    for n in names:
        scope.find_var(n).get_tensor().set(arrays[key("init", n)], place)


def _fit_a_line(spelling: str):
    import paddle

    if spelling == "fluid":
        import paddle.fluid as fluid

        x = fluid.layers.data(name="x", shape=[13], dtype="float32")
        y = fluid.layers.data(name="y", shape=[1], dtype="float32")
        pred = fluid.layers.fc(input=x, size=1)
        avg = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        fluid.optimizer.SGD(learning_rate=0.01).minimize(avg)
        return fluid, avg, pred
    paddle.enable_static()
    x = paddle.static.data("x", [None, 13])
    y = paddle.static.data("y", [None, 1])
    pred = paddle.static.nn.fc(x, 1)
    avg = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
    paddle.optimizer.SGD(learning_rate=0.01).minimize(avg)
    return paddle.static, avg, pred


@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize("case,spelling", [("fit_a_line_fluid18", "fluid"), ("fit_a_line_static26", "static")])
def test_fit_a_line(case, spelling, where):
    meta, g = load_golden(case)
    api, avg, pred = _fit_a_line(spelling)
    main = api.default_main_program()
    if spelling == "fluid":
        assert [op.type for op in main.global_block().ops] == meta["op_types"]
        assert pred.name == meta["pred_name"] and avg.name == meta["avg_name"]
    exe = api.Executor(_place(where))
    exe.run(api.default_startup_program())
    scope = api.global_scope()
    _set_params(scope, g, ["fc_0.w_0", "fc_0.b_0"], exe.place)
    losses = []
    for i in range(len(g["losses"])):
        fetch = [avg, pred] if i == 0 else [avg]
        out = exe.run(main, feed={"x": g["xs"][i], "y": g["ys"][i]}, fetch_list=fetch)
        assert out[0].shape == (1,)  # Paddle 2.4 / 1.8: full reductions have shape [1]
        losses.append(out[0][0])
        if i == 0:
            np.testing.assert_allclose(out[1], g["pred_step0"], rtol=RTOL, atol=1e-6)
    np.testing.assert_allclose(losses, g["losses"], rtol=RTOL)
    for n in ("fc_0.w_0", "fc_0.b_0"):
        np.testing.assert_allclose(np.array(scope.find_var(n).get_tensor()), g[key("final", n)], rtol=RTOL,
                                   atol=1e-7)


def _mlp(spelling: str):
    import paddle

    if spelling == "fluid":
        import paddle.fluid as fluid

        x = fluid.layers.data("x", [20])
        label = fluid.layers.data("label", [1], dtype="int64")
        h1 = fluid.layers.fc(x, 32, act="relu")
        h2 = fluid.layers.fc(h1, 32, act="relu")
        logits = fluid.layers.fc(h2, 4)
        ce = fluid.layers.softmax_with_cross_entropy(logits, label)
        loss = fluid.layers.mean(ce)
        acc = fluid.layers.accuracy(input=fluid.layers.softmax(logits), label=label)
        test_prog = fluid.default_main_program().clone(for_test=True)
        fluid.optimizer.Adam(learning_rate=0.01, regularization=fluid.regularizer.L2Decay(1e-4)).minimize(loss)
        return fluid, loss, acc, logits, test_prog
    paddle.enable_static()
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 20])
    label = paddle.static.data("label", [None, 1], "int64")
    h1 = paddle.static.nn.fc(x, 32, activation="relu")
    h2 = paddle.static.nn.fc(h1, 32, activation="relu")
    logits = paddle.static.nn.fc(h2, 4)
    loss = paddle.mean(F.cross_entropy(logits, label))
    acc = paddle.static.accuracy(F.softmax(logits), label)
    test_prog = paddle.static.default_main_program().clone(for_test=True)
    paddle.optimizer.Adam(learning_rate=0.01, weight_decay=paddle.regularizer.L2Decay(1e-4),
                          grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0)).minimize(loss)
    return paddle.static, loss, acc, logits, test_prog


@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize("case,spelling", [("mlp_adam_static26", "static"), ("mlp_adam_fluid18", "fluid")])
def test_mlp_adam_accuracy_and_test_clone(case, spelling, where):
    meta, g = load_golden(case)
    api, loss, acc, logits, test_prog = _mlp(spelling)
    exe = api.Executor(_place(where))
    exe.run(api.default_startup_program())
    scope = api.global_scope()
    params = [f"fc_{i}.{k}_0" for i in range(3) for k in ("w", "b")]
    _set_params(scope, g, params, exe.place)
    main = api.default_main_program()
    losses, accs = [], []
    for i in range(len(g["losses"])):
        fetch = [loss, acc] + (["fc_0.w_0@GRAD", logits] if i == 0 else [])
        out = exe.run(main, feed={"x": g["xs"][i], "label": g["labels"][i]}, fetch_list=fetch)
        losses.append(float(out[0][0]))
        accs.append(float(out[1][0]))
        if i == 0:
            np.testing.assert_allclose(out[2], g["step0_fetched__fc_0_w_0_AT_GRAD"], rtol=1e-4, atol=1e-7)
            np.testing.assert_allclose(out[3], g["step0_logits"], rtol=RTOL, atol=1e-5)
    np.testing.assert_allclose(losses, g["losses"], rtol=RTOL, atol=1e-6)
    np.testing.assert_allclose(accs, g["accs"], rtol=RTOL)
    for n in params:
        # Adam normalizes each step, so float-rounding differences of near-zero gradients show up as ~1e-6
        np.testing.assert_allclose(np.array(scope.find_var(n).get_tensor()), g[key("final", n)], rtol=RTOL,
                                   atol=1e-5)
    t_loss, t_acc, t_logits = exe.run(test_prog, feed={"x": g["x_test"], "label": g["y_test"]},
                                      fetch_list=[loss, acc, logits])
    np.testing.assert_allclose(t_logits, g["test_logits"], rtol=RTOL, atol=1e-5)
    np.testing.assert_allclose(t_loss.reshape(-1)[0], g["test_loss"].reshape(-1)[0], rtol=RTOL)
    np.testing.assert_allclose(t_acc.reshape(-1)[0], g["test_acc"].reshape(-1)[0], rtol=RTOL)
