"""A plain Program's plan (engine/static/executor.py plain_transform) runs its updates as one multi-tensor update and
BuildStrategy's default enable_inplace rewrite (an op whose first input dies with it writes into that input). What
a run returns or writes back is the same bits as without them, and a fetched intermediate is never overwritten."""

from __future__ import annotations

import numpy as np
import pytest


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


@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("fetch_hidden", [False, True])
def test_plain_plan_reuses_dead_inputs_with_the_same_bits(train, fetch_hidden, monkeypatch):
    import paddle
    from paddle_compat.engine.static import executor, joint

    monkeypatch.setattr(joint, "ENABLED", [False])  # the plan's own graph, where the rewrite lands
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
    if train:  # the four momentum ops: one multi-tensor update
        types = [n.meta.get("op_type") for n in plans[True].gm.graph.nodes]
        assert types.count("fused_momentum") == 1 and "momentum" not in types, types
