"""paddle.amp: auto_cast computes in low precision through torch.autocast (bfloat16 on CPU), custom lists
work op by op, decorate(O2) keeps float32 master weights, and GradScaler follows Paddle's dynamic loss scaling
(AmpScaler, python/paddle/amp/grad_scaler.py) step by step. Real Paddle ignores AMP on CPU, so the scaling
sequence is checked against Paddle's algorithm written out here."""

from __future__ import annotations

import numpy as np
import pytest


def _low():
    import torch

    return "float16" if torch.cuda.is_available() else "bfloat16"


def test_auto_cast_o1_dtypes():
    import paddle
    import paddle.nn.functional as F

    x, lin = paddle.rand([4, 3]), paddle.nn.Linear(3, 2)
    with paddle.amp.auto_cast():
        y = lin(x)
        assert y.dtype == getattr(paddle, _low())  # white: linear / matmul / conv
        assert paddle.matmul(x, x.T).dtype == y.dtype
        assert F.softmax(y).dtype == paddle.float32  # black: softmax, exp, log, losses
        assert paddle.exp(y).dtype == paddle.float32
        assert F.relu(y).dtype == y.dtype  # gray: follows its input
    assert lin(x).dtype == paddle.float32  # off again after the block
    with paddle.amp.auto_cast(enable=False):
        assert lin(x).dtype == paddle.float32
    with paddle.amp.auto_cast(level="O0"):
        assert lin(x).dtype == paddle.float32


def test_auto_cast_custom_lists():
    import paddle

    x, lin = paddle.rand([4, 3]), paddle.nn.Linear(3, 2)
    with paddle.amp.auto_cast(custom_black_list={"linear", "matmul_v2"}, custom_white_list={"exp"}):
        assert lin(x).dtype == paddle.float32
        assert paddle.matmul(x, x.T).dtype == paddle.float32
        assert paddle.exp(x).dtype == getattr(paddle, _low())
        assert paddle.tanh(x).dtype == paddle.float32  # a shortcut op outside the lists still runs
    with paddle.amp.auto_cast():
        assert paddle.exp(x).dtype == paddle.float32  # lists are per block
    with pytest.raises(ValueError, match="overlap"):
        with paddle.amp.auto_cast(custom_white_list={"exp"}, custom_black_list={"exp"}):
            pass
    with pytest.raises(ValueError, match="level should be O0, OD, O1 or O2"):
        with paddle.amp.auto_cast(level="O3"):
            pass


def test_supported_queries():
    import paddle
    import torch

    if not torch.cuda.is_available():
        assert paddle.amp.is_float16_supported() is False
        assert paddle.amp.is_bfloat16_supported() is True
    assert paddle.amp.is_bfloat16_supported("cpu") is True


def test_auto_cast_training_tracks_float32():
    import paddle

    def run(amp):
        paddle.seed(0)
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 1))
        opt = paddle.optimizer.Adam(0.05, parameters=net.parameters())
        scaler = paddle.amp.GradScaler(init_loss_scaling=128.0)
        x = paddle.to_tensor(np.random.RandomState(0).rand(16, 4).astype("float32"))
        y = paddle.sum(x, axis=1, keepdim=True)
        losses = []
        for _ in range(30):
            with paddle.amp.auto_cast(enable=amp):
                loss = paddle.nn.functional.mse_loss(net(x), y)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            opt.clear_grad()
            losses.append(float(loss))
        return np.array(losses)

    fp32, mixed = run(False), run(True)
    assert mixed[-1] < 0.2 * mixed[0]
    np.testing.assert_allclose(mixed, fp32, rtol=0.1, atol=0.02)


def _paddle_scaling(found_infs, init, incr_ratio, decr_ratio, incr_n, decr_n):
    """AmpScaler._update, as in Paddle's grad_scaler.py."""
    scale, incr, decr, out = init, 0, 0, []
    for bad in found_infs:
        if bad:
            incr, decr = 0, decr + 1
            if decr == decr_n:
                scale, decr = scale * decr_ratio, 0
        else:
            decr, incr = 0, incr + 1
            if incr == incr_n:
                scale, incr = scale * incr_ratio, 0
        out.append((scale, incr, decr))
    return out


@pytest.mark.parametrize("api", ["step_update", "minimize"])
def test_grad_scaler_dynamic_loss_scaling(api, capsys):
    import paddle

    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
    opt = paddle.optimizer.SGD(0.5, parameters=[w])
    kw = dict(init_loss_scaling=8.0, incr_ratio=2.0, decr_ratio=0.25, incr_every_n_steps=2, decr_every_n_nan_or_inf=2)
    scaler = paddle.amp.GradScaler(**kw)
    pattern = [False, False, True, False, True, True, False, False, False]
    want = _paddle_scaling(pattern, kw["init_loss_scaling"], kw["decr_ratio"] and 2.0, kw["decr_ratio"], 2, 2)
    for bad, (scale, incr, decr) in zip(pattern, want):
        before = w.numpy().copy()
        loss = paddle.sum(w * paddle.to_tensor([3.0, float("inf")] if bad else [3.0, 1.0]))
        scaled = scaler.scale(loss)
        np.testing.assert_allclose(float(scaled), float(loss) * scaler.state_dict()["scale"][0])
        scaled.backward()
        if api == "minimize":
            scaler.minimize(opt, scaled)
        else:
            scaler.step(opt)
            scaler.update()
        if bad:
            np.testing.assert_array_equal(w.numpy(), before)  # the update is skipped
        else:
            np.testing.assert_allclose(w.numpy(), before - 0.5 * np.array([3.0, 1.0]), rtol=1e-6)  # unscaled grads
        opt.clear_grad()
        st = scaler.state_dict()
        assert (st["scale"][0], st["incr_count"], st["decr_count"]) == (scale, incr, decr)
    assert "Found inf or nan, current scale is" in capsys.readouterr().out


def test_grad_scaler_unscale_state_and_errors():
    import paddle

    w = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0)
    scaler.scale(paddle.sum(w * 2.0)).backward()
    scaler.unscale_(opt)
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 2.0])
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    scaler.update()
    st = scaler.state_dict()
    other = paddle.amp.GradScaler()
    other.load_state_dict(st)
    assert other.state_dict()["scale"][0] == 4.0 and other.get_init_loss_scaling() == 4.0
    assert other.get_incr_every_n_steps() == 2000 and other.is_use_dynamic_loss_scaling()
    other.set_incr_ratio(3.0)
    assert other.get_incr_ratio() == 3.0
    with pytest.raises(ValueError, match="incr_ratio must be > 1.0"):
        paddle.amp.GradScaler(incr_ratio=0.5)
    off = paddle.amp.GradScaler(enable=False)
    loss = paddle.sum(w)
    assert off.scale(loss) is loss and off.state_dict() == {}
    with pytest.raises(RuntimeError, match="state dict is empty"):
        other.load_state_dict({})


def test_decorate_o2_master_weights_and_kept_layers():
    import paddle

    low = getattr(paddle, _low())
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4), paddle.nn.LayerNorm(4),
                               paddle.nn.Linear(4, 2))
    opt = paddle.optimizer.Momentum(0.1, parameters=net.parameters())
    assert paddle.amp.decorate(net, opt, level="O1") == (net, opt)
    net2, opt2 = paddle.amp.decorate(net, opt, level="O2", dtype="float16", excluded_layers=net[3],
                                     save_dtype="float32")
    assert net2 is net and opt2 is opt
    assert net[0].weight.dtype == low and net[1].weight.dtype == paddle.float32  # BatchNorm stays float32
    assert net[2].weight.dtype == paddle.float32  # LayerNorm under float16 too
    assert net[3].weight.dtype == paddle.float32  # excluded
    assert all(v.dtype == paddle.float32 for v in net.state_dict().values())  # save_dtype
    w0 = net[0].weight.numpy().astype("float64")
    x = paddle.rand([5, 3])
    with paddle.amp.auto_cast(level="O2"):
        loss = net(x).astype("float32").mean()
    loss.backward()
    g = net[0].weight.grad.numpy().astype("float64")
    opt.step()
    np.testing.assert_allclose(net[0].weight.numpy().astype("float64"), w0 - 0.1 * g, rtol=2e-2, atol=2e-2)
    assert net[0].weight.dtype == low
    with pytest.raises(ValueError, match="level should be O1 or O2"):
        paddle.amp.decorate(net, level="O3")
    with pytest.raises(TypeError, match="models must be"):
        paddle.amp.decorate("net", level="O2")
