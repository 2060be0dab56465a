"""A legacy fluid 1.x data-parallel script, multi-process (NCCL2-style) form: each trainer feeds its share
of every batch to `CompiledProgram(...).with_data_parallel(loss_name)` with `BuildStrategy.num_trainers` /
`trainer_id` read from Paddle's launch variables, as fluid 1.x scripts did. Used by _worker.py; the
reference is one process trained on the full batches with a plain Executor."""

from __future__ import annotations

import os

import numpy as np

STEPS = 4


def _build(fluid):
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = 7
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data(name="x", shape=[4], dtype="float32")
            y = fluid.layers.data(name="y", shape=[1], dtype="float32")
            h = fluid.layers.fc(input=x, size=8, act="relu")
            pred = fluid.layers.fc(input=h, size=1)
            loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
            fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return main, startup, loss


def _batches():
    rs = np.random.RandomState(5)
    return [(rs.randn(8, 4).astype("float32"), rs.randn(8, 1).astype("float32")) for _ in range(STEPS)]


def _params(fluid, scope, main):
    return {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main.global_block().all_parameters()}


def static_case(rank, world, shard, close):
    import paddle.fluid as fluid

    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    # one process, full batches
    main, startup, loss = _build(fluid)
    ref_scope = fluid.core.Scope()
    with fluid.scope_guard(ref_scope):
        exe.run(startup)
        for xb, yb in _batches():
            exe.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss])
        want = _params(fluid, ref_scope, main)
    # this trainer, its share of each batch
    main, startup, loss = _build(fluid)
    scope = fluid.core.Scope()
    bs = fluid.BuildStrategy()
    bs.num_trainers = int(os.environ["PADDLE_TRAINERS_NUM"])
    bs.trainer_id = int(os.environ["PADDLE_TRAINER_ID"])
    compiled = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, build_strategy=bs,
                                                              places=[place])
    with fluid.scope_guard(scope):
        exe.run(startup)
        for xb, yb in _batches():
            exe.run(compiled, feed={"x": shard(xb), "y": shard(yb)}, fetch_list=[loss])
        got = _params(fluid, scope, main)
    res = [close(got[k], want[k]) for k in want]
    return all(r[0] for r in res) and bs.num_trainers == world and len(want) == 4, [r[1] for r in res]
