"""Case D: data parallelism on 2 (and 4) CPU places with Paddle 1.8.5.  Run with /work/oracle/p18.

Model: x[13] -> fc(10, relu) -> fc(1) -> mean(square_error_cost) -> SGD(0.01).  Batch 10.
Everything runs in one process with CPU_NUM=2; the 4-place split probes set os.environ["CPU_NUM"]="4" before
with_data_parallel(places=None) compiles (and restore "2" afterwards).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ["CPU_NUM"] = "2"
os.environ["FLAGS_cpu_deterministic"] = "true"
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.fluid as fluid  # noqa: E402

from _common import err_record, npz_name, op_table, save  # noqa: E402

rs = np.random.RandomState(4321)
true_w = rs.uniform(-1, 1, size=(13, 1)).astype("float32")
XS = rs.uniform(-1, 1, size=(5, 10, 13)).astype("float32")
YS = (XS @ true_w + 0.3 + 0.05 * rs.randn(5, 10, 1)).astype("float32")
X_TEST = rs.uniform(-1, 1, size=(10, 13)).astype("float32")
Y_TEST = (X_TEST @ true_w + 0.3).astype("float32")
PARAMS0 = {
    "fc_0.w_0": (0.3 * rs.randn(13, 10)).astype("float32"),
    "fc_0.b_0": (0.1 * rs.randn(10)).astype("float32"),
    "fc_1.w_0": (0.3 * rs.randn(10, 1)).astype("float32"),
    "fc_1.b_0": np.array([0.05], "float32"),
}
PNAMES = list(PARAMS0)
place = fluid.CPUPlace()
exe = fluid.Executor(place)

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[13], dtype="float32")
    y = fluid.layers.data(name="y", shape=[1], dtype="float32")
    h = fluid.layers.fc(input=x, size=10, act="relu")
    pred = fluid.layers.fc(input=h, size=1)
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    test_prog = main.clone(for_test=True)
    fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
LOSS_GRAD = loss.name + "@GRAD"

arrays = {"xs": XS, "ys": YS, "x_test": X_TEST, "y_test": Y_TEST}
for n, v in PARAMS0.items():
    arrays["init__" + npz_name(n)] = v
meta = {"paddle_version": paddle.__version__, "loss_name": loss.name, "h_name": h.name,
        "pred_name": pred.name, "loss_grad_name": LOSS_GRAD,
        "op_types": [op.type for op in main.global_block().ops],
        "ops": op_table(main.global_block()),
        "test_op_types": [op.type for op in test_prog.global_block().ops]}


def fresh_scope():
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for n, v in PARAMS0.items():
            scope.find_var(n).get_tensor().set(v, place)
    return scope


def scope_params(scope):
    return {n: np.array(scope.find_var(n).get_tensor()) for n in PNAMES}


def compiled(reduce=None, scale=None, places=None, prog=None, share=None, loss_name="use"):
    bs = fluid.BuildStrategy()
    if reduce is not None:
        bs.reduce_strategy = reduce
    if scale is not None:
        bs.gradient_scale_strategy = scale
    es = fluid.ExecutionStrategy()
    cp = fluid.CompiledProgram(prog or main).with_data_parallel(
        loss_name=loss.name if loss_name == "use" else loss_name, build_strategy=bs, exec_strategy=es,
        places=places, share_vars_from=share)
    return cp, bs, es


# ---------------------------------------------------------------- strategy variants, 5 steps each
RS = fluid.BuildStrategy.ReduceStrategy
GS = fluid.BuildStrategy.GradientScaleStrategy
variants = [
    ("allreduce_coeff", RS.AllReduce, GS.CoeffNumDevice),
    ("reduce_coeff", RS.Reduce, GS.CoeffNumDevice),
    ("allreduce_one", RS.AllReduce, GS.One),
    ("allreduce_customized", RS.AllReduce, GS.Customized),
    ("reduce_one", RS.Reduce, GS.One),
]
meta["variants"] = {}
for tag, red, sc in variants:
    scope = fresh_scope()
    rec = {"reduce_strategy": str(red), "gradient_scale_strategy": str(sc)}
    with fluid.scope_guard(scope):
        cp, bs, es = compiled(red, sc)
        losses, lgrads = [], []
        for step in range(5):
            feed = {"x": XS[step], "y": YS[step]}
            if sc == GS.Customized:
                feed[LOSS_GRAD] = (np.ones(2) * 0.01).astype("float32")  # seed-doc example: one value per place
            fetch = [loss.name, LOSS_GRAD]
            if step == 0:
                fetch += [h.name, "fc_0.w_0", "fc_0.b_0", "fc_0.w_0@GRAD"]
            out = exe.run(cp, feed=feed, fetch_list=fetch)
            losses.append(np.array(out[0]))
            lgrads.append(np.array(out[1]))
            if step == 0:
                rec["fetched_shapes_step0"] = {n: list(np.array(o).shape) for n, o in zip(fetch, out)}
                arrays[tag + "__step0_fetched__fc_0_w_0"] = np.array(out[3])
                arrays[tag + "__step0_fetched__fc_0_w_0_AT_GRAD"] = np.array(out[5])
        # per-place params after training: return_merged=False on a feed-less fetch is not possible
        # for a training program, so read each place's local scope instead.
        local = cp._executor.local_scopes() if hasattr(cp, "_executor") else []
        rec["n_local_scopes"] = len(local)
        for i, ls in enumerate(local):
            for n in PNAMES:
                arrays["%s__final_place%d__%s" % (tag, i, npz_name(n))] = np.array(ls.find_var(n).get_tensor())
        rec["local_scope0_is_global_scope"] = bool(local and local[0] is scope) if local else None
        rec["exec_strategy_num_threads_after_run"] = es.num_threads
        rec["exec_strategy_num_iteration_per_drop_scope"] = es.num_iteration_per_drop_scope
    for n, v in scope_params(scope).items():
        arrays["%s__final__%s" % (tag, npz_name(n))] = v
    arrays[tag + "__losses"] = np.stack(losses)
    arrays[tag + "__loss_grad"] = np.stack(lgrads)
    meta["variants"][tag] = rec

# Customized without feeding loss@GRAD
scope = fresh_scope()
with fluid.scope_guard(scope):
    cp, _, _ = compiled(RS.AllReduce, GS.Customized)
    meta["error_customized_without_loss_grad_feed"] = err_record(
        lambda: exe.run(cp, feed={"x": XS[0], "y": YS[0]}, fetch_list=[loss.name]))

# ---------------------------------------------------------------- 1 place vs 2 places vs plain Executor
for tag, places in [("one_place", [fluid.CPUPlace()]), ("two_places", fluid.cpu_places(2))]:
    scope = fresh_scope()
    with fluid.scope_guard(scope):
        cp, _, _ = compiled(RS.AllReduce, GS.CoeffNumDevice, places=places)
        ls = [np.array(exe.run(cp, feed={"x": XS[s], "y": YS[s]}, fetch_list=[loss.name])[0]) for s in range(5)]
    arrays["cmp_%s__losses" % tag] = np.stack(ls)
    for n, v in scope_params(scope).items():
        arrays["cmp_%s__final__%s" % (tag, npz_name(n))] = v
scope = fresh_scope()
with fluid.scope_guard(scope):
    ls = [np.array(exe.run(main, feed={"x": XS[s], "y": YS[s]}, fetch_list=[loss.name])[0]) for s in range(5)]
arrays["cmp_plain_executor__losses"] = np.stack(ls)
for n, v in scope_params(scope).items():
    arrays["cmp_plain_executor__final__%s" % npz_name(n)] = v

# ---------------------------------------------------------------- feed errors on 2 places (training program)
scope = fresh_scope()
errors = {}
with fluid.scope_guard(scope):
    cp, _, _ = compiled()
    errors["batch1_on_2places"] = err_record(
        lambda: exe.run(cp, feed={"x": XS[0][:1], "y": YS[0][:1]}, fetch_list=[loss.name]))
    errors["feed_list_len1_on_2places"] = err_record(
        lambda: exe.run(cp, feed=[{"x": XS[0][:5], "y": YS[0][:5]}], fetch_list=[loss.name]))
    errors["feed_list_elem_not_dict"] = err_record(
        lambda: exe.run(cp, feed=[{"x": XS[0][:5], "y": YS[0][:5]}, (XS[0][5:], YS[0][5:])],
                        fetch_list=[loss.name]))
    errors["feed_list_elems_are_lists"] = err_record(
        lambda: exe.run(cp, feed=[[XS[0][:5], YS[0][:5]], [XS[0][5:], YS[0][5:]]], fetch_list=[loss.name]))
    # a valid list feed (one dict per place) for contrast
    ok = exe.run(cp, feed=[{"x": XS[0][:4], "y": YS[0][:4]}, {"x": XS[0][4:], "y": YS[0][4:]}],
                 fetch_list=[loss.name, h.name])
    meta["list_feed_ok_fetched_shapes"] = [list(np.array(o).shape) for o in ok]
meta["feed_errors_2places"] = errors

# ---------------------------------------------------------------- per-place split (return_merged=False)
def row_ids(nplaces, batch, prog, fetch_extra=()):
    """Feed x whose column 0 is the row index; fetch x back per place."""
    scope = fresh_scope()
    with fluid.scope_guard(scope):
        xb = np.zeros((batch, 13), "float32")
        xb[:, 0] = np.arange(batch)
        yb = np.zeros((batch, 1), "float32")
        # places=None: the place list comes from the CPU_NUM environment variable, read at compile time
        os.environ["CPU_NUM"] = str(nplaces)
        cp, _, _ = compiled(places=None, prog=prog, loss_name="use" if prog is main else None)

        def go():
            out = exe.run(cp, feed={"x": xb, "y": yb}, fetch_list=["x"] + list(fetch_extra), return_merged=False)
            return out

        res = {"CPU_NUM": os.environ["CPU_NUM"]}
        try:
            out = go()
            res["n_local_scopes"] = len(cp._executor.local_scopes())
            res["rows_per_place"] = [np.array(t)[:, 0].astype(int).tolist() for t in out[0]]
            res["n_fetched_places"] = len(out[0])
            if fetch_extra:
                res["extra_shapes_per_place"] = [[list(np.array(t).shape) for t in o] for o in out[1:]]
        except Exception:  # noqa: BLE001
            res["error"] = err_record(go)
        os.environ["CPU_NUM"] = "2"
        return res


splits = {}
splits["train_B3_P2"] = row_ids(2, 3, main, (loss.name,))
for b in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
    splits["train_B%d_P4" % b] = row_ids(4, b, main)
for b in (1, 3, 5):
    splits["infer_B%d_P4" % b] = row_ids(4, b, test_prog, (pred.name,))
meta["splits"] = splits

# merged vs unmerged fetch shapes, default strategy, batch 10 on 2 places
scope = fresh_scope()
with fluid.scope_guard(scope):
    cp, _, _ = compiled()
    names = [loss.name, h.name, "fc_0.w_0", "fc_0.b_0", "fc_1.b_0"]
    merged = exe.run(cp, feed={"x": XS[0], "y": YS[0]}, fetch_list=names)
    unmerged = exe.run(cp, feed={"x": XS[1], "y": YS[1]}, fetch_list=names, return_merged=False)
    meta["merged_fetch_shapes"] = {n: list(np.array(o).shape) for n, o in zip(names, merged)}
    meta["unmerged_fetch_shapes"] = {n: [list(np.array(t).shape) for t in o] for n, o in zip(names, unmerged)}

# ---------------------------------------------------------------- fluid.ParallelExecutor + share_vars_from
scope = fresh_scope()
with fluid.scope_guard(scope):
    train_exe = fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main, scope=scope)
    test_exe = fluid.ParallelExecutor(use_cuda=False, main_program=test_prog, share_vars_from=train_exe,
                                      scope=scope)
    pe_losses = []
    for s in range(5):
        pe_losses.append(np.array(train_exe.run(fetch_list=[loss.name], feed={"x": XS[s], "y": YS[s]})[0]))
    t_loss, t_pred = test_exe.run(fetch_list=[loss.name, pred.name], feed={"x": X_TEST, "y": Y_TEST})
    meta["pe_device_count"] = train_exe.device_count
    meta["pe_test_fetched_shapes"] = [list(np.array(t_loss).shape), list(np.array(t_pred).shape)]
arrays["pe__losses"] = np.stack(pe_losses)
arrays["pe__test_loss"] = np.array(t_loss)
arrays["pe__test_pred"] = np.array(t_pred)
for n, v in scope_params(scope).items():
    arrays["pe__final__%s" % npz_name(n)] = v

# the same feed errors through fluid.ParallelExecutor.run
scope = fresh_scope()
with fluid.scope_guard(scope):
    pe = fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main, scope=scope)
    meta["pe_feed_errors_2places"] = {
        "batch1_on_2places": err_record(
            lambda: pe.run(fetch_list=[loss.name], feed={"x": XS[0][:1], "y": YS[0][:1]})),
        "feed_list_len1_on_2places": err_record(
            lambda: pe.run(fetch_list=[loss.name], feed=[{"x": XS[0][:5], "y": YS[0][:5]}])),
        "feed_list_elem_not_dict": err_record(
            lambda: pe.run(fetch_list=[loss.name], feed=[{"x": XS[0][:5], "y": YS[0][:5]}, (XS[0][5:], YS[0][5:])])),
    }
    meta["error_pe_share_vars_from_wrong_type"] = err_record(
        lambda: fluid.ParallelExecutor(use_cuda=False, main_program=test_prog, share_vars_from="not a PE"))

# share_vars_from a compiled program that has not run yet
scope = fresh_scope()
with fluid.scope_guard(scope):
    cp_train, _, _ = compiled()
    cp_test = fluid.CompiledProgram(test_prog).with_data_parallel(share_vars_from=cp_train)
    meta["error_share_vars_from_not_run"] = err_record(
        lambda: exe.run(cp_test, feed={"x": X_TEST, "y": Y_TEST}, fetch_list=[loss.name]))

meta["program"] = ("fluid 1.8.5, CPU_NUM=2, FLAGS_cpu_deterministic=true: x=data('x',[13]); y=data('y',[1]); "
                   "h=fc(x,10,act='relu'); pred=fc(h,1); loss=mean(square_error_cost(pred,y)); "
                   "test_prog=main.clone(for_test=True); SGD(0.01).minimize(loss); "
                   "CompiledProgram(main).with_data_parallel(loss_name=loss.name, build_strategy=bs, exec_strategy=es)")
save("dp_fluid18", arrays, meta)
