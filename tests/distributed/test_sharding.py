"""paddle.distributed.sharding in one process: group_sharded_parallel trains as the plain model does (its
numbers are data parallelism's), and save_group_sharded_model writes Paddle's two files."""

from __future__ import annotations

import os

import numpy as np
import pytest


@pytest.mark.parametrize("level", ["os", "os_g", "p_g_os"])
def test_sharded_training_is_the_plain_training(tmp_path, level):
    import paddle
    from paddle.distributed.sharding import group_sharded_parallel, save_group_sharded_model

    x = paddle.to_tensor(np.random.RandomState(0).rand(4, 3).astype("float32"))
    weights = []
    for shard in (False, True):
        paddle.seed(1)
        net = paddle.nn.Linear(3, 2)
        opt = paddle.optimizer.Adam(0.1, parameters=net.parameters())
        model, optim = net, opt
        if shard:
            model, optim, scaler = group_sharded_parallel(net, opt, level)
            assert scaler is None and model._layer is net and optim._optim is opt
        for _ in range(3):
            model(x).sum().backward()
            optim.step()
            optim.clear_grad()
        weights.append(net.weight.numpy())
    np.testing.assert_array_equal(*weights)
    save_group_sharded_model(model, str(tmp_path / "out"), optim)
    assert sorted(os.listdir(tmp_path / "out")) == ["model.pdmodel", "model.pdopt"]
    state = paddle.load(str(tmp_path / "out" / "model.pdmodel"))
    np.testing.assert_array_equal(state["weight"].numpy(), weights[1])


def test_level_and_wrapping_are_checked(tmp_path):
    import paddle
    from paddle.distributed.sharding import group_sharded_parallel, save_group_sharded_model

    net = paddle.nn.Linear(2, 2)
    with pytest.raises(AssertionError, match="The level must be os, os_g or p_g_os"):
        group_sharded_parallel(net, paddle.optimizer.SGD(0.1, parameters=net.parameters()), "zero3")
    with pytest.raises(ValueError, match="wrapped with group_sharded_parallel"):
        save_group_sharded_model(net, str(tmp_path / "o"))
