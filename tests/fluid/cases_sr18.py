"""SelectedRows in fluid 1.x (issue 24 item 3) against real Paddle 1.8.5: the gradient of an embedding's weight with
is_sparse=True is a SelectedRows (rows = the looked-up ids, value = the output gradient per lookup, height = vocab);
`fluid.layers.merge_selected_rows` sums the rows with the same id (rows ascending), `get_tensor_from_selected_rows`
gives the value tensor. Cases: duplicated and unsorted ids, 2-D ids of fluid.embedding, one weight looked up twice
(Paddle's `sum` op merges the two SelectedRows), padding_idx (the sparse gradient keeps the padding rows), a weight
also used densely (a dense gradient), the variables' compile-time types and shapes, the errors (fetching a
SelectedRows, a dense input), and SGD / Momentum / Adam (lazy_mode too) steps with is_sparse=True, SGD with L2Decay,
L1Decay and GradientClipByGlobalNorm.

`CASES` maps a case name to fn(fluid) -> {key: array}. Recorded by tools/oracle/rec_sr18.py (golden
tests/goldens/sr18_selected_rows.*), replayed by tests/fluid/test_sr18.py; numpy only, Python 3.8."""

import numpy as np

CASES = {}


def case(fn):
    CASES[fn.__name__.lstrip("_")] = fn
    return fn


def _err(fn):
    """Run fn and return the exception's type name, or 'ok'."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is the recorded fact
        return type(e).__name__
    return "ok"


def _rows_case(fluid, api, ids, vocab, width, feed, padding_idx=None, weight=None, extra=None):
    """Embedding(s) with is_sparse=True, loss = sum(emb * weight), append_backward; fetch the SelectedRows
    gradient's value, its merged value (return_numpy=False: their LoD too) and the variables' compile-time facts."""
    main, startup = fluid.Program(), fluid.Program()
    L = fluid.layers
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        data = [fluid.data(n, s, "int64") for n, s in ids]
        emb = fluid.embedding if api == "v2" else L.embedding
        outs = [emb(d, size=[vocab, width], is_sparse=True, padding_idx=padding_idx, param_attr="w") for d in data]
        terms = []
        for i, o in enumerate(outs):
            k = int(np.prod([abs(s) for s in o.shape]))
            w = weight if weight is not None else np.arange(k, dtype="float32").reshape(o.shape) * (i + 1)
            terms.append(L.reduce_sum(L.elementwise_mul(o, L.assign(w.astype("float32")))))
        if extra == "dense":
            terms.append(L.reduce_sum(main.global_block().var("w")))
        loss = L.sums(terms) if len(terms) > 1 else terms[0]
        fluid.backward.append_backward(loss)
        g = main.global_block().var("w@GRAD")
        out = {"grad_type": np.array(str(g.type)), "grad_shape": np.array(g.shape, "int64")}
        if extra == "dense":
            fetch = {"grad": g}
        else:
            merged = L.merge_selected_rows(g)
            fetch = {"tensor": L.get_tensor_from_selected_rows(g),
                     "merged": L.get_tensor_from_selected_rows(merged)}
            out.update(merged_type=np.array(str(merged.type)), merged_shape=np.array(merged.shape, "int64"),
                       tensor_type=np.array(str(fetch["tensor"].type)),
                       tensor_shape=np.array(fetch["tensor"].shape, "int64"))
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        keys = sorted(fetch)
        got = exe.run(main, feed=feed, fetch_list=[fetch[k] for k in keys], return_numpy=False)
        for k, v in zip(keys, got):
            out[k] = np.array(v)
            out[k + "@nlod"] = np.array(len(v.lod()), "int64")
        if extra != "dense":
            for k in ("grad", "merged"):
                var = g if k == "grad" else merged
                out["fetch_" + k + "_error"] = np.array(_err(lambda: exe.run(main, feed=feed, fetch_list=[var])))
    return out


@case
def _dup_ids(fluid):
    return _rows_case(fluid, "v1", [("ids", [5, 1])], 5, 3, {"ids": np.array([[1], [3], [1], [0], [3]], "int64")})


@case
def _unsorted_v2(fluid):
    return _rows_case(fluid, "v2", [("ids", [4, 1])], 6, 3, {"ids": np.array([[4], [2], [5], [2]], "int64")})


@case
def _ids_2d_v2(fluid):
    return _rows_case(fluid, "v2", [("ids", [-1, 2])], 6, 2, {"ids": np.array([[3, 1], [1, 4]], "int64")},
                      weight=np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], "float32"))


@case
def _shared_weight(fluid):
    return _rows_case(fluid, "v1", [("ids", [4, 1]), ("ids2", [3, 1])], 6, 2,
                      {"ids": np.array([[2], [0], [2], [5]], "int64"), "ids2": np.array([[5], [1], [5]], "int64")})


@case
def _padding_idx(fluid):
    return _rows_case(fluid, "v1", [("ids", [4, 1])], 6, 2, {"ids": np.array([[2], [0], [2], [5]], "int64")},
                      padding_idx=2)


@case
def _dense_use(fluid):
    return _rows_case(fluid, "v1", [("ids", [4, 1])], 6, 2, {"ids": np.array([[2], [0], [2], [5]], "int64")},
                      extra="dense")


@case
def _dense_input(fluid):
    L = fluid.layers
    out = {}
    for fn in ("merge_selected_rows", "get_tensor_from_selected_rows"):
        def build(fn=fn):
            with fluid.program_guard(fluid.Program(), fluid.Program()):
                getattr(L, fn)(fluid.data("x", [2, 3], "float32"))
        out[fn + "_error"] = np.array(_err(build))
    return out


W0 = (np.arange(12, dtype="float32").reshape(6, 2) - 5.0) / 4.0


def _train(fluid, make_opt, padding_idx=None, steps=3):
    main, startup = fluid.Program(), fluid.Program()
    L = fluid.layers
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        ids = fluid.data("ids", [4, 1], "int64")
        e = L.embedding(ids, size=[6, 2], is_sparse=True, padding_idx=padding_idx, param_attr=fluid.ParamAttr(
            name="w", initializer=fluid.initializer.NumpyArrayInitializer(W0)))
        loss = L.reduce_sum(L.elementwise_mul(e, e)) + L.reduce_sum(e)  # the padding rows' gradient is 1
        make_opt(fluid).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    with fluid.scope_guard(fluid.Scope()) as _:
        exe.run(startup)
        scope = fluid.global_scope()
        for s in range(steps):
            feed = {"ids": np.array([[2], [0], [2], [5]] if s % 2 == 0 else [[1], [1], [4], [0]], "int64")}
            out["loss%d" % s], = exe.run(main, feed=feed, fetch_list=[loss])
            out["w%d" % s] = np.array(scope.find_var("w").get_tensor())
    return out


@case
def _train_sgd(fluid):
    return _train(fluid, lambda f: f.optimizer.SGD(0.1))


@case
def _train_sgd_padding(fluid):
    return _train(fluid, lambda f: f.optimizer.SGD(0.1), padding_idx=2)


@case
def _train_momentum(fluid):
    return _train(fluid, lambda f: f.optimizer.Momentum(0.1, 0.9))


@case
def _train_adam(fluid):
    return _train(fluid, lambda f: f.optimizer.Adam(0.1))


@case
def _train_adam_lazy(fluid):
    return _train(fluid, lambda f: f.optimizer.Adam(0.1, lazy_mode=True))


@case
def _train_sgd_l2(fluid):
    return _train(fluid, lambda f: f.optimizer.SGD(0.1, regularization=f.regularizer.L2Decay(0.5)))


@case
def _train_sgd_l1(fluid):
    return _train(fluid, lambda f: f.optimizer.SGD(0.1, regularization=f.regularizer.L1Decay(0.5)))


@case
def _train_sgd_clip(fluid):
    return _train(fluid, lambda f: f.optimizer.SGD(0.1, grad_clip=f.clip.GradientClipByGlobalNorm(0.5)))
