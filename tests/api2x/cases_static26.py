"""Static programs as scripts see them (issue 25 item 4): each case builds a program under real Paddle 2.6.2
(tools/oracle/rec_static26.py -> tests/goldens/static26_programs.*) and under us (tests/api2x/test_static26.py),
returning {key: array}. Op sequences and variable names are string arrays ("type:out1,out2"); values are fetched
with fixed parameters. Only facts where Paddle 2.4 and 2.6 agree are recorded (2.6's 0-D results are compared by
value: we follow 2.4's shape [1]). The feed / fetch ops of normalized / saved programs, indexing's slice ops and
the output names of the common APIs are checked by tests/api2x/cases_static26_names.py."""

import numpy as np


def _static(fn):
    """Run fn(paddle) in static mode with a fresh name generator and scope; back to dygraph after."""

    def case(paddle):
        paddle.enable_static()
        try:
            with paddle.utils.unique_name.guard(), paddle.static.scope_guard(paddle.static.Scope()):
                return fn(paddle)
        finally:
            paddle.disable_static()

    case.__name__ = fn.__name__
    return case


def _ops(program, skip=("feed", "fetch")):
    """"type:first output" of each op (Paddle's reshape2 / transpose2 also write an XShape we do not have)."""
    return np.array([f"{op.type}:{op.output_arg_names[0] if op.output_arg_names else ''}"
                     for op in program.global_block().ops if op.type not in skip])


def _vars(program, skip=("feed", "fetch")):
    return np.array(sorted(f"{v.name}:{int(bool(v.persistable))}" for v in program.list_vars() if v.name not in skip))


def _set(paddle, program, seed, scale=0.5):
    """Give every parameter of program values drawn from RandomState(seed), in order of name."""
    scope = paddle.static.global_scope()
    rng = np.random.RandomState(seed)
    for p in sorted(program.all_parameters(), key=lambda p: p.name):
        shape = np.array(scope.find_var(p.name).get_tensor()).shape
        scope.find_var(p.name).get_tensor().set((rng.standard_normal(shape) * scale).astype("float32"),
                                                paddle.CPUPlace())


@_static
def shape_expand(paddle):
    """`B = paddle.shape(x)[0]` as a runtime size (ViT / DeiT's cls_token.expand((B, -1, -1))): the recorded
    shapes keep the batch dim unknown, the run gives the fed batch."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [-1, 4, 8], "float32")
        cls = paddle.create_parameter([1, 1, 8], "float32", default_initializer=paddle.nn.initializer.Constant(0.5))
        b = paddle.shape(x)[0]
        outs = {
            "expand_tuple": cls.expand((b, -1, -1)),
            "expand_list": paddle.expand(cls, [b, -1, -1]),
            "tile": paddle.tile(cls, [b, 1, 1]),
            "zeros": paddle.zeros([b, 3]),
            "full": paddle.full([b, 3], 2.0),
            "reshape": paddle.reshape(x, [b, -1]),
        }
        outs["concat"] = paddle.concat([outs["expand_tuple"], x], axis=1)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    xv = np.arange(96, dtype="float32").reshape(3, 4, 8) / 96
    got = exe.run(main, feed={"x": xv}, fetch_list=list(outs.values()))
    res = {f"{k}__static_shape": np.array(v.shape) for k, v in outs.items()}
    res.update({k: np.asarray(g) for k, g in zip(outs, got)})
    return res


@_static
def item_linspace(paddle):
    """MobileViT's `[x.item() for x in paddle.linspace(0, p, n)]`: item() of a static Variable is the Variable."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        t = paddle.linspace(0, 0.1, 4)
        items = [x.item() for x in t]
        m = paddle.static.data("m", [2, 3], "float32")
        try:
            m.item()
            err = "no error"
        except TypeError as e:
            err = str(e)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    got = exe.run(main, feed={"m": np.zeros((2, 3), "float32")}, fetch_list=items)
    return {"count": np.array(len(items)), "values": np.array([np.asarray(g).reshape(()) for g in got]),
            "same_object": np.array([x is y for x, y in zip(items, [i.item() for i in items])]),
            "error_2d": np.array(err)}


@_static
def operator_names(paddle):
    """Tensor operators on Variables: Paddle's math_op_patch names outputs tmp_N, records x+2 / 2-x / x*2 / x/2
    as one scale op and fills other scalar operands with a fill_constant."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.static.data("y", [-1, 4], "float32")
        outs = [x * 2, x + y, 2 - x, x / 4, x - 1, 1.5 + x, x * y, x - y, x / y, x > 0, x <= y, x ** 2, x == y,
                3 * x]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    xv = np.arange(8, dtype="float32").reshape(2, 4) - 3
    yv = np.ones((2, 4), "float32")
    got = exe.run(main, feed={"x": xv, "y": yv}, fetch_list=outs)
    res = {"ops": _ops(main), "vars": _vars(main), "names": np.array([o.name for o in outs])}
    res.update({f"out{i}": np.asarray(g) for i, g in enumerate(got)})
    return res


@_static
def parameter_names(paddle):
    """create_parameter names (create_parameter_N.w_0), fc's op sequences, and linear's matmul_v2 +
    elementwise_add (linear_N.tmp_0 / linear_N.tmp_1)."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [-1, 4], "float32")
        x3 = paddle.static.data("x3", [-1, 2, 4], "float32")
        w1 = paddle.create_parameter([4, 4], "float32")
        w2 = paddle.static.create_parameter([4, 2], "float32", is_bias=True)
        w3 = paddle.create_parameter([2], "float32", name="named_w")
        h = paddle.matmul(x, w1)
        f1 = paddle.static.nn.fc(h, 3)
        f2 = paddle.static.nn.fc(x, 5, activation="relu")
        f3 = paddle.static.nn.fc(x3, 3, num_flatten_dims=2)
        f4 = paddle.static.nn.fc([x, h], 2)
        lin = paddle.nn.Linear(4, 3)
        l1 = lin(x3)
        l2 = paddle.nn.functional.linear(x, lin.weight)
    return {"ops": _ops(main), "vars": _vars(main), "startup_ops": _ops(start),
            "names": np.array([v.name for v in (w1, w2, w3, f1, f2, f3, f4, l1, l2)]),
            "shapes": np.array([str(list(v.shape)) for v in (f1, f2, f3, f4)])}


@_static
def inference_programs(paddle):
    """normalize_program / serialize_program / save_inference_model: each non-bool target gets a
    `save_infer_model/scale_<i>` op appended to the program itself, which the saved program fetches."""
    import os
    import tempfile

    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.static.nn.fc(x, 3)
        z = paddle.nn.functional.relu(y)
        b = z > 0
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    _set(paddle, main, 1)
    res = {}
    norm = paddle.static.normalize_program(main, [x], [z, b])
    res["normalized_ops"], res["normalized_vars"] = _ops(norm), _vars(norm)
    ser = paddle.static.deserialize_program(paddle.static.serialize_program([x], [z], program=main))
    res["serialized_ops"], res["serialized_vars"] = _ops(ser), _vars(ser)
    with tempfile.TemporaryDirectory() as d:
        paddle.static.save_inference_model(os.path.join(d, "m"), [x], [z], exe, program=main)
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(d, "m"), exe)
        xv = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
        (res["loaded_out"],) = exe.run(prog, feed={"x": xv}, fetch_list=fetches)
    res["loaded_ops"], res["loaded_vars"] = _ops(prog), _vars(prog)
    res["loaded_feeds"], res["loaded_fetches"] = np.array(feeds), np.array([f.name for f in fetches])
    res["main_ops_after"] = _ops(main)
    (res["main_out"],) = exe.run(main, feed={"x": xv}, fetch_list=[z])
    return res


@_static
def device_and_name_scope(paddle):
    """Every op carries op_device (device_guard) and op_namescope (name_scope, Paddle's NameScope tree)."""
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [-1, 4], "float32")
        y = paddle.tanh(x)
        with paddle.static.device_guard("cpu"):
            y = paddle.tanh(y)
        with paddle.static.device_guard("gpu"):
            y = paddle.tanh(y)
        with paddle.static.device_guard("gpu:1"):
            y = paddle.tanh(y)
        with paddle.static.device_guard(None):
            y = paddle.tanh(y)
        with paddle.static.name_scope("blk"):
            y = paddle.tanh(y)
            with paddle.static.name_scope("inner"):
                y = paddle.tanh(y)
        with paddle.static.name_scope("blk"):
            y = paddle.tanh(y)
        errors = []
        for bad in ("cpu:0", "tpu"):
            try:
                with paddle.static.device_guard(bad):
                    pass
                errors.append("no error")
            except ValueError:
                errors.append("ValueError")
    ops = main.global_block().ops
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    (out,) = exe.run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[y])
    return {"op_device": np.array([op.attr("op_device") for op in ops]),
            "op_namescope": np.array([op.attr("op_namescope") for op in ops]),
            "has_attr": np.array([op.has_attr("op_device") and op.has_attr("op_namescope") for op in ops]),
            "errors": np.array(errors), "out": out}


@_static
def dynamic_decode_beam(paddle):
    """paddle.nn.dynamic_decode with a BeamSearchDecoder in a static program (Paddle runs it through a while
    op): GRUCell, Embedding input, Linear output, parameters from RandomState(9)."""
    nn = paddle.nn
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        emb, cell, out = nn.Embedding(7, 4), nn.GRUCell(4, 6), nn.Linear(6, 7)
        h0 = paddle.static.data("h0", [-1, 6], "float32")
        dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=3, embedding_fn=emb, output_fn=out)
        outputs, states, lengths = nn.dynamic_decode(dec, inits=h0, max_step_num=6, return_length=True)
    fetch = {"predicted_ids": outputs, "log_probs": states.log_probs, "lengths": lengths,
             "finished": states.finished, "cell_states": states.cell_states}
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    _set(paddle, main, 9, scale=0.8)
    hv = np.random.RandomState(10).standard_normal((2, 6)).astype("float32")
    got = exe.run(main, feed={"h0": hv}, fetch_list=list(fetch.values()))
    res = {k: np.asarray(g) for k, g in zip(fetch, got)}
    res.update({f"{k}__static_shape": np.array(v.shape) for k, v in fetch.items()})
    return res


@_static
def weight_norm(paddle):
    """WeightNormParamAttr in static programs: parameters <name>_g / <name>_v, g = ||v|| from the startup
    program (so w starts as the initializer draws it), w = v * g / ||v|| in the main program; forward values
    for dim None / 0 / 1, three SGD steps for dim None (Paddle 2.6.2's backward fails for dim 0 and 1: the
    error is recorded), and the transposing path (dim 1 of a 3-D parameter)."""
    res = {}
    v0 = (np.arange(12, dtype="float32").reshape(4, 3) - 5) / 4
    for dim in (None, 0, 1):
        for train in (False, True):
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
                x = paddle.static.data("x", [-1, 4], "float32")
                attr = paddle.static.WeightNormParamAttr(dim=dim, initializer=paddle.nn.initializer.Assign(v0))
                y = paddle.static.nn.fc(x, 3, weight_attr=attr)
                fc_ops = _ops(main)
                loss = paddle.mean(y * y)
                if train:
                    paddle.optimizer.SGD(0.5).minimize(loss)
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(start)
            tag = f"dim{dim}_{'train' if train else 'infer'}"
            scope = paddle.static.global_scope()
            if not train:
                res[f"{tag}__ops"], res[f"{tag}__startup_ops"] = fc_ops, _ops(start)
                res[f"{tag}__params"] = np.array(sorted(f"{p.name}:{list(p.shape)}" for p in main.all_parameters()))
                res[f"{tag}__g_init"] = np.array(scope.find_var("fc_0.w_0_g").get_tensor())
            _set(paddle, main, 4)
            xv = np.random.RandomState(5).uniform(-1, 1, (5, 4)).astype("float32")
            try:
                for step in range(3 if train else 1):
                    lv, yv = exe.run(main, feed={"x": xv}, fetch_list=[loss, y])
                    res[f"{tag}__loss{step}"], res[f"{tag}__y{step}"] = np.asarray(lv).reshape(()), yv
                res[f"{tag}__error"] = np.array("")
            except Exception as e:  # noqa: BLE001 - recorded: Paddle 2.6.2's backward for dim 0 / 1
                res[f"{tag}__error"] = np.array(type(e).__name__)
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start), paddle.utils.unique_name.guard():
        a = np.arange(24, dtype="float32").reshape(2, 3, 4) / 10 - 1
        w = paddle.create_parameter([2, 3, 4], "float32", attr=paddle.static.WeightNormParamAttr(
            dim=1, initializer=paddle.nn.initializer.Assign(a)))
        w2 = w * 1.0
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    res["dim1_3d__ops"], res["dim1_3d__startup_ops"] = _ops(main), _ops(start)
    (res["dim1_3d__w"],) = exe.run(main, fetch_list=[w2])
    return res


CASES = {f.__name__: f for f in (shape_expand, item_linspace, operator_names, parameter_names, inference_programs,
                                 device_and_name_scope, dynamic_decode_beam, weight_norm)}
