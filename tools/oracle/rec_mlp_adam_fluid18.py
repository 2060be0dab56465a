"""Case C2: the case-C MLP in the Paddle 1.8.5 fluid spelling (Adam + L2Decay regularization, no grad clip).

Run with /work/oracle/p18 (paddlepaddle==1.8.5)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("CPU_NUM", "1")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.fluid as fluid  # noqa: E402

from _common import mlp_data, npz_name, op_table, save, var_table  # noqa: E402

xs, labels, x_test, y_test, params0 = mlp_data()


def build():
    x = fluid.layers.data(name="x", shape=[20], dtype="float32")
    label = fluid.layers.data(name="label", shape=[1], dtype="int64")
    h1 = fluid.layers.fc(input=x, size=32, act="relu")
    h2 = fluid.layers.fc(input=h1, size=32, act="relu")
    logits = fluid.layers.fc(input=h2, size=4)
    ce = fluid.layers.softmax_with_cross_entropy(logits, label)
    loss = fluid.layers.mean(ce)
    prob = fluid.layers.softmax(logits)
    acc = fluid.layers.accuracy(input=prob, label=label)
    return x, label, h1, h2, logits, ce, loss, prob, acc


main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x, label, h1, h2, logits, ce, loss, prob, acc = build()
    test_prog = main.clone(for_test=True)
    opt = fluid.optimizer.Adam(learning_rate=0.01, regularization=fluid.regularizer.L2Decay(1e-4))
    opt_ret = opt.minimize(loss)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
scope = fluid.Scope()
arrays = {"xs": xs, "labels": labels, "x_test": x_test, "y_test": y_test}
for n, v in params0.items():
    arrays["init__" + npz_name(n)] = v
meta = {}
losses, accs = [], []
with fluid.scope_guard(scope):
    exe.run(startup)
    for n, v in params0.items():
        scope.find_var(n).get_tensor().set(v, place)
    for step in range(20):
        fetch = [loss, acc]
        if step == 0:
            fetch += ["fc_0.w_0@GRAD", "fc_2.b_0@GRAD", logits, ce]
        out = exe.run(main, feed={"x": xs[step], "label": labels[step]}, fetch_list=fetch)
        losses.append(np.array(out[0]).reshape(-1)[0])
        accs.append(np.array(out[1]).reshape(-1)[0])
        if step == 0:
            meta["fetched_loss_shape"] = list(np.array(out[0]).shape)
            meta["fetched_acc_shape"] = list(np.array(out[1]).shape)
            meta["fetched_acc_dtype"] = str(np.array(out[1]).dtype)
            meta["fetched_ce_shape"] = list(np.array(out[5]).shape)
            arrays["step0_fetched__fc_0_w_0_AT_GRAD"] = np.array(out[2])
            arrays["step0_fetched__fc_2_b_0_AT_GRAD"] = np.array(out[3])
            arrays["step0_logits"] = np.array(out[4])
    t_loss, t_acc, t_logits = exe.run(test_prog, feed={"x": x_test, "label": y_test},
                                      fetch_list=[loss, acc, logits])
    for n in params0:
        arrays["final__" + npz_name(n)] = np.array(scope.find_var(n).get_tensor())
    persist = {}
    for n, v in main.global_block().vars.items():
        if v.persistable and n not in ("feed", "fetch") and scope.find_var(n) is not None:
            t = np.array(scope.find_var(n).get_tensor())
            persist[n] = {"shape": list(t.shape), "dtype": str(t.dtype)}
            if t.size <= 4:
                persist[n]["value"] = t.reshape(-1).tolist()

# Raw (undecayed) step-0 gradients from the same net without an optimizer, for reference.
raw_main, raw_startup = fluid.Program(), fluid.Program()
with fluid.unique_name.guard(), fluid.program_guard(raw_main, raw_startup):
    _, _, _, _, _, _, rloss, _, _ = build()
    fluid.backward.append_backward(rloss)
raw_scope = fluid.Scope()
with fluid.scope_guard(raw_scope):
    exe.run(raw_startup)
    for n, v in params0.items():
        raw_scope.find_var(n).get_tensor().set(v, place)
    raw_names = [n + "@GRAD" for n in params0]
    raw = exe.run(raw_main, feed={"x": xs[0], "label": labels[0]}, fetch_list=raw_names)
for n, g in zip(raw_names, raw):
    arrays["step0_raw__" + npz_name(n)] = np.array(g)

arrays.update(losses=np.array(losses, "float32"), accs=np.array(accs, "float32"),
              test_loss=np.array(t_loss), test_acc=np.array(t_acc), test_logits=np.array(t_logits))
meta.update(
    paddle_version=paddle.__version__,
    program="fluid 1.8.5: x=fluid.layers.data('x',[20]); label=fluid.layers.data('label',[1],'int64'); "
            "h1=fluid.layers.fc(x,32,act='relu'); h2=fluid.layers.fc(h1,32,act='relu'); logits=fluid.layers.fc(h2,4); "
            "ce=fluid.layers.softmax_with_cross_entropy(logits,label); loss=fluid.layers.mean(ce); "
            "acc=fluid.layers.accuracy(input=fluid.layers.softmax(logits),label=label); "
            "test_prog=main.clone(for_test=True) [before minimize]; "
            "fluid.optimizer.Adam(learning_rate=0.01, regularization=fluid.regularizer.L2Decay(1e-4)).minimize(loss) "
            "[no grad clip]; 20 steps feeding xs[i], labels[i]; step 0 also fetches 'fc_0.w_0@GRAD','fc_2.b_0@GRAD'; "
            "then exe.run(test_prog, x_test/y_test, fetch [loss, acc, logits])",
    test_loss_shape=list(np.array(t_loss).shape), test_acc_shape=list(np.array(t_acc).shape),
    names=dict(h1=h1.name, h2=h2.name, logits=logits.name, ce=ce.name, loss=loss.name, prob=prob.name, acc=acc.name),
    op_types=[op.type for op in main.global_block().ops],
    ops=op_table(main.global_block()),
    test_op_types=[op.type for op in test_prog.global_block().ops],
    startup_op_types=[op.type for op in startup.global_block().ops],
    vars=var_table(main.global_block()),
    parameters=[p.name for p in main.global_block().all_parameters()],
    minimize_returns=[[p.name, g.name] for p, g in opt_ret[1]],
    persistable_after_training=persist)
save("mlp_adam_fluid18", arrays, meta)
