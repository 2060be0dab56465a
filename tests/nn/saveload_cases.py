"""Files our paddle.save writes, deterministically; used by test_saveload.py and by
tools/oracle/check_nn26_ours.sh (which loads them with real Paddle 2.6.2 and records the report)."""

from __future__ import annotations

import os

import numpy as np


def write_our_files(d: str) -> dict:
    import paddle

    paddle.disable_static()
    os.makedirs(d, exist_ok=True)
    rng = np.random.RandomState(11)
    # BatchNorm first: a bias just before a training-mode BatchNorm has an analytically zero gradient, and Adam
    # would turn its float noise (which depends on the kernel's rounding) into full-size steps
    net = paddle.nn.Sequential(paddle.nn.BatchNorm1D(3), paddle.nn.Linear(3, 4))
    net.set_state_dict({k: rng.standard_normal(v.shape).astype("float32") + (2.0 if k == "0._variance" else 0.0)
                        for k, v in net.state_dict().items()})
    opt = paddle.optimizer.Adam(learning_rate=paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5),
                                parameters=net.parameters())
    # a weighted sum, not a mean, so that every parameter gets a gradient well above float noise
    w = np.cos(np.arange(20, dtype="float32")).reshape(5, 4)
    (net(paddle.to_tensor(rng.standard_normal((5, 3)).astype("float32"))) * paddle.to_tensor(w)).sum().backward()
    opt.step()
    paddle.save(net.state_dict(), os.path.join(d, "ours_net.pdparams"))
    paddle.save(opt.state_dict(), os.path.join(d, "ours_adam.pdopt"))
    t = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    t.name = "ours_tensor"
    paddle.save(t, os.path.join(d, "ours_tensor.pdtensor"))
    paddle.save({"a": [1, 2.5, "s"], "b": t, "c": {"d": np.ones(2, "int64")}}, os.path.join(d, "ours_nested.pdobj"))
    return {"net": net, "opt": opt}
