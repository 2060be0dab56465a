"""paddle.jit.save of a Layer whose forward is @paddle.jit.to_static with no input_spec anywhere: Paddle 2.6.2
saves the program of the forward's last call, the input shapes as they were (no None batch dimension: a shape
read in the forward, `x.shape[0]`, is baked in), with the call's non-tensor arguments as constants; without any
call there is nothing to save (ValueError). Facts recorded from real Paddle 2.6.2 (tools/oracle scripts of this
change: a Linear(4, 3) net called on [5, 4] then [3, 4] saves feed shape (3, 4), fetch shape (3, 3))."""

from __future__ import annotations

import numpy as np
import pytest


def _net_class():
    import paddle
    import paddle.nn as nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def forward(self, x, scale=2.0):
            return paddle.reshape(self.fc(x) * scale, [x.shape[0], -1])

    return Net


CASES = [  # (how to_static is applied, calls before saving: (rows, scale), saved feed shape, saved fetch shape)
    ("decorator", [(5, 2.0), (3, 2.0)], [3, 4], [3, 3]),
    ("layer", [(5, 3.0), (3, 3.0)], [3, 4], [3, 3]),
    ("layer", [(2, 0.5)], [2, 4], [2, 3]),
]


@pytest.mark.parametrize("how,calls,feed_shape,fetch_shape", CASES)
def test_jit_save_without_input_spec_saves_the_last_call(tmp_path, how, calls, feed_shape, fetch_shape):
    import paddle

    Net = _net_class()
    if how == "decorator":
        Net.forward = paddle.jit.to_static(Net.forward)
        net = Net()
    else:
        net = paddle.jit.to_static(Net())
    net.eval()
    for rows, scale in calls:
        x = paddle.to_tensor(np.arange(rows * 4, dtype="float32").reshape(rows, 4))
        want = net(x, scale).numpy()
    path = str(tmp_path / "m")
    paddle.jit.save(net, path)
    loaded = paddle.jit.load(path)
    np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-6)  # the last call's scale is a constant
    paddle.enable_static()
    try:
        prog, feeds, fetches = paddle.static.load_inference_model(path, paddle.static.Executor(paddle.CPUPlace()))
        assert [list(prog.global_block().var(f).shape) for f in feeds] == [feed_shape]
        assert [list(f.shape) for f in fetches] == [fetch_shape]
    finally:
        paddle.disable_static()


def test_jit_save_without_input_spec_or_call_raises(tmp_path):
    import paddle

    Net = _net_class()
    with pytest.raises(ValueError, match="input_spec"):
        paddle.jit.save(paddle.jit.to_static(Net()), str(tmp_path / "a"))
    with pytest.raises(ValueError, match="input_spec"):
        paddle.jit.save(Net(), str(tmp_path / "b"))
