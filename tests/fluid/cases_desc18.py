"""Program.desc round trips (issue 24 item 3) against real Paddle 1.8.5: `program.desc.serialize_to_string()`,
`fluid.Program.parse_from_string`, `desc.num_blocks()` / `desc.block(i).op_size()` / `op(i).type()`.

PROGRAMS maps a name to build(fluid) -> (feed, fetch names, steps): an fc net, training programs (SGD, Momentum, Adam;
a CNN with conv, pool, batch_norm in training, cross_entropy, softmax_with_cross_entropy and accuracy), and one with
a While sub-block. `run(fluid)` (the recorder's entry, tools/oracle/rec_desc18.py)
records per program: the main program's bytes, its op types per block and variable names, the fetches of running
it `steps` times with fixed parameters, and the same for the program parse_from_string rebuilt from the bytes. It
also records how 1.8.5 parses the bytes paddle_compat wrote for the same programs
(tests/goldens/desc18_ours/<name>.bin, written by tools/oracle/desc18_ours.py). tests/fluid/test_desc18.py
replays it. Numpy only, Python 3.8.

Known differences of our listing (the golden shows them): block 0's variables lack the `@GRAD` of intermediate
values (one autograd node differentiates; only parameters' and the loss's gradients are variables) and hold the
optimizer ops' temporaries (`sgd_0.tmp_0`); the While body lists one more `assign` (less_than(cond=) writes the
condition through an assign); op inputs / outputs are one `X` / `Out` slot unless recorded otherwise."""

import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OURS_DIR = os.path.join(HERE, "..", "goldens", "desc18_ours")
X = np.random.RandomState(18).randn(3, 4).astype("float32")
Y = np.random.RandomState(19).randn(3, 1).astype("float32")


def _fc(fluid):
    x = fluid.data("x", [-1, 4], "float32")
    h = fluid.layers.fc(x, 8, act="relu")
    out = fluid.layers.fc(h, 3, act="softmax")
    return {"x": X}, [out.name], 1


def _train(opt):
    def build(fluid):
        x = fluid.data("x", [-1, 4], "float32")
        y = fluid.data("y", [-1, 1], "float32")
        h = fluid.layers.fc(x, 8, act="relu")
        pred = fluid.layers.fc(h, 1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
        {"sgd": lambda: fluid.optimizer.SGD(0.1), "momentum": lambda: fluid.optimizer.Momentum(0.1, 0.9),
         "adam": lambda: fluid.optimizer.Adam(0.1)}[opt]().minimize(loss)
        return {"x": X, "y": Y}, [loss.name, pred.name], 3
    return build


IMG = np.random.RandomState(20).randn(4, 1, 8, 8).astype("float32")
LABEL = np.array([[1], [0], [2], [1]], "int64")


def _cnn(fluid):
    """conv + pool + batch_norm (training) + cross_entropy2 + softmax_with_cross_entropy + accuracy + Adam."""
    L = fluid.layers
    img = fluid.data("img", [-1, 1, 8, 8], "float32")
    label = fluid.data("label", [-1, 1], "int64")
    c = fluid.nets.simple_img_conv_pool(img, 4, 3, 2, 2, act="relu")
    c = L.batch_norm(c)
    pred = L.fc(c, 3, act="softmax")
    loss = L.mean(L.cross_entropy(pred, label)) + L.mean(L.softmax_with_cross_entropy(L.fc(c, 3), label))
    acc = L.accuracy(pred, label)
    fluid.optimizer.Adam(0.05).minimize(loss)
    return {"img": IMG, "label": LABEL}, [loss.name, acc.name], 3


def _while(fluid):
    L = fluid.layers
    x = fluid.data("x", [3, 4], "float32")
    acc = L.scale(x, 1.0)
    i = L.fill_constant([1], "int64", 0)
    n = L.fill_constant([1], "int64", 3)
    cond = L.less_than(i, n)
    loop = L.While(cond)
    with loop.block():
        L.assign(L.scale(acc, 2.0, bias=1.0), acc)
        L.increment(i, in_place=True)
        L.less_than(i, n, cond=cond)
    return {"x": X}, [acc.name, i.name], 1


PROGRAMS = {"fc": _fc, "train_sgd": _train("sgd"), "train_momentum": _train("momentum"), "train_adam": _train("adam"),
            "cnn": _cnn, "while": _while}


def build(fluid, name):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        feed, fetch, steps = PROGRAMS[name](fluid)
    return main, startup, feed, fetch, steps


def param_values(names):
    rs = np.random.RandomState(7)
    return {n: rs.randn(*shape).astype("float32") * 0.5 for n, shape in names}


def execute(fluid, main, startup, feed, fetch, steps, params, inits=None):
    """Run startup, set the parameters, run main `steps` times; {"fetch<step>_<i>": value} (and with `inits`, a
    list of names, "init/<name>": their values after the startup program)."""
    exe = fluid.Executor(fluid.CPUPlace())
    out = {}
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        scope = fluid.global_scope()
        for n in inits or ():
            out["init/" + n] = np.array(scope.find_var(n).get_tensor())
        for n, v in params.items():
            scope.find_var(n).get_tensor().set(v, fluid.CPUPlace())
        for s in range(steps):
            got = exe.run(main, feed=feed, fetch_list=fetch)
            for i, g in enumerate(got):
                out["fetch%d_%d" % (s, i)] = np.array(g)
    return out


def listing(program):
    """{"num_blocks", "ops_b<i>" (op types), "vars_b0" (sorted names)} of a Program."""
    out = {"num_blocks": np.array(program.num_blocks, "int64"), "vars_b0": np.array(
        sorted(v.name for v in program.global_block().vars.values()))}
    for b in range(program.num_blocks):
        out["ops_b%d" % b] = np.array([op.type for op in program.block(b).ops])
    return out


def builder(fluid):
    """A ProgramDesc built op by op with core.ProgramDesc (Paddle's test_protobuf_descs.py): its facts read back,
    from the desc and from the desc its bytes parse into."""
    core = fluid.core
    VT = core.VarDesc.VarType
    desc = core.ProgramDesc()
    b0 = desc.block(0)
    b1 = desc.append_block(b0)
    v = b0.var(b"w")
    v.set_type(VT.SELECTED_ROWS)
    v.set_shape([3, 2, 10])
    v.set_dtype(VT.INT64)
    x = b1.var(b"x")
    x.set_shape([-1, 4])
    x.set_dtype(VT.FP32)  # 1.8.5 cannot parse a tensor desc without its data_type back
    x.set_lod_level(1)
    x.set_persistable(True)
    op1 = b0.append_op()
    op0 = b0._prepend_op()
    for op, t in ((op0, "mul"), (op1, "while")):
        op.set_type(t)
    op0.set_input("X", ["x", "w"])
    op0.set_input("Y", ["w"])
    op0.set_output("Out", ["z"])
    op0._set_attr("i", 3)
    op0._set_attr("f", -1.5)
    op0._set_attr("b", True)
    op0._set_attr("s", "abc")
    op0._set_attr("ints", [1, 2, 3])
    op0._set_attr("floats", [0.5, 2.0])
    op0._set_attr("strs", ["a", "b"])
    op0._set_attr("bools", [True, False])
    op1.set_block_attr("sub_block", b1)
    out = {}
    for tag, d in (("built", desc), ("parsed", core.ProgramDesc(desc.serialize_to_string()))):
        blk0, blk1 = d.block(0), d.block(1)
        w, xx = blk0.var(b"w"), blk1.find_var(b"x")
        mul = blk0.op(0)
        out.update({
            tag + "_num_blocks": np.array(d.num_blocks(), "int64"), tag + "_parent1": np.array(blk1.parent, "int64"),
            tag + "_ops": np.array([blk0.op(i).type() for i in range(blk0.op_size())]),
            tag + "_w": np.array([n for n in ("SELECTED_ROWS", "LOD_TENSOR") if w.type() == getattr(VT, n)]
                                 + [n for n in ("INT64", "FP32") if w.dtype() == getattr(VT, n)]),
            tag + "_w_shape": np.array(w.shape(), "int64"),
            tag + "_x": np.array(xx.shape() + [xx.lod_level(), int(xx.persistable())], "int64"),
            tag + "_mul_io": np.array(mul.input_names() + mul.input("X") + mul.input("Y") + mul.output("Out")),
            tag + "_mul_attrs": np.array(sorted(mul.attr_names())),
            tag + "_mul_attr_types": np.array([mul.attr_type(n) for n in ("i", "f", "b", "s", "ints", "floats",
                                                                             "strs", "bools")], "int64"),
            tag + "_mul_values": np.array([mul.attr("i"), mul.attr("f"), float(mul.attr("b"))] + mul.attr("ints")
                                          + mul.attr("floats"), "float64"),
            tag + "_mul_strs": np.array([mul.attr("s")] + mul.attr("strs") + [str(x) for x in mul.attr("bools")]),
            tag + "_sub_block": np.array(blk0.op(1)._block_attr_id("sub_block"), "int64")})
    b0._remove_op(0, 1)
    out["removed_ops"] = np.array([b0.op(i).type() for i in range(b0.op_size())])
    out["bytes"] = np.frombuffer(desc.serialize_to_string(), "uint8")
    return out


def op_var_descs(fluid):
    """`op.desc` / `var.desc` of a recorded program (test_name_scope.py and dist_save_load.py read them)."""
    VT = fluid.core.VarDesc.VarType
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()), fluid.unique_name.guard():
        x = fluid.data("x", [-1, 3], "float32")
        with fluid.name_scope("s1"):
            h = fluid.layers.fc(x, 2)
            with fluid.name_scope("s2"):
                out = fluid.layers.relu(h)
    ops = main.global_block().ops
    kinds = ("LOD_TENSOR", "SELECTED_ROWS", "FEED_MINIBATCH", "FETCH_LIST", "RAW")
    return {"op_types": np.array([op.desc.type() for op in ops]),
            "namescopes": np.array([op.desc.attr("op_namescope") for op in ops]),
            "relu_io": np.array(ops[-1].desc.input("X") + ops[-1].desc.output("Out")),
            "var_kinds": np.array([[k for k in kinds if v.desc.type() == getattr(VT, k)][0] for v in (x, h, out)]),
            "var_shapes": np.array([v.desc.shape() for v in (h, out)], "int64"),
            "w_persistable": np.array(main.global_block().var("fc_0.w_0").desc.persistable())}


def run(fluid):
    res = {"builder/" + k: v for k, v in builder(fluid).items()}
    res.update({"descs/" + k: v for k, v in op_var_descs(fluid).items()})
    for name in PROGRAMS:
        main, startup, feed, fetch, steps = build(fluid, name)
        params = param_values(sorted((p.name, p.shape) for p in main.global_block().all_parameters()))
        data = main.desc.serialize_to_string()
        rec = {"bytes": np.frombuffer(data, "uint8"), "fetch_names": np.array(fetch),
               "desc_num_blocks": np.array(main.desc.num_blocks(), "int64"),
               "desc_op_size_b0": np.array(main.desc.block(0).op_size(), "int64")}
        rec.update(listing(main))
        for k, v in params.items():
            rec["param/" + k] = v
        rec.update(execute(fluid, main, startup, feed, fetch, steps, params))
        back = fluid.Program.parse_from_string(data)
        for k, v in listing(back).items():
            rec["rt_" + k] = v
        for k, v in execute(fluid, back, startup, feed, fetch, steps, params).items():
            rec["rt_" + k] = v
        # the startup program's bytes; the values its fill_constant ops give
        sops = startup.global_block().ops
        rec["startup_bytes"] = np.frombuffer(startup.desc.serialize_to_string(), "uint8")
        rec["startup_ops"] = np.array([op.type for op in sops])
        consts = sorted(n for op in sops if op.type == "fill_constant" for n in op.output_arg_names)
        rec["startup_consts"] = np.array(consts)
        rec.update(execute(fluid, main, startup, feed, fetch, 0, {}, consts))
        ours = os.path.join(OURS_DIR, name + ".bin")
        if os.path.exists(ours):
            with open(ours, "rb") as f:
                theirs = fluid.Program.parse_from_string(f.read())
            for k, v in listing(theirs).items():
                rec["ours_" + k] = v
        res.update({name + "/" + k: v for k, v in rec.items()})
    return res
