"""paddle.incubate.nn's fused layers and functions (GPU-only kernels in Paddle 2.6.2) as the computations Paddle
documents them to be: the parameter layouts real Paddle 2.6.2 creates (read from it on CPU, where its layers
construct), and each forward against numpy."""

from __future__ import annotations

import numpy as np
import pytest

RS = np.random.RandomState(0)


def _ln(h, w, b, eps=1e-5):
    mu, var = h.mean(-1, keepdims=True), h.var(-1, keepdims=True)
    return (h - mu) / np.sqrt(var + eps) * w + b


# (layer, args, kwargs) -> [(name, shape)] as Paddle 2.6.2's named_parameters() lists them
LAYOUTS = [
    ("FusedFeedForward", (4, 8), {}, [("_linear1_weight", [4, 8]), ("_linear1_bias", [8]), ("_linear2_weight", [8, 4]),
                                      ("_linear2_bias", [4]), ("_ln2_scale", [4]), ("_ln2_bias", [4])]),
    ("FusedFeedForward", (4, 8), {"normalize_before": True},
     [("_linear1_weight", [4, 8]), ("_linear1_bias", [8]), ("_linear2_weight", [8, 4]), ("_linear2_bias", [4]),
      ("_ln1_scale", [4]), ("_ln1_bias", [4])]),
    ("FusedBiasDropoutResidualLayerNorm", (4,), {}, [("linear_bias", [4]), ("ln_scale", [4]), ("ln_bias", [4])]),
    ("FusedLinear", (3, 5), {"transpose_weight": True}, [("weight", [5, 3]), ("bias", [5])]),
]


@pytest.mark.parametrize("cls,args,kwargs,want", LAYOUTS)
def test_parameter_layout_is_paddles(cls, args, kwargs, want):
    import paddle

    layer = getattr(paddle.incubate.nn, cls)(*args, **kwargs)
    assert [(n, list(p.shape)) for n, p in layer.named_parameters()] == want


@pytest.mark.parametrize("normalize_before", [False, True])
def test_fused_feedforward_is_the_documented_chain(normalize_before):
    import paddle

    ff = paddle.incubate.nn.FusedFeedForward(4, 8, dropout_rate=0.0, activation="gelu",
                                             normalize_before=normalize_before)
    ff.eval()
    x = RS.rand(2, 3, 4).astype("float32")
    p = {n: v.numpy() for n, v in ff.named_parameters()}
    h = _ln(x, p["_ln1_scale"], p["_ln1_bias"]) if normalize_before else x
    h1 = h @ p["_linear1_weight"] + p["_linear1_bias"]
    h1 = 0.5 * h1 * (1 + np.vectorize(__import__("math").erf)(h1 / np.sqrt(2)))
    out = x + (h1 @ p["_linear2_weight"] + p["_linear2_bias"])
    out = out if normalize_before else _ln(out, p["_ln2_scale"], p["_ln2_bias"])
    np.testing.assert_allclose(ff(paddle.to_tensor(x)).numpy(), out, rtol=1e-5, atol=1e-5)


def test_norms_of_x_plus_bias_plus_residual():
    import paddle

    F = paddle.incubate.nn.functional
    x, b, r = RS.rand(2, 6).astype("float32"), RS.rand(6).astype("float32"), RS.rand(2, 6).astype("float32")
    w, nb = RS.rand(6).astype("float32"), RS.rand(6).astype("float32")
    h = x + b + r
    out, res = F.fused_rms_norm(*(paddle.to_tensor(t) for t in (x, w, nb)), 1e-6, 1, bias=paddle.to_tensor(b),
                                residual=paddle.to_tensor(r))
    np.testing.assert_allclose(res.numpy(), h, rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), h / np.sqrt((h * h).mean(-1, keepdims=True) + 1e-6) * w + nb, rtol=1e-5)
    ln = F.fused_layer_norm(*(paddle.to_tensor(t) for t in (x, w, nb)), 1e-5, begin_norm_axis=1)
    np.testing.assert_allclose(ln.numpy(), _ln(x, w, nb), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("neox", [True, False])
def test_rotary_position_embedding(neox):
    import paddle

    q = RS.rand(2, 3, 2, 4).astype("float32")
    ang = RS.rand(3, 4).astype("float32")
    sin, cos = np.sin(ang), np.cos(ang)
    pos = np.array([[2, 1, 0], [0, 1, 2]])
    out_q, out_k, out_v = paddle.incubate.nn.functional.fused_rotary_position_embedding(
        paddle.to_tensor(q), sin=paddle.to_tensor(sin), cos=paddle.to_tensor(cos),
        position_ids=paddle.to_tensor(pos), use_neox_rotary_style=neox)
    assert out_k is None and out_v is None
    s, c = sin[pos][:, :, None], cos[pos][:, :, None]
    if neox:
        rot = np.stack([-q[..., 1::2], q[..., 0::2]], -1).reshape(q.shape)
    else:
        rot = np.concatenate([-q[..., 2:], q[..., :2]], -1)
    np.testing.assert_allclose(out_q.numpy(), q * c + rot * s, rtol=1e-6)


def test_linear_family_and_kernels_not_provided():
    import paddle
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    F = paddle.incubate.nn.functional
    x, w, b = RS.rand(2, 3).astype("float32"), RS.rand(5, 3).astype("float32"), RS.rand(5).astype("float32")
    got = F.fused_linear_activation(paddle.to_tensor(x), paddle.to_tensor(w), paddle.to_tensor(b), trans_y=True,
                                    activation="relu")
    np.testing.assert_allclose(got.numpy(), np.maximum(x @ w.T + b, 0), rtol=1e-6)
    with pytest.raises(UnsupportedAPIError, match="fused_multi_transformer"):
        F.fused_multi_transformer(paddle.to_tensor(x))
    with pytest.raises(UnsupportedAPIError, match="FusedMultiHeadAttention"):
        paddle.incubate.nn.FusedMultiHeadAttention(8, 2)
