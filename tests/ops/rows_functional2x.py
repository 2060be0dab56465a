"""Rows for the paddle.nn.functional names of Paddle 2.x added in issue 12 (activations, embedding / margin /
likelihood losses, rnnt_loss, fold, unpooling, pixel / channel shuffles, attention). Rows without `ref` compare
with tests/goldens/ops26_functional2x.npz (real Paddle 2.6.2, recorded by
`tools/oracle/rec_ops26_functional.py rows_functional2x ops26_functional2x`). margin_cross_entropy and
sparse_attention have no CPU kernel in Paddle: numpy references check them."""

from __future__ import annotations

import numpy as np

from optable import OpCase, rnd
from rows_functional import R, const, err, ones, s

T = rnd([2, 3])
X4 = rnd([2, 3, 4])
POSV = rnd([3, 4], low=0.1, high=2.0)
PM1 = const([1, -1, 1], "float32")
GOLDEN = "ops26_functional2x"  # recorded by tools/oracle/rec_ops26_functional.py rows_functional2x
ROWS: list[OpCase] = []


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# --- activations ---------------------------------------------------------------------------------
ROWS += [
    R("celu", s(T), s(rnd([2, 3], low=-3, high=3), alpha=0.5), grad=1,
      ref=lambda x, alpha=1.0: np.maximum(0, x) + np.minimum(0, alpha * np.expm1(x / alpha)),
      errors=[err([ones(2)], ZeroDivisionError, "celu", alpha=0)]),
    R("silu", s(T), ref=lambda x: x * _sigmoid(x), grad=True),
    R("mish", s(rnd([2, 3], low=-4, high=4)), s(const([25.0, -30.0, 0.5], "float32")), grad=1),
    R("glu", s(rnd([2, 4])), s(rnd([4, 3]), axis=0), grad=1,
      ref=lambda x, axis=-1: np.split(x, 2, axis)[0] * _sigmoid(np.split(x, 2, axis)[1]),
      errors=[err([ones(2, 4)], ValueError, "glu.*axis", axis=2), err([ones(2, 3)], ValueError, "glu.*even")]),
    R("rrelu", s(T, training=False), s(T, 0.2, 0.4, training=False), grad=1,
      ref=lambda x, lower=1 / 8, upper=1 / 3, training=True: np.where(x >= 0, x, x * (lower + upper) / 2),
      errors=[err([ones(2), 0.5, 0.2], ValueError, "rrelu.*upper"), err([ones(2), 1, 2], TypeError, "rrelu"),
              err([ones(2), 0.1, 1.5], ValueError, "rrelu.*no greater than one")]),
    R("rrelu", s(rnd([40, 50]), 0.1, 0.3, _id="train"), random=True),
    R("gumbel_softmax", s(rnd([3, 5])), s(rnd([3, 5]), temperature=0.5, hard=True, axis=0), random=True),
    R("leaky_relu_", s(T, negative_slope=0.2), ref=lambda x, negative_slope=0.01: np.where(x > 0, x, x * negative_slope)),
    R("hardtanh_", s(rnd([2, 3], low=-2, high=2), min=-0.5, max=0.5), ref=lambda x, min=-1, max=1: np.clip(x, min, max)),
    R("thresholded_relu_", s(T, threshold=0.3), ref=lambda x, threshold=1.0: np.where(x > threshold, x, 0)),
]

# --- distances and losses ------------------------------------------------------------------------
ROWS += [
    R("pairwise_distance", s(rnd([3, 4]), rnd([3, 4])), s(rnd([3, 4]), rnd([3, 4]), p=1.0, keepdim=True),
      s(rnd([2, 4]), rnd([2, 4]), p=3.0, epsilon=0.0), s(rnd([2, 4]), rnd([2, 4]), p=float("inf")), grad=3),
    R("cosine_embedding_loss", s(rnd([3, 4]), rnd([3, 4]), PM1), s(rnd([3, 4]), rnd([3, 4]), PM1, margin=0.2,
                                                                     reduction="none"),
      s(rnd([3, 4]), rnd([3, 4]), const([1, -1, -1], "int64"), reduction="sum"), grad=2,
      errors=[err([ones(3, 4), ones(3, 4), ones(3, 1)], ValueError, "cosine_embedding_loss.*1D target"),
              err([ones(3, 4), ones(3, 5), ones(3)], ValueError, "cosine_embedding_loss")]),
    R("hinge_embedding_loss", s(rnd([3, 4]), const([[1, -1, 1, -1]] * 3, "float32")),
      s(rnd([3, 4]), const([[1, -1, 1, -1]] * 3, "float32"), margin=0.3, reduction="none"), grad=2,
      errors=[err([ones(2), ones(2)], ValueError, "hinge_embedding_loss.*reduction", reduction="avg")]),
    R("soft_margin_loss", s(rnd([3, 4]), const([[1, -1, 1, -1]] * 3, "float32")),
      s(rnd([3, 4]), const([[1, -1, 1, -1]] * 3, "int64"), reduction="sum"), grad=1,
      errors=[err([ones(3, 4), ones(3, 3)], ValueError, "soft_margin_loss")]),
    R("multi_label_soft_margin_loss", s(rnd([3, 4]), const([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]], "float32")),
      s(rnd([3, 4]), const([[1, 0, 1, 0]] * 3, "float32"), weight=const([1.0, 0.5, 2.0, 1.0], "float32"),
        reduction="none"), grad=2),
    R("multi_margin_loss", s(rnd([3, 4]), const([1, 0, 3], "int64")),
      s(rnd([3, 4]), const([1, 0, 3], "int64"), p=2, margin=0.5, reduction="none"),
      s(rnd([3, 4]), const([1, 0, 3], "int64"), p=2, weight=const([1.0, 0.5, 2.0, 1.5], "float32"),
        reduction="sum"), grad=3,
      errors=[err([ones(3, 4), np.zeros([2], "int64")], ValueError, "multi_margin_loss.*shape\\[0\\]")]),
    R("triplet_margin_loss", s(rnd([3, 4]), rnd([3, 4]), rnd([3, 4])),
      s(rnd([3, 4]), rnd([3, 4]), rnd([3, 4]), margin=0.5, p=1, swap=True, reduction="none"), grad=2,
      errors=[err([ones(3, 4), ones(3, 4), ones(3, 4)], ValueError, "triplet_margin_loss.*margin", margin=-1.0),
              err([ones(3, 4), ones(3, 4), ones(2, 4)], ValueError, "triplet_margin_loss.*shape")]),
    R("triplet_margin_with_distance_loss", s(rnd([3, 4]), rnd([3, 4]), rnd([3, 4])),
      s(rnd([3, 4]), rnd([3, 4]), rnd([3, 4]), margin=0.5, swap=True, reduction="sum"), grad=1,
      errors=[err([ones(3, 4), ones(3, 4), ones(3, 4)], ValueError, "triplet_margin_with_distance_loss.*margin",
                  margin=-0.5)]),
    R("poisson_nll_loss", s(rnd([3, 4]), rnd([3, 4], low=0, high=3)),
      s(POSV, rnd([3, 4], low=0, high=3), log_input=False, full=True, reduction="none"),
      s(rnd([3, 4]), rnd([3, 4], low=0.5, high=4), full=True, reduction="sum"), grad=2,
      errors=[err([ones(2), ones(2)], ValueError, "poisson_nll_loss.*epsilon", epsilon=0.0)]),
    R("gaussian_nll_loss", s(rnd([3, 4]), rnd([3, 4]), POSV), s(rnd([3, 4]), rnd([3, 4]), rnd([3], low=0.1, high=2),
                                                                 full=True, reduction="none"),
      s(rnd([3, 4]), rnd([3, 4]), rnd([3, 1], low=0.1, high=2), epsilon=0.5, reduction="sum"),
      errors=[err([ones(3, 4), ones(3, 4), ones(2, 4)], ValueError, "gaussian_nll_loss.*variance")]),
    # the gradient row checks the sample without FastEmit (which scales label-emission gradients on purpose)
    R("rnnt_loss", s(rnd([2, 4, 3, 5], low=-3, high=0), const([[1, 2], [3, 0]], "int32"), const([4, 3], "int32"),
                     const([2, 1], "int32"), blank=4, fastemit_lambda=0.0, reduction="none"),
      s(rnd([2, 4, 3, 5], low=-3, high=0), const([[1, 2], [3, 0]], "int32"), const([4, 3], "int32"),
        const([2, 1], "int32")),
      s(rnd([1, 3, 2, 4], low=-2, high=0), const([[2]], "int32"), const([3], "int32"), const([1], "int32"),
        reduction="sum"), grad=1,
      errors=[err([ones(1, 3, 2, 4), np.ones([1, 1], "int32"), np.array([5], "int32"), np.array([1], "int32")],
                  ValueError, "rnnt_loss.*input_lengths")]),
]


def _margin_ce(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0, return_softmax=False,
               reduction="mean"):
    lab = label.reshape(-1)
    z = logits.astype(np.float64).copy()
    rows = np.arange(len(lab))
    z[rows, lab] = np.cos(margin1 * np.arccos(np.clip(z[rows, lab], -1, 1)) + margin2) - margin3
    z *= scale
    z -= z.max(1, keepdims=True)
    sm = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    loss = -np.log(sm[rows, lab])[:, None]
    loss = {"mean": loss.mean(), "sum": loss.sum(), "none": loss}[reduction]
    return (loss, sm) if return_softmax else loss


ROWS += [
    R("margin_cross_entropy", s(rnd([3, 5], low=-0.9, high=0.9), const([1, 0, 4], "int64")),
      s(rnd([3, 5], low=-0.9, high=0.9), const([[1], [0], [4]], "int64"), margin1=0.9, margin2=0.2, margin3=0.1,
        scale=8.0, return_softmax=True, reduction="none"), ref=_margin_ce, rtol=1e-4, atol=1e-5, grad=1, golden=False,
      errors=[err([ones(3, 5), np.zeros([3, 1, 1], "int64")], ValueError, "margin_cross_entropy.*label_dims")]),
    R("class_center_sample", s(const([1, 0, 4, 1], "int64"), 10, 6), s(const([3, 7, 3], "int64"), 8, 1),
      random=True, errors=[err([np.zeros([2], "int64"), 4, 5], ValueError, "class_center_sample.*num_samples")]),
]

# --- fold, shuffles, padding, unpooling ------------------------------------------------------------
ROWS += [
    R("fold", s(rnd([1, 4, 9]), [4, 4], 2), s(rnd([1, 8, 8]), [3, 4], [2, 2], strides=[1, 2], paddings=[1, 0, 1, 0]),
      s(rnd([1, 2, 9]), [3, 3], 1, strides=1, paddings=[0, 0], dilations=2), grad=2,
      errors=[err([ones(1, 4, 8), [4, 4], 2], ValueError, "fold.*sliding blocks"),
              err([ones(4, 9), [4, 4], 2], ValueError, "fold.*\\[N, C, L\\]"),
              err([ones(1, 4, 16), [4, 4], 2], ValueError, "fold.*inconsistent", paddings=[1, 0, 0, 1])]),
    R("pixel_unshuffle", s(rnd([1, 2, 4, 6]), 2), s(rnd([1, 6, 3, 2]), 3, data_format="NHWC"), grad=1,
      errors=[err([ones(1, 2, 4, 5), 2], ValueError, "pixel_unshuffle.*divisible"),
              err([ones(1, 2, 4, 4), 2.0], TypeError, "pixel_unshuffle")]),
    R("channel_shuffle", s(rnd([1, 6, 2, 2]), 3), s(rnd([1, 2, 2, 4]), 2, data_format="NHWC"), grad=1,
      errors=[err([ones(1, 6, 2, 2), 4], ValueError, "channel_shuffle.*divisible"),
              err([ones(1, 6, 2), 3], ValueError, "channel_shuffle.*4D")]),
    R("zeropad2d", s(rnd([1, 2, 3, 3]), [1, 0, 2, 1]), s(rnd([1, 3, 3, 2]), [1, 1, 0, 2], data_format="NHWC"), grad=1),
    R("max_unpool1d", s(rnd([1, 2, 3]), const([[[1, 2, 5], [0, 3, 4]]], "int32"), 2),
      s(rnd([1, 1, 2]), const([[[0, 5]]], "int32"), 3, stride=2, output_size=[1, 6]), grad=1,
      errors=[err([ones(1, 2, 3), np.zeros([1, 2, 3], "int32"), 2], ValueError, "max_unpool1d.*NCL",
                  data_format="NLC")]),
    R("max_unpool2d", s(rnd([1, 2, 2, 2]), const([[[[0, 3], [9, 14]], [[5, 2], [8, 15]]]], "int32"), 2),
      s(rnd([1, 1, 2, 2]), const([[[[0, 4], [10, 24]]]], "int32"), 2, stride=2, padding=0, output_size=[1, 1, 5, 5]),
      grad=1, errors=[err([ones(1, 1, 2, 2), np.zeros([1, 1, 2, 2], "int32"), 2], ValueError,
                          "max_unpool2d.*output_size", output_size=[9, 9]),
                      err([ones(1, 1, 2, 2), np.full([1, 1, 2, 2], 99, "int32"), 2], ValueError, "max_unpool2d.*indices")]),
    R("max_unpool3d", s(rnd([1, 1, 1, 2, 2]), const([[[[[0, 3], [9, 14]]]]], "int32"), [1, 2, 2]), grad=1),
    R("sequence_mask", s(const([1, 3, 2], "int64"), maxlen=4), s(const([[1, 2], [0, 3]], "int64"), dtype="float32")),
]


# --- attention -----------------------------------------------------------------------------------
def _sparse_attention(q, k, v, offset, columns, key_padding_mask=None, attn_mask=None):
    b, h, n, d = q.shape
    out = np.zeros_like(q, dtype=np.float64)
    for i in range(b):
        for j in range(h):
            for r in range(n):
                cols = columns[i, j, offset[i, j, r]:offset[i, j, r + 1]]
                if key_padding_mask is not None:
                    cols = [c for c in cols if key_padding_mask[i, c] != 0]
                if attn_mask is not None:
                    cols = [c for c in cols if attn_mask[r, c] != 0]
                if len(cols) == 0:
                    continue
                sc = q[i, j, r] @ k[i, j, list(cols)].T / np.sqrt(d)
                p = np.exp(sc - sc.max())
                out[i, j, r] = (p / p.sum()) @ v[i, j, list(cols)]
    return out


def _sdpa(q, k, v, attn_mask=None, is_causal=False):
    q, k, v = (a.transpose(0, 2, 1, 3).astype(np.float64) for a in (q, k, v))
    sc = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    if attn_mask is not None:
        sc = sc + attn_mask
    elif is_causal:
        sc = np.where(np.tril(np.ones(sc.shape[-2:], bool)), sc, -np.inf)
    p = np.exp(sc - sc.max(-1, keepdims=True))
    return ((p / p.sum(-1, keepdims=True)) @ v).transpose(0, 2, 1, 3)


_OFF = const([[[0, 2, 3, 5, 6]]], "int32")
_COL = const([[[0, 1, 1, 0, 3, 2]]], "int32")
ROWS += [
    R("scaled_dot_product_attention", s(rnd([1, 3, 2, 4]), rnd([1, 3, 2, 4]), rnd([1, 3, 2, 4])), grad=1, rtol=1e-4),
    # causal / masked attention: no CPU kernel in Paddle 2.6.2 (softmax_mask_fuse, flash_attn are GPU-only)
    R("scaled_dot_product_attention", s(rnd([2, 3, 1, 4]), rnd([2, 5, 1, 4]), rnd([2, 5, 1, 4]), is_causal=True, _id="causal"),
      s(rnd([1, 3, 2, 4]), rnd([1, 3, 2, 4]), rnd([1, 3, 2, 4]), rnd([1, 2, 3, 3], low=-2, high=0), _id="mask"),
      ref=_sdpa, golden=False, grad=1, rtol=1e-5, atol=1e-6),
    R("sparse_attention", s(rnd([1, 1, 4, 3]), rnd([1, 1, 4, 3]), rnd([1, 1, 4, 3]), _OFF, _COL),
      s(rnd([1, 1, 4, 3]), rnd([1, 1, 4, 3]), rnd([1, 1, 4, 3]), _OFF, _COL,
        key_padding_mask=const([[1, 1, 0, 1]], "float32"), attn_mask=const(np.tril(np.ones([4, 4])), "float32")),
      ref=_sparse_attention, golden=False, grad=1, rtol=1e-5, atol=1e-6),
]

ROWS = [r for item in ROWS for r in (item if isinstance(item, list) else [item])]
