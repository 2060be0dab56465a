"""fluid.layers.rnn with GRUCell / LSTMCell against numpy, dygraph and static, with sequence_length masks."""

from __future__ import annotations

import numpy as np
import pytest


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _ref(kind, xs, params, lens, h_dim):
    b, t, _ = xs.shape
    h = np.zeros((b, h_dim))
    c = np.zeros((b, h_dim))
    outs = np.zeros((b, t, h_dim))
    for s in range(t):
        x = xs[:, s]
        xh = np.concatenate([x, h], 1)
        if kind == "gru":
            gw, cw, gb, cb = params
            g = _sig(xh @ gw + gb)
            r, u = g[:, :h_dim], g[:, h_dim:]
            cand = np.tanh(np.concatenate([x, r * h], 1) @ cw + cb)
            nh, nc = u * h + (1 - u) * cand, c
        else:
            w, bias = params
            g = xh @ w + bias
            i, j, f, o = np.split(g, 4, 1)
            nc = c * _sig(f + 1.0) + _sig(i) * np.tanh(j)
            nh = np.tanh(nc) * _sig(o)
        m = (s < lens)[:, None]
        h, c = np.where(m, nh, h), np.where(m, nc, c)
        outs[:, s] = nh  # Paddle 1.8 masks the states only (tests/fluid/cases_layers18.py cell_*: the goldens)
    return outs, h


def _cell_params(cell, kind):
    u = cell.gru_unit if kind == "gru" else cell.lstm_unit
    return ([u._gate_weight, u._candidate_weight, u._gate_bias, u._candidate_bias] if kind == "gru"
            else [u._weight, u._bias])


@pytest.mark.parametrize("kind", ["gru", "lstm"])
@pytest.mark.parametrize("static", [False, True])
def test_rnn_matches_numpy(kind, static):
    import paddle

    fluid = paddle.fluid
    L = fluid.layers
    rs = np.random.RandomState(0)
    xs = rs.randn(3, 4, 5).astype("float32")
    lens = np.array([4, 2, 3], "int64")
    cell = L.GRUCell(6) if kind == "gru" else L.LSTMCell(6)
    if static:
        paddle.enable_static()
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            x = fluid.data("x", [3, 4, 5], "float32")
            n = fluid.data("n", [3], "int64")
            out, st = L.rnn(cell, x, sequence_length=n)
            last_h = st if kind == "gru" else st[0]
        exe = fluid.Executor(fluid.CPUPlace())
        exe.run(startup)
        o, h = exe.run(main, feed={"x": xs, "n": lens}, fetch_list=[out, last_h])
        params = [np.array(fluid.global_scope().find_var(p.name).get_tensor()) for p in _cell_params(cell, kind)]
    else:
        out, st = L.rnn(cell, paddle.to_tensor(xs), sequence_length=paddle.to_tensor(lens))
        o, h = out.numpy(), (st if kind == "gru" else st[0]).numpy()
        params = [p.numpy() for p in _cell_params(cell, kind)]
    ro, rh = _ref(kind, xs.astype("float64"), [p.astype("float64") for p in params], lens, 6)
    np.testing.assert_allclose(o, ro, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h, rh, rtol=1e-4, atol=1e-5)


def _rnn_program(fluid, kind, shape, reverse, time_major):
    """(main, startup, fetches) of rnn over x [shape] with lengths, its loss and d(loss)/dx; same parameter names
    for every call (unique_name guard)."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.data("x", shape, "float32")
        x.stop_gradient = False
        n = fluid.data("n", [None], "int64")
        cell = fluid.layers.GRUCell(6) if kind == "gru" else fluid.layers.LSTMCell(6)
        out, states = fluid.layers.rnn(cell, x, sequence_length=n, is_reverse=reverse, time_major=time_major)
        loss = fluid.layers.reduce_sum(fluid.layers.square(out))
        (gx,) = fluid.backward.gradients([loss], [x])
    return main, startup, [out] + list(states if kind == "lstm" else [states]) + [loss, gx]


@pytest.mark.parametrize("kind,reverse,time_major", [("lstm", False, False), ("gru", True, False),
                                                      ("lstm", True, True)])
def test_rnn_with_an_unknown_time_length_runs_a_loop_equal_to_unrolling(kind, reverse, time_major):
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    rs = np.random.RandomState(3)
    xs = rs.randn(5, 3, 4).astype("float32") if time_major else rs.randn(3, 5, 4).astype("float32")
    feed = {"x": xs, "n": np.array([5, 2, 4], "int64")}
    scope = fluid.Scope()
    exe = fluid.Executor(fluid.CPUPlace())
    known = _rnn_program(fluid, kind, list(xs.shape), reverse, time_major)
    dynamic = _rnn_program(fluid, kind, [None, None, 4], reverse, time_major)
    exe.run(known[1], scope=scope)  # one set of parameters for both programs
    want = exe.run(known[0], feed=feed, fetch_list=known[2], scope=scope)
    got = exe.run(dynamic[0], feed=feed, fetch_list=dynamic[2], scope=scope)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    shorter = {"x": xs[:4] if time_major else xs[:, :4], "n": np.array([4, 2, 3], "int64")}
    assert exe.run(dynamic[0], feed=shorter, fetch_list=dynamic[2][:1], scope=scope)[0].shape[:2] == \
        ((4, 3) if time_major else (3, 4))
