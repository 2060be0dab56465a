"""paddle.distributed.InMemoryDataset / QueueDataset (2.x's init API over MultiSlot files) training a static
program with Executor.train_from_dataset; the same code runs under real Paddle 2.6.2 (tools/oracle/rec_run26.py
-> tests/goldens/dataset2x26) and here (tests/data/test_dataset2x.py)."""

import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tests.data import dataset_cases  # noqa: E402


def _train(paddle, kind):
    static = paddle.static
    paddle.enable_static()
    try:
        main, start = static.Program(), static.Program()
        with static.program_guard(main, start):
            x = static.data("x", [-1, 2], "float32")
            y = static.data("y", [-1, 1], "float32")
            w = static.data("w", [-1, 1], "int64", lod_level=1)
            const = paddle.nn.initializer.Constant
            emb = static.nn.embedding(w, size=[10, 2], param_attr=paddle.ParamAttr(name="emb", initializer=const(0.2)))
            pooled = static.nn.sequence_lod.sequence_pool(paddle.reshape(emb, [-1, 2]), "sum")
            pred = static.nn.fc(paddle.concat([x, pooled], axis=1), 1,
                                weight_attr=paddle.ParamAttr(name="fc_w", initializer=const(0.1)),
                                bias_attr=paddle.ParamAttr(name="fc_b", initializer=const(0.0)))
            loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
            paddle.optimizer.SGD(0.1).minimize(loss)
        ds = getattr(paddle.distributed, kind)()
        ds.init(batch_size=2, thread_num=1, use_var=[x, y, w], pipe_command="grep -v ^#")
        ds.set_filelist(dataset_cases.write_files(tempfile.mkdtemp()))
        if kind == "InMemoryDataset":
            ds.load_into_memory()
        scope = static.Scope()
        exe = static.Executor(paddle.CPUPlace())
        with static.scope_guard(scope):
            exe.run(start)
            exe.train_from_dataset(main, ds)
            return {n: np.array(scope.find_var(n).get_tensor()) for n in ("fc_w", "fc_b", "emb")}
    finally:
        paddle.disable_static()


CASES = {kind: (lambda paddle, kind=kind: _train(paddle, kind)) for kind in ("InMemoryDataset", "QueueDataset")}
