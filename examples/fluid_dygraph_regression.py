# A Paddle 1.x fluid dygraph script: fluid.dygraph.guard, fluid.dygraph.Linear, to_variable, SGDOptimizer with
# parameter_list and minimize() after backward(). Runs unchanged on torch through paddle_compat.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.dygraph import Linear, to_variable

with fluid.dygraph.guard(fluid.CPUPlace()):
    fc1 = Linear(4, 8, act="relu")
    fc2 = Linear(8, 1)
    params = fc1.parameters() + fc2.parameters()
    opt = fluid.optimizer.SGDOptimizer(learning_rate=0.1, parameter_list=params)
    rng = np.random.RandomState(0)
    X = rng.rand(64, 4).astype("float32"); Y = X.sum(1, keepdims=True).astype("float32")
    for i in range(200):
        pred = fc2(fc1(to_variable(X)))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, to_variable(Y)))
        loss.backward()
        opt.minimize(loss)
        fc1.clear_gradients(); fc2.clear_gradients()
    print(loss.numpy())
    assert loss.numpy()[0] < 0.01
