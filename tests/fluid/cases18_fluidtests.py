"""Behaviours Paddle's own fluid-era tests (tools/paddle_tests) showed differing from 1.8.5, reduced to small
runs: each case is `fn(fluid) -> {key: array}`. Shared by tools/oracle/rec_run18.py (golden fluid18_fluidtests,
real Paddle 1.8.5) and tests/fluid/test_fluidtests18.py; numpy only, Python 3.8."""

import warnings

import numpy as np

rs = np.random.RandomState(1185)
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _run(fluid, build, feed, startup_feed=None, data_parallel=None, steps=1):
    """Build in fresh programs; run startup, then `steps` runs of main; {fetch index|step: value}."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            fetch, loss = build(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    out = {}
    with fluid.scope_guard(scope):
        exe.run(startup)
        prog = main
        if data_parallel:
            prog = fluid.CompiledProgram(main).with_data_parallel(
                loss_name=loss.name, places=[fluid.CPUPlace()] * data_parallel)
        for s in range(steps):
            res = exe.run(prog, feed=feed(s) if callable(feed) else feed, fetch_list=fetch)
            for i, r in enumerate(res):
                out["%d|%d" % (i, s)] = np.asarray(r)
    return out


# --- fluid.layers.sums(input=[...]) and sums(..., out=var) -------------------------------------------------------
@case
def sums(fluid):
    def build(F):
        a = F.layers.fill_constant([2, 3], "float32", 1.5)
        b = F.layers.data("b", shape=[2, 3], dtype="float32", append_batch_size=False)
        into = F.layers.fill_constant([2, 3], "float32", 0.0)
        return [F.layers.sums(input=[a, b]), F.layers.sums([a, b, b], out=into), into], None

    return _run(fluid, build, {"b": np.arange(6, dtype="float32").reshape(2, 3)})


# --- softmax clips shifted logits at -64 (the NaN of test_parallel_executor_fetch_feed) --------------------------
LOGITS = np.array([[0.0, -100.0, 3.0, -70.0], [1.0, 2.0, -0.5, 80.0]], "float32")
LABEL = np.array([[1], [2]], "int64")


def _logits(F):
    x = F.layers.create_parameter([2, 4], "float32", name="logits",
                                  default_initializer=F.initializer.NumpyArrayInitializer(LOGITS))
    return x, F.layers.data("label", shape=[2, 1], dtype="int64", append_batch_size=False)


@case
def softmax_clip(fluid):
    def build(F):
        x, label = _logits(F)
        prob = F.layers.softmax(x)
        ce = F.layers.cross_entropy(prob, label)
        swce = F.layers.softmax_with_cross_entropy(x, label)
        zero = F.layers.cross_entropy(F.layers.fill_constant([2, 4], "float32", 0.0), label)
        soft = F.layers.cross_entropy(prob, F.layers.fill_constant([2, 4], "float32", 0.25), soft_label=True)
        g_ce = F.backward.gradients([ce], [x])
        g_swce = F.backward.gradients([swce], [x])
        return [prob, ce, swce, zero, soft] + g_ce + g_swce, None

    return _run(fluid, build, {"label": LABEL})


FC_W = (rs.randn(6, 5) * 3).astype("float32")
FC_X = (rs.randn(8, 6) * 4).astype("float32")
FC_Y = np.array([[0], [1], [2], [3], [4], [0], [1], [2]], "int64")


@case
def confident_softmax_momentum_dp(fluid):
    """fc + softmax + cross_entropy trained by Momentum(0.1, 0.9) with L2Decay on two places: confidently wrong
    samples (loss 64 in Paddle) must not turn the parameters nan."""
    def build(F):
        x = F.layers.data("x", shape=[6], dtype="float32")
        y = F.layers.data("y", shape=[1], dtype="int64")
        prob = F.layers.fc(x, 5, act="softmax",
                           param_attr=F.ParamAttr(name="w", initializer=F.initializer.NumpyArrayInitializer(FC_W)),
                           bias_attr=False)
        loss = F.layers.mean(F.layers.cross_entropy(prob, y))
        F.optimizer.Momentum(0.1, 0.9, regularization=F.regularizer.L2Decay(1e-4)).minimize(loss)
        return [loss, "w", "w@GRAD"], loss

    return _run(fluid, build, {"x": FC_X, "y": FC_Y}, data_parallel=2, steps=3)


# --- feeding -----------------------------------------------------------------------------------------------------
@case
def feed_python_scalar(fluid):
    """A Python number fed to a [1]-shaped variable (feed={'lr': 0.01})."""
    def build(F):
        lr = F.layers.data("lr", shape=[1], dtype="float32", append_batch_size=False)
        n = F.layers.data("n", shape=[1], dtype="int64", append_batch_size=False)
        x = F.layers.data("x", shape=[3], dtype="float32")
        return [x * lr, n * 2], None

    return _run(fluid, build, {"lr": 0.25, "n": 3, "x": np.ones((2, 3), "float32")})


@case
def feed_layers_data_unchecked(fluid):
    """fluid.layers.data variables take any fed shape (1.8 checks only fluid.data variables)."""
    def build(F):
        x = F.layers.data("x", shape=[3], dtype="float32")
        return [F.layers.reduce_sum(x, dim=1), F.layers.shape(x)], None

    return _run(fluid, build, {"x": np.arange(8, dtype="float32").reshape(2, 4)})


@case
def feed_extra_keys_ignored(fluid):
    """A feed name that is no variable of the program is ignored with a warning (plain Executor)."""
    def build(F):
        x = F.layers.data("x", shape=[3], dtype="float32")
        return [F.layers.reduce_sum(x)], None

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = _run(fluid, build, {"x": np.ones((2, 3), "float32"), "not_a_var": np.ones(2, "float32")})
    out["warned"] = np.array([any("not_a_var is not found in program" in str(m.message) for m in w)])
    return out


# --- LoD of an is_sparse embedding + sequence_pool fed through DataFeeder to two places ----------------------------
EMB = (np.arange(80, dtype="float32").reshape(20, 4) / 80)
SEQS = [([1, 2, 3], [0]), ([4, 5], [1]), ([6], [0]), ([7, 8, 9, 10], [1])]


@case
def lod_feeder_sparse_embedding_dp(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            words = fluid.layers.data("words", shape=[1], dtype="int64", lod_level=1)
            label = fluid.layers.data("label", shape=[1], dtype="int64")
            emb = fluid.layers.embedding(words, size=[20, 4], is_sparse=True, param_attr=fluid.ParamAttr(
                name="emb", initializer=fluid.initializer.NumpyArrayInitializer(EMB)))
            pooled = fluid.layers.sequence_pool(emb, "sum")
            pred = fluid.layers.fc(pooled, 2, act="softmax", param_attr=fluid.ParamAttr(
                name="w", initializer=fluid.initializer.Constant(0.1)))
            loss = fluid.layers.mean(fluid.layers.cross_entropy(pred, label))
            fluid.optimizer.SGD(0.5).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        feeder = fluid.DataFeeder([words, label], fluid.CPUPlace())
        cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, places=[fluid.CPUPlace()] * 2)
        for s in range(2):
            res = exe.run(cp, feed=feeder.feed(SEQS), fetch_list=[loss, pooled, "emb"])
            for i, r in enumerate(res):
                out["%d|%d" % (i, s)] = np.asarray(r)
    return out


# --- regularizers with 1.8's argument name -------------------------------------------------------------------------
@case
def l2_decay_regularization_coeff(fluid):
    def build(F):
        x = F.layers.data("x", shape=[6], dtype="float32")
        y = F.layers.data("y", shape=[1], dtype="int64")
        prob = F.layers.fc(x, 5, act="softmax", bias_attr=False, param_attr=F.ParamAttr(
            name="w", initializer=F.initializer.NumpyArrayInitializer(FC_W * 0.1),
            regularizer=F.regularizer.L1DecayRegularizer(regularization_coeff=0.05)))
        loss = F.layers.mean(F.layers.cross_entropy(prob, y))
        F.optimizer.SGD(0.1, regularization=F.regularizer.L2DecayRegularizer(regularization_coeff=0.1)).minimize(loss)
        return [loss, "w"], loss

    out = _run(fluid, build, {"x": FC_X, "y": FC_Y}, steps=2)
    out["str"] = np.array([str(fluid.regularizer.L2DecayRegularizer(regularization_coeff=0.1)),
                           str(fluid.regularizer.L1Decay(0.2))])
    return out


# --- core places: _type() (1.8's place variant index) and _equals, as the decoupled py_reader tests compare ---------
@case
def place_type_and_equals(fluid):
    cpu = fluid.CPUPlace()
    t = fluid.LoDTensor()
    t.set(np.ones([2], "float32"), cpu)
    return {"cpu_type": np.array(cpu._type()), "cpu_eq": np.array(cpu._equals(fluid.CPUPlace())),
            "tensor_place_eq": np.array(t._place()._equals(cpu))}



# --- fluid.executor._as_lodtensor (test_py_reader_push_pop): an array as is, a scalar with its dtype as shape [1] ---
@case
def as_lodtensor(fluid):
    place = fluid.CPUPlace()
    t = fluid.executor._as_lodtensor(np.arange(6, dtype="float32").reshape(2, 3), place)
    s = fluid.executor._as_lodtensor(3, place, "int64")
    return {"array": np.array(t), "lod": np.array(len(t.lod())), "scalar": np.array(s)}


# --- fluid.optimizer.append_regularization_ops (test_regularizer): scale + sum in the parameter's program ----------
@case
def append_regularization_ops(fluid):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", shape=[3], dtype="float32")
        y = fluid.layers.fc(x, 2, bias_attr=False, param_attr=fluid.ParamAttr(
            name="w", initializer=fluid.initializer.NumpyArrayInitializer(np.arange(6, dtype="float32").reshape(3, 2)),
            regularizer=fluid.regularizer.L2DecayRegularizer(0.5)))
        loss = fluid.layers.mean(y)
        params_grads = fluid.backward.append_backward(loss)
    n = len(main.global_block().ops)
    (p, g), = fluid.optimizer.append_regularization_ops(params_grads)
    ops = main.global_block().ops[n:]
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        got, = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[g])
    return {"types": np.array([op.type for op in ops]), "grad": np.asarray(got), "param": np.array(p.name)}


# --- Optimizer.minimize returns every op its optimization pass appended (test_optimizer) ----------------------------
@case
def minimize_returns_pass_ops(fluid):
    out = {}
    for mult in (1.0, 1.1):
        for name, make in (("sgd", lambda: fluid.optimizer.SGD(0.01)), ("adam", lambda: fluid.optimizer.Adam(0.01))):
            main, startup = fluid.Program(), fluid.Program()
            with fluid.program_guard(main, startup):
                x = fluid.layers.data("x", shape=[3], dtype="float32")
                y = fluid.layers.fc(x, 2, bias_attr=False, param_attr=fluid.ParamAttr(learning_rate=mult))
                opts, _ = make().minimize(fluid.layers.mean(y))
            out["%s|%s" % (name, mult)] = np.array([op.type for op in opts])
    return out


# --- optimizer startup: the learning rate's fill_constant before the accumulators'; Paddle's *_acc_str names -------
@case
def optimizer_startup_order(fluid):
    out = {}
    for name, opt in (("momentum", fluid.optimizer.Momentum(0.01, momentum=0.2)),
                      ("ftrl", fluid.optimizer.Ftrl(0.02))):  # Adamax: 1.8.5 fills beta1_pow first (not yet)
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            x = fluid.layers.data("x", shape=[3], dtype="float32")
            y = fluid.layers.fc(x, 2, bias_attr=False, param_attr=fluid.ParamAttr(
                initializer=fluid.initializer.Constant(0.5)))
            opt.minimize(fluid.layers.mean(y))
        # the optimizer's own startup ops (the parameter's Constant(0.5) init is left out: 1.8.5 prepends the
        # optimizer's fills before it, which paddle_compat does not yet)
        vals = [op.attr("value") for op in startup.global_block().ops if op.type == "fill_constant"]
        out[name + "|values"] = np.array([v for v in vals if v != 0.5], "float32")
        out[name + "|acc_strs"] = np.array(sorted(a for a in dir(opt) if a.endswith("_acc_str")))
    return out
