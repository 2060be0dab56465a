# A legacy PaddlePaddle 1.x fluid script (the "fit a line" book chapter), unchanged except that it
# trains on synthetic housing-like data instead of downloading UCI housing.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

BATCH = 20
rng = np.random.RandomState(42)
true_w = rng.uniform(-1, 1, size=(13, 1)).astype("float32")
train_x = rng.uniform(-1, 1, size=(400, 13)).astype("float32")
train_y = (train_x.dot(true_w) + 0.5 + 0.01 * rng.randn(400, 1)).astype("float32")

x = fluid.layers.data(name="x", shape=[13], dtype="float32")
y = fluid.layers.data(name="y", shape=[1], dtype="float32")
y_predict = fluid.layers.fc(input=x, size=1, act=None)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)

test_program = fluid.default_main_program().clone(for_test=True)
sgd_optimizer = fluid.optimizer.SGD(learning_rate=0.1)
sgd_optimizer.minimize(avg_cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())

for pass_id in range(20):
    for i in range(0, len(train_x), BATCH):
        avg_loss_value, = exe.run(fluid.default_main_program(),
                                  feed={"x": train_x[i:i + BATCH], "y": train_y[i:i + BATCH]},
                                  fetch_list=[avg_cost])
    if pass_id % 5 == 0:
        print("Pass %d, train cost %f" % (pass_id, avg_loss_value[0]))

test_loss, = exe.run(test_program, feed={"x": train_x[:100], "y": train_y[:100]}, fetch_list=[avg_cost])
w = np.array(fluid.global_scope().find_var("fc_0.w_0").get_tensor())
print("test cost %f, max |w - true_w| = %f" % (test_loss[0], np.abs(w - true_w).max()))
assert test_loss[0] < 1e-3, "fit-a-line did not converge"
print("fit_a_line OK")
