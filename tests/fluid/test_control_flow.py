"""Static control flow with sub-blocks: cond (gradients through both branches in a training loop),
while_loop, fluid While with arrays, Switch, IfElse, StaticRNN; and the dygraph paths."""

from __future__ import annotations

import numpy as np
import pytest


def _static():
    import paddle

    paddle.enable_static()
    return paddle, paddle.fluid


def test_cond_training_grads_through_both_branches():
    paddle, fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [4, 3], "float32")
        flag = fluid.data("flag", [1], "bool")
        h = fluid.layers.fc(x, 2, param_attr=fluid.ParamAttr(name="w"), bias_attr=False)
        out = paddle.static.nn.cond(flag, lambda: h * 2.0, lambda: h * h)
        loss = fluid.layers.mean(out)
        fluid.optimizer.SGD(0.0).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    w = np.array([[0.5, -0.25], [0.75, 1.0], [-0.5, 0.25]], "float32")  # fixed: no dependence on the random init
    fluid.global_scope().find_var("w").get_tensor().set(w, fluid.CPUPlace())
    xv = np.random.RandomState(0).rand(4, 3).astype("float32")
    for flag_v, dfn in ((True, lambda hv: 2.0 * np.ones_like(hv)), (False, lambda hv: 2 * hv)):
        o, g = exe.run(main, feed={"x": xv, "flag": np.array([flag_v])}, fetch_list=[out, "w@GRAD"])
        hv = xv @ w
        np.testing.assert_allclose(o, hv * 2 if flag_v else hv * hv, rtol=1e-5)
        np.testing.assert_allclose(g, xv.T @ (dfn(hv) / hv.size), rtol=1e-5, atol=1e-6)


def test_cond_trains_params_created_in_branch():
    paddle, fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [8, 3], "float32")
        y = fluid.data("y", [8, 1], "float32")
        pred = fluid.layers.fill_constant([1], "bool", True)
        out = fluid.layers.cond(pred, lambda: fluid.layers.fc(x, 1), lambda: fluid.layers.fc(x, 1))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(out, y))
        fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    rs = np.random.RandomState(1)
    xv = rs.rand(8, 3).astype("float32")
    yv = xv.sum(1, keepdims=True).astype("float32")
    losses = [exe.run(main, feed={"x": xv, "y": yv}, fetch_list=[loss])[0].item() for _ in range(30)]
    assert losses[-1] < losses[0] * 0.5


def test_while_loop_sum():
    paddle, fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        i = fluid.layers.fill_constant([1], "int64", 0)
        ten = fluid.layers.fill_constant([1], "int64", 10)
        s = fluid.data("s", [2], "float32")
        i2, s2 = paddle.static.nn.while_loop(lambda i, s: i < ten, lambda i, s: [i + 1, s + i.astype("float32")],
                                             [i, s])
    exe = fluid.Executor(fluid.CPUPlace())
    a, b = exe.run(main, feed={"s": np.array([1.0, 2.0], "float32")}, fetch_list=[i2, s2])
    assert a.tolist() == [10]
    np.testing.assert_allclose(b, [46.0, 47.0])


def test_while_loop_gradient():
    paddle, fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [3], "float32")
        x.stop_gradient = False
        i = fluid.layers.fill_constant([1], "int32", 0)
        n = fluid.layers.fill_constant([1], "int32", 3)
        one = fluid.layers.fill_constant([3], "float32", 1.0)
        _, y = fluid.layers.while_loop(lambda i, y: i < n, lambda i, y: [i + 1, y * x], [i, one])
        loss = fluid.layers.reduce_sum(y)
        (gx,) = fluid.gradients(loss, [x])
    exe = fluid.Executor(fluid.CPUPlace())
    xv = np.array([1.0, 2.0, 0.5], "float32")
    yv, g = exe.run(main, feed={"x": xv}, fetch_list=[y, gx])
    np.testing.assert_allclose(yv, xv ** 3, rtol=1e-6)
    np.testing.assert_allclose(g, 3 * xv ** 2, rtol=1e-6)


def test_fluid_while_with_arrays():
    paddle, fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        d0 = fluid.data("d0", [2], "float32")
        i = fluid.layers.zeros([1], "int64")
        limit = fluid.layers.fill_constant([1], "int64", 4)
        arr = fluid.layers.array_write(d0, i)
        acc = fluid.layers.fill_constant([2], "float32", 0.0)
        cond = fluid.layers.less_than(i, limit)
        loop = fluid.layers.While(cond)
        with loop.block():
            prev = fluid.layers.array_read(arr, i)
            nxt = prev * 2.0
            fluid.layers.increment(i, in_place=True)
            fluid.layers.array_write(nxt, i, array=arr)
            fluid.layers.assign(acc + nxt, output=acc)
            fluid.layers.less_than(i, limit, cond=cond)
        n = fluid.layers.array_length(arr)
        last = fluid.layers.array_read(arr, i)
        stacked, _ = fluid.layers.tensor_array_to_tensor(arr, axis=0, use_stack=True)
    exe = fluid.Executor(fluid.CPUPlace())
    r = exe.run(main, feed={"d0": np.array([1.0, 3.0], "float32")}, fetch_list=[n, i, last, acc, stacked])
    assert r[0].tolist() == [5] and r[1].tolist() == [4]
    np.testing.assert_allclose(r[2], [16.0, 48.0])
    np.testing.assert_allclose(r[3], [30.0, 90.0])
    assert r[4].shape == (5, 2)


def test_switch_piecewise():
    paddle, fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        step = fluid.data("step", [1], "float32")
        lr = fluid.layers.create_global_var([1], 0.0, "float32", persistable=False, name="lr")
        b1 = fluid.layers.fill_constant([1], "float32", 10.0)
        b2 = fluid.layers.fill_constant([1], "float32", 20.0)
        with fluid.layers.Switch() as switch:
            with switch.case(step < b1):
                fluid.layers.assign(fluid.layers.fill_constant([1], "float32", 1.0), output=lr)
            with switch.case(step < b2):
                fluid.layers.assign(fluid.layers.fill_constant([1], "float32", 0.5), output=lr)
            with switch.default():
                fluid.layers.assign(fluid.layers.fill_constant([1], "float32", 0.1), output=lr)
    exe = fluid.Executor(fluid.CPUPlace())
    got = [exe.run(main, feed={"step": np.array([s], "float32")}, fetch_list=[lr])[0].item() for s in (3, 12, 30)]
    np.testing.assert_allclose(got, [1.0, 0.5, 0.1])


def test_ifelse_routes_rows():
    paddle, fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [-1, 2], "float32")
        zero = fluid.layers.fill_constant([1], "float32", 0.0)
        c = fluid.layers.less_than(fluid.layers.reduce_sum(x, dim=1, keep_dim=True), zero)
        ie = fluid.layers.IfElse(c)
        with ie.true_block():
            ie.output(ie.input(x) * -1.0)
        with ie.false_block():
            ie.output(ie.input(x) + 100.0)
        (out,) = ie()
    exe = fluid.Executor(fluid.CPUPlace())
    xv = np.array([[1, 2], [-3, -4], [5, -6]], "float32")
    (o,) = exe.run(main, feed={"x": xv}, fetch_list=[out])
    np.testing.assert_allclose(o, [[101, 102], [3, 4], [-5, 6]])


def test_static_rnn_matches_numpy():
    paddle, fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    T, B, D, H = 5, 3, 4, 6
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [T, B, D], "float32")
        rnn = fluid.layers.StaticRNN()
        with rnn.step():
            word = rnn.step_input(x)
            prev = rnn.memory(shape=[-1, H], batch_ref=word)
            hidden = fluid.layers.fc([word, prev], H, act="tanh",
                                     param_attr=[fluid.ParamAttr(name="wx"), fluid.ParamAttr(name="wh")],
                                     bias_attr=fluid.ParamAttr(name="b"))
            rnn.update_memory(prev, hidden)
            rnn.step_output(hidden)
        out = rnn()
        loss = fluid.layers.mean(out)
        fluid.optimizer.SGD(0.0).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    sc = fluid.global_scope()
    wx, wh, b = (np.array(sc.find_var(n).get_tensor()) for n in ("wx", "wh", "b"))
    xv = np.random.RandomState(2).rand(T, B, D).astype("float32")
    o, gb = exe.run(main, feed={"x": xv}, fetch_list=[out, "b@GRAD"])
    h = np.zeros((B, H), "float32")
    ref = []
    for t in range(T):
        h = np.tanh(xv[t] @ wx + h @ wh + b)
        ref.append(h)
    np.testing.assert_allclose(o, np.stack(ref), rtol=1e-5, atol=1e-6)
    assert o.shape == (T, B, H) and gb.shape == (H,) and np.abs(gb).sum() > 0


def test_dygraph_cond_and_while_loop_run_python():
    import paddle

    x = paddle.to_tensor([2.0])
    assert float(paddle.static.nn.cond(x > 1.0, lambda: x * 3, lambda: x)) == 6.0
    i, s = paddle.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s + i],
                                       [paddle.to_tensor([0]), paddle.to_tensor([0])])
    assert int(i) == 3 and int(s) == 3


def test_cond_errors():
    paddle, fluid = _static()
    with fluid.program_guard(fluid.Program()):
        x = fluid.data("x", [1], "float32")
        with pytest.raises(TypeError, match="bool"):
            fluid.layers.cond(x, lambda: x, lambda: x)
        p = fluid.layers.fill_constant([1], "bool", True)
        with pytest.raises(ValueError, match="same number of outputs"):
            fluid.layers.cond(p, lambda: [x, x], lambda: x)
        with pytest.raises(TypeError, match="callable"):
            fluid.layers.cond(p, 3, None)


def test_clone_for_test_switches_ops_inside_sub_blocks():
    import numpy as np
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 8])
        flag = paddle.static.data("flag", [1], "bool")
        out = paddle.static.nn.cond(flag, lambda: paddle.nn.functional.dropout(x, 0.5), lambda: x * 1.0)
    test = main.clone(for_test=True)
    exe = paddle.static.Executor()
    exe.run(startup)
    feed = {"x": np.ones((4, 8), "float32"), "flag": np.array([True])}
    t1, = exe.run(test, feed=feed, fetch_list=[out])
    np.testing.assert_array_equal(t1, feed["x"])  # upscale_in_train: identity at inference
    tr, = exe.run(main, feed=feed, fetch_list=[out])
    assert (tr == 0).any()  # the training program still drops


def test_fetching_an_array_gives_numpy_arrays_or_a_lod_tensor_array():
    _, fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [2, 3], "float32")
        i = fluid.layers.zeros([1], "int64")
        arr = fluid.layers.array_write(x, i)
        fluid.layers.array_write(x * 2.0, i + 1, array=arr)
    exe = fluid.Executor(fluid.CPUPlace())
    feed = {"x": np.ones([2, 3], "float32")}
    (got,) = exe.run(main, feed=feed, fetch_list=[arr])
    assert isinstance(got, list) and all(isinstance(a, np.ndarray) for a in got)
    np.testing.assert_array_equal(got[1], np.full([2, 3], 2.0, "float32"))
    (got,) = exe.run(main, feed=feed, fetch_list=[arr], return_numpy=False)
    assert isinstance(got, fluid.LoDTensorArray) and len(got) == 2
    assert isinstance(got[0], fluid.LoDTensor)
    np.testing.assert_array_equal(np.array(got[0]), feed["x"])
