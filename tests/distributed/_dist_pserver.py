"""A fluid 1.8 parameter-server training script, written the way such scripts were (roles and endpoints from
Paddle's launch_ps variables), used by test_dist_pserver.py. argv: out_dir optimizer"""

import json
import os
import sys

import numpy as np

import paddle.fluid as fluid

out_dir, opt_name = sys.argv[1], sys.argv[2]
role = os.getenv("TRAINING_ROLE", "TRAINER")
pservers = os.getenv("PADDLE_PSERVERS_IP_PORT_LIST")
trainers = int(os.getenv("PADDLE_TRAINERS_NUM", "1"))

x = fluid.layers.data(name="x", shape=[4], dtype="float32")
y = fluid.layers.data(name="y", shape=[1], dtype="float32")
hidden = fluid.layers.fc(input=x, size=3, act="tanh",
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.3)))
pred = fluid.layers.fc(input=hidden, size=1, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)))
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
opt = {"sgd": fluid.optimizer.SGD(learning_rate=0.1),
       "momentum": fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9),
       "adam": fluid.optimizer.Adam(learning_rate=0.05)}[opt_name]
opt.minimize(loss)

t = fluid.DistributeTranspiler()
exe = fluid.Executor(fluid.CPUPlace())
if role == "PSERVER":
    ep = os.getenv("POD_IP") + ":" + os.getenv("PADDLE_PORT")
    t.transpile(0, pservers=pservers, trainers=trainers, current_endpoint=ep)
    prog = t.get_pserver_program(ep)
    exe.run(t.get_startup_program(ep, prog))
    exe.run(prog)
else:
    tid = int(os.getenv("PADDLE_TRAINER_ID"))
    t.transpile(tid, pservers=pservers, trainers=trainers)
    prog = t.get_trainer_program()
    exe.run(fluid.default_startup_program())
    rs = np.random.RandomState(7)
    xs, ys = rs.rand(4, 8, 4).astype("float32"), rs.rand(4, 8, 1).astype("float32")
    losses = []
    for step in range(4):  # each trainer trains on its half of every batch
        (lv,) = exe.run(prog, feed={"x": xs[step][tid::trainers], "y": ys[step][tid::trainers]}, fetch_list=[loss])
        losses.append(float(np.asarray(lv).reshape(-1)[0]))
    scope = fluid.global_scope()
    params = {p.name: np.array(scope.find_var(p.name).get_tensor()).tolist()
              for p in fluid.default_main_program().global_block().all_parameters()}
    with open(os.path.join(out_dir, f"trainer{tid}.json"), "w") as f:
        json.dump({"losses": losses, "params": params}, f)
    exe.close()
