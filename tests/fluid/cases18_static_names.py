"""fluid 1.8 static programs as scripts see them (issue 25 item 4), run under real Paddle 1.8.5
(tools/oracle/rec_run18.py cases18_static_names static18_names) and under us (tests/fluid/test_static_names18.py):

- `names`: output names of fluid.layers whose 2.x counterparts name theirs otherwise (reduce_mean_0 / mean_0,
  arg_max_0 / argmax_0, fill_constant_0 / fill_constant_1, ...), each row in a fresh program and name generator;
- `inference_model`: fluid.io.save_inference_model / load_inference_model: the loaded program's feed / fetch ops and
  holder variables, its run, and the Executor's check of the feed against the feed ops;
- `initializers`: fluid.initializer.* called on existing parameters with a block: the op is prepended to that block;
- `indexing`: `x[0]`, `x[:, 1:3]`, `x[0, 1]`: Paddle's `slice` op and `<x>_slice_<n>` names.

Each case takes `fluid` and returns {key: array}."""

import numpy as np

NAME_ROWS = {
    "reduce_mean": lambda L, x: L.reduce_mean(x),
    "reduce_sum": lambda L, x: L.reduce_sum(x, dim=1),
    "reduce_max": lambda L, x: L.reduce_max(x),
    "reduce_min": lambda L, x: L.reduce_min(x),
    "reduce_all": lambda L, x: L.reduce_all(x > 0),
    "mean": lambda L, x: L.mean(x),
    "mse_loss": lambda L, x: L.mse_loss(x, x),
    "argmax": lambda L, x: L.argmax(x, 1),
    "argmin": lambda L, x: L.argmin(x, 1),
    "transpose": lambda L, x: L.transpose(x, [1, 0]),
    "squeeze": lambda L, x: L.squeeze(L.unsqueeze(x, [0]), [0]),
    "unsqueeze": lambda L, x: L.unsqueeze(x, [0]),
    "flatten": lambda L, x: L.flatten(x),
    "clip": lambda L, x: L.clip(x, 0.0, 1.0),
    "zeros": lambda L, x: L.zeros([2], "float32"),
    "ones": lambda L, x: L.ones([2], "float32"),
    "fill_constant": lambda L, x: L.fill_constant([2], "float32", 1.0),
    "zeros_like": lambda L, x: L.zeros_like(x),
    "ones_like": lambda L, x: L.ones_like(x),
    "elementwise_add": lambda L, x: L.elementwise_add(x, x),
    "elementwise_div": lambda L, x: L.elementwise_div(x, x),
    "softmax": lambda L, x: L.softmax(x),
    "concat": lambda L, x: L.concat([x, x]),
    "reshape": lambda L, x: L.reshape(x, [4, -1]),
    "relu": lambda L, x: L.relu(x),
    "cast": lambda L, x: L.cast(x, "float64"),
    "astype": lambda L, x: x.astype("float64"),
    "operator": lambda L, x: x * 2 + x,
}


def names(fluid):
    res = {}
    for row, fn in NAME_ROWS.items():
        main, start = fluid.Program(), fluid.Program()
        with fluid.unique_name.guard(), fluid.program_guard(main, start):
            x = fluid.data("x", [-1, 4], "float32")
            res[f"{row}__name"] = np.array(fn(fluid.layers, x).name)
    return res


def _show(res, tag, prog):
    block = prog.global_block()
    res[f"{tag}_ops"] = np.array([f"{op.type}:{','.join(op.output_arg_names)}" for op in block.ops])
    res[f"{tag}_op_inputs"] = np.array([f"{op.type}:{','.join(op.input_arg_names)}" for op in block.ops])
    res[f"{tag}_cols"] = np.array([op.attr("col") for op in block.ops if op.type in ("feed", "fetch")])
    res[f"{tag}_holders"] = np.array(sorted(f"{v.name}:{str(v.type).rpartition('.')[2]}:{int(bool(v.persistable))}"
                                            for v in prog.list_vars() if v.name in ("feed", "fetch")))


def inference_model(fluid):
    import tempfile

    main, start = fluid.Program(), fluid.Program()
    with fluid.unique_name.guard(), fluid.program_guard(main, start):
        x = fluid.layers.data("x", [4], dtype="float32")
        x2 = fluid.layers.data("x2", [4], dtype="float32")
        y = fluid.layers.fc(fluid.layers.elementwise_add(x, x2), 3, act="relu")
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    res = {}
    with fluid.scope_guard(scope):
        exe.run(start)
        for i, p in enumerate(sorted(main.all_parameters(), key=lambda q: q.name)):
            shape = np.array(scope.find_var(p.name).get_tensor()).shape
            scope.find_var(p.name).get_tensor().set((np.arange(np.prod(shape), dtype="float32").reshape(shape) - i)
                                                    / 7, fluid.CPUPlace())
        d = tempfile.mkdtemp()
        res["saved_targets"] = np.array(fluid.io.save_inference_model(d, ["x", "x2"], [y], exe, main_program=main))
        _show(res, "main_after_save", main)
        prog, feeds, fetches = fluid.io.load_inference_model(d, exe)
        _show(res, "loaded", prog)
        res["loaded_feeds"] = np.array(feeds)
        xv = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
        res["loaded_out"] = exe.run(prog, feed={"x": xv, "x2": xv}, fetch_list=fetches)[0]
        try:
            exe.run(prog, feed={"x": xv}, fetch_list=fetches)
            res["partial_feed__error"] = np.array("")
        except Exception as e:  # noqa: BLE001 - recorded as data
            res["partial_feed__error"] = np.array("feed_targets" if "feed_targets" in str(e) else type(e).__name__)
        _show(res, "loaded_clone", prog.clone(for_test=True))
    return res


def initializers(fluid):
    main, start = fluid.Program(), fluid.Program()
    with fluid.unique_name.guard(), fluid.program_guard(main, start):
        x = fluid.data("x", [-1, 2], "float32")
        p = fluid.layers.create_parameter([2, 3], "float32")
        y = fluid.layers.mul(x, p)
        fluid.initializer.Constant(1.5)(p, main.global_block())
        q = fluid.layers.create_parameter([2, 3], "float32")
        fluid.initializer.Xavier()(q, main.global_block())
        r = fluid.layers.create_parameter([2, 3], "float32")
        fluid.initializer.TruncatedNormal(scale=0.02)(r, start.global_block())
    # the startup program: the prepended initializer comes first. (1.8.5 also prepends each parameter's own
    # initializer, so its startup lists them in reverse creation order; ours in creation order: compared as a set)
    startup = [f"{op.type}:{','.join(op.output_arg_names)}" for op in start.global_block().ops]
    res = {"main_ops": np.array([f"{op.type}:{','.join(op.output_arg_names)}" for op in main.global_block().ops]),
           "startup_first_op": np.array(startup[0]), "startup_ops_sorted": np.array(sorted(startup))}
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(start)
        scope.find_var(p.name).get_tensor().set(np.full((2, 3), 7.0, "float32"), fluid.CPUPlace())
        res["y"] = exe.run(main, feed={"x": np.ones((1, 2), "float32")}, fetch_list=[y])[0]
    return res


INDEX_ROWS = {"int": lambda x: x[0], "slice": lambda x: x[:, 1:3], "two_int": lambda x: x[0, 1],
              "int_slice": lambda x: x[0, 1:3], "neg_int": lambda x: x[-1]}


def indexing(fluid):
    res = {}
    xv = np.arange(60, dtype="float32").reshape(3, 4, 5)
    for row, fn in INDEX_ROWS.items():
        main, start = fluid.Program(), fluid.Program()
        with fluid.unique_name.guard(), fluid.program_guard(main, start):
            x = fluid.data("x", [3, 4, 5], "float32")
            out = fn(x)
        res[f"{row}__name"] = np.array(out.name)
        res[f"{row}__ops"] = np.array([f"{op.type}:{','.join(op.output_arg_names)} axes={list(op.attr('axes'))} "
                                       f"starts={list(op.attr('starts'))} decrease_axis={list(op.attr('decrease_axis'))}"
                                       for op in main.global_block().ops])
        res[f"{row}__value"] = fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": xv}, fetch_list=[out])[0]
    return res


CASES = {f.__name__: f for f in (names, inference_model, initializers, indexing)}
