"""Data parallel in one process: rules that the 1.8.5 goldens do not pin down (places, persistable feeds,
owners, buckets, threads, sync_batch_norm, equivalence with one place)."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def cpu_num_2(monkeypatch):
    monkeypatch.setenv("CPU_NUM", "2")


def mlp(opt="sgd", bn=False, seed=7):
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[6], dtype="float32")
        y = fluid.layers.data(name="y", shape=[1], dtype="float32")
        h = fluid.layers.fc(input=x, size=8, act=None if bn else "relu")
        if bn:
            h = fluid.layers.batch_norm(h, act="relu")
        pred = fluid.layers.fc(input=h, size=1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        {"sgd": lambda: fluid.optimizer.SGD(0.05), "momentum": lambda: fluid.optimizer.Momentum(0.05, 0.9),
         "adam": lambda: fluid.optimizer.Adam(0.01)}[opt]().minimize(loss)
    rs = np.random.RandomState(seed)
    init = {p.name: (0.3 * rs.randn(*p.shape)).astype("float32") for p in main.all_parameters() if p.trainable}
    return main, startup, loss, h, init


def scope_with(exe, startup, init):
    import paddle.fluid as fluid

    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for n, v in init.items():
            scope.find_var(n).get_tensor().set(v, fluid.CPUPlace())
    return scope


def batches(n=3, b=8, seed=1):
    rs = np.random.RandomState(seed)
    return [(rs.randn(b, 6).astype("float32"), rs.randn(b, 1).astype("float32")) for _ in range(n)]


def train(prog_fn, opt="sgd", bn=False, steps=3, b=8, **dp):
    """Params after `steps` steps; prog_fn(main, loss) -> what exe.run gets."""
    import paddle.fluid as fluid

    main, startup, loss, _, init = mlp(opt, bn)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = scope_with(exe, startup, init)
    losses = []
    with fluid.scope_guard(scope):
        prog = prog_fn(main, loss)
        for xb, yb in batches(steps, b):
            losses.append(exe.run(prog, feed={"x": xb, "y": yb}, fetch_list=[loss.name])[0])
    # by position: every build makes new unique names (fc_0, fc_2, ...)
    return {i: np.array(scope.find_var(n).get_tensor()) for i, n in enumerate(init)}, losses, prog


def dp(places=None, **bs_fields):
    import paddle.fluid as fluid

    def make(main, loss):
        bs = fluid.BuildStrategy()
        es = fluid.ExecutionStrategy()
        for k, v in bs_fields.items():
            setattr(es if k == "num_threads" else bs, k, v)
        return fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, build_strategy=bs,
                                                              exec_strategy=es, places=places)
    return make


def plain(main, loss):
    return main


@pytest.mark.parametrize("opt", ["sgd", "momentum", "adam"])
def test_two_places_equal_one_place_under_coeff_num_device(opt):
    ref, ref_losses, _ = train(plain, opt)
    for red in (0, 1):
        got, losses, _ = train(dp(reduce_strategy=red), opt)
        for n in ref:
            np.testing.assert_allclose(got[n], ref[n], atol=1e-5, err_msg=f"{opt} reduce={red} {n}")
        np.testing.assert_allclose([lv.mean() for lv in losses], [lv[0] for lv in ref_losses], atol=1e-5)


def test_num_threads_one_and_fused_buckets_are_bitwise_invisible(monkeypatch):
    base, _, _ = train(dp())
    seq, _, prog = train(dp(num_threads=1))
    assert prog._exec_strategy.num_threads == 1
    nofuse, _, _ = train(dp(fuse_all_reduce_ops=False))
    monkeypatch.setenv("FLAGS_fuse_parameter_groups_size", "-1")
    onebucket, _, _ = train(dp())
    for n in base:
        for other in (seq, nofuse, onebucket):
            np.testing.assert_array_equal(other[n], base[n])


def test_reduce_owners_greedy_by_numel():
    from paddle_compat.engine.parallel.reduce import reduce_owners

    # the dp_fluid18 MLP in backward order: fc_1.b_0 (1), fc_1.w_0 (10), fc_0.b_0 (10), fc_0.w_0 (130)
    assert reduce_owners([("b1", 1), ("w1", 10), ("b0", 10), ("w0", 130)], 2) == {"b1": 0, "w1": 1, "b0": 0, "w0": 1}
    assert reduce_owners([("a", 5), ("b", 5), ("c", 5)], 4) == {"a": 0, "b": 1, "c": 2}


def test_reduce_runs_each_update_on_its_owner_only():
    _, _, prog = train(dp(reduce_strategy=1))
    c = next(iter(prog._executor._cache.values()))
    assert sorted(set(c.owners.values())) == [0, 1]
    for r, post in enumerate(c.posts):
        updated = {n.args[0].meta["var_name"] for n in post.graph.nodes
                   if n.op == "call_function" and n.meta.get("op_type") == "sgd"}
        assert updated == {p for p, o in c.owners.items() if o == r}
    scopes = prog._executor.local_scopes()  # CPU Reduce: places share the parameters (Paddle's ShareDataWith)
    assert (scopes[1]._vars["fc_0.w_0"] is scopes[0]._vars["fc_0.w_0"]) != _cpu_places_on_gpu()


@pytest.mark.parametrize("opt,bn,ema,fetch_rotation,uniform", [
    ("sgd", False, False, 0, True),
    ("adam", False, False, 1, True),
    ("momentum", False, False, 0, True),
    # batch_norm writes its statistics in place in `pre`: they stay per place, the parameters are shared
    ("adam", True, False, 1, True),
    # ...unless `post` reads them (the moving average of every parameter): the first run sees it, no sharing
    ("sgd", True, True, 0, False),
    # a new fetch list every second run: its plan's first run finds the places sharing already and runs
    # `post` once
    ("adam", True, False, 2, True),
], ids=["sgd", "adam_fetch_rotation", "momentum", "adam_batch_norm", "ema_of_batch_norm_statistics",
        "adam_batch_norm_new_fetch_lists_while_shared"])
def test_uniform_post_runs_the_update_once_and_matches_every_place_updating(opt, bn, ema, fetch_rotation, uniform):
    """CPU places under AllReduce: `post` runs once and the places share the optimizer's persistables
    (data_parallel.uniform_post), bitwise equal to every place running its own update; fetching other
    variables (a new compiled version: checked, then shared again) changes nothing. fetch_rotation k: the
    fetch list changes every k runs (0: never)."""
    import paddle.fluid as fluid
    from paddle_compat.engine.parallel import data_parallel

    post_runs = []
    real_post = data_parallel.DataParallelRunner._run_post

    def run(share):
        with pytest.MonkeyPatch.context() as mp:
            if not share:
                mp.setattr(data_parallel, "uniform_post", lambda st, plan: None)
            mp.setattr(data_parallel.DataParallelRunner, "_run_post",
                       lambda self, *a: post_runs.append(share) or real_post(self, *a))
            with fluid.unique_name.guard():  # the same names in both builds
                return train_fetching()

    def train_fetching():
        main, startup, loss, h, init = mlp(opt, bn)
        if ema:
            with fluid.program_guard(main, startup):
                fluid.optimizer.ExponentialMovingAverage(0.9).update()
        exe = fluid.Executor(fluid.CPUPlace())
        scope = scope_with(exe, startup, init)
        names = [loss.name, h.name, "fc_0.w_0"] if fetch_rotation else [loss.name]
        with fluid.scope_guard(scope):
            prog = dp()(main, loss)
            k = max(1, fetch_rotation)
            fetched = [exe.run(prog, feed={"x": xb, "y": yb}, fetch_list=[names[i // k % len(names)]])[0]
                       for i, (xb, yb) in enumerate(batches(6))]
        scopes = prog._executor.local_scopes()
        states = {n: [np.array(s.find_var(n).get_tensor()) for s in scopes]
                  for n, v in main.global_block().vars.items() if v.persistable and scopes[1].find_var(n) is not None}
        return fetched, states, prog, scopes

    got, got_states, prog, scopes = run(True)
    ref, ref_states, _, _ = run(False)
    for a, b in zip(got, ref):
        np.testing.assert_array_equal(a, b)
    assert got_states.keys() == ref_states.keys()
    for n in ref_states:
        for a, b in zip(got_states[n], ref_states[n]):
            np.testing.assert_array_equal(a, b, err_msg=n)
    assert (scopes[1]._vars["fc_0.w_0"] is scopes[0]._vars["fc_0.w_0"]) == uniform
    nplaces = len(scopes)
    assert post_runs.count(False) == 6 * nplaces
    if fetch_rotation == 2:  # only the first run checks on every place; the later plans' first runs too run once
        assert post_runs.count(True) == nplaces + 5
    if bn:
        assert scopes[1]._vars["batch_norm_0.w_1"] is not scopes[0]._vars["batch_norm_0.w_1"]


def _cpu_places_on_gpu():
    """True under PADDLE_COMPAT_TEST_ON_GPU=1 (tests/conftest.py), where CPUPlace runs on gpu:0."""
    import paddle.fluid as fluid

    return fluid.CPUPlace().torch_device().type == "cuda"


def test_ceil_split_and_lod_split():
    from paddle_compat.engine.framework.lod import LoDTensor
    from paddle_compat.engine.parallel.feed import _split_one, ceil_split_bounds

    assert ceil_split_bounds(3, 2) == [(0, 2), (2, 3)]
    assert ceil_split_bounds(7, 4) == [(0, 2), (2, 4), (4, 6), (6, 7)]
    assert ceil_split_bounds(5, 4) == [(0, 2), (2, 4), (4, 5)]
    assert ceil_split_bounds(0, 3) == [(0, 0)] * 3
    t = LoDTensor(np.arange(10, dtype="float32").reshape(10, 1))
    t.set_recursive_sequence_lengths([[2, 3, 1, 4]])
    parts = _split_one(t, 2)
    assert [p.recursive_sequence_lengths() for p in parts] == [[[2, 3]], [[1, 4]]]
    assert [p.numpy()[:, 0].tolist() for p in parts] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]


def test_places_forms_and_errors(monkeypatch, capsys):
    import os

    import paddle.fluid as fluid
    from paddle_compat.engine.parallel.places import resolve_places

    assert resolve_places(["cpu", "cpu"], fluid.CPUPlace()) == [fluid.CPUPlace()] * 2
    assert len(resolve_places(fluid.cpu_places(3), fluid.CPUPlace())) == 3
    with pytest.raises(AssertionError, match="Place type not match"):
        resolve_places(["gpu:0"], fluid.CPUPlace())
    monkeypatch.delenv("CPU_NUM")
    assert resolve_places(None, fluid.CPUPlace()) == [fluid.CPUPlace()]
    assert os.environ["CPU_NUM"] == "1"
    out = capsys.readouterr().out
    assert "CPU_NUM" in out or (os.cpu_count() or 1) == 1


def test_persistable_feed_is_copied_to_every_place():
    import paddle.fluid as fluid
    from paddle_compat.engine.core.errors import InvalidArgumentError, PreconditionNotMetError

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[3], dtype="float32")
        s = fluid.layers.create_global_var(shape=[1], value=1.0, dtype="float32", persistable=True, name="s")
        out = fluid.layers.elementwise_mul(x, s)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    cp = fluid.CompiledProgram(main).with_data_parallel(places=fluid.cpu_places(2))
    xb = np.arange(12, dtype="float32").reshape(4, 3)
    r, = exe.run(cp, feed={"x": xb, "s": np.array([2.0], "float32")}, fetch_list=[out])
    np.testing.assert_array_equal(r, 2 * xb)
    r, = exe.run(cp, feed={"x": xb, "s": np.array([2.0, 3.0], "float32")}, fetch_list=[out])
    np.testing.assert_array_equal(r, np.concatenate([2 * xb[:2], 3 * xb[2:]]))
    cp3 = fluid.CompiledProgram(main).with_data_parallel(places=fluid.cpu_places(3))
    # no cross-place op: partial feeds are allowed, so the persistable must cover the places that run
    with pytest.raises(InvalidArgumentError, match="persistable variables should not be less than non-persistable"):
        exe.run(cp3, feed={"x": np.ones((6, 3), "float32"), "s": np.arange(4, dtype="float32")}, fetch_list=[out])
    from paddle_compat.engine.parallel.feed import split_feed

    with pytest.raises(PreconditionNotMetError, match=r"Because that s is a persistable variable, you can feed just"):
        split_feed({"x": np.ones((6, 3), "float32"), "s": np.arange(4, dtype="float32")}, main.global_block(), 3,
                   "CPU", allow_partial=False)


def test_inference_program_partial_list_feed_and_lodtensor_fetch():
    import paddle.fluid as fluid

    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[3], dtype="float32")
        out = fluid.layers.scale(x, scale=2.0)
    exe = fluid.Executor(fluid.CPUPlace())
    cp = fluid.CompiledProgram(main).with_data_parallel(places=fluid.cpu_places(2))
    xb = np.ones((2, 3), "float32")
    r, = exe.run(cp, feed=[{"x": xb}], fetch_list=[out], return_numpy=False)
    assert isinstance(r, fluid.LoDTensor) and np.array(r).shape == (2, 3)
    r, = exe.run(cp, feed={"x": xb[:1]}, fetch_list=[out])
    assert r.shape == (1, 3)


def test_drop_scope_counter_and_compile_errors():
    import paddle.fluid as fluid

    main, startup, loss, _, init = mlp()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = scope_with(exe, startup, init)
    es = fluid.ExecutionStrategy()
    es.num_iteration_per_drop_scope = 3
    with fluid.scope_guard(scope):
        cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, exec_strategy=es)
        need = []
        for (xb, yb) in batches(4):
            exe.run(cp, feed={"x": xb, "y": yb}, fetch_list=[loss.name])
            need.append(cp._executor._need_create_local_exe_scopes())
        assert need == [False, False, True, False]
        with pytest.raises(ValueError, match="Cannot compile program with different scope"):
            exe.run(cp, feed={"x": xb, "y": yb}, scope=fluid.Scope())


def test_without_loss_name_places_train_independently():
    """Paddle inserts the loss@GRAD scaling and the gradient all-reduce only for the loss named by
    loss_name (multi_devices_graph_pass IsScaleLossOp): without it each place trains on its own rows."""
    import paddle.fluid as fluid

    main, startup, loss, _, init = mlp()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = scope_with(exe, startup, init)
    with fluid.scope_guard(scope):
        cp = fluid.CompiledProgram(main).with_data_parallel()
        xb, yb = batches(1)[0]
        exe.run(cp, feed={"x": xb, "y": yb}, fetch_list=[loss.name])
        s0, s1 = cp._executor.local_scopes()
        assert not np.allclose(np.array(s0.find_var("fc_0.w_0").get_tensor()),
                               np.array(s1.find_var("fc_0.w_0").get_tensor()))


def test_sync_batch_norm_two_places_equal_one_place_on_the_whole_batch():
    """sync_batch_norm (Paddle: CUDA only) on 2 CPU places: statistics and gradients over the whole batch,
    so 2 places == 1 place running plain batch_norm on the same batch (CoeffNumDevice)."""
    fused = pytest.importorskip("paddle_compat.engine.ops.fused", reason="the sync_batch_norm op (passes work) is absent")
    if not hasattr(fused, "sync_bn_callback"):
        pytest.skip("the sync_batch_norm runtime hook (engine/ops/fused.py sync_bn_callback) is absent")
    if _cpu_places_on_gpu():
        pytest.skip("both places are gpu:0 here: test_sync_batch_norm_on_one_cuda_device_is_a_clear_error")
    ref, ref_losses, _ = train(plain, bn=True)
    got, losses, _ = train(dp(sync_batch_norm=True), bn=True)
    for n in ref:
        np.testing.assert_allclose(got[n], ref[n], atol=1e-5, err_msg=n)
    local, _, _ = train(dp(), bn=True)  # without sync the statistics are per place: different numbers
    assert any(not np.allclose(local[n], ref[n], atol=1e-5) for n in ref)


def test_num_trainers_scale_the_seed_and_exports():
    """nranks = num_trainers x places: CoeffNumDevice seeds loss@GRAD with 1/nranks (the multi-process seam:
    without torch.distributed the cross-process all-reduce is the identity)."""
    import paddle
    import paddle.fluid as fluid

    assert paddle.static.ParallelExecutor is fluid.ParallelExecutor
    main, startup, loss, _, init = mlp()
    exe = fluid.Executor(fluid.CPUPlace())
    scope = scope_with(exe, startup, init)
    with fluid.scope_guard(scope):
        pe = fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main, num_trainers=2,
                                    scope=scope)
        xb, yb = batches(1)[0]
        _, lg = pe.run(fetch_list=[loss.name, loss.name + "@GRAD"], feed={"x": xb, "y": yb})
    np.testing.assert_array_equal(lg, [0.25, 0.25])
    assert pe.device_count == 2


def test_bucket_metadata_from_the_fuse_all_reduce_pass():
    import torch
    import torch.fx as fx

    from paddle_compat.engine.parallel.reduce import bucket_indices, buckets

    gm = fx.GraphModule(torch.nn.Module(), fx.Graph())
    gm.meta["allreduce_buckets"] = [{"grads": ["b@GRAD", "a@GRAD"]}, {"grads": ["c@GRAD"]}]
    assert bucket_indices(gm, ["a@GRAD", "b@GRAD", "c@GRAD", "d@GRAD"]) == [[1, 0], [2], [3]]
    assert buckets([torch.zeros(2), torch.zeros(3)]) == [[0], [1]]  # FLAGS_fuse_parameter_groups_size=1


@pytest.mark.parametrize("opt", ["sgd", "momentum", "adam"])
@pytest.mark.parametrize("red", [0, 1], ids=["all_reduce", "reduce"])
def test_cuda_replicas_match_cpu_places(opt, red):
    """CUDA places run their replicas on their own devices (two on cuda:0 when there is one GPU), under
    AllReduce and under Reduce (owners update, then broadcast), and give the CPU places' numbers."""
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    import paddle.fluid as fluid

    n = torch.cuda.device_count()
    places = [fluid.CUDAPlace(i) for i in range(n)] if n > 1 else [fluid.CUDAPlace(0)] * 2

    def run(on_gpu):
        main, startup, loss, _, init = mlp(opt)
        exe = fluid.Executor(fluid.CUDAPlace(0) if on_gpu else fluid.CPUPlace())
        scope = scope_with(exe, startup, init)
        with fluid.scope_guard(scope):
            bs = fluid.BuildStrategy()
            bs.reduce_strategy = red
            cp = fluid.CompiledProgram(main).with_data_parallel(
                loss_name=loss.name, build_strategy=bs, places=places if on_gpu else fluid.cpu_places(len(places)))
            for xb, yb in batches(3, 4 * len(places)):
                exe.run(cp, feed={"x": xb, "y": yb}, fetch_list=[loss.name])
        return [np.array(scope.find_var(k).get_tensor()) for k in init]

    for a, b in zip(run(True), run(False)):
        np.testing.assert_allclose(a, b, atol=1e-5)


def test_sync_batch_norm_on_one_cuda_device_is_a_clear_error():
    import torch

    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    import paddle.fluid as fluid

    main, startup, loss, _, init = mlp(bn=True)
    exe = fluid.Executor(fluid.CUDAPlace(0))
    scope = scope_with(exe, startup, init)
    with fluid.scope_guard(scope):
        prog = dp(places=[fluid.CUDAPlace(0)] * 2, sync_batch_norm=True)(main, loss)
        xb, yb = batches(1)[0]
        with pytest.raises(NotImplementedError, match="two places on the same CUDA device"):
            exe.run(prog, feed={"x": xb, "y": yb}, fetch_list=[loss.name])
