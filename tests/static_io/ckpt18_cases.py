"""The nets of the 1.8.5 checkpoint cases, shared by the recorder that runs them under real 1.8.5
(tools/oracle/rec_ckpt18.py), the check that real 1.8.5 loads our files (tools/oracle/rec_ckpt18_check.py) and
our test (tests/static_io/test_ckpt18_resume.py). Each takes the `fluid` module it builds with; nothing here
imports paddle_compat."""


def dygraph_net(fluid):
    """Linear(4, 8, relu) -> Linear(8, 1) as a fluid.dygraph.Layer (parameters fc1.weight, fc1.bias, fc2.*)."""

    class Net(fluid.dygraph.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = fluid.dygraph.Linear(4, 8, act="relu")
            self.fc2 = fluid.dygraph.Linear(8, 1)

        def forward(self, x):
            return self.fc2(self.fc1(x))

    return Net()


def dygraph_step(fluid, net, opt, x, y):
    """One training step: mean squared error, backward, the optimizer's minimize; returns the loss as a float."""
    loss = fluid.layers.reduce_mean(fluid.layers.square(net(fluid.dygraph.to_variable(x)) -
                                                        fluid.dygraph.to_variable(y)))
    loss.backward()
    opt.minimize(loss)
    net.clear_gradients()
    return float(loss.numpy()[0])


def static_program(fluid):
    """(main, startup, loss, pred): fc(4 -> 8, relu) -> fc(8 -> 1), mean square_error_cost, Adam under
    exponential_decay(0.05, 2, 0.5, staircase) (fc_0.w_0 ... and @LR_DECAY_COUNTER@)."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data("x", [4], dtype="float32")
        y = fluid.layers.data("y", [1], dtype="float32")
        h = fluid.layers.fc(x, 8, act="relu")
        pred = fluid.layers.fc(h, 1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
        lr = fluid.layers.exponential_decay(0.05, decay_steps=2, decay_rate=0.5, staircase=True)
        fluid.optimizer.AdamOptimizer(learning_rate=lr).minimize(loss)
    return main, startup, loss, pred
