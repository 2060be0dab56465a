"""Fleet, the way 1.8 and 2.x multi-trainer scripts are written (paddle.fluid.incubate.fleet.collective and
paddle.distributed.fleet, static and dygraph), run by two trainers under torchrun: both end with the weights
of one process trained on the whole batches (the sum of the trainers' mean-loss gradients / 2 is the whole
batch's mean-loss gradient, which is what Paddle's all-reduce computes)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from _dist_util import clean_env, tail, torchrun

RS = np.random.RandomState(7)
XS, YS = RS.rand(4, 8, 4).astype("float32"), RS.rand(4, 8, 1).astype("float32")


def _whole_batch_weight():
    import paddle

    paddle.disable_static()
    c3, c2 = (paddle.nn.initializer.Constant(v) for v in (0.3, 0.2))
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3, weight_attr=paddle.ParamAttr(initializer=c3)), paddle.nn.Tanh(),
                               paddle.nn.Linear(3, 1, weight_attr=paddle.ParamAttr(initializer=c2)))
    opt = paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=net.parameters())
    for step in range(4):
        loss = paddle.mean(paddle.nn.functional.square_error_cost(net(paddle.to_tensor(XS[step])),
                                                                  paddle.to_tensor(YS[step])))
        loss.backward()
        opt.step()
        opt.clear_grad()
    return net[0].weight.numpy()


@pytest.mark.parametrize("flavour,kind", [("fluid18", "CompiledProgram"), ("static2x", "Fleet"),
                                          ("dygraph2x", "HybridParallelOptimizer")])
def test_two_fleet_trainers_match_one_process_on_the_whole_batch(tmp_path, flavour, kind):
    proc = torchrun("_dist_fleet.py", 2, clean_env(), timeout=180, args=(flavour, str(tmp_path)))
    assert proc.returncode == 0, tail(proc)
    got = [json.load(open(os.path.join(tmp_path, f"{flavour}{r}.json"))) for r in (0, 1)]
    want = _whole_batch_weight()
    for r, g in enumerate(got):
        first = r == 0 and flavour != "fluid18"  # 1.8.5's collective role maker sets no role: never "first"
        assert (g["n"], g["first"], g["kind"], len(g["endpoints"])) == (2, first, kind, 2)
        np.testing.assert_allclose(np.array(g["w"]), want, rtol=1e-5, atol=1e-6, err_msg=f"trainer {r}")
