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

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(REPO, "tests", "static_io"))
from ckpt18_cases import dygraph_net, dygraph_step, static_program  # noqa: E402

G = os.path.join(REPO, "tests", "goldens") + "/"
z = np.load(G + "ckpt18_resume.npz")
out = sys.argv[1]

with fluid.dygraph.guard(fluid.CPUPlace()):
    p, o = fluid.load_dygraph(out + "/dg/model")
    net = dygraph_net(fluid)
    net.set_dict(p)
    lr = fluid.dygraph.ExponentialDecay(0.05, decay_steps=2, decay_rate=0.5, staircase=True)
    opt = fluid.optimizer.AdamOptimizer(learning_rate=lr, parameter_list=net.parameters())
    opt.set_dict(o)
    dygraph_step(fluid, net, opt, z["xs"][0], z["ys"][0])
    print(
        "dg loaded+stepped; step_num",
        lr.step_num,
        "max diff params",
        max(float(np.abs(v - z["dg_final__" + k]).max()) for k, v in p.items()),
    )
for how in ("persist", "comb", "fsave"):
    main, startup, _, _ = static_program(fluid)
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
