"""Case C: 3-layer MLP, Adam + L2Decay + ClipGradByGlobalNorm, Paddle 2.6.2 paddle.static.  Run with p26."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

from _common import mlp_data, npz_name, op_table, save, var_table  # noqa: E402

paddle.enable_static()
xs, labels, x_test, y_test, params0 = mlp_data()

main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data(name="x", shape=[None, 20], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    h1 = paddle.static.nn.fc(x, 32, activation="relu")
    h2 = paddle.static.nn.fc(h1, 32, activation="relu")
    logits = paddle.static.nn.fc(h2, 4)
    ce = F.cross_entropy(logits, label)
    loss = paddle.mean(ce)
    prob = F.softmax(logits)
    acc = paddle.static.accuracy(prob, label)
    test_prog = main.clone(for_test=True)
    opt = paddle.optimizer.Adam(learning_rate=0.01,
                                weight_decay=paddle.regularizer.L2Decay(1e-4),
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    opt_ret = opt.minimize(loss)

place = paddle.CPUPlace()
exe = paddle.static.Executor(place)
scope = paddle.static.Scope()
arrays = {"xs": xs, "labels": labels, "x_test": x_test, "y_test": y_test}
for n, v in params0.items():
    arrays["init__" + npz_name(n)] = v
meta = {}
losses, accs = [], []
with paddle.static.scope_guard(scope):
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

# Raw (unclipped, undecayed) step-0 gradients from the same net without an optimizer, for reference.
raw_main, raw_startup = paddle.static.Program(), paddle.static.Program()
with paddle.utils.unique_name.guard(), paddle.static.program_guard(raw_main, raw_startup):
    rx = paddle.static.data(name="x", shape=[None, 20], dtype="float32")
    rl = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    rlogits = paddle.static.nn.fc(paddle.static.nn.fc(paddle.static.nn.fc(rx, 32, activation="relu"), 32,
                                                      activation="relu"), 4)
    rloss = paddle.mean(F.cross_entropy(rlogits, rl))
    paddle.static.append_backward(rloss)
raw_scope = paddle.static.Scope()
with paddle.static.scope_guard(raw_scope):
    exe.run(raw_startup)
    for n, v in params0.items():
        raw_scope.find_var(n).get_tensor().set(v, place)
    raw_names = [n + "@GRAD" for n in params0]
    raw = exe.run(raw_main, feed={"x": xs[0], "label": labels[0]}, fetch_list=raw_names)
for n, g in zip(raw_names, raw):
    arrays["step0_raw__" + npz_name(n)] = np.array(g)
meta["step0_raw_global_grad_norm"] = float(np.sqrt(sum(float((np.array(g, "float64") ** 2).sum()) for g in raw)))

arrays.update(losses=np.array(losses, "float32"), accs=np.array(accs, "float32"),
              test_loss=np.array(t_loss), test_acc=np.array(t_acc), test_logits=np.array(t_logits))
meta.update(
    paddle_version=paddle.__version__,
    program="paddle.static: x=data('x',[None,20]); label=data('label',[None,1],'int64'); "
            "h1=fc(x,32,activation='relu'); h2=fc(h1,32,activation='relu'); logits=fc(h2,4); "
            "ce=F.cross_entropy(logits,label); loss=paddle.mean(ce); acc=paddle.static.accuracy(F.softmax(logits),label); "
            "test_prog=main.clone(for_test=True) [before minimize]; "
            "Adam(learning_rate=0.01, weight_decay=L2Decay(1e-4), grad_clip=ClipGradByGlobalNorm(1.0)).minimize(loss); "
            "20 steps feeding xs[i], labels[i]; then exe.run(test_prog, x_test/y_test, fetch [loss, acc, logits])",
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
save("mlp_adam_static26", arrays, meta)
