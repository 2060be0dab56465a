# A legacy fluid 1.x multi-trainer (NCCL2-mode) data-parallel script, unchanged: the trainer count and id
# come from Paddle's launch variables, each trainer reads its share of every batch, and ParallelExecutor
# averages the gradients over all trainers x places. Runs as
#     python examples/dist_fluid_trainers.py                                   (one trainer, CPU_NUM places)
#     torchrun --nproc_per_node 2 examples/dist_fluid_trainers.py              (two trainers, gloo)
#     python -m paddle.distributed.launch --nproc_per_node 2 examples/dist_fluid_trainers.py
from __future__ import print_function

import os

import numpy as np
import paddle.fluid as fluid

trainer_id = int(os.getenv("PADDLE_TRAINER_ID", "0"))
trainers = int(os.getenv("PADDLE_TRAINERS_NUM", "1"))
BATCH = 32

rng = np.random.RandomState(0)
true_w = rng.uniform(-1, 1, size=(8, 1)).astype("float32")
data_x = rng.uniform(-1, 1, size=(256, 8)).astype("float32")
data_y = (np.tanh(data_x.dot(true_w)) + 0.01 * rng.randn(256, 1)).astype("float32")

main, startup = fluid.Program(), fluid.Program()
main.random_seed = startup.random_seed = 1
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[8], dtype="float32")
    y = fluid.layers.data(name="y", shape=[1], dtype="float32")
    hidden = fluid.layers.fc(input=x, size=32, act="tanh")
    pred = fluid.layers.fc(input=hidden, size=1)
    avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
build_strategy = fluid.BuildStrategy()
build_strategy.num_trainers = trainers
build_strategy.trainer_id = trainer_id
train_exe = fluid.ParallelExecutor(use_cuda=False, loss_name=avg_cost.name, main_program=main,
                                   build_strategy=build_strategy, num_trainers=trainers, trainer_id=trainer_id)
share = BATCH // trainers
for epoch in range(10):
    for i in range(0, len(data_x), BATCH):
        lo = i + trainer_id * share
        loss, = train_exe.run(feed={"x": data_x[lo:lo + share], "y": data_y[lo:lo + share]},
                              fetch_list=[avg_cost.name])
    if epoch % 5 == 0:
        print("trainer %d/%d epoch %d loss %.5f" % (trainer_id, trainers, epoch, np.mean(loss)))

w = np.array(fluid.global_scope().find_var("fc_0.w_0").get_tensor())
print("trainer %d: final loss %.5f, fc_0.w_0 checksum %.6f" % (trainer_id, np.mean(loss), w.sum()))
assert np.mean(loss) < 0.01, "did not converge"
print("dist_fluid_trainers OK")
