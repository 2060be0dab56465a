"""More behaviours Paddle's own fluid-era tests (tools/paddle_tests) showed differing from 1.8.5, reduced to small
runs: each case is `fn(fluid) -> {key: array}`. Shared by tools/oracle/rec_run18.py (golden fluid18_fluidtests2,
real Paddle 1.8.5) and tests/fluid/test_fluidtests18.py; numpy only, Python 3.8."""

import numpy as np

rs = np.random.RandomState(1186)
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _lod_tensor(fluid, data, lens):
    return fluid.create_lod_tensor(np.asarray(data), lens, fluid.CPUPlace())


def _fetch(fluid, build, feed):
    """Build in fresh programs, run startup and main once; {index: value, index|lod: offsets of every level}."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            fetch = build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        res = exe.run(main, feed=feed(fluid), fetch_list=fetch, return_numpy=False)
    for i, r in enumerate(res):
        out["%d" % i] = np.array(r)
        for lv, offs in enumerate(r.lod()):
            out["%d|lod%d" % (i, lv)] = np.asarray(offs, "int64")
    return out


# --- LoD through tensor arrays: array_write a LoD tensor, array_read it inside a While loop, use its LoD ----------
SEQ = rs.randn(5, 3).astype("float32")
ROWS = rs.randn(2, 3).astype("float32")


@case
def array_lod_while(fluid):
    def build(F):
        L = F.layers
        x = L.data("x", shape=[3], dtype="float32", lod_level=1)
        rows = L.data("rows", shape=[3], dtype="float32")
        i = L.zeros(shape=[1], dtype="int64")
        n = L.fill_constant(shape=[1], dtype="int64", value=2)
        arr = L.create_array("float32")
        L.array_write(x, i=i, array=arr)
        outs = L.create_array("float32")
        cond = L.less_than(i, n)
        loop = L.While(cond=cond)
        with loop.block():
            cur = L.array_read(arr, i=i)
            expanded = L.sequence_expand(rows, cur)           # rows repeated by cur's sequence lengths
            pooled = L.sequence_pool(cur, "sum")              # one row per sequence of cur
            L.increment(i, 1, in_place=True)
            L.array_write(L.scale(cur, 2.0), i=i, array=arr)  # scale keeps cur's LoD
            L.array_write(expanded + L.sequence_expand(pooled, cur), i=i, array=outs)
            L.less_than(i, n, cond=cond)
        last = L.array_read(arr, i=i)
        res = L.array_read(outs, i=i)
        return [last, L.sequence_pool(last, "max"), res]

    return _fetch(fluid, build, lambda F: {"x": _lod_tensor(F, SEQ, [[2, 3]]), "rows": ROWS})


# --- the book's machine_translation decoder (test_machine_translation decode): state / ids / scores arrays in a
# While loop, sequence_expand of the state by the previous scores' LoD, beam_search, beam_search_decode ------------
V, H, W, BEAM, STEPS = 12, 4, 3, 2, 3
MT_EMB = (rs.randn(V, W) * 0.8).astype("float32")
MT_ENC = (rs.randn(3, H) * 0.5).astype("float32")
MT_W1 = (rs.randn(H, H) * 0.7).astype("float32")
MT_W2 = (rs.randn(W, H) * 0.7).astype("float32")
MT_B = (rs.randn(H) * 0.1).astype("float32")
MT_WO = (rs.randn(H, V) * 1.5).astype("float32")
MT_SRC = rs.randn(5, 3).astype("float32")


def _param(F, name, value):
    return F.ParamAttr(name=name, initializer=F.initializer.NumpyArrayInitializer(value))


@case
def mt_decoder(fluid):
    def build(F):
        L = F.layers
        src = L.data("src", shape=[3], dtype="float32", lod_level=1)
        context = L.sequence_last_step(L.fc(src, H, act="tanh", param_attr=_param(F, "enc_w", MT_ENC),
                                            bias_attr=False))
        array_len = L.fill_constant(shape=[1], dtype="int64", value=STEPS)
        counter = L.zeros(shape=[1], dtype="int64", force_cpu=True)
        state_array = L.create_array("float32")
        L.array_write(context, array=state_array, i=counter)
        ids_array = L.create_array("int64")
        scores_array = L.create_array("float32")
        init_ids = L.data("init_ids", shape=[1], dtype="int64", lod_level=2)
        init_scores = L.data("init_scores", shape=[1], dtype="float32", lod_level=2)
        L.array_write(init_ids, array=ids_array, i=counter)
        L.array_write(init_scores, array=scores_array, i=counter)
        cond = L.less_than(x=counter, y=array_len)
        loop = L.While(cond=cond)
        with loop.block():
            pre_ids = L.array_read(array=ids_array, i=counter)
            pre_state = L.array_read(array=state_array, i=counter)
            pre_score = L.array_read(array=scores_array, i=counter)
            pre_state_expanded = L.sequence_expand(pre_state, pre_score)
            emb = L.embedding(pre_ids, size=[V, W], param_attr=_param(F, "emb", MT_EMB))
            state = L.fc([pre_state_expanded, emb], H, act="tanh",
                         param_attr=[_param(F, "w1", MT_W1), _param(F, "w2", MT_W2)],
                         bias_attr=_param(F, "b", MT_B))
            with_lod = L.lod_reset(x=state, y=pre_score)
            score = L.fc(with_lod, V, act="softmax", param_attr=_param(F, "wo", MT_WO), bias_attr=False)
            topk_scores, topk_indices = L.topk(score, k=BEAM)
            accu = L.elementwise_add(x=L.log(topk_scores), y=L.reshape(pre_score, shape=[-1]), axis=0)
            sel_ids, sel_scores = L.beam_search(pre_ids, pre_score, topk_indices, accu, BEAM, end_id=1, level=0)
            L.increment(x=counter, value=1, in_place=True)
            L.array_write(state, array=state_array, i=counter)
            L.array_write(sel_ids, array=ids_array, i=counter)
            L.array_write(sel_scores, array=scores_array, i=counter)
            length_cond = L.less_than(x=counter, y=array_len)
            finish_cond = L.logical_not(L.is_empty(x=sel_ids))
            L.logical_and(x=length_cond, y=finish_cond, out=cond)
        ids, scores = L.beam_search_decode(ids=ids_array, scores=scores_array, beam_size=BEAM, end_id=1)
        return [ids, scores, counter]

    def feed(F):
        return {"src": _lod_tensor(F, MT_SRC, [[3, 2]]),
                "init_ids": _lod_tensor(F, np.zeros((2, 1), "int64"), [[1, 1], [1, 1]]),
                "init_scores": _lod_tensor(F, np.zeros((2, 1), "float32"), [[1, 1], [1, 1]])}

    return _fetch(fluid, build, feed)


# --- Adamax: its beta1 power is scaled by a separate `scale` op after the updates (test_optimizer) ----------------
AX_X = rs.randn(4, 3).astype("float32")


@case
def adamax_pass_ops(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data("x", shape=[3], dtype="float32")
            y = fluid.layers.fc(x, 2, param_attr=fluid.ParamAttr(
                learning_rate=1.1, initializer=fluid.initializer.Constant(0.3)))
            loss = fluid.layers.mean(fluid.layers.square(y))
            opt = fluid.optimizer.Adamax(0.05, beta1=0.8)
            opts, _ = opt.minimize(loss)
    accs = [opt._accumulators[k]["fc_0.w_0"] for k in ("moment", "inf_norm", "beta1_pow_acc")]
    exe = fluid.Executor(fluid.CPUPlace())
    out = {"opts": np.array([op.type for op in opts]), "ops": np.array([op.type for op in main.global_block().ops])}
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        for s in range(3):
            res = exe.run(main, feed={"x": AX_X + s}, fetch_list=[loss, "fc_0.w_0", "fc_0.b_0"] + accs)
            for i, r in enumerate(res):
                out["%d|%d" % (i, s)] = np.asarray(r)
    return out


# --- RecomputeOptimizer: block.ops lists the recomputed forward ops among the *_grad ops (test_optimizer) -------
RC_W0 = rs.randn(3, 4).astype("float32")
RC_W1 = rs.randn(4, 2).astype("float32")
RC_B1 = rs.randn(2).astype("float32")


@case
def recompute_op_listing(fluid):
    out = {}
    for tag, pick in (("none", lambda h: []), ("one", lambda h: [h[1]]), ("two", lambda h: [h[0], h[2]]),
                      ("adjacent", lambda h: [h[1], h[0]]), ("input", lambda h: [h[3], h[2]])):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            with fluid.unique_name.guard():
                x = fluid.layers.data("x", shape=[3], dtype="float32")
                h0 = fluid.layers.fc(x, 4, bias_attr=False, param_attr=_param(fluid, "w0", RC_W0))
                h1 = fluid.layers.relu(h0)
                h2 = fluid.layers.fc(h1, 2, act="tanh", param_attr=_param(fluid, "w1", RC_W1),
                                     bias_attr=_param(fluid, "b1", RC_B1))
                loss = fluid.layers.mean(h2)
                opt = fluid.optimizer.RecomputeOptimizer(fluid.optimizer.SGD(0.1))
                opt._set_checkpoints(pick([h0, h1, h2, x]))
                opt.minimize(loss)
        out[tag] = np.array([op.type for op in main.global_block().ops])
        exe = fluid.Executor(fluid.CPUPlace())
        with fluid.scope_guard(fluid.Scope()):
            exe.run(startup)
            for s in range(2):
                l, = exe.run(main, feed={"x": AX_X * (s + 1)}, fetch_list=[loss])
            out[tag + "|loss"] = np.asarray(l)
    return out


# --- save_inference_model: each target becomes save_infer_model/scale_<i>.tmp_<k> in the program (test_inference_
# model_io); a program with an auc op warns ---------------------------------------------------------------------
@case
def save_inference_model_targets(fluid):
    import tempfile
    import warnings

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data("x", shape=[2], dtype="float32")
            label = fluid.layers.data("label", shape=[1], dtype="int64")
            y = fluid.layers.fc(x, 2, act="softmax", param_attr=_param(fluid, "sw", RC_W0[:2, :2]),
                                bias_attr=False)
            fluid.layers.auc(y, label)
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    with fluid.scope_guard(fluid.Scope()), tempfile.TemporaryDirectory() as d:
        exe.run(startup)
        with warnings.catch_warnings(record=True) as w, fluid.unique_name.guard():
            warnings.simplefilter("always")
            first = fluid.io.save_inference_model(d + "/m", ["x"], [y], exe, main)
            second = fluid.io.save_inference_model(d + "/m", ["x"], [y], exe, main)
        prog, feeds, fetches = fluid.io.load_inference_model(d + "/m", exe)
        res, = exe.run(prog, feed={"x": AX_X[:, :2]}, fetch_list=fetches)
    out["names"] = np.array(first + second + [v.name for v in fetches])
    out["ops"] = np.array([op.type for op in main.global_block().ops][-2:])
    out["auc_warned"] = np.array([any("auc states" in str(m.message) for m in w)])
    out["result"] = np.asarray(res)
    return out


# --- an iterable PyReader / DataLoader.from_generator with several places yields one batch per place (test_
# decoupled_py_reader, test_generator_dataloader); batches that cannot fill every place are dropped ---------------
def _samples():
    for k in range(7):
        yield (np.full([3], k, "float32"), np.array([k], "int64"))


@case
def loader_batch_per_place(fluid):
    import paddle

    out = {}
    for tag, nplaces, drop_last in (("one", 1, True), ("two", 2, True), ("three_keep", 3, False)):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            x = fluid.layers.data("x", shape=[3], dtype="float32")
            y = fluid.layers.data("y", shape=[1], dtype="int64")
            loader = fluid.io.DataLoader.from_generator(feed_list=[x, y], capacity=4, drop_last=drop_last)
        places = fluid.cpu_places(nplaces)
        loader.set_sample_list_generator(paddle.batch(_samples, batch_size=2), places=places)
        steps = [[np.array(d["x"]).sum() for d in step] for step in loader()]
        out[tag + "|per_step"] = np.array([len(s) for s in steps], "int64")
        out[tag + "|sums"] = np.array([v for s in steps for v in s], "float32")
    return out


# --- fluid.core's native inference API (book/test_word2vec): PaddleBuf bytes, PaddleTensor, NativeConfig,
# create_paddle_predictor, CompiledProgram._with_inference_optimize ------------------------------------------------
NI_X = rs.randn(3, 4).astype("float32")
NI_IDS = np.array([[1], [4], [2]], "int64")
NI_EMB = np.linspace(-1, 1, 20).reshape(5, 4).astype("float32")


@case
def native_inference_api(fluid):
    import tempfile

    core = fluid.core
    out = {}
    b = core.PaddleBuf(np.arange(4, dtype="int64"))
    out["buf|len"] = np.array([b.length(), core.PaddleBuf([1.0, 2.0]).length(), core.PaddleBuf(3).length()],
                              "int64")
    out["buf|int64"] = np.array(b.int64_data(), "int64")
    out["buf|float_as_int64"] = np.array(core.PaddleBuf(np.ones(2, "float32")).int64_data(), "int64")
    out["buf|float_list"] = np.array(core.PaddleBuf([1.5, -2.0]).float_data(), "float32")
    t = core.PaddleTensor(np.ones((2, 3), "int32"), name="a", lod=[[0, 2]])
    out["tensor|meta"] = np.array([t.name, str(t.dtype), str(t.shape), str(t.lod), str(core.PaddleTensor().dtype)])
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data("x", shape=[4], dtype="float32")
            ids = fluid.layers.data("ids", shape=[1], dtype="int64")
            emb = fluid.layers.embedding(ids, size=[5, 4], param_attr=_param(fluid, "ni_emb", NI_EMB))
            y = fluid.layers.fc(x + emb, 2, act="softmax", param_attr=_param(fluid, "ni_w", RC_W0.T[:4, :2]))
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()), tempfile.TemporaryDirectory() as d:
        exe.run(startup)
        with fluid.unique_name.guard():  # the appended scale's name does not depend on earlier cases
            fluid.io.save_inference_model(d + "/m", ["x", "ids"], [y], exe, main)
        cfg = core.NativeConfig()
        out["config"] = np.array([repr(cfg.model_dir), str(cfg.use_gpu), str(cfg.device),
                                  str(cfg.fraction_of_gpu_memory), str(cfg.specify_input_name)])
        cfg.model_dir = d + "/m"
        pred = core.create_paddle_predictor(cfg)
        res = pred.run([core.PaddleTensor(NI_X), core.PaddleTensor(NI_IDS)])
        out["run|data"] = np.array(res[0].data.float_data(), "float32")
        out["run|meta"] = np.array([res[0].name, str(res[0].dtype), str(res[0].shape), str(len(res))])
        prog, feeds, fetches = fluid.io.load_inference_model(d + "/m", exe)
        compiled = fluid.compiler.CompiledProgram(prog)._with_inference_optimize(cfg)
        res2 = exe.run(compiled, feed=[core.PaddleTensor(NI_X), core.PaddleTensor(NI_IDS)])
        out["compiled|data"] = np.asarray(res2[0].as_ndarray())
        out["compiled|is_inference"] = np.array([compiled._is_inference])
    return out


# --- fluid.contrib.decoder: StateCell + TrainingDecoder (a DynamicRNN) and BeamSearchDecoder (a While loop over
# tensor arrays); parameters set by name after the startup program --------------------------------------------------
CD_V, CD_W, CD_H = 12, 3, 4
CD_SRC = rs.randn(5, 3).astype("float32")
CD_TRG = rs.randn(6, CD_W).astype("float32")


def _set_params(fluid, program, scope):
    """Every parameter gets a fixed value made from its shape, in name order."""
    for k, p in enumerate(sorted(program.global_block().all_parameters(), key=lambda v: v.name)):
        n = int(np.prod(p.shape))
        val = (np.sin(np.arange(n) * 0.7 + k) * 0.8).reshape(p.shape).astype("float32")
        scope.find_var(p.name).get_tensor().set(val, fluid.CPUPlace())


def _cell(fluid, boot):
    from paddle.fluid.contrib.decoder.beam_search_decoder import InitState, StateCell

    L = fluid.layers
    states = {"h": InitState(init=boot, need_reorder=True),
              "c": InitState(init_boot=boot, shape=[-1, CD_H], value=0.25)}
    cell = StateCell(inputs={"x": None}, states=states, out_state="h")

    @cell.state_updater
    def updater(c):
        h = L.fc([c.get_input("x"), c.get_state("h")], CD_H, act="tanh")
        c.set_state("c", c.get_state("c") * 0.5 + h)
        c.set_state("h", L.tanh(c.get_state("c")))

    return cell


def _decoder_run(fluid, build, feed):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            src = fluid.layers.data("src", shape=[3], dtype="float32", lod_level=1)
            boot = fluid.layers.sequence_last_step(fluid.layers.fc(src, CD_H, act="tanh"))
            fetch = build(fluid, boot)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    out = {"params": np.array(sorted(p.name for p in main.global_block().all_parameters()))}
    with fluid.scope_guard(scope):
        exe.run(startup)
        _set_params(fluid, main, scope)
        feed = dict(feed(fluid), src=_lod_tensor(fluid, CD_SRC, [[3, 2]]))
        res = exe.run(main, feed=feed, fetch_list=fetch, return_numpy=False)
    for i, r in enumerate(res):
        out["%d" % i] = np.array(r)
        for lv, offs in enumerate(r.lod()):
            out["%d|lod%d" % (i, lv)] = np.asarray(offs, "int64")
    return out


@case
def contrib_training_decoder(fluid):
    from paddle.fluid.contrib.decoder.beam_search_decoder import TrainingDecoder

    def build(F, boot):
        trg = F.layers.data("trg", shape=[CD_W], dtype="float32", lod_level=1)
        dec = TrainingDecoder(_cell(F, boot))
        with dec.block():
            cur = dec.step_input(trg)
            dec.state_cell.compute_state(inputs={"x": cur})
            score = F.layers.fc(dec.state_cell.get_state("h"), CD_V, act="softmax")
            dec.state_cell.update_states()
            dec.output(score)
        return [dec()]

    return _decoder_run(fluid, build, lambda F: {"trg": _lod_tensor(F, CD_TRG, [[4, 2]])})


@case
def contrib_beam_search_decoder(fluid):
    from paddle.fluid.contrib.decoder.beam_search_decoder import BeamSearchDecoder

    def build(F, boot):
        init_ids = F.layers.data("init_ids", shape=[1], dtype="int64", lod_level=2)
        init_scores = F.layers.data("init_scores", shape=[1], dtype="float32", lod_level=2)
        dec = BeamSearchDecoder(_cell(F, boot), init_ids, init_scores, CD_V, CD_W, topk_size=3, sparse_emb=False,
                                max_len=3, beam_size=2, end_id=1)
        dec.decode()
        return list(dec())

    def feed(F):
        return {"init_ids": _lod_tensor(F, np.zeros((2, 1), "int64"), [[1, 1], [1, 1]]),
                "init_scores": _lod_tensor(F, np.zeros((2, 1), "float32"), [[1, 1], [1, 1]])}

    return _decoder_run(fluid, build, feed)


# --- fluid.clip.append_gradient_clip_ops after set_gradient_clip (test_gradient_clip) ------------------------------
GC_X = (rs.randn(4, 5) * 3).astype("float32")


@case
def append_gradient_clip_ops(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data("x", shape=[5], dtype="float32")
            h = fluid.layers.fc(x, 3, act="relu", param_attr=_param(fluid, "gc_w0", RC_W0.T[:, :3].repeat(2, 0)[:5]))
            y = fluid.layers.fc(h, 2, param_attr=_param(fluid, "gc_w1", RC_W1[:3]))
            loss = fluid.layers.mean(fluid.layers.square(y))
            p_g = fluid.backward.append_backward(loss)
            fluid.clip.set_gradient_clip(fluid.clip.GradientClipByGlobalNorm(clip_norm=0.5))
            clipped = fluid.clip.append_gradient_clip_ops(p_g)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        res = exe.run(main, feed={"x": GC_X}, fetch_list=[g for _, g in p_g] + [g for _, g in clipped])
    out = {"%d" % i: np.asarray(r) for i, r in enumerate(res)}
    out["params"] = np.array([p.name for p, _ in clipped])
    return out
