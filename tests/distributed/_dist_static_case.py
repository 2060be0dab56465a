"""A legacy fluid 1.x data-parallel script, multi-process (NCCL2-style) form: each trainer feeds its share
of every batch to `CompiledProgram(...).with_data_parallel(loss_name)` with `BuildStrategy.num_trainers` /
`trainer_id` read from Paddle's launch variables, as fluid 1.x scripts did. Used by _worker.py; the
reference is one process trained on the full batches with a plain Executor."""

from __future__ import annotations

import os

import numpy as np

STEPS = 4


def _build(fluid, bn=False, seed=7):
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = seed
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data(name="x", shape=[4], dtype="float32")
            y = fluid.layers.data(name="y", shape=[1], dtype="float32")
            h = fluid.layers.fc(input=x, size=8, act=None if bn else "relu")
            if bn:
                h = fluid.layers.batch_norm(h, act="relu")
            pred = fluid.layers.fc(input=h, size=1)
            loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
            fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return main, startup, loss


def _batches():
    rs = np.random.RandomState(5)
    return [(rs.randn(8, 4).astype("float32"), rs.randn(8, 1).astype("float32")) for _ in range(STEPS)]


def _params(fluid, scope, main):
    return {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main.global_block().all_parameters()}


def _place(fluid):
    """CPU, or this trainer's GPU when test_dist_cuda.py runs the case (random init differs per device, so the
    reference runs on the same place)."""
    if os.environ.get("DIST_EXPECT_CUDA") == "1":
        return fluid.CUDAPlace(int(os.environ.get("FLAGS_selected_gpus", os.environ.get("LOCAL_RANK", "0"))))
    return fluid.CPUPlace()


def _reference(fluid, bn):
    exe = fluid.Executor(_place(fluid))
    main, startup, loss = _build(fluid, bn)  # one process, full batches
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for xb, yb in _batches():
            exe.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss])
        return _params(fluid, scope, main)


def _train_dp(fluid, variant, shard):
    place = _place(fluid)
    exe = fluid.Executor(place)
    # the parallel_executor variant initialises differently on each trainer: trainer 0's values are broadcast
    seed = 7 + int(os.environ["PADDLE_TRAINER_ID"]) if variant == "parallel_executor" else 7
    main, startup, loss = _build(fluid, bn=variant.startswith("sync_batch_norm"), seed=seed)
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        if variant.startswith("sync_batch_norm"):  # batch statistics over both trainers' shares
            bs = fluid.BuildStrategy()
            bs.sync_batch_norm = True
            places = [place, place] if variant.endswith("two_places") else [place]
            prog = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, build_strategy=bs,
                                                                  places=places)
            run = lambda feed: exe.run(prog, feed=feed, fetch_list=[loss])  # noqa: E731
        elif variant == "compiled_program":  # NCCL2-style script: trainers from Paddle's launch variables
            bs = fluid.BuildStrategy()
            bs.num_trainers = int(os.environ["PADDLE_TRAINERS_NUM"])
            bs.trainer_id = int(os.environ["PADDLE_TRAINER_ID"])
            prog = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, build_strategy=bs,
                                                                  places=[place])
            run = lambda feed: exe.run(prog, feed=feed, fetch_list=[loss])  # noqa: E731
        elif variant == "parallel_executor":  # 1.x ParallelExecutor, num_trainers left to the launcher
            pe = fluid.ParallelExecutor(use_cuda=place.is_gpu_place(), loss_name=loss.name, main_program=main)
            run = lambda feed: pe.run(feed=feed, fetch_list=[loss.name])  # noqa: E731
        else:  # two places per trainer (nranks = 4), Reduce strategy, no fused all-reduce
            bs = fluid.BuildStrategy()
            bs.reduce_strategy = fluid.BuildStrategy.ReduceStrategy.Reduce
            bs.fuse_all_reduce_ops = False
            prog = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, build_strategy=bs,
                                                                  places=[place, place])
            run = lambda feed: exe.run(prog, feed=feed, fetch_list=[loss])  # noqa: E731
        for xb, yb in _batches():
            run({"x": shard(xb), "y": shard(yb)})
        return _params(fluid, scope, main)


def static_case(rank, world, shard, close):
    import paddle.fluid as fluid

    want = {False: _reference(fluid, False), True: _reference(fluid, True)}
    res = []
    for variant in ("compiled_program", "parallel_executor", "two_places_reduce", "sync_batch_norm"):
        ref = want[variant == "sync_batch_norm"]
        got = _train_dp(fluid, variant, shard)
        res += [(variant, k) + close(got[k], ref[k]) for k in ref]
    bad = [r for r in res if not r[2]]
    return not bad and len(res) == 4 * 3 + 8, bad or "all variants equal"


def static_sync_bn_two_places(rank, world, shard, close):
    """sync_batch_norm with 2 places in each of 2 trainers: statistics must span all 4 replicas."""
    import paddle.fluid as fluid

    if _place(fluid).is_gpu_place():  # both places are this trainer's one GPU: a documented limit
        try:
            _train_dp(fluid, "sync_batch_norm_two_places", shard)
        except NotImplementedError as e:  # Paddle's UnimplementedError
            return "two places on the same CUDA device" in str(e), str(e)
        return False, "expected the clear error for two places on one CUDA device"
    want = _reference(fluid, True)
    got = _train_dp(fluid, "sync_batch_norm_two_places", shard)
    res = [(k,) + close(got[k], want[k]) for k in want]
    bad = [r for r in res if not r[1]]
    return not bad, bad or "equal"
