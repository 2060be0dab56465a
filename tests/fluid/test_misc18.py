"""fluid 1.x misc group beyond the parity table (tests/fluid/cases18_misc.py): the non-iterable reader family
(py_reader / create_py_reader_by_data / double_buffer / read_file, start / reset / EOFException), DataFeedDesc
(text recorded from Paddle 1.8.5), sampled softmax's random path (properties, and equality with the customized
path given the same samples), hash (XXH64 reference vectors), gradients, dygraph and error messages."""

from __future__ import annotations

import numpy as np
import pytest


def _static():
    import paddle

    paddle.enable_static()
    return paddle.fluid


def _batches(samples, n):
    def gen():
        buf = []
        for s in samples():
            buf.append(s)
            if len(buf) == n:
                yield buf
                buf = []
        if buf:
            yield buf
    return gen


def _samples():
    for i in range(7):
        yield np.full(3, i, "float32"), np.array([i])


# --- readers ----------------------------------------------------------------------------------------------


def test_py_reader_passes_eof_reset_and_clone():
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        reader = fluid.layers.py_reader(capacity=8, shapes=[[-1, 3], [-1, 1]], dtypes=["float32", "int64"])
        reader = fluid.layers.double_buffer(reader)
        x, y = fluid.layers.read_file(reader)
        loss = fluid.layers.mean(fluid.layers.fc(x, 2))
        fluid.optimizer.SGD(0.1).minimize(loss)
    test = main.clone(for_test=True)
    reader.decorate_paddle_reader(_batches(_samples, 3))
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    for _ in range(2):
        reader.start()
        seen = []
        with pytest.raises(fluid.core.EOFException):
            while True:
                xv, yv = exe.run(main, fetch_list=[x, y])
                assert yv.dtype == np.int64 and yv.shape[1:] == (1,)
                seen.append(xv[:, 0].tolist())
        with pytest.raises(fluid.core.EOFException):  # stays at the end until reset
            exe.run(main, fetch_list=[x])
        reader.reset()
        assert seen == [[0, 1, 2], [3, 4, 5], [6]]
    reader.start()
    np.testing.assert_array_equal(exe.run(test, fetch_list=[x])[0][:, 0], [0, 1, 2])  # a clone reads it too
    # a feed of the reader's variables takes precedence and consumes nothing
    np.testing.assert_array_equal(
        exe.run(main, feed={x.name: np.ones((2, 3), "float32"), y.name: np.zeros((2, 1), "int64")},
                fetch_list=[x])[0], np.ones((2, 3)))
    np.testing.assert_array_equal(exe.run(main, fetch_list=[x])[0][:, 0], [3, 4, 5])
    with pytest.raises(RuntimeError, match="already started"):
        reader.start()


def test_py_reader_lod_and_tensor_provider_and_errors():
    fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        reader = fluid.layers.py_reader(4, [[-1, 1]], ["int64"], lod_levels=[1], name="seq_reader")
        words = fluid.layers.read_file(reader)  # one variable alone
        total = fluid.layers.sequence_pool(fluid.layers.cast(words, "float32"), "sum")
    exe = fluid.Executor(fluid.CPUPlace())
    with pytest.raises(RuntimeError, match="not started"):
        exe.run(main, fetch_list=[total])
    reader.start()  # no decorated source: the batches come from reader.queue, as in Paddle
    assert reader.queue.push([fluid.create_lod_tensor(np.array([[2], [5]], "int64"), [[2]], fluid.CPUPlace())])
    reader.queue.close()
    assert not reader.queue.push([np.zeros([1, 1], "int64")])
    np.testing.assert_array_equal(exe.run(main, fetch_list=[total])[0], [[7.0]])
    with pytest.raises(fluid.core.EOFException):
        exe.run(main, fetch_list=[total])
    reader.reset()
    reader.decorate_paddle_reader(lambda: iter([[([1, 2],), ([3],)], [([4, 5, 6],)]]))
    reader.start()
    np.testing.assert_array_equal(exe.run(main, fetch_list=[total])[0], [[3.0], [3.0]])
    np.testing.assert_array_equal(exe.run(main, fetch_list=[total])[0], [[15.0]])
    reader.reset()
    lod = fluid.create_lod_tensor(np.array([[7], [8], [9]], "int64"), [[1, 2]], fluid.CPUPlace())
    reader.decorate_tensor_provider(lambda: iter([(lod,)]))
    reader.start()
    np.testing.assert_array_equal(exe.run(main, fetch_list=[total])[0], [[7.0], [17.0]])
    reader.reset()
    reader.decorate_paddle_reader(lambda: iter([[([1], [2])]]))
    reader.start()
    with pytest.raises(Exception, match="2 fields but the reader feeds 1"):
        exe.run(main, fetch_list=[total])


def test_create_py_reader_by_data_sample_generator():
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        img = fluid.data("img", [-1, 3], "float32")
        label = fluid.data("label", [-1, 1], "int64")
        reader = fluid.layers.create_py_reader_by_data(capacity=4, feed_list=[img, label])
        img2, label2 = fluid.layers.read_file(reader)
        out = fluid.layers.elementwise_add(img2, fluid.layers.cast(label2, "float32"))
    reader.decorate_sample_generator(_samples, batch_size=4, drop_last=True)
    exe = fluid.Executor(fluid.CPUPlace())
    reader.start()
    np.testing.assert_array_equal(exe.run(main, fetch_list=[out])[0][:, 0], [0, 2, 4, 6])
    with pytest.raises(fluid.core.EOFException):  # drop_last: the 3 samples left make no batch
        exe.run(main, fetch_list=[out])
    with pytest.raises(TypeError, match="read_file"):
        fluid.layers.read_file(img)


def test_readers_are_static_only():
    import paddle

    paddle.disable_static()
    with pytest.raises(RuntimeError, match="enable_static"):
        paddle.fluid.layers.py_reader(4, [[-1, 1]], ["float32"])


# --- DataFeedDesc (expected text printed by Paddle 1.8.5's DataFeedDesc.desc() for the same file) ------------

_PROTO = """# comment
name: "MultiSlotDataFeed"
batch_size: 2
multi_slot_desc {
    slots {
         name: "words"
         type: "uint64"
         is_dense: false
         is_used: false
     }
     slots {
         name: "label"
         type: "uint64"
         is_dense: false
         is_used: false
         shape: 1
         shape: -1
    }
}
"""
_SLOTS = ('multi_slot_desc {\n  slots {\n    name: "words"\n    type: "uint64"\n    is_dense: %s\n    is_used: %s\n  }\n'
          '  slots {\n    name: "label"\n    type: "uint64"\n    is_dense: false\n    is_used: %s\n    shape: 1\n'
          '    shape: -1\n  }\n}\n')


def test_data_feed_desc_matches_paddle(tmp_path):
    import paddle

    f = tmp_path / "feed.proto"
    f.write_text(_PROTO)
    d = paddle.fluid.DataFeedDesc(str(f))
    assert d.desc() == ('name: "MultiSlotDataFeed"\nbatch_size: 2\n' + _SLOTS % ("false", "false", "false")
                        + 'pipe_command: "cat"\n')
    d.set_batch_size(128)
    d.set_dense_slots(["words"])
    d.set_use_slots(["words", "label"])
    assert d.desc() == ('name: "MultiSlotDataFeed"\nbatch_size: 128\n' + _SLOTS % ("true", "true", "true")
                        + 'pipe_command: "cat"\n')
    assert d.proto_desc.multi_slot_desc.slots[1].shape == [1, -1]
    with pytest.raises(KeyError, match="no slot named 'nope'"):
        d.set_use_slots(["nope"])
    g = tmp_path / "other.proto"
    g.write_text('name: "X"\nthread_num: 3 rank_offset: "a\\"b" pv_batch_size: 5\n')
    e = paddle.fluid.DataFeedDesc(str(g))
    assert e.desc() == 'name: "X"\npipe_command: "cat"\nthread_num: 3\nrank_offset: "a\\"b"\npv_batch_size: 5\n'
    with pytest.raises(ValueError, match="Only MultiSlotDataFeed needs set_dense_slots"):
        e.set_dense_slots(["a"])
    g.write_text('name: "X"\nfoo: 3\n')
    with pytest.raises(ValueError, match='2: Message type "paddle.framework.DataFeedDesc" has no field named "foo"'):
        paddle.fluid.DataFeedDesc(str(g))
    g.write_text("batch_size: many\n")
    with pytest.raises(ValueError, match="invalid int value 'many'"):
        paddle.fluid.DataFeedDesc(str(g))


# --- sampled softmax: random path ------------------------------------------------------------------------------


def test_sample_logits_random_properties_and_customized_equality():
    import paddle

    from paddle_compat.engine.ops.fluid_only_kernels import sample_logits_op

    rs = np.random.RandomState(0)
    logits = rs.randn(4, 50).astype("float32")
    label = np.array([[3], [0], [49], [3]], "int64")
    samples, probs, sampled, slabels = (t.numpy() for t in sample_logits_op(
        paddle.to_tensor(logits), paddle.to_tensor(label), None, None, 10, False, True, 7))
    assert samples.shape == probs.shape == sampled.shape == (4, 11)
    np.testing.assert_array_equal(samples[:, :1], label)
    assert (samples[:, 1:] == samples[:1, 1:]).all()  # one draw shared by the batch
    assert len(set(samples[0, 1:].tolist())) == 10 and ((samples >= 0) & (samples < 50)).all()
    np.testing.assert_array_equal(slabels, np.zeros((4, 1)))
    p = np.log((samples + 2.0) / (samples + 1.0)) / np.log(51.0)
    # unique draws: P(sampled at least once in `tries` draws) = 1 - (1 - p)^tries, the same tries for all
    tries = np.log1p(-probs) / np.log1p(-p)
    np.testing.assert_allclose(tries, np.round(tries[0, 0]), rtol=1e-3)
    assert tries[0, 0] >= 10
    hit = samples[:, 1:] == samples[:, :1]
    expect = np.take_along_axis(logits, samples, 1) - np.log(probs)
    expect[:, 1:][hit] -= 1e20
    np.testing.assert_allclose(sampled, expect, rtol=1e-5)
    again = sample_logits_op(paddle.to_tensor(logits), paddle.to_tensor(label), None, None, 10, False, True, 7)
    np.testing.assert_array_equal(again[0].numpy(), samples)  # seed != 0: the same draw every call

    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        lg = fluid.data("lg", [4, 50], "float32")
        lb = fluid.data("lb", [4, 1], "int64")
        s = fluid.data("s", [4, 11], "int64")
        pr = fluid.data("p", [4, 11], "float32")
        rnd = fluid.layers.sampled_softmax_with_cross_entropy(lg, lb, 10, seed=7)
        cus = fluid.layers.sampled_softmax_with_cross_entropy(lg, lb, 10, use_customized_samples=True,
                                                              customized_samples=s, customized_probabilities=pr)
        free = fluid.layers.sampled_softmax_with_cross_entropy(lg, lb, 10)
    exe = fluid.Executor(fluid.CPUPlace())
    a, b, c = exe.run(main, feed={"lg": logits, "lb": label, "s": samples, "p": probs}, fetch_list=[rnd, cus, free])
    assert a.shape == (4, 1) and np.isfinite(c).all() and (c > 0).all()
    np.testing.assert_allclose(a, b, rtol=1e-5)


def test_sampled_softmax_gradient_reaches_logits():
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        lg = fluid.data("lg", [2, 6], "float32")
        lg.stop_gradient = False
        lb = fluid.data("lb", [2, 1], "int64")
        s = fluid.data("s", [2, 3], "int64")
        pr = fluid.data("p", [2, 3], "float32")
        loss = fluid.layers.mean(fluid.layers.sampled_softmax_with_cross_entropy(
            lg, lb, 2, use_customized_samples=True, customized_samples=s, customized_probabilities=pr))
        (g,) = fluid.backward.gradients([loss], [lg])
    logits = np.random.RandomState(1).randn(2, 6).astype("float32")
    samples = np.array([[1, 4, 5], [2, 4, 5]], "int64")
    probs = np.full((2, 3), 0.5, "float32")
    (gv,) = fluid.Executor(fluid.CPUPlace()).run(
        main, feed={"lg": logits, "lb": samples[:, :1], "s": samples, "p": probs}, fetch_list=[g])
    z = np.take_along_axis(logits, samples, 1) - np.log(probs)
    sm = np.exp(z - z.max(1, keepdims=True))
    sm /= sm.sum(1, keepdims=True)
    sm[:, 0] -= 1.0
    want = np.zeros_like(logits)
    for i in range(2):
        want[i, samples[i]] += sm[i] / 2
    np.testing.assert_allclose(gv, want, rtol=1e-5, atol=1e-6)


# --- hash, center_loss, similarity_focus, filter_by_instag, inplace_abn -----------------------------------------


def test_xxh64_reference_vectors():
    from paddle_compat.engine.ops.fluid_only_kernels import xxh64_rows

    def h(data: bytes, seed=0):
        return int(xxh64_rows(np.frombuffer(data, np.uint8).reshape(1, -1), seed)[0])

    assert int(xxh64_rows(np.zeros((1, 0), np.uint8), 0)[0]) == 0xEF46DB3751D8E999  # XXH64("")
    assert h(b"a") == 0xD24EC4F1A98C6E5B
    assert h(b"abc") == 0x44BC2CF5AD770999
    assert h(b"Nobody inspects the spammish repetition") == 0xFBCEA83C8A378BF1


def test_hash_dygraph_and_errors():
    import paddle

    x = paddle.to_tensor(np.array([[1, 2], [3, 4], [-5, 6]], "int32"))
    out = paddle.fluid.layers.hash(x, 1000, num_hash=2)
    assert out.shape == [3, 2, 1] and out.dtype == paddle.int32
    np.testing.assert_array_equal(out.numpy()[:, :, 0], [[722, 407], [603, 590], [926, 655]])  # Paddle 1.8.5's op
    with pytest.raises(Exception, match="must be 2-D"):
        paddle.fluid.layers.hash(paddle.to_tensor(np.zeros((2, 2, 2), "int64")), 10)
    with pytest.raises(TypeError, match="hash_size must be an int"):
        paddle.fluid.layers.hash(x, 10.0)


def test_center_loss_gradient_and_dygraph():
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [3, 2], "float32")
        x.stop_gradient = False
        lbl = fluid.data("lbl", [3, 1], "int64")
        loss = fluid.layers.center_loss(x, lbl, 4, 0.5, None)
        (g,) = fluid.backward.gradients([fluid.layers.reduce_sum(loss)], [x])
    assert [p.name for p in main.all_parameters()] == ["center_loss_0.w_0"]
    assert main.global_block().var("center_loss_0.w_0").stop_gradient
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    xv = np.arange(6, dtype="float32").reshape(3, 2)
    c0 = np.array(fluid.global_scope().find_var("center_loss_0.w_0").get_tensor()).copy()
    gv, c1 = exe.run(main, feed={"x": xv, "lbl": np.array([[1], [1], [3]], "int64")},
                     fetch_list=[g, "center_loss_0.w_0"])
    np.testing.assert_allclose(gv, xv - c0[[1, 1, 3]], rtol=1e-5)
    np.testing.assert_allclose(c1[1], c0[1] + 0.5 * (xv[:2] - c0[1]).sum(0) / 3, rtol=1e-5)
    np.testing.assert_allclose(c1[[0, 2]], c0[[0, 2]])


def test_similarity_focus_and_filter_by_instag_errors():
    import paddle

    fluid = _static()
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        x = fluid.data("x", [1, 2, 3, 3], "float32")
        with pytest.raises(ValueError, match="axis must be 1, 2 or 3"):
            fluid.layers.similarity_focus(x, 0, [0])
        with pytest.raises(ValueError, match="indexes can not be empty"):
            fluid.layers.similarity_focus(x, 1, [])
        with pytest.raises(ValueError, match="inplace_abn only support act"):
            fluid.layers.inplace_abn(x, act="relu")
    paddle.disable_static()
    t = paddle.to_tensor(np.zeros((2, 2), "float32"))
    with pytest.raises(Exception, match="only static programs carry"):
        paddle.fluid.layers.filter_by_instag(t, t, t, False)
    with pytest.raises(Exception, match=r"indexes must be in \[0, 2\)"):
        paddle.fluid.layers.similarity_focus(paddle.to_tensor(np.zeros((1, 2, 3, 3), "float32")), 1, [2])


def test_load_op_library_reason():
    import paddle

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match="OpKernel / OpRegistry ABI"):
        paddle.fluid.load_op_library("custom_op.so")


def test_sampled_softmax_num_true_2():
    """Paddle 1.8.5 fails here (its one_hot depth is num_samples + 1); we give the documented loss: softmax cross
    entropy with the soft label spread evenly over the num_true true columns."""
    fluid = _static()
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        lg = fluid.data("lg", [3, 8], "float32")
        lb = fluid.data("lb", [3, 2], "int64")
        s = fluid.data("s", [3, 5], "int64")
        pr = fluid.data("p", [3, 5], "float32")
        loss = fluid.layers.sampled_softmax_with_cross_entropy(lg, lb, 3, num_true=2, use_customized_samples=True,
                                                               customized_samples=s, customized_probabilities=pr)
    rs = np.random.RandomState(0)
    lbv = np.array([[1, 2], [5, 0], [0, 7]], "int64")
    sv = np.concatenate([lbv, np.array([[3, 2, 6]] * 3)], 1).astype("int64")  # row 0: 2 is a hit
    pv = rs.uniform(0.1, 0.9, (3, 5)).astype("float32")
    lgv = rs.randn(3, 8).astype("float32")
    (got,) = fluid.Executor(fluid.CPUPlace()).run(main, feed={"lg": lgv, "lb": lbv, "s": sv, "p": pv},
                                                  fetch_list=[loss])
    z = np.take_along_axis(lgv, sv, 1).astype(np.float64) - np.log(pv)
    z[0, 3] -= 1e20
    logp = z - np.log(np.exp(z - z.max(1, keepdims=True)).sum(1, keepdims=True)) - z.max(1, keepdims=True)
    np.testing.assert_allclose(got[:, 0], -(logp[:, 0] + logp[:, 1]) / 2, rtol=1e-5)


def test_dataloader_from_generator_non_iterable():
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [-1, 3], "float32")
        y = fluid.data("y", [-1, 1], "int64")
        out = fluid.layers.reduce_sum(x, dim=1)
    loader = fluid.io.DataLoader.from_generator(feed_list=[x, y], capacity=4, iterable=False)
    assert loader.set_sample_generator(_samples, batch_size=3, drop_last=False) is loader
    exe = fluid.Executor(fluid.CPUPlace())
    for _ in range(2):
        loader.start()
        sums = []
        try:
            while True:
                sums.append(exe.run(main, fetch_list=[out])[0].tolist())
        except fluid.core.EOFException:
            loader.reset()
        assert sums == [[0, 3, 6], [9, 12, 15], [18]]
    with pytest.raises(RuntimeError, match="not iterable"):
        iter(loader)


def test_py_reader_data_parallel_reads_one_batch_per_place():
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        reader = fluid.layers.py_reader(8, [[-1, 3]], ["float32"])
        x = fluid.layers.read_file(reader)
        out = fluid.layers.reduce_sum(x, dim=1)
    reader.decorate_tensor_provider(lambda: (((np.ones((2, 3), "float32") * i),) for i in range(5)))
    exe = fluid.Executor(fluid.CPUPlace())
    cp = fluid.CompiledProgram(main).with_data_parallel(places=fluid.cpu_places(2))
    reader.start()
    got = []
    with pytest.raises(fluid.core.EOFException):  # 5 batches, 2 places: the fifth alone ends the pass
        while True:
            got.append(exe.run(cp, fetch_list=[out])[0].tolist())
    assert got == [[0, 0, 3, 3], [6, 6, 9, 9]]


def test_inplace_abn_overwrites_its_input():
    """Paddle writes the result into the input variable and returns it: fetching either gives the result."""
    fluid = _static()
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [2, 3, 2, 2], "float32")
        h = fluid.layers.scale(x, 2.0)
        out = fluid.layers.inplace_abn(h, act="leaky_relu", act_alpha=0.1)
        assert out is h and out.name == h.name
        loss = fluid.layers.mean(out)
        (g,) = fluid.backward.gradients([loss], [x])
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    xs = np.random.RandomState(0).randn(2, 3, 2, 2).astype("float32")
    got, gx = exe.run(main, feed={"x": xs}, fetch_list=[h, g])
    z = 2 * xs
    z = (z - z.mean((0, 2, 3), keepdims=True)) / np.sqrt(z.var((0, 2, 3), keepdims=True) + 1e-5)
    np.testing.assert_allclose(got, np.where(z > 0, z, 0.1 * z), rtol=1e-4, atol=1e-5)
    assert gx.shape == xs.shape and np.abs(gx).sum() > 0

    import paddle

    paddle.disable_static()
    t = paddle.to_tensor(xs)
    r = fluid.layers.inplace_abn(t)
    assert r is t
