"""fluid 1.x feeding cases run the same way under real Paddle 1.8.5 (tools/oracle/rec_feed18.py) and here
(tests/data/test_feed18.py): DataFeeder with 0 / 1 / 2 LoD levels, PyReader (iterable and not), py_reader's
queue, DataLoader.from_generator(iterable=False), default_collate_fn. `fluid` is the module under test."""

import numpy as np


def tensor_record(t):
    arr = np.array(t)
    return {"dtype": str(arr.dtype), "shape": list(arr.shape), "data": arr.reshape(-1).tolist(),
            "lod": [list(l) for l in t.recursive_sequence_lengths()] if hasattr(t, "recursive_sequence_lengths")
            else None}


def feeder_cases(fluid):
    out = {}
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        dense = fluid.layers.data("dense", shape=[3], dtype="float32")
        words = fluid.layers.data("words", shape=[1], dtype="int64", lod_level=1)
        para = fluid.layers.data("para", shape=[1], dtype="int64", lod_level=2)
        img = fluid.data("img", shape=[-1, 2, 2], dtype="float32")
        label = fluid.layers.data("label", shape=[1], dtype="int64")
        feeder = fluid.DataFeeder([dense, words, para, img, label], fluid.CPUPlace())
        batch = [([1, 2, 3], [4, 5], [[1, 2], [3]], np.arange(4).reshape(2, 2), [7]),
                 ([0.5, 0, 1], [6], [[4], [5, 6, 7], [8]], np.ones([2, 2]), [1])]
        fed = feeder.feed(batch)
        out["feed"] = {k: tensor_record(v) for k, v in sorted(fed.items())}
        out["feed_types"] = sorted(set(type(v).__name__ for v in fed.values()))
        out["feeder_names"] = feeder.feed_names
        try:
            feeder.feed([([1, 2, 3], [4])])
            out["feed_short"] = "no error"
        except Exception as e:  # noqa: BLE001
            out["feed_short"] = type(e).__name__
        f2 = fluid.DataFeeder(["dense", "label"], fluid.CPUPlace(), program=main)
        out["by_name"] = {k: tensor_record(v) for k, v in sorted(f2.feed([([1, 1, 1], 3)]).items())}
        try:
            f2.feed([([1, 1], 3)])
            out["reshape_error"] = "no error"
        except ValueError as e:
            out["reshape_error"] = str(e)
        pooled = fluid.layers.sequence_pool(fluid.layers.cast(words, "float32"), "sum")
        exe = fluid.Executor(fluid.CPUPlace())
        out["run_pooled"] = exe.run(main, feed=feeder.feed(batch), fetch_list=[pooled])[0].tolist()
    return out


def _xy_program(fluid, make_reader):
    """The reader is made before the network reads its variables (a non-iterable one adds its read op)."""
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", shape=[-1, 2], dtype="float32")
        y = fluid.layers.data("y", shape=[1], dtype="int64")
        reader = make_reader([x, y])
        s = fluid.layers.reduce_sum(x, dim=1, keep_dim=True) + fluid.layers.cast(y, "float32")
    return main, reader, s


def _samples():
    for i in range(5):
        yield np.array([i, i + 1], "float32"), np.array([i * 10])


def _queue_case(fluid, exe):
    out = {}
    q_main, q_start = fluid.Program(), fluid.Program()
    with fluid.program_guard(q_main, q_start):
        r = fluid.layers.py_reader(capacity=3, shapes=[[-1, 2], [-1, 1]], dtypes=["float32", "int64"],
                                   lod_levels=[0, 0])
        a, b = fluid.layers.read_file(r)
        total = fluid.layers.reduce_sum(a) + fluid.layers.cast(fluid.layers.reduce_sum(b), "float32")
    exe.run(q_start)  # the reader is created by the startup program
    q = r.queue
    out["queue_capacity"] = q.capacity()
    for k in range(2):
        arr = fluid.LoDTensorArray()
        arr.append(fluid.create_lod_tensor(np.full([k + 1, 2], k + 1, "float32"), [], fluid.CPUPlace()))
        arr.append(fluid.create_lod_tensor(np.full([k + 1, 1], 10, "int64"), [], fluid.CPUPlace()))
        out.setdefault("queue_push", []).append(bool(q.push(arr)))
    out["queue_size"] = q.size()
    q.close()
    out["queue_methods"] = sorted(m for m in ("capacity", "close", "kill", "push", "size") if hasattr(q, m))
    res = []
    try:
        while True:
            res.append(exe.run(q_main, fetch_list=[total])[0].tolist())
    except fluid.core.EOFException:
        res.append("EOF")
    out["queue_runs"] = res
    return out


def reader_cases(fluid):
    out = {}
    exe = fluid.Executor(fluid.CPUPlace())
    main, it, s = _xy_program(fluid, lambda fl: fluid.io.PyReader(feed_list=fl, capacity=4, iterable=True))
    it.decorate_sample_generator(_samples, batch_size=2, drop_last=False, places=fluid.CPUPlace())
    out["iterable"] = it.iterable
    rows = []
    for data in it():
        rows.append({"keys": sorted(data[0]), "x": tensor_record(data[0]["x"]),
                     "sum": exe.run(main, feed=data[0], fetch_list=[s])[0].tolist()})
    out["iterable_rows"] = rows
    main, non, s = _xy_program(fluid, lambda fl: fluid.io.PyReader(feed_list=fl, capacity=4, iterable=False))
    out["non_iterable"] = non.iterable
    non.decorate_sample_list_generator(fluid.io.batch(_samples, 2, drop_last=True))
    got = []
    non.start()
    try:
        while True:
            got.append(exe.run(main, fetch_list=[s])[0].tolist())
    except fluid.core.EOFException:
        non.reset()
    out["non_iterable_rows"] = got
    _, loader, _ = _xy_program(fluid, lambda fl: fluid.io.DataLoader.from_generator(feed_list=fl, capacity=2,
                                                                                      iterable=False))
    out["loader_iterable"] = loader.iterable
    _, loader, _ = _xy_program(fluid, lambda fl: fluid.io.DataLoader.from_generator(feed_list=fl, capacity=2))
    out["loader_iterable_true"] = loader.iterable
    with fluid.unique_name.guard("q_"):  # Paddle names this queue like the loaders' (a clash otherwise)
        out.update(_queue_case(fluid, exe))
    out["collate_fields"] = [tensor_record(fluid.create_lod_tensor(a, [], fluid.CPUPlace()))
                             for a in fluid.io.default_collate_fn([(np.ones([2]), np.array([1])),
                                                                   (np.zeros([2]), np.array([2]))])]
    out["collate_single"] = [np.asarray(a).tolist() for a in fluid.io.default_collate_fn([np.ones(2), np.zeros(2)])]
    return out
