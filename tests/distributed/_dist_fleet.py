"""Fleet training scripts, written as real ones are, used by test_dist_fleet.py: argv[1] is the flavour
(fluid18: paddle.fluid.incubate.fleet.collective; static2x / dygraph2x: paddle.distributed.fleet), argv[2] the
folder each trainer writes its final first-layer weight and fleet's answers to. Every trainer trains on its
share of each batch (rows tid::n)."""

import json
import os
import sys

import numpy as np

import paddle

flavour, out_dir = sys.argv[1], sys.argv[2]
rs = np.random.RandomState(7)
XS, YS = rs.rand(4, 8, 4).astype("float32"), rs.rand(4, 8, 1).astype("float32")
C3, C2 = (paddle.fluid.initializer.Constant(v) for v in (0.3, 0.2))

if flavour == "fluid18":
    import paddle.fluid as fluid
    from paddle.fluid.incubate.fleet.base import role_maker
    from paddle.fluid.incubate.fleet.collective import DistributedStrategy, fleet

    fleet.init(role_maker.PaddleCloudRoleMaker(is_collective=True))
    x = fluid.layers.data(name="x", shape=[4], dtype="float32")
    y = fluid.layers.data(name="y", shape=[1], dtype="float32")
    h = fluid.layers.fc(input=x, size=3, act="tanh", param_attr=fluid.ParamAttr(initializer=C3))
    pred = fluid.layers.fc(input=h, size=1, param_attr=fluid.ParamAttr(initializer=C2))
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    opt = fleet.distributed_optimizer(fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9),
                                      strategy=DistributedStrategy())
    opt.minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fleet.startup_program)
    tid, n = fleet.worker_index(), fleet.worker_num()
    for step in range(4):
        exe.run(fleet.main_program, feed={"x": XS[step][tid::n], "y": YS[step][tid::n]}, fetch_list=[loss.name])
    w = np.array(fluid.global_scope().find_var("fc_0.w_0").get_tensor())
    kind = type(fleet.main_program).__name__
else:
    from paddle.distributed import fleet

    if flavour == "static2x":
        paddle.enable_static()
    fleet.init(is_collective=True)
    tid, n = fleet.worker_index(), fleet.worker_num()
    if flavour == "static2x":
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        h = paddle.static.nn.fc(x, 3, activation="tanh", weight_attr=paddle.ParamAttr(initializer=C3))
        pred = paddle.static.nn.fc(h, 1, weight_attr=paddle.ParamAttr(initializer=C2))
        loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
        opt = fleet.distributed_optimizer(paddle.optimizer.Momentum(0.1, momentum=0.9), fleet.DistributedStrategy())
        opt.minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(paddle.static.default_startup_program())
        for step in range(4):
            exe.run(paddle.static.default_main_program(), feed={"x": XS[step][tid::n], "y": YS[step][tid::n]},
                    fetch_list=[loss])
        w = np.array(paddle.static.global_scope().find_var("fc_0.w_0").get_tensor())
    else:
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 3, weight_attr=paddle.ParamAttr(initializer=C3)),
                                   paddle.nn.Tanh(),
                                   paddle.nn.Linear(3, 1, weight_attr=paddle.ParamAttr(initializer=C2)))
        model = fleet.distributed_model(net)
        opt = fleet.distributed_optimizer(paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=net.parameters()))
        for step in range(4):
            out = model(paddle.to_tensor(XS[step][tid::n]))
            loss = paddle.mean(paddle.nn.functional.square_error_cost(out, paddle.to_tensor(YS[step][tid::n])))
            if step % 2:  # gradient sync by hand, as gradient-accumulation scripts do
                from paddle.distributed.fleet.utils.hybrid_parallel_util import fused_allreduce_gradients

                with model.no_sync():
                    loss.backward()
                fused_allreduce_gradients(list(net.parameters()), fleet.get_hybrid_communicate_group())
            else:
                loss.backward()
            opt.step()
            opt.clear_grad()
        w = net[0].weight.numpy()
    kind = type(opt).__name__
with open(os.path.join(out_dir, f"{flavour}{tid}.json"), "w") as f:
    json.dump({"w": w.tolist(), "n": n, "first": bool(fleet.is_first_worker()), "kind": kind,
               "endpoints": fleet.worker_endpoints()}, f)
