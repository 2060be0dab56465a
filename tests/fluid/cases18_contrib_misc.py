"""fluid.contrib memory_usage (forward program), ctr_metric_bundle (accumulated over two runs),
extend_with_decoupled_weight_decay (Adam, a decay filter, two steps), partial_concat / partial_sum,
fused_elemwise_activation, fused_embedding_seq_pool, multiclass_nms2 (with the index), tdm_child and
distributed_batch_reader. Shared by tools/oracle/rec_run18.py (golden fluid18_contrib_misc) and
tests/fluid/test_contrib_misc18.py; numpy only."""

import os

import numpy as np

rs = np.random.RandomState(1868)
A = rs.randn(3, 5).astype("float32")
B = rs.randn(3, 5).astype("float32")
PRED = rs.rand(6, 1).astype("float32")
LBL = (rs.rand(6, 1) > 0.5).astype("float32")
IDS = rs.randint(0, 7, (6, 1)).astype("int64")
TREE = np.array([[0, 0, 0, 1, 2], [0, 1, 0, 3, 4], [0, 1, 0, 5, 6], [0, 2, 1, 0, 0], [1, 2, 1, 0, 0],
                 [2, 2, 2, 0, 0], [3, 2, 2, 0, 0]], "int32")
BOXES = np.sort(rs.rand(2, 6, 4).astype("float32"), axis=2)[:, :, [0, 1, 2, 3]]
SCORES = rs.rand(2, 3, 6).astype("float32")


def _layers(fluid):
    res = {}
    CL = fluid.contrib.layers
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        a = fluid.data("a", [3, 5], "float32")
        b = fluid.data("b", [3, 5], "float32")
        ids = fluid.layers.data("ids", [1], dtype="int64", lod_level=1)
        node = fluid.data("node", [-1, 2], "int32")
        bx = fluid.data("bx", [2, 6, 4], "float32")
        sc = fluid.data("sc", [2, 3, 6], "float32")
        init = fluid.initializer.NumpyArrayInitializer
        outs = [CL.partial_concat([a, b], 1, 2), CL.partial_concat([a, b]), CL.partial_sum([a, b], 2, -1),
                CL.partial_sum([a, b], 0, 3),
                CL.fused_elemwise_activation(a, b, ["elementwise_add", "relu"]),
                CL.fused_elemwise_activation(a, b, "elementwise_mul,sigmoid"),
                CL.fused_elemwise_activation(a, b, ["tanh", "elementwise_add"]),
                CL.fused_elemwise_activation(a, b, ["elementwise_mul", "scale"], scale=-1.5),
                CL.fused_embedding_seq_pool(ids, [7, 4], padding_idx=2, param_attr=fluid.ParamAttr(
                    initializer=init(rs.randn(7, 4).astype("float32")))),
                *CL.tdm_child(node, 7, 2, param_attr=fluid.ParamAttr(initializer=init(TREE))),
                *CL.multiclass_nms2(bx, sc, 0.3, 4, 5, nms_threshold=0.4, return_index=True)]
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        got = exe.run(main, feed={"a": A, "b": B, "ids": fluid.create_lod_tensor(IDS, [[2, 3, 1]], fluid.CPUPlace()),
                                  "node": np.array([[0, 1], [2, 3]], "int32"), "bx": BOXES, "sc": SCORES},
                      fetch_list=outs, return_numpy=False)
        for j, o in enumerate(got):
            res[f"layers|out{j}"] = np.array(o)
        res["layers|nms2_lod"] = np.array(got[-1].lod()[0])
    return res


def _ctr_and_decay(fluid):
    res = {}
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        p = fluid.data("p", [6, 1], "float32")
        l = fluid.data("l", [6, 1], "float32")
        states = fluid.contrib.ctr_metric_bundle(p, l)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        for i in range(2):
            for j, o in enumerate(exe.run(main, feed={"p": PRED, "l": LBL}, fetch_list=list(states))):
                res[f"ctr|run{i}|out{j}"] = np.array(o)
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.data("x", [-1, 5], "float32")
        y = fluid.layers.fc(x, 3, param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(
            rs.randn(5, 3).astype("float32"))))
        loss = fluid.layers.mean(fluid.layers.square(y))
        adamw = fluid.contrib.extend_with_decoupled_weight_decay(fluid.optimizer.Adam)
        adamw(weight_decay=0.1, learning_rate=0.05, apply_decay_param_fun=lambda n: n.endswith("w_0")).minimize(loss)
        fp = fluid.default_main_program()
        res["memory_usage"] = np.array(fluid.contrib.memory_usage(fp.clone(for_test=True), 8)[:2])
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        for i in range(2):
            for j, o in enumerate(exe.run(main, feed={"x": A}, fetch_list=["fc_0.w_0", "fc_0.b_0"])):
                res[f"decay|run{i}|out{j}"] = np.array(o)
    return res


def _reader(fluid):
    def batches():
        for i in range(7):
            yield [i]

    old = {k: os.environ.get(k) for k in ("PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ID")}
    got = []
    try:
        for tid in (0, 1, 2):
            os.environ["PADDLE_TRAINERS_NUM"], os.environ["PADDLE_TRAINER_ID"] = "3", str(tid)
            got.append([b[0] for b in fluid.contrib.distributed_batch_reader(batches)()])
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return {"reader": np.array(got)}


def run(fluid):
    res = _layers(fluid)
    res.update(_ctr_and_decay(fluid))
    res.update(_reader(fluid))
    return res
