"""Real Paddle 1.8.5 loads the checkpoints OUR layer wrote (the reverse of rec_ckpt18.py): run
`tests/static_io/test_ckpt18_resume.py::test_write_files_for_real_paddle` with CKPT18_OUT=DIR set, then
`cd /tmp && env -u PYTHONPATH /work/oracle/p18/bin/python -s <this file> DIR`. It loads DIR/dg/model with
load_dygraph + set_dict (and takes one step), DIR/persist (one file per variable), DIR/comb (filename='all') and
DIR/fsave/model (fluid.load), and prints each state's largest difference from 1.8.5's own N + M state.
Recorded 2026-11-29: every difference <= 6e-08, and set_dict accepted our global_step / LR_Scheduler."""

import os
import sys

import numpy as np
import paddle.fluid as fluid

G = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens") + "/"
z = np.load(G + "ckpt18_resume.npz")
out = sys.argv[1]


class Net(fluid.dygraph.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = fluid.dygraph.Linear(4, 8, act="relu")
        self.fc2 = fluid.dygraph.Linear(8, 1)

    def forward(self, x):
        return self.fc2(self.fc1(x))


with fluid.dygraph.guard(fluid.CPUPlace()):
    p, o = fluid.load_dygraph(out + "/dg/model")
    net = Net()
    net.set_dict(p)
    lr = fluid.dygraph.ExponentialDecay(0.05, decay_steps=2, decay_rate=0.5, staircase=True)
    opt = fluid.optimizer.AdamOptimizer(learning_rate=lr, parameter_list=net.parameters())
    opt.set_dict(o)
    x = fluid.dygraph.to_variable(z["xs"][0])
    y = fluid.dygraph.to_variable(z["ys"][0])
    loss = fluid.layers.reduce_mean(fluid.layers.square(net(x) - y))
    loss.backward()
    opt.minimize(loss)
    print(
        "dg loaded+stepped; step_num",
        lr.step_num,
        "max diff params",
        max(float(np.abs(v - z["dg_final__" + k]).max()) for k, v in p.items()),
    )
for how in ("persist", "comb", "fsave"):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data("x", [4], dtype="float32")
        y = fluid.layers.data("y", [1], dtype="float32")
        h = fluid.layers.fc(x, 8, act="relu")
        pred = fluid.layers.fc(h, 1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
        lr = fluid.layers.exponential_decay(0.05, decay_steps=2, decay_rate=0.5, staircase=True)
        fluid.optimizer.AdamOptimizer(learning_rate=lr).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        if how == "persist":
            fluid.io.load_persistables(exe, out + "/persist", main)
        elif how == "comb":
            fluid.io.load_persistables(exe, out + "/comb", main, filename="all")
        else:
            fluid.load(main, out + "/fsave/model", exe)
        sc = fluid.global_scope()
        print(
            how,
            max(
                float(np.abs(np.array(sc.find_var(k[10:]).get_tensor()) - z[k]).max())
                for k in z.files
                if k.startswith("st_final__")
            ),
        )
