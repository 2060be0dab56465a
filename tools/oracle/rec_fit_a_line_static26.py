"""Case B: fit_a_line with the Paddle 2.6.2 paddle.static spelling.  Run with /work/oracle/p26."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

from _common import fit_a_line_data, op_table, save, var_table  # noqa: E402

paddle.enable_static()
xs, ys, w0, b0 = fit_a_line_data()

main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data(name="x", shape=[None, 13], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    pred = paddle.static.nn.fc(x, 1)
    cost = F.square_error_cost(pred, y)
    avg = paddle.mean(cost)
    ops_before_minimize = [op.type for op in main.global_block().ops]
    opt_ret = paddle.optimizer.SGD(learning_rate=0.01).minimize(avg)

place = paddle.CPUPlace()
exe = paddle.static.Executor(place)
scope = paddle.static.Scope()
losses, loss_shapes, preds0 = [], [], None
with paddle.static.scope_guard(scope):
    exe.run(startup)
    scope.find_var("fc_0.w_0").get_tensor().set(w0, place)
    scope.find_var("fc_0.b_0").get_tensor().set(b0, place)
    for step in range(30):
        fetch = [avg, pred] if step == 0 else [avg]
        out = exe.run(main, feed={"x": xs[step], "y": ys[step]}, fetch_list=fetch)
        losses.append(np.array(out[0]).reshape(-1)[0])
        loss_shapes.append(list(np.array(out[0]).shape))
        if step == 0:
            preds0 = np.array(out[1])
    w_final = np.array(scope.find_var("fc_0.w_0").get_tensor())
    b_final = np.array(scope.find_var("fc_0.b_0").get_tensor())
    lr_names = [n for n in main.global_block().vars if n.startswith("learning_rate")]
    lr_val = np.array(scope.find_var(lr_names[0]).get_tensor()) if lr_names else None

save("fit_a_line_static26",
     dict(xs=xs, ys=ys, init__fc_0_w_0=w0, init__fc_0_b_0=b0,
          losses=np.array(losses, "float32"), pred_step0=preds0,
          final__fc_0_w_0=w_final, final__fc_0_b_0=b_final),
     dict(paddle_version=paddle.__version__,
          program="paddle.enable_static(); x=paddle.static.data('x',[None,13]); y=paddle.static.data('y',[None,1]); "
                  "pred=paddle.static.nn.fc(x,1); avg=paddle.mean(F.square_error_cost(pred,y)); "
                  "paddle.optimizer.SGD(learning_rate=0.01).minimize(avg); 30 steps, step i feeds xs[i], ys[i]",
          fetched_loss_shape=loss_shapes[0], all_loss_shapes_equal=len(set(map(tuple, loss_shapes))) == 1,
          pred_name=pred.name, avg_name=avg.name, cost_name=cost.name,
          x_var_shape=list(x.shape), y_var_shape=list(y.shape),
          ops_before_minimize=ops_before_minimize,
          op_types=[op.type for op in main.global_block().ops],
          ops=op_table(main.global_block()),
          startup_op_types=[op.type for op in startup.global_block().ops],
          startup_ops=op_table(startup.global_block()),
          vars=var_table(main.global_block()),
          parameters=[p.name for p in main.global_block().all_parameters()],
          minimize_returns=[[p.name, g.name] for p, g in opt_ret[1]],
          learning_rate_var_names=lr_names,
          learning_rate_value=None if lr_val is None else lr_val.tolist()))
