"""fluid 1.8 parameter-server training (DistributeTranspiler mode "pserver", sync) started by
`python -m paddle.distributed.launch_ps`: the trainers end with the parameters of one process training on the
whole batch, which is what Paddle's servers compute (sum the trainers' gradients, scale by 1 / trainers, update)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from _dist_util import HERE, clean_env, free_port, tail

RS = np.random.RandomState(7)
XS, YS = RS.rand(4, 8, 4).astype("float32"), RS.rand(4, 8, 1).astype("float32")


def _one_process(opt_name):
    """The script's network and optimizer, trained on the whole batch in this process."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[4], dtype="float32")
        y = fluid.layers.data(name="y", shape=[1], dtype="float32")
        hidden = fluid.layers.fc(input=x, size=3, act="tanh",
                                 param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.3)))
        pred = fluid.layers.fc(input=hidden, size=1,
                               param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        {"sgd": fluid.optimizer.SGD(learning_rate=0.1),
         "adam": fluid.optimizer.Adam(learning_rate=0.05)}[opt_name].minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    exe.run(startup, scope=scope)
    for step in range(4):
        exe.run(main, feed={"x": XS[step], "y": YS[step]}, fetch_list=[loss], scope=scope)
    return {p.name: np.array(scope.find_var(p.name).get_tensor()) for p in main.global_block().all_parameters()}


@pytest.mark.parametrize("opt_name,servers", [("sgd", 1), ("adam", 2)])
def test_pserver_training_matches_one_process_on_the_whole_batch(tmp_path, opt_name, servers):
    port = free_port()
    endpoints = ",".join(f"127.0.0.1:{port + i}" for i in range(servers)) if servers > 1 else ""
    cmd = [sys.executable, "-m", "paddle.distributed.launch_ps", "--worker_num", "2", "--server_num", str(servers),
           "--start_port", str(port), "--log_dir", str(tmp_path / "logs")]
    if endpoints:
        cmd += ["--endpoints", endpoints]
    proc = subprocess.run(cmd + ["_dist_pserver.py", str(tmp_path), opt_name], capture_output=True, text=True,
                          timeout=120, env=clean_env(), cwd=HERE)
    logs = "".join(f"\n--- {n}\n" + open(tmp_path / "logs" / n).read()[-2000:]
                   for n in sorted(os.listdir(tmp_path / "logs")))
    assert proc.returncode == 0, tail(proc) + logs
    got = [json.load(open(tmp_path / f"trainer{i}.json")) for i in range(2)]
    want = _one_process(opt_name)
    for name, value in want.items():
        for g in got:
            np.testing.assert_allclose(np.array(g["params"][name]), value, rtol=1e-5, atol=1e-6, err_msg=name)
    assert "waiting for them to finish" in open(tmp_path / "logs" / "serverlog.0").read()
