"""Case F: the case-E net built with paddle.static (conv2d, batch_norm, relu, max_pool2d, fc), 3 Momentum steps,
then main.clone(for_test=True) predictions.  Same initial arrays and batches as case E.  Run with /work/oracle/p26."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

from _common import convbn_data, err_record, npz_name, op_table, save, var_table  # noqa: E402

paddle.enable_static()
D = convbn_data()

main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data(name="x", shape=[None, 1, 8, 8], dtype="float32")
    label = paddle.static.data(name="label", shape=[None, 1], dtype="int64")
    conv = paddle.static.nn.conv2d(x, num_filters=4, filter_size=3, padding=1)
    bn = paddle.static.nn.batch_norm(conv)
    act = F.relu(bn)
    pool = F.max_pool2d(act, kernel_size=2, stride=2)
    logits = paddle.static.nn.fc(pool, 3)
    loss = F.cross_entropy(logits, label)
    ops_before_minimize = [op.type for op in main.global_block().ops]
    opt_ret = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
test_prog = main.clone(for_test=True)  # taken AFTER minimize, as a user would after training

params = {p.name: list(p.shape) for p in main.global_block().all_parameters()}
# map our arrays onto Paddle's static names (checked below by shape)
name_map = {
    "conv2d_0.w_0": "conv_w", "conv2d_0.b_0": "conv_b",
    "batch_norm_0.w_0": "bn_w", "batch_norm_0.b_0": "bn_b",
    "batch_norm_0.w_1": "bn_mean", "batch_norm_0.w_2": "bn_var",
    "fc_0.w_0": "fc_w", "fc_0.b_0": "fc_b",
}
place = paddle.CPUPlace()
exe = paddle.static.Executor(place)
scope = paddle.static.Scope()
arrays = {"xs": D["xs"][:3], "labels": D["labels"][:3], "x_eval": D["x_eval"]}
meta = {}
losses = []
with paddle.static.scope_guard(scope):
    exe.run(startup)
    persist_names = sorted(n for n, v in main.global_block().vars.items() if v.persistable)
    for n, k in name_map.items():
        t = scope.find_var(n).get_tensor()
        assert list(np.array(t).shape) == list(D[k].shape), (n, np.array(t).shape, D[k].shape)
        t.set(D[k], place)
        arrays["init__" + npz_name(n)] = D[k]
    for step in range(3):
        out = exe.run(main, feed={"x": D["xs"][step], "label": D["labels"][step]}, fetch_list=[loss, logits])
        losses.append(np.array(out[0]).reshape(-1)[0])
        if step == 0:
            meta["fetched_loss_shape"] = list(np.array(out[0]).shape)
            arrays["step0_train_logits"] = np.array(out[1])
    pred, = exe.run(test_prog, feed={"x": D["x_eval"], "label": np.zeros((6, 1), "int64")}, fetch_list=[logits])
    # clone(for_test) does not prune the loss ops, so running it without the label feed fails:
    meta["error_test_prog_without_label_feed"] = err_record(
        lambda: exe.run(test_prog, feed={"x": D["x_eval"]}, fetch_list=[logits]))
    for n in name_map:
        arrays["final__" + npz_name(n)] = np.array(scope.find_var(n).get_tensor())
arrays["losses"] = np.array(losses, "float32")
arrays["eval_logits"] = np.array(pred)
arrays["eval_probs"] = np.exp(pred) / np.exp(pred).sum(-1, keepdims=True)

meta.update(
    paddle_version=paddle.__version__,
    program="paddle.static: x=data('x',[None,1,8,8]); label=data('label',[None,1],'int64'); "
            "conv=static.nn.conv2d(x,num_filters=4,filter_size=3,padding=1); bn=static.nn.batch_norm(conv); "
            "pool=F.max_pool2d(F.relu(bn),kernel_size=2,stride=2); logits=static.nn.fc(pool,3); "
            "loss=F.cross_entropy(logits,label); Momentum(learning_rate=0.05,momentum=0.9).minimize(loss); "
            "test_prog=main.clone(for_test=True) [after minimize]; set init__* by name; 3 steps feeding xs[i], "
            "labels[i]; eval_logits = exe.run(test_prog, x=x_eval, label=zeros) fetch logits",
    names=dict(conv=conv.name, bn=bn.name, act=act.name, pool=pool.name, logits=logits.name, loss=loss.name),
    pool_shape=list(pool.shape), logits_shape=list(logits.shape),
    parameters=params,
    persistable_vars=persist_names,
    npz_name_to_paddle_name={npz_name(n): n for n in name_map},
    ops_before_minimize=ops_before_minimize,
    op_types=[op.type for op in main.global_block().ops],
    test_op_types=[op.type for op in test_prog.global_block().ops],
    test_ops=op_table(test_prog.global_block()),
    bn_is_test_in_test_prog=[bool(op.attr("is_test")) for op in test_prog.global_block().ops
                             if op.type == "batch_norm"],
    bn_is_test_in_main=[bool(op.attr("is_test")) for op in main.global_block().ops if op.type == "batch_norm"],
    bn_attrs={a: str(op.attr(a)) for op in main.global_block().ops if op.type == "batch_norm"
              for a in ("momentum", "epsilon", "data_layout", "use_global_stats", "trainable_statistics")},
    vars=var_table(main.global_block()),
    minimize_returns=[[p.name, g.name] for p, g in opt_ret[1]],
    cross_check_with_dygraph_convbn26="init__* here equal dygraph_convbn26 init__* (same convbn_data() arrays); "
                                      "after 3 steps final__* here should equal dygraph run truncated to 3 steps")
save("static_convbn_infer26", arrays, meta)
