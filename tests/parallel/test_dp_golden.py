"""Data parallel in one process vs real Paddle 1.8.5 (tests/goldens dp_fluid18, case D): per-strategy losses and
parameters, fetched shapes, split layouts and error texts, on 2 (and 4) CPU places."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import key, load_golden

META, A = load_golden("dp_fluid18")
PNAMES = ["fc_0.w_0", "fc_0.b_0", "fc_1.w_0", "fc_1.b_0"]
TOL = 1e-5


@pytest.fixture(autouse=True)
def cpu_num_2(monkeypatch):
    monkeypatch.setenv("CPU_NUM", "2")


def build():
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[13], dtype="float32")
        y = fluid.layers.data(name="y", shape=[1], dtype="float32")
        h = fluid.layers.fc(input=x, size=10, act="relu")
        pred = fluid.layers.fc(input=h, size=1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        test_prog = main.clone(for_test=True)
        fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
    assert (loss.name, h.name, pred.name) == (META["loss_name"], META["h_name"], META["pred_name"])
    return main, startup, test_prog, loss, h, pred


def fresh_scope(exe, startup):
    import paddle.fluid as fluid

    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for n in PNAMES:
            scope.find_var(n).get_tensor().set(A[key("init", n)], fluid.CPUPlace())
    return scope


def compiled(main, loss_name, reduce=None, scale=None, places=None, share=None):
    import paddle.fluid as fluid

    bs = fluid.BuildStrategy()
    if reduce is not None:
        bs.reduce_strategy = reduce
    if scale is not None:
        bs.gradient_scale_strategy = scale
    es = fluid.ExecutionStrategy()
    cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss_name, build_strategy=bs, exec_strategy=es,
                                                        places=places, share_vars_from=share)
    return cp, es


VARIANTS = ["allreduce_coeff", "reduce_coeff", "allreduce_one", "allreduce_customized", "reduce_one"]


@pytest.mark.parametrize("tag", VARIANTS)
def test_strategy_variants_match_paddle(tag):
    import paddle.fluid as fluid

    RS, GS = fluid.BuildStrategy.ReduceStrategy, fluid.BuildStrategy.GradientScaleStrategy
    red = RS.Reduce if tag.startswith("reduce") else RS.AllReduce
    sc = {"coeff": GS.CoeffNumDevice, "one": GS.One, "customized": GS.Customized}[tag.split("_")[1]]
    main, startup, _, loss, h, _ = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    lg = loss.name + "@GRAD"
    with fluid.scope_guard(scope):
        cp, es = compiled(main, loss.name, red, sc)
        losses, lgrads = [], []
        for step in range(5):
            feed = {"x": A["xs"][step], "y": A["ys"][step]}
            if sc == GS.Customized:
                feed[lg] = (np.ones(2) * 0.01).astype("float32")
            fetch = [loss.name, lg] + ([h.name, "fc_0.w_0", "fc_0.b_0", "fc_0.w_0@GRAD"] if step == 0 else [])
            out = exe.run(cp, feed=feed, fetch_list=fetch)
            losses.append(out[0])
            lgrads.append(out[1])
            if step == 0:
                rec = META["variants"][tag]
                assert {n: list(o.shape) for n, o in zip(fetch, out)} == rec["fetched_shapes_step0"]
                np.testing.assert_allclose(out[3], A[tag + "__step0_fetched__fc_0_w_0"], atol=TOL)
                np.testing.assert_allclose(out[5], A[tag + "__step0_fetched__fc_0_w_0_AT_GRAD"], atol=TOL)
        np.testing.assert_allclose(np.stack(losses), A[tag + "__losses"], atol=TOL)
        np.testing.assert_allclose(np.stack(lgrads), A[tag + "__loss_grad"], atol=TOL)
        assert es.num_threads == rec["exec_strategy_num_threads_after_run"]
        assert es.num_iteration_per_drop_scope == rec["exec_strategy_num_iteration_per_drop_scope"]
        local = cp._executor.local_scopes()
        assert len(local) == 2 and local[0] is scope
        for i, ls in enumerate(local):
            for n in PNAMES:
                np.testing.assert_allclose(np.array(ls.find_var(n).get_tensor()), A[key(f"{tag}__final_place{i}", n)],
                                           atol=TOL)
    for n in PNAMES:
        np.testing.assert_allclose(np.array(scope.find_var(n).get_tensor()), A[key(f"{tag}__final", n)], atol=TOL)


@pytest.mark.parametrize("tag", ["one_place", "two_places", "plain_executor"])
def test_places_vs_plain_executor(tag):
    import paddle.fluid as fluid

    main, startup, _, loss, _, _ = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    with fluid.scope_guard(scope):
        if tag == "plain_executor":
            prog = main
        else:
            prog, _ = compiled(main, loss.name, places=[fluid.CPUPlace()] if tag == "one_place" else fluid.cpu_places(2))
        ls = [exe.run(prog, feed={"x": A["xs"][s], "y": A["ys"][s]}, fetch_list=[loss.name])[0] for s in range(5)]
    np.testing.assert_allclose(np.stack(ls), A[f"cmp_{tag}__losses"], atol=TOL)
    for n in PNAMES:
        np.testing.assert_allclose(np.array(scope.find_var(n).get_tensor()), A[key(f"cmp_{tag}__final", n)], atol=TOL)


def _core(rec):
    """Paddle's message without the error-class prefix and the C++ location."""
    text = rec["core_first_line"]
    text = text.split(": ", 1)[1] if text.split(": ", 1)[0].endswith("Error") else text
    return text.split(" at (/paddle")[0]


@pytest.mark.parametrize("which", ["feed_errors_2places", "pe_feed_errors_2places"])
def test_feed_errors_match_paddle(which):
    import paddle.fluid as fluid
    from paddle_compat.engine.core.errors import EnforceNotMet

    main, startup, _, loss, h, _ = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    errs = META[which]
    X, Y = A["xs"][0], A["ys"][0]
    with fluid.scope_guard(scope):
        if which == "feed_errors_2places":
            cp, _ = compiled(main, loss.name)

            def run(feed):
                return exe.run(cp, feed=feed, fetch_list=[loss.name])
        else:
            pe = fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main, scope=scope)

            def run(feed):
                return pe.run(fetch_list=[loss.name], feed=feed)
        with pytest.raises(EnforceNotMet) as e:
            run({"x": X[:1], "y": Y[:1]})
        assert _core(errs["batch1_on_2places"]) in str(e.value)
        assert "drop" in str(e.value)  # says what to do
        with pytest.raises(EnforceNotMet) as e:
            run([{"x": X[:5], "y": Y[:5]}])
        assert isinstance(e.value, ValueError)  # Paddle's docs promise ValueError
        assert _core(errs["feed_list_len1_on_2places"]) in str(e.value)
        with pytest.raises(TypeError, match="^Each element of feed list should be a dict$"):
            run([{"x": X[:5], "y": Y[:5]}, (X[5:], Y[5:])])
        if which == "feed_errors_2places":
            with pytest.raises(TypeError, match="^Each element of feed list should be a dict$"):
                run([[X[:5], Y[:5]], [X[5:], Y[5:]]])
            ok = exe.run(cp, feed=[{"x": X[:4], "y": Y[:4]}, {"x": X[4:], "y": Y[4:]}], fetch_list=[loss.name, h.name])
            assert [list(o.shape) for o in ok] == META["list_feed_ok_fetched_shapes"]


def test_customized_without_loss_grad_feed():
    import paddle.fluid as fluid
    from paddle_compat.engine.core.errors import EnforceNotMet

    main, startup, _, loss, _, _ = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    with fluid.scope_guard(scope):
        cp, _ = compiled(main, loss.name, fluid.BuildStrategy.ReduceStrategy.AllReduce,
                         fluid.BuildStrategy.GradientScaleStrategy.Customized)
        with pytest.raises(EnforceNotMet) as e:
            exe.run(cp, feed={"x": A["xs"][0], "y": A["ys"][0]}, fetch_list=[loss.name])
    assert META["error_customized_without_loss_grad_feed"]["core_first_line"].split(": ", 1)[1] in str(e.value)


SPLITS = sorted(META["splits"])


@pytest.mark.parametrize("case", SPLITS)
def test_split_layouts(case, monkeypatch):
    import paddle.fluid as fluid
    from paddle_compat.engine.core.errors import EnforceNotMet

    rec = META["splits"][case]
    b = int(case.split("_B")[1].split("_")[0])
    p = int(case.split("_P")[1])
    main, startup, test_prog, loss, _, pred = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    xb = np.zeros((b, 13), "float32")
    xb[:, 0] = np.arange(b)
    yb = np.zeros((b, 1), "float32")
    train = case.startswith("train")
    extra = [loss.name] if case == "train_B3_P2" else ([pred.name] if not train else [])
    with fluid.scope_guard(scope):
        monkeypatch.setenv("CPU_NUM", str(p))
        cp, _ = compiled(main if train else test_prog, loss.name if train else None)

        def go():
            return exe.run(cp, feed={"x": xb, "y": yb}, fetch_list=["x"] + extra, return_merged=False)
        if "error" in rec:
            with pytest.raises(EnforceNotMet) as e:
                go()
            assert _core(rec["error"]) in str(e.value)
            return
        out = go()
    assert len(cp._executor.local_scopes()) == rec["n_local_scopes"]
    assert [t[:, 0].astype(int).tolist() for t in out[0]] == rec["rows_per_place"]
    assert len(out[0]) == rec["n_fetched_places"]
    if "extra_shapes_per_place" in rec:
        assert [[list(t.shape) for t in o] for o in out[1:]] == rec["extra_shapes_per_place"]


def test_merged_and_unmerged_fetch_shapes():
    import paddle.fluid as fluid

    main, startup, _, loss, h, _ = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    names = [loss.name, h.name, "fc_0.w_0", "fc_0.b_0", "fc_1.b_0"]
    with fluid.scope_guard(scope):
        cp, _ = compiled(main, loss.name)
        merged = exe.run(cp, feed={"x": A["xs"][0], "y": A["ys"][0]}, fetch_list=names)
        unmerged = exe.run(cp, feed={"x": A["xs"][1], "y": A["ys"][1]}, fetch_list=names, return_merged=False)
    assert {n: list(o.shape) for n, o in zip(names, merged)} == META["merged_fetch_shapes"]
    assert {n: [list(t.shape) for t in o] for n, o in zip(names, unmerged)} == META["unmerged_fetch_shapes"]


def test_parallel_executor_and_share_vars_from():
    import paddle.fluid as fluid

    main, startup, test_prog, loss, _, pred = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    with fluid.scope_guard(scope):
        train_exe = fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main, scope=scope)
        test_exe = fluid.ParallelExecutor(use_cuda=False, main_program=test_prog, share_vars_from=train_exe,
                                          scope=scope)
        losses = [train_exe.run(fetch_list=[loss.name], feed={"x": A["xs"][s], "y": A["ys"][s]})[0] for s in range(5)]
        t_loss, t_pred = test_exe.run(fetch_list=[loss.name, pred.name], feed={"x": A["x_test"], "y": A["y_test"]})
        assert train_exe.device_count == META["pe_device_count"]
        assert [list(t_loss.shape), list(t_pred.shape)] == META["pe_test_fetched_shapes"]
        train_exe.drop_local_exe_scopes()
    np.testing.assert_allclose(np.stack(losses), A["pe__losses"], atol=TOL)
    np.testing.assert_allclose(t_loss, A["pe__test_loss"], atol=TOL)
    np.testing.assert_allclose(t_pred, A["pe__test_pred"], atol=TOL)
    for n in PNAMES:
        np.testing.assert_allclose(np.array(scope.find_var(n).get_tensor()), A[key("pe__final", n)], atol=TOL)
    with pytest.raises(AssertionError, match=META["error_pe_share_vars_from_wrong_type"]["message"]):
        fluid.ParallelExecutor(use_cuda=False, main_program=test_prog, share_vars_from="not a PE")


def test_share_vars_from_not_run():
    import paddle.fluid as fluid

    main, startup, test_prog, loss, _, _ = build()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fresh_scope(exe, startup)
    with fluid.scope_guard(scope):
        cp_train, _ = compiled(main, loss.name)
        cp_test = fluid.CompiledProgram(test_prog).with_data_parallel(share_vars_from=cp_train)
        with pytest.raises(ValueError, match=META["error_share_vars_from_not_run"]["message"]):
            exe.run(cp_test, feed={"x": A["x_test"], "y": A["y_test"]}, fetch_list=[loss.name])
