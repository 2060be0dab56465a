"""Case A: fit_a_line with the Paddle 1.8.5 fluid spelling.  Run with /work/oracle/p18 (paddlepaddle==1.8.5)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("CPU_NUM", "1")
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.fluid as fluid  # noqa: E402

from _common import fit_a_line_data, op_table, save, var_table  # noqa: E402

xs, ys, w0, b0 = fit_a_line_data()

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[13], dtype="float32")
    y = fluid.layers.data(name="y", shape=[1], dtype="float32")
    pred = fluid.layers.fc(input=x, size=1)
    cost = fluid.layers.square_error_cost(input=pred, label=y)
    avg = fluid.layers.mean(cost)
    ops_before_minimize = [op.type for op in main.global_block().ops]
    opt_ret = fluid.optimizer.SGD(learning_rate=0.01).minimize(avg)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
scope = fluid.Scope()
losses, loss_shapes, preds0 = [], [], None
with fluid.scope_guard(scope):
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
    lr_val = np.array(scope.find_var(
        [n for n in main.global_block().vars if n.startswith("learning_rate")][0]).get_tensor())

save("fit_a_line_fluid18",
     dict(xs=xs, ys=ys, init__fc_0_w_0=w0, init__fc_0_b_0=b0,
          losses=np.array(losses, "float32"), pred_step0=preds0,
          final__fc_0_w_0=w_final, final__fc_0_b_0=b_final),
     dict(paddle_version=paddle.__version__,
          program="x=fluid.layers.data('x',[13]); y=fluid.layers.data('y',[1]); pred=fluid.layers.fc(x,1); "
                  "avg=fluid.layers.mean(fluid.layers.square_error_cost(pred,y)); "
                  "fluid.optimizer.SGD(0.01).minimize(avg); 30 steps, step i feeds xs[i], ys[i]",
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
          learning_rate_value=lr_val.tolist()))
