"""paddle.nn.functional behaviour the op table cannot express: random ops' statistics and modes, running
statistics, gradients that must be zero, static-mode inference switching, errors that name the API."""

from __future__ import annotations

import numpy as np
import pytest


def _t(a, **kw):
    import paddle

    return paddle.to_tensor(np.asarray(a), **kw)


def test_dropout_modes_and_statistics():
    import paddle
    import paddle.nn.functional as F

    paddle.seed(1)
    x = np.random.RandomState(0).uniform(1, 2, (200, 50)).astype("float32")
    up = F.dropout(_t(x), p=0.3).numpy()
    kept = up != 0
    assert abs(1 - kept.mean() - 0.3) < 0.03
    np.testing.assert_allclose(up[kept], x[kept] / 0.7, rtol=1e-6)
    down = F.dropout(_t(x), p=0.3, mode="downscale_in_infer").numpy()
    np.testing.assert_allclose(down[down != 0], x[down != 0])
    np.testing.assert_allclose(F.dropout(_t(x), p=0.3, training=False, mode="downscale_in_infer").numpy(), x * 0.7,
                               rtol=1e-6)
    np.testing.assert_array_equal(F.dropout(_t(x), p=0.3, training=False).numpy(), x)
    rows = F.dropout(_t(x), p=0.5, axis=0).numpy()  # one decision per row
    assert all(len(set((r == 0).tolist())) == 1 for r in rows)
    y = _t(x)
    assert F.dropout(y, p=0.0) is y


def test_dropout2d_drops_whole_channels_and_alpha_dropout_keeps_moments():
    import paddle
    import paddle.nn.functional as F

    paddle.seed(2)
    x = np.ones([4, 16, 3, 3], "float32")
    out = F.dropout2d(_t(x), p=0.5).numpy()
    per_channel = out.reshape(4, 16, -1)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2.0).all(-1))
    out = F.dropout3d(_t(np.ones([2, 8, 2, 2, 2], "float32")), p=0.5).numpy().reshape(2, 8, -1)
    assert np.all((out == 0).all(-1) | (out == 2.0).all(-1))
    z = np.random.RandomState(0).standard_normal([400, 100]).astype("float32")
    a = F.alpha_dropout(_t(z), p=0.2).numpy()
    assert abs(a.mean()) < 0.05 and abs(a.std() - 1) < 0.05
    np.testing.assert_array_equal(F.alpha_dropout(_t(z), p=0.2, training=False).numpy(), z)


def test_static_clone_for_test_switches_dropout_to_inference():
    import paddle
    import paddle.nn.functional as F

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 5], "float32")
        y = F.dropout(x, p=0.5, mode="downscale_in_infer")
        z = F.alpha_dropout(x, p=0.5)
    test_prog = main.clone(for_test=True)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xv = np.ones([4, 5], "float32")
    yv, zv = exe.run(test_prog, feed={"x": xv}, fetch_list=[y, z])
    np.testing.assert_allclose(yv, xv * 0.5)
    np.testing.assert_array_equal(zv, xv)


def test_batch_norm_training_updates_running_stats_with_paddle_momentum():
    import paddle.nn.functional as F

    x = np.random.RandomState(0).uniform(-1, 1, (6, 3)).astype("float32")
    mean, var = _t(np.zeros(3, "float32")), _t(np.ones(3, "float32"))
    F.batch_norm(_t(x), mean, var, None, None, training=True, momentum=0.9)
    np.testing.assert_allclose(mean.numpy(), 0.1 * x.mean(0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(var.numpy(), 0.9 + 0.1 * x.var(0), rtol=1e-5)


def test_embedding_padding_idx_row_gets_no_gradient():
    import paddle.nn.functional as F

    w = _t(np.random.RandomState(0).uniform(-1, 1, (4, 3)).astype("float32"), stop_gradient=False)
    out = F.embedding(_t(np.array([[0, 2], [2, 1]], "int64")), w, padding_idx=2)
    assert np.all(out.numpy()[[0, 1], [1, 0]] == 0)
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.array([[1] * 3, [1] * 3, [0] * 3, [0] * 3], "float32"))


def test_max_pool_mask_indexes_the_unpadded_plane():
    import paddle.nn.functional as F

    x = np.arange(20, dtype="float32").reshape(1, 1, 4, 5)
    out, mask = F.max_pool2d(_t(x), 2, stride=2, padding=1, return_mask=True)
    np.testing.assert_array_equal(out.numpy().reshape(-1), x.reshape(-1)[mask.numpy().reshape(-1)])
    assert str(mask.dtype).endswith("int32")


@pytest.mark.parametrize("call,match", [
    (lambda F, x: F.conv2d(x, x, data_format="NCL"), "paddle.nn.functional.conv2d.*data_format"),
    (lambda F, x: F.mse_loss(x, x, reduction="avg"), "paddle.nn.functional.mse_loss.*reduction"),
    (lambda F, x: F.interpolate(x, mode="cubic", size=[2, 2]), "paddle.nn.functional.interpolate"),
])
def test_errors_name_the_api_in_static_mode(call, match):
    import paddle
    import paddle.nn.functional as F

    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [1, 1, 2, 2], "float32")
        with pytest.raises(ValueError, match=match):
            call(F, x)


def test_static_conv_records_paddle_ops():
    import paddle
    import paddle.nn.functional as F

    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [-1, 2, 4, 4], "float32")
        w = paddle.static.data("w", [3, 2, 3, 3], "float32")
        b = paddle.static.data("b", [3], "float32")
        y = F.conv2d(x, w, b, padding="SAME")
    assert [op.type for op in main.global_block().ops][-2:] == ["conv2d", "elementwise_add"]
    assert list(y.shape) == [-1, 3, 4, 4]


def test_static_unknown_batch_dim_is_inferred_and_runs():
    import paddle
    import paddle.nn.functional as F

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 2, 4, 4], "float32")
        ids = paddle.static.data("ids", [-1], "int64")
        w = paddle.static.data("w", [3, 2, 3, 3], "float32")
        table = paddle.static.data("table", [5, 3], "float32")
        y = F.relu(F.conv2d(x, w, padding=1))
        y = F.max_pool2d(y, 2)
        y = F.interpolate(y, scale_factor=2, mode="bilinear")
        y = F.layer_norm(y, [4, 4])
        y = F.dropout(y, 0.5, training=False)
        logits = F.adaptive_avg_pool2d(y, 1).reshape([-1, 3])
        loss = F.cross_entropy(logits, ids)
        emb = F.embedding(ids, table, padding_idx=0)
    assert list(y.shape) == [-1, 3, 4, 4] and list(emb.shape) == [-1, 3] and list(loss.shape) == [1]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    rng = np.random.RandomState(0)
    feed = {"x": rng.rand(3, 2, 4, 4).astype("float32"), "ids": np.array([0, 2, 1]),
            "w": rng.rand(3, 2, 3, 3).astype("float32"), "table": rng.rand(5, 3).astype("float32")}
    yv, lv, ev = exe.run(main, feed=feed, fetch_list=[y, loss, emb])
    assert yv.shape == (3, 3, 4, 4) and lv.shape == (1,) and ev.shape == (3, 3)
    assert np.all(ev[0] == 0)


def test_ctc_norm_by_times_scales_only_the_gradient():
    import paddle.nn.functional as F

    rng = np.random.RandomState(0)
    logits = rng.uniform(-1, 1, (5, 2, 4)).astype("float32")
    args = (_t(np.array([[1, 2], [3, 1]], "int32")), _t(np.array([5, 3], "int64")), _t(np.array([2, 2], "int64")))
    grads, losses = [], []
    for nbt in (False, True):
        x = _t(logits, stop_gradient=False)
        loss = F.ctc_loss(x, *args, reduction="sum", norm_by_times=nbt)
        loss.backward()
        grads.append(x.grad.numpy())
        losses.append(loss.numpy())
    np.testing.assert_allclose(losses[0], losses[1])
    np.testing.assert_allclose(grads[1][:, 0], grads[0][:, 0] / 5, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(grads[1][:, 1], grads[0][:, 1] / 3, rtol=1e-5, atol=1e-7)
