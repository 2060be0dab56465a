"""LoD end to end (a text classifier: embedding -> sequence_conv -> sequence_pool -> fc trains with
LoDTensor feeds from DataFeeder), LoD errors, and fluid top-level names."""

from __future__ import annotations

import numpy as np
import pytest


def _text_model(fluid):
    words = fluid.layers.data("words", [1], dtype="int64", lod_level=1)
    label = fluid.layers.data("label", [1], dtype="int64")
    emb = fluid.layers.embedding(words, [20, 8])
    conv = fluid.layers.sequence_conv(emb, 6, 3, act="tanh")
    pooled = fluid.layers.sequence_pool(conv, "max")
    pred = fluid.layers.fc(pooled, 2, act="softmax")
    loss = fluid.layers.mean(fluid.layers.cross_entropy(pred, label))
    return words, label, loss


def test_text_classifier_trains_with_lod_feeds():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        words, label, loss = _text_model(fluid)
        fluid.optimizer.Adam(0.05).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    rs = np.random.RandomState(0)
    samples = []
    for _ in range(16):
        y = int(rs.randint(0, 2))
        n = int(rs.randint(2, 6))
        toks = rs.randint(0, 10, n) + 10 * y  # class 1 uses ids 10..19
        samples.append((toks.tolist(), [y]))
    feeder = fluid.DataFeeder([words, label], fluid.CPUPlace())
    feed = feeder.feed(samples)
    assert feed["words"].recursive_sequence_lengths()[0] == [len(s[0]) for s in samples]
    losses = [exe.run(main, feed=feed, fetch_list=[loss])[0].item() for _ in range(25)]
    assert losses[-1] < 0.3 * losses[0]


def test_lod_errors_are_clear():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.layers.data("x", [4], dtype="float32", lod_level=1)
        dense = fluid.layers.data("d", [4], dtype="float32")
        out = fluid.layers.sequence_pool(x, "sum")
        with pytest.raises(ValueError, match="carries no LoD"):
            fluid.layers.sequence_pool(dense, "sum")
        with pytest.raises(ValueError, match="pool_type"):
            exe = fluid.Executor(fluid.CPUPlace())
            bad = fluid.layers.sequence_pool(x, "median")
            exe.run(main, feed={"x": fluid.create_lod_tensor(np.ones((3, 4), "float32"), [[1, 2]],
                                                             fluid.CPUPlace())}, fetch_list=[bad])
    exe = fluid.Executor(fluid.CPUPlace())
    with pytest.raises(ValueError, match="needs LoD"):
        exe.run(main, feed={"x": np.ones((3, 4), "float32")}, fetch_list=[out])


def test_sequence_ops_need_static_mode():
    import paddle

    with pytest.raises(ValueError, match="static"):
        paddle.fluid.layers.sequence_pool(paddle.to_tensor(np.ones((2, 3), "float32")), "sum")


def test_sequence_mask_and_min_pool():
    import paddle

    out = paddle.fluid.layers.sequence_mask(paddle.to_tensor(np.array([1, 3], "int64")), maxlen=4)
    assert out.numpy().tolist() == [[1, 0, 0, 0], [1, 1, 1, 0]]
    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.layers.data("x", [1], dtype="float32", lod_level=1)
        m = fluid.layers.sequence_pool(x, "min")
    exe = fluid.Executor(fluid.CPUPlace())
    t = fluid.create_lod_tensor(np.array([[3.0], [1.0], [5.0]], "float32"), [[2, 1]], fluid.CPUPlace())
    np.testing.assert_allclose(exe.run(main, feed={"x": t}, fetch_list=[m])[0], [[1.0], [5.0]])


def test_unsupported_toplevel_names_hint():
    import paddle
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    cfg = paddle.fluid.DistributeTranspilerConfig()
    cfg.mode = "collective"
    with pytest.raises(UnsupportedAPIError, match="c_allreduce"):
        paddle.fluid.DistributeTranspiler(cfg).transpile(0)
    with pytest.raises(UnsupportedAPIError, match="custom C\\+\\+ operator"):
        paddle.fluid.load_op_library("x.so")


def test_fluid_one_hot_appends_depth_dim():
    import paddle

    out = paddle.fluid.one_hot(paddle.to_tensor(np.array([[1], [2]], "int64")), 3)
    assert out.shape == [2, 1, 3]
    out1 = paddle.fluid.layers.one_hot(paddle.to_tensor(np.array([[1], [2]], "int64")), 3)
    assert out1.shape == [2, 3]


@pytest.mark.parametrize("head", ["crf", "ctc", "lstm"])
def test_lod_losses_train(head):
    """Gradients flow through linear_chain_crf, warpctc and dynamic_lstm: a few Adam steps lower the loss."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [4], dtype="float32", lod_level=1)
        y = fluid.layers.data("y", [1], dtype="int64" if head != "ctc" else "int32", lod_level=1)
        if head == "lstm":
            h, _ = fluid.layers.dynamic_lstm(fluid.layers.fc(x, 16), 16)
            emis = fluid.layers.fc(h, 5)
        else:
            emis = fluid.layers.fc(x, 5)
        if head == "crf":
            loss = fluid.layers.mean(fluid.layers.linear_chain_crf(emis, y, param_attr=fluid.ParamAttr(name="t")))
        elif head == "ctc":
            loss = fluid.layers.mean(fluid.layers.warpctc(emis, y))
        else:
            loss = fluid.layers.mean(fluid.layers.cross_entropy(fluid.layers.softmax(emis), y))
        fluid.optimizer.Adam(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    rs = np.random.RandomState(3)
    place = fluid.CPUPlace()
    xs = fluid.create_lod_tensor(rs.randn(9, 4).astype("float32"), [[4, 5]], place)
    if head == "ctc":
        ys = fluid.create_lod_tensor(np.array([[1], [2], [3], [4]], "int32"), [[2, 2]], place)
    else:
        ys = fluid.create_lod_tensor(rs.randint(0, 5, (9, 1)).astype("int64"), [[4, 5]], place)
    losses = [exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])[0].item() for _ in range(15)]
    assert losses[-1] < losses[0] * 0.8, losses


def test_distributions_sample_dygraph():
    import paddle

    L = paddle.fluid.layers
    s = L.Normal([0.0, 1.0], [1.0, 2.0]).sample([500])
    assert s.shape == [500, 2]
    assert abs(float(s.numpy()[:, 1].mean()) - 1.0) < 0.4
    u = L.Uniform(0.0, 2.0).sample([400]).numpy()
    assert u.shape == (400, 1) and u.min() >= 0.0 and u.max() <= 2.0


def test_lod_feeds_through_compiled_program():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        words, label, loss = _text_model(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = fluid.DataFeeder([words, label], fluid.CPUPlace()).feed([([1, 2, 3], [0]), ([4, 5], [1])])
    plain, = exe.run(main, feed=feed, fetch_list=[loss])
    compiled, = exe.run(fluid.CompiledProgram(main), feed=feed, fetch_list=[loss])
    np.testing.assert_allclose(compiled, plain)


def test_np_array_of_scope_tensor_is_a_snapshot():
    """np.array(scope tensor) copies, as in Paddle: later in-place optimizer updates do not show through."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [2, 3], "float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 2))
        fluid.optimizer.SGD(0.5).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        before = np.array(scope.find_var("fc_0.w_0").get_tensor())
        kept = before.copy()
        exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[loss])
        np.testing.assert_array_equal(before, kept)
        assert not np.array_equal(np.array(scope.find_var("fc_0.w_0").get_tensor()), kept)
