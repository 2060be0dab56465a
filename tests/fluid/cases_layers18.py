"""fluid.layers behaviours of issue 24 item 3 (the list of issue 11) against real Paddle 1.8.5: the decoding helpers
with dynamic_decode, LSTMCell / RNNCell, beam_search / beam_search_decode, elementwise_mod with negative operands,
pool2d average with exclusive=False and ceil_mode, tensor_array_to_tensor(use_stack=True), image_resize nearest,
bipartite_match, target_assign, reorder_lod_tensor_by_rank, sequence_expand, the SelectedRows layers, the LoD of
sequence_pool / filter_by_instag / roi_perspective_transform outputs and gradients, distribute_fpn_proposals'
restore index, deformable_roi_pooling, a data variable's dtype repr, Python scalars fed to [1]-shaped variables and
fluid.executor._as_lodtensor, Program.desc round trips and fluid.backward.calc_gradient.

`CASES` maps a case name to fn(fluid) -> {key: array}; LoD levels come back as "<key>@lod<i>" int64 arrays and
strings as unicode arrays. Parameters are set from fixed arrays (sorted by name), their names recorded. Recorded by
tools/oracle/rec_layers18.py (golden tests/goldens/layers18_cases.*), replayed by tests/fluid/test_layers18.py;
numpy only, Python 3.8 (real Paddle 1.8.5 imports it too)."""

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__.lstrip("_")] = fn
    return fn


def _params(fluid, main, scope, seed=7, scale=0.5):
    """Set every parameter of main to fixed values (sorted by name) and return the names."""
    rs = np.random.RandomState(seed)
    names = sorted(p.name for p in main.global_block().all_parameters())
    for n in names:
        t = scope.find_var(n).get_tensor()
        shape = np.array(t).shape
        t.set((rs.randn(*shape) * scale).astype("float32"), fluid.CPUPlace())
    return names


def _put(out, key, t):
    """Store a fetched value; a LoDTensor (return_numpy=False) also stores its LoD levels."""
    if hasattr(t, "lod"):
        for i, lv in enumerate(t.lod()):
            out["%s@lod%d" % (key, i)] = np.array(lv, "int64")
        out[key + "@nlod"] = np.array(len(t.lod()), "int64")
    out[key] = np.array(t)


def _run(fluid, build, feed, seed=7, lod=False, grads=(), scale=0.5):
    """build(fluid) -> {key: Variable} (or (dict, loss)); feed: name -> array or (array, lengths).

    Runs startup, sets the parameters, runs main once and returns {key: value} plus the parameter names; with a
    loss, also fetches its gradients (fluid.gradients) with respect to the named variables (`grads`)."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        built = build(fluid)
        fetch, loss = built if isinstance(built, tuple) else (built, None)
        if loss is not None:
            gs = fluid.gradients([loss], [main.global_block().var(g) for g in grads])
            for g, v in zip(grads, gs):
                fetch["grad_" + g] = v
    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    scope = fluid.Scope()
    fd = {}
    for k, v in feed.items():
        if isinstance(v, tuple):
            fd[k] = fluid.create_lod_tensor(v[0], v[1], place)
        else:
            fd[k] = v
    with fluid.scope_guard(scope):
        exe.run(startup)
        names = _params(fluid, main, scope, seed, scale)
        keys = sorted(fetch)
        got = exe.run(main, feed=fd, fetch_list=[fetch[k] for k in keys], return_numpy=not lod)
    out = {}
    for k, v in zip(keys, got):
        _put(out, k, v)
    if names:
        out["param_names"] = np.array(names)
    return out


def _err(fn):
    """Run fn and return 'ExceptionType' or 'ok' (for error cases both sides raise)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is the recorded fact
        return type(e).__name__
    return "ok"


# --- decoding helpers with dynamic_decode (GRUCell, batch 2, vocab 6, embedding 3, hidden 4) -----------------------
rs = np.random.RandomState(2418)
TRG = rs.randn(2, 4, 3).astype("float32")
TRG_LENS = np.array([3, 4], "int64")
ENC = rs.randn(2, 4).astype("float32")
START = np.array([0, 2], "int64")


def _decoder(kind, cell="gru", impute=False, time_major=False, max_step=None, is_test=False, train=False):
    def build(fluid):
        L = fluid.layers
        trg = fluid.data("trg", [None, None, 3], "float32")
        lens = fluid.data("lens", [None], "int64")
        enc = fluid.data("enc", [None, 4], "float32")
        start = fluid.data("start", [None], "int64")
        emb = lambda x: fluid.embedding(x, size=[6, 3], param_attr=fluid.ParamAttr(name="trg_emb"))  # noqa: E731
        out_fn = lambda x: L.fc(x, size=6, num_flatten_dims=len(x.shape) - 1,  # noqa: E731
                                param_attr=fluid.ParamAttr(name="out_w"), bias_attr=False)
        c = L.GRUCell(4) if cell == "gru" else L.LSTMCell(4)
        inits = enc if cell == "gru" else [enc, L.scale(enc, 0.5)]
        if kind == "train":
            helper = L.TrainingHelper(trg, lens)
        elif kind == "greedy":
            helper = L.GreedyEmbeddingHelper(emb, start, end_token=1)
        else:
            helper = L.SampleEmbeddingHelper(emb, start, end_token=1, softmax_temperature=0.001, seed=3)
        dec = L.BasicDecoder(c, helper, output_fn=out_fn)
        outputs, states, seq_lens = L.dynamic_decode(dec, inits=inits, max_step_num=max_step, impute_finished=impute,
                                                     output_time_major=time_major, is_test=is_test,
                                                     return_length=True)
        res = {"cell_outputs": outputs.cell_outputs, "sample_ids": outputs.sample_ids, "seq_lens": seq_lens}
        for i, s in enumerate(states if isinstance(states, (list, tuple)) else [states]):
            res["state%d" % i] = s
        if train:
            return res, L.reduce_mean(outputs.cell_outputs)
        return res

    def fn(fluid):
        return _run(fluid, build, {"trg": TRG, "lens": TRG_LENS, "enc": ENC, "start": START}, seed=11, scale=1.5,
                    grads=("out_w",) if train else ())
    return fn


CASES["dec_train"] = _decoder("train")
CASES["dec_train_impute_tm"] = _decoder("train", impute=True, time_major=True)
CASES["dec_train_lstm_grad"] = _decoder("train", cell="lstm", train=True)
CASES["dec_greedy"] = _decoder("greedy", max_step=5)
CASES["dec_greedy_impute_lstm"] = _decoder("greedy", cell="lstm", impute=True, max_step=5)
CASES["dec_greedy_is_test"] = _decoder("greedy", max_step=4, is_test=True)
CASES["dec_sample"] = _decoder("sample", max_step=5)


# --- LSTMCell / GRUCell / a user RNNCell with fluid.layers.rnn and called directly --------------------------------
CX = rs.randn(2, 3, 3).astype("float32")
CLENS = np.array([3, 2], "int64")
CH = rs.randn(2, 4).astype("float32")


def _cell(kind, forget_bias=1.0, direct=False, reverse=False, time_major=False):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [None, 3, 3], "float32")
        x.stop_gradient = False
        lens = fluid.data("lens", [None], "int64")
        h = fluid.data("h", [None, 4], "float32")
        if kind == "lstm":
            cell = L.LSTMCell(4, forget_bias=forget_bias)
            # NOTE: 1.8.5's rnn iterates over a list of initial states' first Variable (rnn.py line 501), which
            # fails or never ends: an LSTMCell runs under rnn with its zero initial states only
            init = [h, L.scale(h, -0.5)] if direct else None
        elif kind == "gru":
            cell = L.GRUCell(4)
            init = h
        else:
            class AddCell(L.RNNCell):
                def call(self, inputs, states):
                    new = L.fc(L.concat([inputs, states], 1), 4, act="tanh")
                    return L.scale(new, 2.0), new

                @property
                def state_shape(self):
                    return [4]
            cell = AddCell()
            init = cell.get_initial_states(batch_ref=x, init_value=0.25)
        if direct:
            out, states = cell(L.reshape(L.slice(x, [1], [0], [1]), [-1, 3]), init)
            res = {"out": out}
        else:
            xin = L.transpose(x, [1, 0, 2]) if time_major else x
            out, states = L.rnn(cell, xin, initial_states=init, sequence_length=lens, time_major=time_major,
                                is_reverse=reverse)
            res = {"out": out}
        for i, s in enumerate(states if isinstance(states, (list, tuple)) else [states]):
            res["state%d" % i] = s
        return res, L.reduce_sum(L.elementwise_mul(out, out))

    def fn(fluid):
        return _run(fluid, build, {"x": CX, "lens": CLENS, "h": CH}, seed=5, grads=("x",))
    return fn


CASES["cell_lstm_rnn"] = _cell("lstm")
CASES["cell_lstm_rnn_fb0_rev"] = _cell("lstm", forget_bias=0.0, reverse=True)
CASES["cell_lstm_direct"] = _cell("lstm", direct=True)
CASES["cell_gru_rnn_tm"] = _cell("gru", time_major=True)
CASES["cell_gru_direct"] = _cell("gru", direct=True)
CASES["cell_user_rnn"] = _cell("user")
CASES["cell_user_direct"] = _cell("user", direct=True)


@case
def _cell_initial_states(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [None, 3, 3], "float32")
        cell = L.LSTMCell(4)
        s0, s1 = cell.get_initial_states(batch_ref=x, init_value=0.5)
        g = L.GRUCell(5).get_initial_states(batch_ref=x, shape=[2, 5], dtype="float64", init_value=-1.0,
                                            batch_dim_idx=1)
        return {"s0": s0, "s1": s1, "g": g}
    return _run(fluid, build, {"x": CX})


# --- elementwise_mod with negative operands -------------------------------------------------------------------------
MOD_X = np.array([[-7, 7, -7, 7, -3, 0, 5, -6]])
MOD_Y = np.array([[3, -3, -3, 3, 5, 2, -5, 4]])


@case
def _elementwise_mod(fluid):
    def build(fluid):
        L = fluid.layers
        res = {}
        for dt in ("int32", "int64", "float32", "float64"):
            x = fluid.data("x_" + dt, [1, 8], dt)
            y = fluid.data("y_" + dt, [1, 8], dt)
            res[dt] = L.elementwise_mod(x, y)
            res[dt + "_bcast"] = L.elementwise_mod(L.transpose(x, [1, 0]), fluid.data("s_" + dt, [1], dt), axis=-1)
        return res
    feed = {}
    for dt in ("int32", "int64", "float32", "float64"):
        f = 1.5 if dt.startswith("float") else 1
        feed["x_" + dt] = (MOD_X * f).astype(dt)
        feed["y_" + dt] = MOD_Y.astype(dt)
        feed["s_" + dt] = np.array([-4], dt)
    return _run(fluid, build, feed)


# --- pool2d average, exclusive=False, ceil_mode=True -----------------------------------------------------------------
PX = rs.randn(1, 2, 5, 5).astype("float32")


@case
def _pool2d_avg_ceil(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [1, 2, 5, 5], "float32")
        x.stop_gradient = False
        res, tot = {}, []
        for name, kw in (("k2s2", dict(pool_size=2, pool_stride=2)),
                         ("k3s2p1", dict(pool_size=3, pool_stride=2, pool_padding=1)),
                         ("k2s2p1", dict(pool_size=2, pool_stride=2, pool_padding=1)),
                         ("k3s3", dict(pool_size=3, pool_stride=3))):
            for exc in (False, True):
                o = L.pool2d(x, pool_type="avg", ceil_mode=True, exclusive=exc, **kw)
                res["%s_exc%d" % (name, exc)] = o
                tot.append(L.reduce_sum(L.elementwise_mul(o, o)))
        return res, L.sums(tot)
    return _run(fluid, build, {"x": PX}, grads=("x",))


# --- tensor_array_to_tensor ------------------------------------------------------------------------------------------
TA = [rs.randn(2, 3).astype("float32") for _ in range(3)]


@case
def _tensor_array_to_tensor(fluid):
    def build(fluid):
        L = fluid.layers
        xs = [fluid.data("t%d" % i, [2, 3], "float32") for i in range(3)]
        res, tot = {}, []
        for x in xs:
            x.stop_gradient = False
        # NOTE: 1.8.5 aborts (free(): invalid pointer) on a negative axis with use_stack=True, and its out_index
        # for a negative axis without stacking is uninitialised memory: not recorded
        for stack, axis in ((True, 0), (True, 1), (True, 2), (False, 0), (False, 1)):
            arr = L.create_array("float32")
            for i, x in enumerate(xs):
                L.array_write(L.scale(x, float(i + 1)), L.fill_constant([1], "int64", i), array=arr)
            out, idx = L.tensor_array_to_tensor(arr, axis=axis, use_stack=stack)
            res["stack%d_axis%d" % (stack, axis)] = out
            res["stack%d_axis%d_idx" % (stack, axis)] = idx
            tot.append(L.reduce_sum(L.elementwise_mul(out, out)))
        return res, L.sums(tot)
    return _run(fluid, build, {"t%d" % i: TA[i] for i in range(3)}, grads=("t0", "t2"))


# --- image_resize nearest --------------------------------------------------------------------------------------------
IMG = rs.randn(1, 2, 3, 4).astype("float32")


@case
def _image_resize_nearest(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [1, 2, 3, 4], "float32")
        x.stop_gradient = False
        res, tot = {}, []
        for name, kw in (("up", dict(out_shape=[6, 7])), ("down", dict(out_shape=[2, 3])),
                         ("scale", dict(scale=1.5)),
                         ("up_noalign", dict(out_shape=[6, 7], align_corners=False)),
                         ("down_noalign", dict(out_shape=[2, 3], align_corners=False))):
            o = L.image_resize(x, resample="NEAREST", **kw)
            res[name] = o
            tot.append(L.reduce_sum(L.elementwise_mul(o, o)))
        res["resize_nearest"] = L.resize_nearest(x, out_shape=[5, 5])
        return res, L.sums(tot)
    return _run(fluid, build, {"x": IMG}, grads=("x",))


# --- bipartite_match / target_assign ---------------------------------------------------------------------------------
DIST = np.array([[0.1, 0.8, 0.3, 0.05], [0.6, 0.2, 0.7, 0.4],
                 [0.9, 0.1, 0.2, 0.3], [0.3, 0.6, 0.05, 0.55], [0.2, 0.3, 0.4, 0.1]], "float32")


@case
def _bipartite_match(fluid):
    def build(fluid):
        L = fluid.layers
        d = fluid.data("d", [None, 4], "float32", lod_level=1)
        i1, d1 = L.bipartite_match(d)
        i2, d2 = L.bipartite_match(d, match_type="per_prediction", dist_threshold=0.25)
        return {"idx": i1, "dist": d1, "idx_pp": i2, "dist_pp": d2}
    return _run(fluid, build, {"d": (DIST, [[2, 3]])})


GT_BOX = rs.rand(5, 4).astype("float32")
GT_LABEL = np.array([[1], [3], [2], [4], [1]], "int32")
MATCH = np.array([[-1, 0, 1, -1], [2, -1, 0, 1]], "int32")
NEG = np.array([[0], [3], [1]], "int32")


@case
def _target_assign(fluid):
    def build(fluid):
        L = fluid.layers
        box = fluid.data("box", [None, 1, 4], "float32", lod_level=1)
        lab = fluid.data("lab", [None, 1, 1], "int32", lod_level=1)
        m = fluid.data("m", [2, 4], "int32")
        neg = fluid.data("neg", [None, 1], "int32", lod_level=1)
        ob, wb = L.target_assign(box, m, mismatch_value=0)
        ol, wl = L.target_assign(lab, m, negative_indices=neg, mismatch_value=7)  # an int attribute in 1.8.5
        return {"box": ob, "box_w": wb, "lab": ol, "lab_w": wl}
    return _run(fluid, build, {"box": (GT_BOX.reshape(5, 1, 4), [[2, 3]]), "lab": (GT_LABEL.reshape(5, 1, 1), [[2, 3]]),
                               "m": MATCH, "neg": (NEG, [[1, 2]])})


def _rank_table(fluid, x):
    # 1.8.5 keeps lod_rank_table in fluid.layers.control_flow (fluid.layers does not re-export it)
    import importlib
    return importlib.import_module("paddle.fluid.layers.control_flow").lod_rank_table(x)


# --- reorder_lod_tensor_by_rank / sequence_expand --------------------------------------------------------------------
RX = rs.randn(6, 2).astype("float32")


@case
def _reorder_lod_tensor_by_rank(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [None, 2], "float32", lod_level=1)
        x.stop_gradient = False
        ref = fluid.data("ref", [None, 1], "float32", lod_level=1)
        table = _rank_table(fluid, ref)
        out = L.reorder_lod_tensor_by_rank(x, table)
        return {"out": out}, L.reduce_sum(L.elementwise_mul(out, out))
    return _run(fluid, build, {"x": (RX, [[1, 3, 2]]), "ref": (np.ones((6, 1), "float32"), [[1, 3, 2]])}, lod=True,
                grads=("x",))


@case
def _reorder_lod_tensor_by_rank_dense(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [3, 2], "float32")
        ref = fluid.data("ref", [None, 1], "float32", lod_level=1)
        return {"out": L.reorder_lod_tensor_by_rank(x, _rank_table(fluid, ref))}
    return _run(fluid, build, {"x": RX[:3], "ref": (np.ones((6, 1), "float32"), [[1, 3, 2]])}, lod=True)


SEX = rs.randn(4, 2).astype("float32")


@case
def _sequence_expand(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [None, 2], "float32", lod_level=1)
        x.stop_gradient = False
        xd = fluid.data("xd", [None, 2], "float32")
        xd.stop_gradient = False
        y = fluid.data("y", [None, 1], "float32", lod_level=2)
        y1 = fluid.data("y1", [None, 1], "float32", lod_level=1)
        res = {"lod_ref0": L.sequence_expand(x, y, ref_level=0),
               "dense_ref_last": L.sequence_expand(xd, y1),
               "lod_ref_last": L.sequence_expand(x, y1),
               "dense_y2": L.sequence_expand(xd, y, ref_level=1)}
        return res, L.sums([L.reduce_sum(L.elementwise_mul(v, v)) for v in res.values()])
    return _run(fluid, build, {"x": (SEX, [[1, 3]]), "xd": SEX[:2],
                               "y": (np.ones((6, 1), "float32"), [[1, 1], [2, 4]]),
                               "y1": (np.ones((5, 1), "float32"), [[3, 2]])}, lod=True, grads=("x", "xd"))


# --- SelectedRows: the sparse gradient of an embedding --------------------------------------------------------------
IDS = np.array([[1], [3], [1], [0], [3]], "int64")


@case
def _selected_rows(fluid):
    def build(fluid):
        L = fluid.layers
        ids = fluid.data("ids", [5, 1], "int64")
        e = L.embedding(ids, size=[5, 3], is_sparse=True, param_attr=fluid.ParamAttr(name="sp_w"))
        loss = L.reduce_sum(L.elementwise_mul(e, L.assign(np.arange(15, dtype="float32").reshape(5, 3))))
        fluid.backward.append_backward(loss)
        g = fluid.default_main_program().global_block().var("sp_w@GRAD")
        merged = L.merge_selected_rows(g)
        return {"grad_tensor": L.get_tensor_from_selected_rows(g),
                "merged_tensor": L.get_tensor_from_selected_rows(merged)}
    return _run(fluid, build, {"ids": IDS})


# --- the dtype repr of a data variable -------------------------------------------------------------------------------
@case
def _dtype_repr(fluid):
    main = fluid.Program()
    out = {}
    with fluid.program_guard(main, fluid.Program()):
        vs = {"data_f32": fluid.data("a", [2, 3], "float32"), "data_i64": fluid.data("b", [2], "int64"),
              "layers_data_f64": fluid.layers.data("c", [3], "float64"), "bool": fluid.data("d", [1], "bool"),
              "fc_param": fluid.layers.create_parameter([2, 2], "float32")}
    for k, v in vs.items():
        out[k + "_repr"] = np.array(repr(v.dtype))
        out[k + "_str"] = np.array(str(v.dtype))
        out[k + "_eq_vartype"] = np.array(v.dtype == fluid.core.VarDesc.VarType.FP32)
    out["fp32_repr"] = np.array(repr(fluid.core.VarDesc.VarType.FP32))
    out["int64_str"] = np.array(str(fluid.core.VarDesc.VarType.INT64))
    return out


# --- a Python scalar fed to a [1]-shaped variable; fluid.executor._as_lodtensor of scalars ---------------------------
@case
def _feed_scalar(fluid):
    out = {}
    for name, a in (("float", 0.01), ("int", 0)):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup), fluid.unique_name.guard():
            lr = fluid.data("lr", [1], "float32")
            x = fluid.data("x", [None, 1], "float32")
            y = fluid.data("y", [None, 1], "float32")
            cost = fluid.layers.reduce_mean(fluid.layers.square_error_cost(
                fluid.layers.fc(x, 1, param_attr=fluid.ParamAttr(name="w"), bias_attr=fluid.ParamAttr(name="b")), y))
            fluid.optimizer.Adam(learning_rate=lr).minimize(cost)
        exe = fluid.Executor(fluid.CPUPlace())
        with fluid.scope_guard(fluid.Scope()):
            exe.run(startup)
            _params(fluid, main, fluid.global_scope())
            feed = {"x": np.array([[1.0], [2.0], [3.0], [4.0]], "float32"),
                    "y": np.array([[2.0], [4.0], [6.0], [8.0]], "float32"), "lr": a}
            for step in range(2):
                got_lr, got_cost = exe.run(main, feed=feed, fetch_list=[lr, cost], return_numpy=False)
                out["%s_lr%d" % (name, step)] = np.array(got_lr)
                out["%s_cost%d" % (name, step)] = np.array(got_cost)
            out[name + "_lr_dtype"] = np.array(str(got_lr._dtype()).split(".")[-1].lower().replace("fp", "float"))
    place = fluid.CPUPlace()
    for name, (v, dt) in {"f_as_int32": (1.0, "int32"), "i_as_float64": (1, "float64"),
                          "f_as_float32": (2.5, "float32")}.items():
        t = fluid.executor._as_lodtensor(v, place, dt)
        out["as_" + name] = np.array(t)
        out["as_%s_dtype" % name] = np.array(str(np.array(t).dtype))
    out["as_no_dtype"] = np.array(_err(lambda: fluid.executor._as_lodtensor(1, place)))
    return out


# --- fluid.backward.calc_gradient ------------------------------------------------------------------------------------
CG_X = rs.randn(2, 3).astype("float32")


@case
def _calc_gradient(fluid):
    def build(fluid):
        x = fluid.data("x", [2, 3], "float32")
        x.stop_gradient = False
        y = fluid.layers.fc(x, 4, act="tanh")
        loss = fluid.layers.reduce_mean(fluid.layers.square(y))
        gx = fluid.backward.calc_gradient(loss, [x])
        gxw = fluid.backward.calc_gradient([loss], [x, fluid.default_main_program().global_block().var("fc_0.w_0")])
        return {"loss": loss, "gx_single": gx, "gx": gxw[0], "gw": gxw[1]}
    return _run(fluid, build, {"x": CG_X})


# --- LoD of sequence_pool / filter_by_instag / roi_perspective_transform outputs and gradients ------------------------
SP_X = rs.randn(7, 3).astype("float32")


@case
def _sequence_pool_lod(fluid):
    def build(fluid):
        L = fluid.layers
        x1 = fluid.data("x1", [None, 3], "float32", lod_level=1)
        x2 = fluid.data("x2", [None, 3], "float32", lod_level=2)
        x1.stop_gradient = False
        x2.stop_gradient = False
        res = {}
        for pt in ("sum", "average", "max", "sqrt", "last", "first"):
            res["l1_" + pt] = L.sequence_pool(x1, pt)
            res["l2_" + pt] = L.sequence_pool(x2, pt)
        return res, L.sums([L.reduce_sum(L.elementwise_mul(v, v)) for v in res.values()])
    return _run(fluid, build, {"x1": (SP_X, [[3, 1, 3]]), "x2": (SP_X, [[2, 1], [3, 1, 3]])}, lod=True,
                grads=("x1", "x2"))


FI_INS = rs.randn(6, 3).astype("float32")
FI_TAG = np.array([[1], [2], [3], [1], [4], [2], [3]], "int64")


@case
def _filter_by_instag_lod(fluid):
    def build(fluid):
        L = fluid.layers
        ins = fluid.data("ins", [None, 3], "float32", lod_level=1)
        ins.stop_gradient = False
        tag = fluid.data("tag", [None, 1], "int64", lod_level=1)
        ftag = fluid.data("ftag", [2], "int64")
        out, w = L.filter_by_instag(ins, tag, ftag, True)
        dense = fluid.data("dense", [None, 3], "float32")
        dtag = fluid.data("dtag", [None, 1], "int64", lod_level=1)
        out2, w2 = L.filter_by_instag(dense, dtag, ftag, False)
        return {"out": out, "w": w, "out_dense": out2, "w_dense": w2}, L.reduce_sum(L.elementwise_mul(out, out))
    return _run(fluid, build, {"ins": (FI_INS, [[2, 1, 3]]), "tag": (FI_TAG, [[2, 2, 3]]),
                               "ftag": np.array([1, 3], "int64"), "dense": FI_INS[:3],
                               "dtag": (FI_TAG[:4], [[1, 2, 1]])}, lod=True, grads=("ins",))


RP_X = rs.randn(2, 2, 8, 8).astype("float32")
RP_ROIS = np.array([[1, 1, 6, 1, 6, 6, 1, 6], [0, 0, 4, 1, 5, 5, 1, 4], [2, 2, 7, 2, 7, 7, 2, 7]], "float32")


@case
def _roi_perspective_transform_lod(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [2, 2, 8, 8], "float32")
        x.stop_gradient = False
        rois = fluid.data("rois", [None, 8], "float32", lod_level=1)
        out, mask, tm = L.roi_perspective_transform(x, rois, 3, 3, 1.0)
        return {"out": out, "mask": mask, "tm": tm}, L.reduce_sum(L.elementwise_mul(out, out))
    return _run(fluid, build, {"x": RP_X, "rois": (RP_ROIS, [[2, 1]])}, lod=True, grads=("x",))


FPN_ROIS = np.array([[0, 0, 10, 10], [0, 0, 100, 120], [5, 5, 40, 40], [0, 0, 300, 300], [10, 10, 20, 30],
                     [0, 0, 224, 224]], "float32")


@case
def _distribute_fpn_proposals(fluid):
    def build(fluid):
        rois = fluid.data("rois", [None, 4], "float32", lod_level=1)
        multi, restore = fluid.layers.distribute_fpn_proposals(rois, 2, 5, 4, 224)
        res = {"restore": restore}
        for i, m in enumerate(multi):
            res["level%d" % i] = m
        return res
    out = _run(fluid, build, {"rois": (FPN_ROIS, [[4, 2]])}, lod=True)
    for k in [k for k in out if k.startswith("level") and "@" not in k]:
        out[k] = out[k].reshape(-1, 4)  # 1.8.5 converts an empty [0, 4] LoDTensor to a (0,) array
    return out


# --- deformable_roi_pooling ------------------------------------------------------------------------------------------
DR_X = rs.randn(1, 4, 6, 6).astype("float32")
DR_ROIS = np.array([[0.5, 0.5, 4.0, 4.0], [1.0, 2.0, 5.5, 5.0]], "float32")
DR_TRANS = (rs.randn(2, 2, 2, 2) * 0.5).astype("float32")


@case
def _deformable_roi_pooling(fluid):
    def build(fluid):
        L = fluid.layers
        x = fluid.data("x", [1, 4, 6, 6], "float32")
        x.stop_gradient = False
        rois = fluid.data("rois", [None, 4], "float32", lod_level=1)
        trans = fluid.data("trans", [2, 2, 2, 2], "float32")
        trans.stop_gradient = False
        res = {"no_trans": L.deformable_roi_pooling(x, rois, trans, no_trans=True, pooled_height=2, pooled_width=2,
                                                    sample_per_part=2),
               "trans": L.deformable_roi_pooling(x, rois, trans, pooled_height=2, pooled_width=2, part_size=[2, 2],
                                                 sample_per_part=2, trans_std=0.1, spatial_scale=0.9),
               # NOTE: position_sensitive=True fails in 1.8.5 under Python 3 (its output_dim attribute is a float),
               # and a group_size > 1 without it reads past the input's channels there: neither is recorded
               "samples3": L.deformable_roi_pooling(x, rois, trans, pooled_height=2, pooled_width=2,
                                                    sample_per_part=3, trans_std=0.2)}
        return res, L.sums([L.reduce_sum(L.elementwise_mul(v, v)) for v in res.values()])
    return _run(fluid, build, {"x": DR_X, "rois": (DR_ROIS, [[2]]), "trans": DR_TRANS}, grads=("x", "trans"))


# --- beam_search with 2-level LoD (sources > prefixes), then beam_search_decode over three steps ----------------------
BS_IDS = [np.array([[4, 2, 7], [3, 1, 5]], "int64"),
          np.array([[6, 0, 2], [0, 5, 3], [1, 4, 0], [2, 6, 7]], "int64"),
          np.array([[0, 3, 1], [5, 0, 2], [7, 1, 0], [0, 4, 6]], "int64")]
BS_PROBS = [np.array([[0.5, 0.3, 0.2], [0.6, 0.25, 0.15]], "float32"),
            np.array([[0.4, 0.35, 0.25], [0.7, 0.2, 0.1], [0.45, 0.45, 0.1], [0.5, 0.3, 0.2]], "float32"),
            np.array([[0.6, 0.3, 0.1], [0.5, 0.25, 0.25], [0.4, 0.4, 0.2], [0.9, 0.05, 0.05]], "float32")]


def _beam_steps(fluid, accumulated):
    L = fluid.layers
    init_ids = fluid.data("init_ids", [None, 1], "int64", lod_level=2)
    init_sc = fluid.data("init_sc", [None, 1], "float32", lod_level=2)
    ids = [fluid.data("ids%d" % i, [None, 3], "int64", lod_level=2) for i in range(3)]
    probs = [fluid.data("probs%d" % i, [None, 3], "float32", lod_level=2) for i in range(3)]
    ids_arr, sc_arr = L.create_array("int64"), L.create_array("float32")
    L.array_write(init_ids, L.fill_constant([1], "int64", 0), array=ids_arr)
    L.array_write(init_sc, L.fill_constant([1], "int64", 0), array=sc_arr)
    pre_ids, pre_sc, res = init_ids, init_sc, {}
    for s in range(3):
        if accumulated:
            sc = L.elementwise_add(L.log(probs[s]), pre_sc, axis=0)
        else:
            sc = probs[s]
        sel_ids, sel_sc, parent = L.beam_search(pre_ids, pre_sc, ids[s], sc, 2, 0, is_accumulated=accumulated,
                                                return_parent_idx=True)
        res["ids%d" % s], res["sc%d" % s], res["parent%d" % s] = sel_ids, sel_sc, parent
        i = L.fill_constant([1], "int64", s + 1)
        L.array_write(sel_ids, i, array=ids_arr)
        L.array_write(sel_sc, i, array=sc_arr)
        pre_ids, pre_sc = sel_ids, sel_sc
    res["dec_ids"], res["dec_sc"] = L.beam_search_decode(ids_arr, sc_arr, 2, 0)
    return res


def _beam_feed():
    feed = {"init_ids": (np.array([[1], [1]], "int64"), [[1, 1], [1, 1]]),
            "init_sc": (np.zeros((2, 1), "float32"), [[1, 1], [1, 1]])}
    lods = [[[1, 1], [1, 1]], [[2, 2], [1, 1, 1, 1]], [[2, 2], [1, 1, 1, 1]]]
    for s in range(3):
        feed["ids%d" % s] = (BS_IDS[s], lods[s])
        feed["probs%d" % s] = (BS_PROBS[s], lods[s])
    return feed


@case
def _beam_search_accumulated(fluid):
    return _run(fluid, lambda f: _beam_steps(f, True), _beam_feed(), lod=True)


@case
def _beam_search_probs(fluid):
    return _run(fluid, lambda f: _beam_steps(f, False), _beam_feed(), lod=True)
