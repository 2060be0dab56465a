"""fluid.dataset cases run the same way under real Paddle 1.8.5 (tools/oracle/rec_dataset18.py) and here
(tests/data/test_dataset_fluid18.py): MultiSlot files, QueueDataset / InMemoryDataset, train_from_dataset /
infer_from_dataset with printed fetches. `fluid` is the module under test; `capture(fn)` runs fn and returns what
it printed (Paddle prints from C++, we from Python)."""

import os

import numpy as np

LINES = ["2 1.0 2.0 1 3.0 2 4 5", "2 0.5 -1.0 1 0.0 1 7", "2 2.0 2.0 1 1.0 3 1 2 3", "2 1.0 1.0 1 2.0 1 9",
         "2 0.0 1.0 1 -1.0 2 8 8"]


def write_files(folder):
    os.makedirs(folder, exist_ok=True)
    a, b = os.path.join(folder, "a.txt"), os.path.join(folder, "b.txt")
    with open(a, "w") as f:
        f.write("\n".join(LINES[:3]) + "\n")
    with open(b, "w") as f:
        f.write("# a comment line, dropped by the pipe command\n" + "\n".join(LINES[3:]) + "\n")
    return [a, b]


def _program(fluid):
    main, start = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, start):
        x = fluid.layers.data("x", shape=[2], dtype="float32")
        y = fluid.layers.data("y", shape=[1], dtype="float32")
        w = fluid.layers.data("w", shape=[1], dtype="int64", lod_level=1)
        emb = fluid.layers.embedding(w, size=[10, 2], param_attr=fluid.ParamAttr(
            name="emb", initializer=fluid.initializer.Constant(0.2)))
        feat = fluid.layers.concat([x, fluid.layers.sequence_pool(emb, "sum")], axis=1)
        pred = fluid.layers.fc(feat, 1, param_attr=fluid.ParamAttr(
            name="fc_w", initializer=fluid.initializer.Constant(0.1)), bias_attr=fluid.ParamAttr(
            name="fc_b", initializer=fluid.initializer.Constant(0.0)))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
        test = main.clone(for_test=True)
        fluid.optimizer.SGD(0.1).minimize(loss)
    return main, start, test, [x, y, w], loss, pred


def make_dataset(fluid, kind, use, batch_size, files):
    ds = fluid.DatasetFactory().create_dataset(kind)
    ds.set_use_var(use)
    ds.set_batch_size(batch_size)
    ds.set_thread(1)
    ds.set_pipe_command("grep -v ^#")
    ds.set_filelist(files)
    return ds


def _params(fluid, scope):
    return {n: np.array(scope.find_var(n).get_tensor()).reshape(-1).tolist() for n in ("fc_w", "fc_b", "emb")}


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e).splitlines()[0][:200]]
    return None


def cases(fluid, folder, capture):
    files = write_files(folder)
    out = {}
    exe = fluid.Executor(fluid.CPUPlace())
    main, start, test, use, loss, pred = _program(fluid)
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(start)
        ds = make_dataset(fluid, "QueueDataset", use, 2, files)
        out["queue_desc"] = ds.desc()
        out["queue_print"] = capture(lambda: exe.train_from_dataset(main, ds, fetch_list=[loss, pred],
                                                                    fetch_info=["loss", "pred"], print_period=1))
        out["queue_params"] = _params(fluid, scope)
        out["queue_infer_print"] = capture(lambda: exe.infer_from_dataset(test, ds, fetch_list=[loss],
                                                                          fetch_info=["eval"], print_period=2))
        out["queue_local_shuffle"] = _error(ds.local_shuffle)
        out["queue_global_shuffle"] = _error(ds.global_shuffle)
    main, start, test, use, loss, pred = _program(fluid)
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(start)
        mem = make_dataset(fluid, "InMemoryDataset", use, 3, files)
        out["memory_desc"] = mem.desc()
        mem.load_into_memory()
        out["memory_size"] = int(mem.get_memory_data_size())
        out["memory_print"] = capture(lambda: exe.train_from_dataset(main, mem, fetch_list=[loss],
                                                                     fetch_info=["loss"], print_period=1))
        out["memory_params"] = _params(fluid, scope)
        mem.local_shuffle()
        out["memory_size_shuffled"] = int(mem.get_memory_data_size())
        # NOTE: Paddle 1.8.5 crashes (segmentation fault) in global_shuffle() without a fleet and in
        # get_memory_data_size() after release_memory(); tests/data/test_dataset_fluid18.py checks ours.
        mem.release_memory()
    out["bad_class"] = _error(lambda: fluid.DatasetFactory().create_dataset("NoSuchDataset"))
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        d64 = fluid.layers.data("d64", shape=[1], dtype="float64")
    out["bad_dtype"] = _error(lambda: fluid.DatasetFactory().create_dataset().set_use_var([d64]))
    out["no_dataset"] = _error(lambda: exe.train_from_dataset(main, None))
    return out
