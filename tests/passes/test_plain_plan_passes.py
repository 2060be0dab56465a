"""A plain Program's plan (engine/static/executor.py plain_transform) runs its updates as one multi-tensor update,
an inference plan's projections of one input as one GEMM, and BuildStrategy's default enable_inplace rewrite (an op
whose first input dies with it writes into that input). What a run returns or writes back is the same bits as
without them, and a fetched intermediate is never overwritten or fused away."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from tests.conftest import Verdicts


def _program(paddle, fetch_hidden: bool, train: bool):
    main, startup = paddle.static.Program(), paddle.static.Program()
    startup.random_seed = 3
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 6])
        h = paddle.static.nn.fc(x, 8, activation="relu")  # mul -> elementwise_add -> relu: two reuses
        pre = h.block.var("fc_0.tmp_1")  # the biased value relu reads
        out = paddle.static.nn.fc(h, 3)
        loss = paddle.mean(out * out)
        if train:
            paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)
    fetches = [loss, out] + ([pre] if fetch_hidden else [])
    return main, startup, fetches


@pytest.mark.parametrize("train,fuse_small", [(False, True), (True, True), (True, False)])
@pytest.mark.parametrize("fetch_hidden", [False, True])
def test_plain_plan_reuses_dead_inputs_with_the_same_bits(train, fuse_small, fetch_hidden, monkeypatch):
    import paddle
    from paddle_compat.engine.static import executor, joint

    monkeypatch.setattr(joint, "ENABLED", [False])  # the plan's own graph, where the rewrite lands
    monkeypatch.setattr(executor, "PLAIN_MIN_FUSED_UPDATES", 4 if fuse_small else 5)  # the program's 4 updates
    paddle.enable_static()
    results, plans = {}, {}
    for on in (False, True):
        monkeypatch.setattr(executor, "PLAIN_PASSES", [on])
        main, startup, fetches = _program(paddle, fetch_hidden, train)
        exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
        exe.run(startup, scope=scope)
        rng = np.random.RandomState(0)
        results[on] = [exe.run(main, feed={"x": rng.rand(4, 6).astype("float32")}, fetch_list=fetches, scope=scope)
                       for _ in range(3)]
        results[on].append([np.array(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()])
        (plans[on],) = main._exec_cache.values()
    for a, b in zip(results[False], results[True]):
        assert [x.tobytes() for x in a] == [x.tobytes() for x in b]
    reused = {n.meta["inplace_of"] for n in plans[True].gm.graph.nodes if n.meta.get("inplace_of")}
    assert not any(n.meta.get("inplace_of") for n in plans[False].gm.graph.nodes)
    assert reused, "nothing was written in place"
    # relu writes into the biased value unless it is fetched; the bias add into the product always
    assert ("fc_0.tmp_1" in reused) is (not fetch_hidden) and "fc_0.tmp_0" in reused, reused
    assert "x" not in reused and not any(name.endswith((".w_0", ".b_0")) for name in reused), reused
    if train:  # the four momentum ops: one multi-tensor update, unless fewer than PLAIN_MIN_FUSED_UPDATES
        types = [n.meta.get("op_type") for n in plans[True].gm.graph.nodes]
        assert (types.count("fused_momentum"), types.count("momentum")) == ((1, 0) if fuse_small else (0, 4)), types


def _attention(paddle, fetch_product: bool, masked: bool = False):
    main, startup = paddle.static.Program(), paddle.static.Program()
    startup.random_seed = 5
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 5, 8])
        mask = paddle.static.data("m", [2, 1, 5, 5]) if masked else None
        out = paddle.nn.MultiHeadAttention(8, 2)(x, attn_mask=mask)
    fetches = [out] + ([main.global_block().var("linear_4.tmp_0")] if fetch_product else [])  # q's product
    return main, startup, fetches


@pytest.mark.parametrize("form", ["attention", "masked", "one GEMM differs", "kernel differs", "product fetched"])
def test_inference_plan_runs_one_gemm_for_the_qkv_projections(form, monkeypatch):
    """An inference plan's q / k / v projections of one input run as one GEMM (engine/passes/fuse_multi_linear.py):
    for self-attention one multi_head_inputs node, which writes the scaled q, k transposed and v in the layouts the
    attention's matmuls read (its reshapes, transposes and scale gone, and the q k matmul without transpose_y); the
    same bits, also where the one GEMM would differ and the node runs the ops one by one. A fetched product keeps its
    own matmul (a multi_linear of the other two). A new weight in the scope is picked up at the next run."""
    import paddle
    from paddle_compat.engine.ops.nn_functional import common
    from paddle_compat.engine.static import executor

    monkeypatch.setattr(common, "_CONCAT_SAME", Verdicts(form == "one GEMM differs"))
    monkeypatch.setattr(common, "_KERNEL_SAME", Verdicts(form == "kernel differs"))
    paddle.enable_static()
    results, types = {}, {}
    rng = np.random.RandomState(1)
    feed = {"x": rng.rand(2, 5, 8).astype("float32")}
    feed["x"][0, 0, :3] = [-0.0, 0.0, 1e-40]  # signed zeros and a subnormal: scale's x * s + 0.0
    if form == "masked":
        feed["m"] = np.where(rng.rand(2, 1, 5, 5) > 0.3, 0.0, -1e9).astype("float32")
    for on in (False, True):
        monkeypatch.setattr(executor, "PLAIN_PASSES", [on])
        main, startup, fetches = _attention(paddle, form == "product fetched", form == "masked")
        exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
        exe.run(startup, scope=scope)
        results[on] = exe.run(main, feed=feed, fetch_list=fetches, scope=scope)
        w = scope.find_var("linear_1.w_0").get_tensor()  # k's weight, changed between runs
        w.set(np.array(w) * 2, paddle.CPUPlace())
        results[on] += exe.run(main, feed=feed, fetch_list=fetches, scope=scope)
        (plan,) = main._exec_cache.values()
        types[on] = [n.meta.get("op_type") for n in plan.gm.graph.nodes if n.op == "call_function"]
    for a, b in zip(results[False], results[True]):
        assert a.tobytes() == b.tobytes()
    assert not np.array_equal(results[True][0], results[True][-1 - (form == "product fetched")])  # the new weight
    off, on = collections.Counter(types[False]), collections.Counter(types[True])
    assert off["multi_linear"] == off["multi_head_inputs"] == 0
    if form == "product fetched":  # k and v: one GEMM; q's matmul stays, fetched
        assert on["multi_linear"] == 1 and on["multi_head_inputs"] == 0
        assert on["matmul_v2"] == off["matmul_v2"] - 2
    else:
        assert on["multi_linear"] == 0 and on["multi_head_inputs"] == 1
        assert on["matmul_v2"] == off["matmul_v2"] - 3 and on["elementwise_add"] == off["elementwise_add"] - 3
        assert on["transpose2"] == off["transpose2"] - 3 and on["reshape2"] == off["reshape2"] - 3
        assert on["scale"] == off["scale"] - 1


def test_training_plan_keeps_its_projections(monkeypatch):
    import paddle
    from paddle_compat.engine.static import executor

    monkeypatch.setattr(executor, "PLAIN_PASSES", [True])
    paddle.enable_static()
    main, startup, fetches = _attention(paddle, False)
    with paddle.static.program_guard(main, startup):
        loss = paddle.mean(fetches[0])
        paddle.optimizer.SGD(0.1).minimize(loss)
    exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
    exe.run(startup, scope=scope)
    exe.run(main, feed={"x": np.ones((2, 5, 8), "float32")}, fetch_list=[loss], scope=scope)
    (plan,) = main._exec_cache.values()
    assert not any(n.meta.get("op_type") == "multi_linear" for n in plan.gm.graph.nodes)


def _biased_output(paddle, d: str, fetch_sum: bool):
    """An inference model save_inference_model wrote: out = x * y + b, b a parameter, with the scale(1.0) it appends
    to the fetch target; `fetch_sum` also fetches x * y + b itself (the add's own result)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x, y = paddle.static.data("x", [4, 3]), paddle.static.data("y", [4, 3])
        b = paddle.static.create_parameter([3], "float32", name="b",
                                           default_initializer=paddle.nn.initializer.Assign(np.array([-0.0, 0.0, 2.5],
                                                                                                     "float32")))
        out = paddle.add(paddle.multiply(x, y), b)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    path = f"{d}/model"
    paddle.static.save_inference_model(path, [x, y], [out], exe, program=main)
    prog, feeds, fetches = paddle.static.load_inference_model(path, exe)
    if fetch_sum:
        fetches = fetches + [prog.global_block().var(out.name)]
    return exe, prog, fetches


@pytest.mark.parametrize("fetch_sum", [False, True])
def test_inference_plan_folds_the_fetch_scale_into_the_bias_add(fetch_sum, monkeypatch, tmp_path):
    """save_inference_model's scale(1.0) on a fetch target runs as the bias add's +0.0 on the parameter
    (engine/passes/fold_fetch_scale.py): the same bits, signed zeros included (-0.0 + -0.0 gives -0.0, and the scale
    makes it +0.0), with one op fewer; when the add's own result is fetched too, the scale stays."""
    import paddle
    from paddle_compat.engine.static import executor

    paddle.enable_static()
    x = np.array([[0.0, 0.0, 1.0], [-0.0, -0.0, -0.0], [1e-40, np.inf, np.nan], [-3.0, 1.5, 7.0]], "float32")
    y = np.array([[-1.0, 1.0, 2.0], [1.0, 1.0, -2.5], [-1.0, -np.inf, 1.0], [0.5, 2.0, -1.0]], "float32")
    results, types = {}, {}
    for on in (False, True):
        monkeypatch.setattr(executor, "PLAIN_PASSES", [on])
        exe, prog, fetches = _biased_output(paddle, str(tmp_path / str(on)), fetch_sum)
        results[on] = exe.run(prog, feed={"x": x, "y": y}, fetch_list=fetches)
        (plan,) = prog._exec_cache.values()
        types[on] = collections.Counter(n.meta.get("op_type") for n in plan.gm.graph.nodes if n.op == "call_function")
    for a, b in zip(results[False], results[True]):
        assert a.tobytes() == b.tobytes()
    assert not np.signbit(results[True][0][0, 0]) and results[True][0][0, 0] == 0  # (-0.0 + -0.0) + 0.0
    assert not np.signbit(results[True][0][1, 1])  # (-0.0 + 0.0) + 0.0
    if fetch_sum:
        assert np.signbit(results[True][1][0, 0])  # the add's own -0.0, fetched as it is
    # the fold adds the parameter's scale and removes the fetch target's: the count of scales is the same, the
    # fetch target is the add's
    assert types[True]["scale"] == types[False]["scale"] == 1
    add = next(n for n in plan.gm.graph.nodes if n.meta.get("op_type") == "elementwise_add")
    assert (add.meta.get("var_name") == fetches[0].name) is (not fetch_sum)


@pytest.mark.parametrize("approximate", [False, True])
@pytest.mark.parametrize("train", [False, True])
def test_gelu_reuses_its_input_only_without_a_backward(train, approximate, monkeypatch):
    """A transformer's FFN, linear -> gelu -> linear: in an inference plan gelu writes into the biased value it reads
    (torch's in-place kernel, the same bits); a training plan keeps it out of place (GELU's backward reads its
    input)."""
    import paddle
    from paddle_compat.engine.static import executor, joint

    monkeypatch.setattr(joint, "ENABLED", [False])
    paddle.enable_static()
    x = np.random.RandomState(2).randn(3, 6).astype("float32")
    results, reused = {}, {}
    for on in (False, True):
        monkeypatch.setattr(executor, "PLAIN_PASSES", [on])
        main, startup = paddle.static.Program(), paddle.static.Program()
        startup.random_seed = 4
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            xv = paddle.static.data("x", [3, 6])
            h = paddle.nn.functional.gelu(paddle.static.nn.fc(xv, 8), approximate=approximate)
            loss = paddle.mean(paddle.static.nn.fc(h, 2))
            if train:
                paddle.optimizer.SGD(0.1).minimize(loss)
        exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
        exe.run(startup, scope=scope)
        results[on] = [exe.run(main, feed={"x": x}, fetch_list=[loss], scope=scope)[0] for _ in range(2)]
        (plan,) = main._exec_cache.values()
        reused[on] = {n.meta.get("op_type") for n in plan.gm.graph.nodes if n.meta.get("inplace_of")}
    assert [r.tobytes() for r in results[False]] == [r.tobytes() for r in results[True]]
    assert ("gelu" in reused[True]) is (not train) and not reused[False]
