"""decode group beyond the 1.8.5 goldens (tests/fluid/cases18_decode.py): fluid.layers.lstm against torch.nn.LSTM
(Paddle 1.8.5 has no CPU cudnn_lstm kernel to record), two-level LoD feeds for beam_search / beam_search_decode /
reorder_lod_tensor_by_rank, the decode helpers in dygraph, and errors naming the API."""

from __future__ import annotations

import numpy as np
import pytest
import torch


@pytest.fixture
def fluid():
    import paddle

    paddle.enable_static()
    return paddle.fluid


def _run(fluid, main, startup, feed, fetch):
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    return exe.run(main, feed=feed, fetch_list=fetch, return_numpy=False)


def _torch_lstm(w, x, h0, c0, hidden, layers, bidirec):
    from paddle_compat.engine.ops.rnn_decoding import cudnn_lstm_weight_sizes

    ref = torch.nn.LSTM(x.shape[2], hidden, layers, bidirectional=bidirec)
    mats, biases = cudnn_lstm_weight_sizes(x.shape[2], hidden, layers, bidirec)
    pieces, off = [], 0
    for shp in mats + biases:
        n = int(np.prod(shp))
        pieces.append(torch.from_numpy(w[off:off + n].reshape(shp)))
        off += n
    names = [f"{k}_l{ly}{'_reverse' if d else ''}" for ly in range(layers) for d in range(2 if bidirec else 1)
             for k in ("weight_ih", "weight_hh")]
    bnames = [n.replace("weight", "bias") for n in names]
    with torch.no_grad():
        for n, p in zip(names + bnames, pieces):
            getattr(ref, n).copy_(p)
        return [t.numpy() for t in (ref(torch.from_numpy(x), (torch.from_numpy(h0), torch.from_numpy(c0)))[0],)
                + ref(torch.from_numpy(x), (torch.from_numpy(h0), torch.from_numpy(c0)))[1]]


@pytest.mark.parametrize("layers,bidirec", [(1, False), (2, True), (3, False)])
def test_lstm_matches_torch_lstm_with_paddle_layout(fluid, layers, bidirec):
    t, b, i, h = 4, 3, 5, 6
    dirs = 2 if bidirec else 1
    rs = np.random.RandomState(layers)
    x = rs.randn(t, b, i).astype("float32")
    h0 = rs.randn(layers * dirs, b, h).astype("float32")
    c0 = rs.randn(layers * dirs, b, h).astype("float32")
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        xv = fluid.layers.data("x", [t, b, i], append_batch_size=False)
        hv = fluid.layers.data("h", [layers * dirs, b, h], append_batch_size=False)
        cv = fluid.layers.data("c", [layers * dirs, b, h], append_batch_size=False)
        out, lh, lc = fluid.layers.lstm(xv, hv, cv, t, h, layers, is_bidirec=bidirec)
        w = main.global_block().all_parameters()[0]
        loss = fluid.layers.reduce_mean(out)
        fluid.backward.append_backward(loss)
    assert w.name == "cudnn_lstm_0.w_0"
    assert list(out.shape) == [t, b, h * dirs] and list(lh.shape) == [layers * dirs, b, h]
    res = _run(fluid, main, startup, {"x": x, "h": h0, "c": c0}, [out, lh, lc, w, w.name + "@GRAD"])
    got = [np.array(r) for r in res]
    want = _torch_lstm(got[3], x, h0, c0, h, layers, bidirec)
    for g, wv in zip(got[:3], want):
        np.testing.assert_allclose(g, wv, rtol=1e-5, atol=1e-5)
    assert got[4].shape == got[3].shape and np.abs(got[4]).sum() > 0
    # Paddle 1.8's weight size formula (layers > 0 read hidden * directions inputs)
    size = sum((4 * h * (i if ly == 0 else h * dirs) + 4 * h * h + 8 * h) * dirs for ly in range(layers))
    assert got[3].shape == (size,)
    lim = np.sqrt(6.0 / (2 * size))  # default Xavier on the 1-D weight: fan_in = fan_out = size
    assert np.abs(got[3]).max() <= lim + 1e-6


def test_lstm_dygraph_and_dropout_is_test(fluid):
    import paddle

    paddle.disable_static()
    x = paddle.to_tensor(np.random.rand(3, 2, 4).astype("float32"))
    h0 = paddle.zeros([2, 2, 5])
    out, lh, lc = fluid.layers.lstm(x, h0, h0, 3, 5, 2, dropout_prob=0.5, is_test=True)
    out2, _, _ = fluid.layers.lstm(x, h0, h0, 3, 5, 2, dropout_prob=0.5, is_test=True, name="second")
    assert out.shape == [3, 2, 5] and lh.shape == [2, 2, 5] and lc.shape == [2, 2, 5]
    assert out2.shape == [3, 2, 5]


def test_lstm_errors(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [3, 2, 4], append_batch_size=False)
        h = fluid.layers.data("h", [1, 2, 5], append_batch_size=False)
        with pytest.raises(TypeError, match="fluid.layers.lstm: hidden_size must be an int"):
            fluid.layers.lstm(x, h, h, 3, 5.0, 1)
        x2 = fluid.layers.data("x2", [3, 4], append_batch_size=False)
        with pytest.raises(ValueError, match=r"fluid.layers.lstm: input must be \[seq_len, batch, input_size\]"):
            fluid.layers.lstm(x2, h, h, 3, 5, 1)
        with pytest.raises(Exception, match="init_h must have shape"):
            fluid.layers.lstm(x, h, h, 3, 5, 2)


def test_dynamic_lstmp_errors_and_names(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [-1, 8], lod_level=1, append_batch_size=False)
        r, c = fluid.layers.dynamic_lstmp(x, 8, 3)
        assert list(r.shape) == [-1, 3] and list(c.shape) == [-1, 2]
        names = sorted(p.name for p in main.global_block().all_parameters())
        assert names == ["lstmp_0.b_0", "lstmp_0.w_0", "lstmp_0.w_1"]
        with pytest.raises(ValueError, match="fluid.layers.dynamic_lstmp: size must be 4"):
            fluid.layers.dynamic_lstmp(x, 6, 3)
        with pytest.raises(ValueError, match="cell_clip should not be negative"):
            fluid.layers.dynamic_lstmp(x, 8, 3, cell_clip=-1.0)
        plain = fluid.layers.data("p", [-1, 8], append_batch_size=False)
        with pytest.raises(Exception, match="carries no LoD"):
            fluid.layers.dynamic_lstmp(plain, 8, 3)


def test_beam_search_two_level_lod(fluid):
    """Fed 2-level LoD: level 0 (absolute) groups prefixes by source; output LoD [sources, prefix -> items]."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        pre_ids = fluid.layers.data("pre_ids", [-1, 1], dtype="int64", lod_level=2, append_batch_size=False)
        pre_sc = fluid.layers.data("pre_sc", [-1, 1], dtype="float32", lod_level=2, append_batch_size=False)
        ids = fluid.layers.data("ids", [-1, 2], dtype="int64", lod_level=2, append_batch_size=False)
        sc = fluid.layers.data("sc", [-1, 2], dtype="float32", lod_level=2, append_batch_size=False)
        sid, ssc, parent = fluid.layers.beam_search(pre_ids, pre_sc, ids, sc, 2, 0, return_parent_idx=True)
        arr_i = fluid.layers.array_write(sid, fluid.layers.fill_constant([1], "int64", 0))
        arr_s = fluid.layers.array_write(ssc, fluid.layers.fill_constant([1], "int64", 0))
        out_ids, out_sc = fluid.layers.beam_search_decode(arr_i, arr_s, 2, 0)
    # LoD offsets [[0, 1, 3], [0, 1, 2, 3]]: source 0 has prefix 0, source 1 prefixes 1 and 2 (one row each)
    lens = [[1, 2], [1, 1, 1]]
    feed = {"pre_ids": fluid.create_lod_tensor(np.array([[1], [2], [3]], "int64"), lens, fluid.CPUPlace()),
            "pre_sc": fluid.create_lod_tensor(np.array([[0.0], [-1.0], [-2.0]], "float32"), lens, fluid.CPUPlace()),
            "ids": fluid.create_lod_tensor(np.array([[4, 5], [6, 7], [8, 9]], "int64"), lens, fluid.CPUPlace()),
            "sc": fluid.create_lod_tensor(np.array([[-0.1, -0.2], [-1.5, -1.1], [-2.1, -1.2]], "float32"), lens,
                                          fluid.CPUPlace())}
    res = _run(fluid, main, startup, feed, [sid, ssc, parent, out_ids, out_sc])
    # source 0: both candidates of row 0; source 1: top 2 of rows 1-2 are 7 (-1.1) and 9 (-1.2)
    np.testing.assert_array_equal(np.array(res[0]).ravel(), [4, 5, 7, 9])
    np.testing.assert_allclose(np.array(res[1]).ravel(), [-0.1, -0.2, -1.1, -1.2], rtol=1e-6)
    np.testing.assert_array_equal(np.array(res[2]), [0, 0, 1, 2])
    np.testing.assert_array_equal(np.array(res[3]), [4, 5, 7, 9])
    assert np.array(res[3]).shape == (4,)


def test_reorder_two_level_lod(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [-1, 1], dtype="float32", lod_level=2, append_batch_size=False)
        table = fluid.layers.lod_rank_table(x)
        out = fluid.layers.reorder_lod_tensor_by_rank(x, table)
    x_val = np.arange(6, dtype="float32").reshape(6, 1)
    lens = [[1, 2], [2, 1, 3]]  # seq 0: rows 0-1; seq 1: rows 2-5 (two sub-sequences)
    res = _run(fluid, main, startup, {"x": fluid.create_lod_tensor(x_val, lens, fluid.CPUPlace())}, [table, out])
    np.testing.assert_array_equal(np.array(res[0]), [[1, 2], [0, 1]])
    np.testing.assert_array_equal(np.array(res[1]).ravel(), [2, 3, 4, 5, 0, 1])


def test_beam_search_errors(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        ids = fluid.layers.data("ids", [-1, 1], dtype="int64", lod_level=1, append_batch_size=False)
        sc = fluid.layers.data("sc", [-1, 1], dtype="float32", lod_level=1, append_batch_size=False)
        with pytest.raises(ValueError, match="fluid.layers.beam_search: beam_size must be a positive int"):
            fluid.layers.beam_search(ids, sc, None, sc, 0, 0)
    import paddle

    paddle.disable_static()
    with pytest.raises(Exception, match="fluid.layers.beam_search"):
        paddle.fluid.layers.beam_search(paddle.zeros([2, 1], "int64"), paddle.zeros([2, 1]), None,
                                        paddle.zeros([2, 3]), 2, 0)


def test_helpers_dygraph_dynamic_decode():
    import paddle

    paddle.disable_static()
    paddle.seed(7)
    layers = paddle.fluid.layers
    b, t, d, v = 3, 4, 5, 7
    emb = paddle.nn.Embedding(v, d)
    cell = layers.GRUCell(6)
    fc = paddle.nn.Linear(6, v)
    init = paddle.zeros([b, 6])
    x = paddle.to_tensor(np.random.RandomState(0).rand(b, t, d).astype("float32"))
    helper = layers.TrainingHelper(x, paddle.to_tensor(np.array([2, 4, 1], "int64")))
    outs, _, lens = paddle.nn.dynamic_decode(layers.BasicDecoder(cell, helper, output_fn=fc), init,
                                             return_length=True)
    assert outs.cell_outputs.shape == [b, t, v] and outs.sample_ids.shape == [b, t]
    np.testing.assert_array_equal(lens.numpy(), [2, 4, 1])
    np.testing.assert_array_equal(outs.sample_ids.numpy(), outs.cell_outputs.numpy().argmax(-1))
    start = paddle.to_tensor(np.array([1, 2, 3], "int64"))
    for helper in (layers.GreedyEmbeddingHelper(emb, start, 0),
                   layers.SampleEmbeddingHelper(emb, start, 0, softmax_temperature=0.5, seed=3)):
        outs, _ = paddle.nn.dynamic_decode(layers.BasicDecoder(cell, helper, output_fn=fc), init, max_step_num=5)
        ids = outs.sample_ids.numpy()
        assert ids.shape[0] == b and ids.shape[1] <= 6 and ids.min() >= 0 and ids.max() < v
        if isinstance(helper, layers.GreedyEmbeddingHelper) and not isinstance(helper,
                                                                              layers.SampleEmbeddingHelper):
            np.testing.assert_array_equal(ids, outs.cell_outputs.numpy().argmax(-1))
    assert issubclass(layers.BasicDecoder, layers.Decoder)
    assert issubclass(paddle.nn.BeamSearchDecoder, layers.Decoder)
    assert issubclass(layers.SampleEmbeddingHelper, layers.DecodeHelper)


def test_while_loop_beam_search_matches_paddle18(fluid):
    """The classic 1.8 decoding loop (While + arrays + topk + beam_search, then beam_search_decode). Expected
    values and LoD were printed by real Paddle 1.8.5 running this same program (2-level LoD feeds cannot go
    through the golden recorder, which feeds one level)."""
    layers = fluid.layers
    v, d, beam, end_id, max_len = 6, 4, 2, 0, 3
    main, startup = fluid.Program(), fluid.Program()

    def attr(name, seed, shape):
        arr = np.random.RandomState(seed).randn(*shape).astype("float32")
        return fluid.ParamAttr(name=name, initializer=fluid.initializer.NumpyArrayInitializer(arr))

    with fluid.program_guard(main, startup):
        init_ids = layers.data("init_ids", [-1, 1], dtype="int64", lod_level=2, append_batch_size=False)
        init_scores = layers.data("init_scores", [-1, 1], dtype="float32", lod_level=2, append_batch_size=False)
        counter = layers.zeros([1], "int64", force_cpu=True)
        array_len = layers.fill_constant([1], "int64", max_len)
        ids_array = layers.create_array("int64")
        scores_array = layers.create_array("float32")
        layers.array_write(init_ids, array=ids_array, i=counter)
        layers.array_write(init_scores, array=scores_array, i=counter)
        cond = layers.less_than(counter, array_len)
        w = layers.While(cond)
        with w.block():
            pre_ids = layers.array_read(ids_array, counter)
            pre_score = layers.array_read(scores_array, counter)
            emb = layers.embedding(pre_ids, [v, d], param_attr=attr("emb", 0, (v, d)))
            probs = layers.fc(emb, v, act="softmax", param_attr=attr("fcw", 1, (d, v)), bias_attr=False)
            topk_scores, topk_indices = layers.topk(probs, k=beam)
            accu = layers.elementwise_add(layers.log(topk_scores), layers.reshape(pre_score, [-1]), axis=0)
            sel_ids, sel_sc = layers.beam_search(pre_ids, pre_score, topk_indices, accu, beam, end_id=end_id)
            layers.increment(counter, 1, in_place=True)
            layers.array_write(sel_ids, array=ids_array, i=counter)
            layers.array_write(sel_sc, array=scores_array, i=counter)
            layers.less_than(counter, array_len, cond=cond)
        tid, tsc = layers.beam_search_decode(ids_array, scores_array, beam, end_id)
    lens = [[1, 1], [1, 1]]
    feed = {"init_ids": fluid.create_lod_tensor(np.array([[1], [2]], "int64"), lens, fluid.CPUPlace()),
            "init_scores": fluid.create_lod_tensor(np.array([[0.0], [0.0]], "float32"), lens, fluid.CPUPlace())}
    ids, scores = _run(fluid, main, startup, feed, [tid, tsc])
    np.testing.assert_array_equal(np.array(ids), [1, 0, 1, 2, 4, 0, 2, 4, 0, 2, 3, 0])
    assert ids.lod() == [[0, 2, 4], [0, 2, 6, 9, 12]] and scores.lod() == ids.lod()
    np.testing.assert_allclose(np.array(scores), [0.0, -0.6175, 0.0, -1.6876, -2.6208, -2.9888, 0.0, -0.9332,
                                                  -1.3012, 0.0, -1.2159, -2.0373], atol=1e-4)
