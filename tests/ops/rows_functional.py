"""Rows for `paddle.nn.functional` (issue 5 part B): one row per manifest name. Rows without `ref` compare with
tests/goldens/ops26_functional.npz (real Paddle 2.6.2, recorded by tools/oracle/rec_ops26_functional.py); full
reductions there are 0-D where Paddle 2.4 (and we) give [1]. Shapes are tiny: gradient rows run finite
differences over every input element."""

from __future__ import annotations

import numpy as np

from optable import ErrorCase, OpCase, rnd, sample

P = "paddle.nn.functional."


s = sample  # one sample: callables (from `rnd` / `const`) are drawn from the row's RandomState


def R(name, *smps, grad=False, **opts):  # noqa: N802 - a row
    """A row of paddle.nn.functional.<name>. grad=k (an int) checks gradients on the first k samples only
    (finite differences cost two calls per input element), through a second row with the same sample ids."""

    def make(rng, upto=None):
        return [m(rng, i) for i, m in enumerate(smps)][:upto]

    row = OpCase(P + name, make, grad=grad is True, **opts)
    if grad is True or grad is False:
        return row
    grad_row = OpCase(P + name, lambda rng: make(rng, grad), ref=opts.get("ref"), grad=True, static=False,
                      random=opts.get("random", False), rtol=opts.get("rtol", 1e-5), atol=opts.get("atol", 1e-6))
    return [row, grad_row]


def const(a, dtype=None):
    return lambda rng: np.asarray(a, dtype=dtype)


def err(args, exc, match="", **kwargs):
    return ErrorCase(tuple(args), kwargs, exc, match)


def ones(*shape, dtype="float32"):
    return np.ones(shape, dtype)


T = rnd([2, 3])
X4 = rnd([1, 2, 3, 3])  # NCHW
X3 = rnd([1, 2, 5])  # NCL
X5 = rnd([1, 2, 2, 3, 3])  # NCDHW
PROB = rnd([3, 4], low=0.05, high=0.95)
POS = rnd([3, 4], low=0.1, high=1.0)
LOGITS = rnd([3, 4], low=-2, high=2)
LAB3 = const([1, 0, 3], "int64")
LAB3_1 = const([[1], [0], [3]], "int64")
LAB_IGN = const([1, -100, 3], "int64")
W4 = const([0.5, 1.0, 2.0, 1.5], "float32")
SOFT = rnd([3, 4], low=0.0, high=1.0)
RED_ERR = ValueError

ROWS: list[OpCase] = []

# --- activations ---------------------------------------------------------------------------------
def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


ROWS += [
    R("relu_", s(T), ref=lambda x: np.maximum(x, 0)),
    R("relu6", s(rnd([2, 3], low=-3, high=8)), ref=lambda x: np.clip(x, 0, 6), grad=True),
    R("elu", s(T), s(T, alpha=0.5), ref=lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(x)),
      inplace="elu_", grad=1),
    R("elu_", s(T, alpha=0.3), ref=lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(x))),
    R("selu", s(T), s(T, scale=1.5, alpha=0.5), grad=1,
      errors=[err([ones(2)], ValueError, "selu.*scale", scale=0.5)]),
    R("gelu", s(T), s(T, approximate=True), grad=1),
    R("leaky_relu", s(T), s(T, negative_slope=0.2), ref=lambda x, negative_slope=0.01: np.where(
        x > 0, x, negative_slope * x), grad=1),
    R("sigmoid", s(T), ref=lambda x: 1 / (1 + np.exp(-x)), grad=True),
    R("softmax", s(T), s(rnd([2, 3, 2]), axis=1), s(T, dtype="float64"), ref=lambda x, axis=-1, dtype=None:
      _np_softmax(x.astype(dtype or x.dtype), axis), inplace="softmax_", grad=1),
    R("softmax_", s(T, axis=0), ref=lambda x, axis=-1: _np_softmax(x, axis)),
    R("log_softmax", s(T), s(rnd([2, 3, 2]), axis=1), ref=lambda x, axis=-1: np.log(_np_softmax(x, axis)),
      grad=1),
    R("softplus", s(T), s(rnd([2, 3], low=-3, high=3), beta=2, threshold=1.5), grad=1),
    R("softshrink", s(T), s(T, threshold=0.3), grad=1,
      errors=[err([ones(2)], ValueError, "softshrink.*threshold", threshold=-1.0)]),
    R("hardshrink", s(T), s(T, threshold=0.3), grad=1),
    R("softsign", s(T), ref=lambda x: x / (1 + np.abs(x)), grad=True),
    R("tanhshrink", s(T), ref=lambda x: x - np.tanh(x), grad=True),
    R("log_sigmoid", s(T), ref=lambda x: -np.log1p(np.exp(-x)), grad=True),
    R("swish", s(T), ref=lambda x: x / (1 + np.exp(-x)), grad=True),
    R("hardsigmoid", s(rnd([2, 3], low=-4, high=4)), s(T, slope=0.2, offset=0.3), grad=1),
    R("hardswish", s(rnd([2, 3], low=-4, high=4)), grad=True),
    R("hardtanh", s(rnd([2, 3], low=-2, high=2)), s(T, min=-0.5, max=0.2), grad=1),
    R("thresholded_relu", s(rnd([2, 3], low=0, high=2)), s(T, threshold=0.2), grad=1),
    R("maxout", s(rnd([1, 4, 2, 2]), groups=2), s(rnd([1, 2, 2, 6]), groups=3, axis=-1), grad=1,
      errors=[err([ones(1, 3, 2, 2)], ValueError, "maxout", groups=2)]),
    R("prelu", s(rnd([1, 2, 2, 2]), const([0.25], "float32")),
      s(rnd([1, 2, 2, 2]), const([0.1, 0.3], "float32")),
      s(rnd([1, 2, 2, 2]), const([0.1, 0.3], "float32"), data_format="NHWC"), grad=1,
      errors=[err([ones(1, 3, 2), ones(2)], ValueError, "prelu"),
              err([ones(1, 2, 2), ones(2)], ValueError, "data_format", data_format="NCWH")]),
]

# --- linear / common -----------------------------------------------------------------------------
ROWS += [
    R("linear", s(rnd([2, 3]), rnd([3, 2]), rnd([2])), s(rnd([2, 3]), rnd([3, 4])),
      ref=lambda x, w, b=None: x @ w + (0 if b is None else b), grad=1),
    R("bilinear", s(rnd([2, 3]), rnd([2, 2]), rnd([4, 3, 2]), rnd([1, 4])), grad=True,
      errors=[err([ones(2, 3), ones(2, 2), ones(4, 2, 2)], ValueError, "bilinear")]),
    R("cosine_similarity", s(rnd([3, 4]), rnd([3, 4])), s(rnd([2, 3]), rnd([2, 3]), axis=0), grad=1),
    R("pad", s(rnd([1, 2, 3, 2]), [1, 0, 2, 1], value=2.0, data_format="NHWC", _id="x0"), s(rnd([1, 2, 3]), [2, 1], mode="circular", data_format="NCL", _id="x1"), s(rnd([1, 1, 3, 3, 3]), [1, 1, 2, 0, 0, 1], mode="reflect", data_format="NCDHW", _id="x2"), s(rnd([1, 3, 2]), [1, 2], mode="replicate", data_format="NLC", _id="x3"), s(rnd([1, 2, 3]), [1, 2], data_format="NCL"), s(rnd([1, 1, 2, 3]), [2, 0, 1, 1], mode="reflect"),
      s(rnd([1, 1, 2, 3]), [1, 1, 1, 0], mode="replicate"), s(rnd([1, 1, 2, 3]), [1, 2, 1, 1], mode="circular"),
      s(rnd([2, 3]), [1, 0, 0, 2], value=1.5), s(rnd([1, 2, 3, 2]), [1, 0, 0, 1], data_format="NHWC"),
      s(rnd([1, 1, 1, 2, 2]), [1, 0, 0, 1, 1, 0], mode="replicate", data_format="NCDHW"), grad=1,
      errors=[err([ones(1, 1, 2, 2), [1, 1, 1, 1]], ValueError, "pad.*mode", mode="wrap"),
              err([ones(1, 1, 2, 2), [1, 1, 1, 1]], ValueError, "pad.*data.format", data_format="NCL")]),
    R("label_smooth", s(const([[0, 1, 0], [1, 0, 0]], "float32")),
      s(const([[0, 1, 0], [1, 0, 0]], "float32"), prior_dist=const([[0.2, 0.3, 0.5]], "float32"), epsilon=0.2), grad=1),
    R("unfold", s(rnd([1, 1, 3, 3]), 2, paddings=[1, 2], _id="x0"), s(rnd([1, 2, 3, 3]), [2, 2]), s(rnd([1, 1, 3, 4]), [2, 2], strides=[1, 2], paddings=[1, 0, 0, 1],
                                                 dilations=1), grad=1,
      errors=[err([ones(2, 3, 3), 2], ValueError, "unfold")]),
    R("diag_embed", s(rnd([2, 3])), s(rnd([2, 3]), offset=1, dim1=0, dim2=2), grad=1,
      errors=[err([ones(2, 3)], ValueError, "diag_embed", dim1=1, dim2=1)]),
    R("gather_tree", s(const([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]], "int64"),
                       const([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]], "int64")),
      errors=[err([np.ones([2, 2], "int64"), np.ones([2, 2], "int64")], ValueError, "gather_tree")]),
]

# --- dropout family (random: shapes and statistics) ------------------------------------------------
ROWS += [
    R("dropout", s(rnd([4, 5]), 0.5), s(rnd([4, 5]), 0.5, training=False),
      s(rnd([4, 5]), 0.3, training=False, mode="downscale_in_infer"), s(rnd([4, 5]), 0.5, axis=1),
      random=True, errors=[err([ones(2)], ValueError, "dropout.*mode", mode="bad"),
                           err([ones(2), 1.5], ValueError, "dropout.*p")]),
    R("dropout2d", s(rnd([2, 3, 2, 2]), 0.5), s(rnd([2, 2, 2, 3]), 0.5, data_format="NHWC"), random=True,
      errors=[err([ones(2, 3, 2)], ValueError, "dropout2d"),
              err([ones(2, 3, 2, 2)], ValueError, "dropout2d.*data_format", data_format="NCDHW")]),
    R("dropout3d", s(rnd([2, 3, 2, 2, 2]), 0.5), random=True,
      errors=[err([ones(2, 3, 2, 2)], ValueError, "dropout3d")]),
    R("alpha_dropout", s(rnd([4, 5]), 0.5), s(rnd([4, 5]), 0.5, training=False), random=True,
      errors=[err([ones(2), -0.1], ValueError, "alpha_dropout")]),
]

# --- convolution ---------------------------------------------------------------------------------
_FMT_ERR = ValueError
ROWS += [
    R("conv1d", s(X3, rnd([3, 2, 3]), rnd([3])), s(X3, rnd([2, 1, 2]), stride=2, padding=[1, 0], groups=2),
      s(rnd([1, 5, 2]), rnd([3, 2, 3]), padding="SAME", data_format="NLC"), grad=1,
      errors=[err([ones(1, 2, 5), ones(3, 2, 3)], _FMT_ERR, "conv1d.*data_format", data_format="NCHW")]),
    R("conv2d", s(X4, rnd([2, 2, 2, 2]), padding="SAME", stride=2, dilation=2, _id="x0"), s(rnd([1, 3, 4, 4]), rnd([4, 2, 2, 2]), rnd([4]), groups=2, dilation=[1, 2], padding=[1, 1], data_format="NHWC", _id="x1"), s(X4, rnd([3, 2, 2, 2]), rnd([3])), s(X4, rnd([2, 2, 2, 2]), padding="SAME", stride=2),
      s(X4, rnd([2, 1, 3, 3]), padding=[[0, 0], [0, 0], [1, 0], [0, 1]], groups=2, dilation=1),
      s(rnd([1, 3, 3, 2]), rnd([2, 2, 2, 2]), rnd([2]), padding=[1, 0, 0, 1], data_format="NHWC"),
      s(rnd([1, 1, 5, 5]), rnd([1, 1, 2, 2]), dilation=2, padding="VALID"), grad=1,
      errors=[err([ones(1, 2, 3, 3), ones(3, 2, 2, 2)], _FMT_ERR, "conv2d.*data_format", data_format="NCL"),
              err([ones(1, 2, 3), ones(3, 2, 2, 2)], ValueError, "conv2d"),
              err([ones(1, 3, 3, 3), ones(3, 2, 2, 2)], ValueError, "conv2d.*channel")]),
    R("conv3d", s(X5, rnd([2, 2, 2, 2, 2]), rnd([2])), s(X5, rnd([2, 2, 1, 2, 2]), padding="SAME"), grad=1,
      errors=[err([ones(1, 2, 2, 2, 2), ones(2, 2, 1, 1, 1)], _FMT_ERR, "conv3d.*data_format",
                  data_format="NCHW")]),
    R("conv1d_transpose", s(rnd([1, 2, 3]), rnd([2, 3, 2]), rnd([3])),
      s(rnd([1, 2, 3]), rnd([2, 1, 3]), stride=2, padding=1, output_padding=1, groups=2),
      s(rnd([1, 3, 2]), rnd([2, 2, 3]), stride=2, padding="SAME", data_format="NLC"), grad=1,
      errors=[err([ones(1, 2, 3), ones(2, 3, 2)], _FMT_ERR, "conv1d_transpose.*data_format", data_format="NHWC")]),
    R("conv2d_transpose", s(rnd([1, 2, 3, 3]), rnd([2, 2, 3, 3]), stride=2, padding="SAME", _id="x0"), s(rnd([1, 3, 3, 2]), rnd([2, 1, 3, 3]), stride=2, padding="VALID", output_size=[8, 7], data_format="NHWC", _id="x1"), s(rnd([1, 4, 2, 2]), rnd([4, 1, 2, 2]), rnd([2]), stride=1, padding=[[0, 0], [0, 0], [1, 0], [0, 1]], groups=2, _id="x2"), s(rnd([1, 2, 2, 2]), rnd([2, 3, 2, 2]), rnd([3])),
      s(rnd([1, 2, 2, 3]), rnd([2, 2, 3, 3]), stride=2, padding=[1, 0, 0, 1]),
      s(rnd([1, 2, 2, 2]), rnd([2, 1, 3, 3]), stride=2, padding=1, output_size=[4, 4]),
      s(rnd([1, 2, 2, 2]), rnd([2, 2, 2, 2]), stride=2, dilation=2, data_format="NHWC"), grad=1,
      errors=[err([ones(1, 2, 2, 2), ones(2, 3, 2, 2)], _FMT_ERR, "conv2d_transpose.*data_format",
                  data_format="NCL")]),
    R("conv3d_transpose", s(rnd([1, 2, 2, 2, 2]), rnd([2, 1, 2, 2, 2]), rnd([1])),
      s(rnd([1, 2, 2, 2, 2]), rnd([2, 2, 2, 1, 2]), stride=[1, 2, 1], padding=[0, 1, 0]), grad=1,
      errors=[err([ones(1, 2, 2, 2, 2), ones(2, 1, 2, 2, 2)], _FMT_ERR, "conv3d_transpose.*data_format",
                  data_format="NCHW")]),
]

# --- pooling -------------------------------------------------------------------------------------
P4 = rnd([1, 2, 4, 5])
ROWS += [
    R("avg_pool1d", s(rnd([1, 2, 6]), 3, stride=2, padding="SAME", _id="x0"), s(rnd([1, 2, 5]), 2), s(rnd([1, 2, 5]), 3, stride=2, padding=1, exclusive=False),
      s(rnd([1, 2, 5]), 2, ceil_mode=True), grad=1),
    R("avg_pool2d", s(P4, 3, stride=2, padding=1, divisor_override=4, _id="x3"), s(P4, 3, stride=2, padding=[1, 0, 1, 1], ceil_mode=True, divisor_override=5, _id="x4"), s(P4, 3, stride=2, padding=1, ceil_mode=True, _id="x0"), s(P4, 3, stride=2, padding=1, ceil_mode=True, exclusive=False, _id="x1"), s(rnd([1, 1, 5, 5]), 2, padding="SAME", _id="x2"), s(P4, 2), s(P4, 3, stride=2, padding=1), s(P4, 3, stride=2, padding=1, exclusive=False),
      s(P4, [2, 3], stride=1, padding="SAME"), s(P4, 2, ceil_mode=True), s(P4, 2, divisor_override=3),
      s(rnd([1, 4, 5, 2]), 2, padding=[1, 0, 0, 1], data_format="NHWC"), grad=1,
      errors=[err([ones(1, 2, 4, 4), 2], _FMT_ERR, "avg_pool2d.*data_format", data_format="NCL")]),
    R("avg_pool3d", s(rnd([1, 1, 3, 4, 4]), [2, 3, 2], stride=2, padding="SAME", _id="x0"), s(rnd([1, 3, 4, 4, 1]), 2, data_format="NDHWC", divisor_override=2, _id="x1"), s(rnd([1, 1, 3, 4, 4]), 2), s(rnd([1, 1, 3, 4, 4]), 2, stride=1, padding=1), grad=1,
      errors=[err([ones(1, 1, 2, 2, 2), 2], _FMT_ERR, "avg_pool3d.*data_format", data_format="NCHW")]),
    R("max_pool1d", s(rnd([1, 2, 6]), 4, stride=3, ceil_mode=True, _id="x0"), s(rnd([1, 2, 5]), 2), s(rnd([1, 2, 5]), 3, stride=2, padding=1, return_mask=True), grad=1),
    R("max_pool2d", s(P4, [2, 3], stride=1, padding="SAME", return_mask=True, _id="x2"), s(P4, 3, stride=2, padding=1, ceil_mode=True, return_mask=True, _id="x0"), s(rnd([1, 1, 5, 5]), [3, 2], stride=[2, 1], padding="VALID", _id="x1"), s(P4, 2), s(P4, 3, stride=2, padding=1, return_mask=True), s(P4, 2, ceil_mode=True),
      s(P4, [2, 3], stride=1, padding="SAME"), s(P4, 2, padding=[[0, 0], [0, 0], [1, 0], [0, 1]]),
      s(rnd([1, 4, 5, 2]), 2, data_format="NHWC"), grad=1,
      errors=[err([ones(1, 2, 4, 4), 2], _FMT_ERR, "max_pool2d.*data_format", data_format="NCDHW"),
              err([ones(1, 4, 4, 2), 2], ValueError, "max_pool2d.*return_mask", return_mask=True,
                  data_format="NHWC")]),
    R("max_pool3d", s(rnd([1, 1, 3, 4, 4]), 2, ceil_mode=True, return_mask=True, _id="x0"), s(rnd([1, 1, 3, 4, 4]), 2), s(rnd([1, 1, 3, 4, 4]), 2, stride=1, padding=1, return_mask=True),
      grad=1),
    R("adaptive_avg_pool1d", s(rnd([1, 2, 5]), 3), grad=True),
    R("adaptive_avg_pool2d", s(P4, 3), s(P4, [2, None]), s(rnd([1, 4, 5, 2]), [3, 2], data_format="NHWC"),
      grad=1, errors=[err([ones(1, 2, 4, 4), 2], _FMT_ERR, "adaptive_avg_pool2d", data_format="NCL")]),
    R("adaptive_avg_pool3d", s(rnd([1, 1, 3, 4, 5]), [2, 3, 2]), grad=True),
    R("adaptive_max_pool1d", s(rnd([1, 2, 5]), 3), s(rnd([1, 2, 5]), 2, return_mask=True), grad=1),
    R("adaptive_max_pool2d", s(P4, [None, 2], _id="x0"), s(P4, 3), s(P4, [2, 3], return_mask=True), grad=1),
    R("adaptive_max_pool3d", s(rnd([1, 1, 3, 4, 5]), [2, 3, 2]), s(rnd([1, 1, 2, 4, 3]), 2, return_mask=True),
      grad=1),
]

# --- normalization -------------------------------------------------------------------------------
ROWS += [
    R("batch_norm", s(rnd([3, 2, 2]), const([0.1, -0.2], "float32"), const([1.2, 0.8], "float32"),
                      rnd([2]), rnd([2])),
      s(rnd([4, 3]), rnd([3]), rnd([3], low=0.5, high=1.5), None, None, training=True),
      s(rnd([2, 2, 2, 3]), rnd([3]), rnd([3], low=0.5, high=1.5), rnd([3]), rnd([3]), training=True,
        data_format="NHWC"),
      errors=[err([ones(2, 3), ones(3), ones(3), ones(3), ones(3)], ValueError, "batch_norm.*data_format",
                  data_format="CHWN")]),
    R("layer_norm", s(rnd([2, 3, 4]), 4), s(rnd([2, 3, 4]), [3, 4], rnd([12]), rnd([12]), epsilon=1e-3), grad=1,
      errors=[err([ones(2, 3), 4], ValueError, "layer_norm")]),
    R("instance_norm", s(rnd([2, 2, 3])), s(rnd([2, 3, 2, 2]), weight=const([1.0, 0.5, 2.0], "float32"),
                                            bias=const([0.0, 0.1, -0.1], "float32"), eps=1e-3), grad=1),
    R("local_response_norm", s(rnd([1, 4, 3]), 3, data_format="NCL", _id="x0"), s(rnd([1, 4, 2, 2, 2]), 5, data_format="NCDHW", _id="x1"), s(rnd([1, 5, 2, 2]), 3), s(rnd([1, 2, 2, 4]), 2, alpha=0.1, beta=0.5, k=2.0,
                                                        data_format="NHWC"), grad=1,
      errors=[err([ones(2, 3), 3], ValueError, "local_response_norm")]),
    R("normalize", s(rnd([2, 3])), s(rnd([2, 3]), p=1, axis=0), s(rnd([3]), axis=0), grad=1,
      errors=[err([ones(3)], ValueError, "normalize", axis=1)]),
]

# --- losses --------------------------------------------------------------------------------------
def _red_err(name, *args):
    return err(list(args), RED_ERR, f"{name}.*reduction", reduction="avg")


def _reduce(out, reduction):
    return {"mean": np.mean, "sum": np.sum}.get(reduction, lambda a: a)(out)


ROWS += [
    R("cross_entropy",
      s(PROB, const(np.eye(4, dtype="float32")[[1, 0, 3]]), soft_label=True, use_softmax=False, _id="x0"), s(rnd([2, 3, 2]), rnd([2, 3, 2], low=0, high=1), soft_label=True, axis=1, _id="x1"), s(LOGITS, LAB_IGN, ignore_index=-100, reduction="sum", weight=W4, _id="x2"), s(LOGITS, LAB3), s(LOGITS, LAB3_1, reduction="none"), s(LOGITS, LAB3, reduction="none"),
      s(LOGITS, LAB3, weight=W4), s(LOGITS, LAB_IGN, weight=W4), s(LOGITS, LAB_IGN),
      s(LOGITS, const([1, 7, 3], "int64"), ignore_index=7, reduction="sum"),
      s(LOGITS, LAB_IGN, weight=W4, reduction="none"),
      s(LOGITS, SOFT, soft_label=True), s(LOGITS, SOFT, soft_label=True, weight=W4),
      s(LOGITS, SOFT, soft_label=True, reduction="none"),
      s(rnd([2, 3, 2]), const([[0, 1], [2, 1]], "int64"), axis=1),
      s(rnd([2, 3, 2]), const([[0, 1], [2, 1]], "int64"), axis=1, weight=const([1.0, 2.0, 0.5], "float32"),
        reduction="none"),
      s(PROB, LAB3, use_softmax=False),
      grad=1, errors=[_red_err("cross_entropy", ones(3, 4), np.zeros(3, "int64")),
              err([ones(3, 4), np.zeros([3, 1, 1], "int64")], ValueError, "cross_entropy"),
              err([ones(3, 4), np.zeros(3, "int64")], ValueError, "cross_entropy.*weight", weight=ones(3))]),
    R("softmax_with_cross_entropy", s(rnd([2, 3, 2]), rnd([2, 3, 2], low=0, high=1), soft_label=True, axis=1, _id="x0"), s(LOGITS, LAB3_1), s(LOGITS, SOFT, soft_label=True),
      s(LOGITS, const([[1], [-100], [2]], "int64"), return_softmax=True),
      s(rnd([2, 3, 2]), const([[[0, 1]], [[2, 1]]], "int64"), axis=1), grad=1),
    R("nll_loss", s(rnd([2, 3, 2, 2], low=-3, high=0), const([[[0, 1], [2, 1]], [[1, 1], [0, 2]]], "int64"), weight=const([1.0, 2.0, 0.5], "float32"), _id="x0"), s(rnd([3, 4], low=-3, high=0), LAB3), s(rnd([3, 4], low=-3, high=0), LAB_IGN, weight=W4),
      s(rnd([3, 4], low=-3, high=0), LAB3, reduction="none"), s(rnd([3, 4], low=-3, high=0), LAB3, reduction="sum"),
      s(rnd([2, 3, 2], low=-3, high=0), const([[0, 1], [2, 1]], "int64")),
      grad=1, errors=[_red_err("nll_loss", ones(3, 4), np.zeros(3, "int64"))]),
    R("binary_cross_entropy", s(PROB, rnd([3, 4], low=0, high=1)),
      s(PROB, rnd([3, 4], low=0, high=1), weight=rnd([3, 4], low=0.5, high=1.5), reduction="sum"),
      s(PROB, rnd([3, 4], low=0, high=1), reduction="none"), grad=1,
      errors=[_red_err("binary_cross_entropy", ones(2) / 2, ones(2) / 2)]),
    R("binary_cross_entropy_with_logits", s(LOGITS, rnd([3, 4], low=0, high=1)),
      s(LOGITS, rnd([3, 4], low=0, high=1), pos_weight=rnd([4], low=0.5, high=2), reduction="none"),
      s(LOGITS, rnd([3, 4], low=0, high=1), weight=rnd([3, 4], low=0.5, high=1.5), reduction="sum"), grad=1,
      errors=[_red_err("binary_cross_entropy_with_logits", ones(2), ones(2))]),  # pos_weight: Paddle 2.6.2's kernel
    R("mse_loss", s(rnd([3, 4]), rnd([3, 4])), s(rnd([3, 4]), rnd([3, 4]), reduction="none"),
      s(rnd([3, 4]), rnd([3, 4]), reduction="sum"), grad=1,
      ref=lambda x, y, reduction="mean": {"mean": np.mean, "sum": np.sum}.get(reduction, lambda a: a)((x - y) ** 2),
      errors=[_red_err("mse_loss", ones(2), ones(2))]),
    R("l1_loss", s(rnd([3, 4]), rnd([3, 4])), s(rnd([3, 4]), rnd([3, 4]), reduction="none"), grad=1,
      ref=lambda x, y, reduction="mean": {"mean": np.mean, "sum": np.sum}.get(reduction, lambda a: a)(
          np.abs(x - y)), errors=[_red_err("l1_loss", ones(2), ones(2))]),
    R("smooth_l1_loss", s(rnd([3, 4], low=-3, high=3), rnd([3, 4])),
      s(rnd([3, 4], low=-3, high=3), rnd([3, 4]), delta=0.5, reduction="none"), grad=1,
      errors=[_red_err("smooth_l1_loss", ones(2), ones(2))]),
    R("kl_div", s(rnd([3, 4]), POS), s(rnd([3, 4]), POS, reduction="batchmean"),
      s(rnd([3, 4]), POS, reduction="none"), s(rnd([3, 4]), POS, reduction="sum"), grad=1,
      errors=[_red_err("kl_div", ones(2), ones(2))]),
    R("margin_ranking_loss", s(rnd([4]), rnd([4]), const([1, -1, 1, -1], "float32")),
      s(rnd([4]), rnd([4]), const([1, -1, 1, -1], "float32"), margin=0.3, reduction="none"), grad=1,
      errors=[_red_err("margin_ranking_loss", ones(2), ones(2), ones(2))]),
    R("log_loss", s(rnd([4, 1], low=0.1, high=0.9), const([[1], [0], [1], [0]], "float32")), grad=True),
    R("sigmoid_focal_loss", s(LOGITS, rnd([3, 4], low=0, high=1)),
      s(LOGITS, rnd([3, 4], low=0, high=1), normalizer=const([2.0], "float32"), reduction="mean"),
      s(LOGITS, rnd([3, 4], low=0, high=1), alpha=0.5, gamma=1.0, reduction="none"), grad=1,
      errors=[_red_err("sigmoid_focal_loss", ones(2), ones(2))]),
    R("square_error_cost", s(rnd([3, 2]), rnd([3, 2])), ref=lambda x, y: (x - y) ** 2, grad=True),
    R("dice_loss", s(rnd([2, 3, 3], low=0, high=1), const([[[0], [2], [1]], [[1], [1], [0]]], "int64")),
      grad=1, errors=[err([ones(2, 3), np.zeros([2, 2], "int64")], ValueError, "dice_loss")]),
    R("npair_loss", s(rnd([4, 3]), rnd([4, 3]), const([1, 2, 1, 3], "float32")),
      s(rnd([3, 2]), rnd([3, 2]), const([0, 0, 1], "int64"), l2_reg=0.1), grad=1),
    R("hsigmoid_loss", s(rnd([3, 4]), const([[0], [4], [2]], "int64"), 5, rnd([4, 4]), rnd([4, 1])),
      s(rnd([3, 4]), const([1, 3, 2], "int64"), 4, rnd([3, 4])),
      s(rnd([2, 4]), const([[0], [1]], "int64"), 3, rnd([3, 4]), rnd([3, 1]),
        path_table=const([[0, 1, -1], [0, 2, -1]], "int64"), path_code=const([[1, 0, 0], [0, 1, 0]], "int64")),
      grad=1, errors=[err([ones(2, 3), np.zeros([2, 1], "int64"), 1, ones(1, 3)], ValueError, "hsigmoid_loss")]),
    R("ctc_loss", s(rnd([5, 2, 4], low=-2, high=2), const([[1, 2], [3, 3]], "int32"), const([5, 4], "int64"),
                    const([2, 2], "int64")),
      s(rnd([5, 2, 4], low=-2, high=2), const([[1, 2, 1], [3, 1, 0]], "int32"), const([5, 5], "int64"),
        const([3, 2], "int64"), reduction="none"),
      s(rnd([4, 1, 3], low=-2, high=2), const([[1, 2]], "int32"), const([4], "int64"), const([2], "int64"),
        blank=0, reduction="sum"), grad=1,
      errors=[err([ones(4, 1, 3), np.ones([1, 2], "int32"), np.array([4]), np.array([2])], ValueError,
                  "ctc_loss.*reduction", reduction="avg")]),
]

# --- embedding / one_hot -------------------------------------------------------------------------
ROWS += [
    R("embedding", s(const([[0, 2], [3, 0]], "int64"), rnd([4, 3]), padding_idx=0, _id="x0"), s(const([[0, 2], [3, 1]], "int64"), rnd([4, 3])),
      s(const([[0, 2], [3, 1]], "int64"), rnd([4, 3]), padding_idx=2),
      s(const([0, 3, 1], "int32"), rnd([4, 3]), padding_idx=-1, sparse=True), grad=1,
      errors=[err([np.array([0, 1]), ones(4, 3)], ValueError, "embedding.*padding_idx", padding_idx=5)]),
    R("one_hot", s(const([1, 0, 3], "int64"), 4), s(const([[1], [2]], "int32"), 3),
      errors=[err([np.array([0, 5]), 4], ValueError, "one_hot")]),
]

# --- resampling ----------------------------------------------------------------------------------
I4 = rnd([1, 1, 3, 4])
ROWS += [
    R("interpolate",
      s(I4, scale_factor=1.7, _id="x0"), s(I4, scale_factor=[1.5, 0.5], mode="bilinear", align_corners=True, _id="x1"), s(I4, scale_factor=1.5, mode="bicubic", _id="x2"), s(rnd([1, 2, 5]), size=[3], mode="linear", align_corners=True, data_format="NCW", _id="x3"), s(rnd([1, 1, 2, 2, 3]), size=[3, 4, 5], mode="trilinear", align_mode=1, data_format="NCDHW", _id="x4"), s(rnd([1, 2, 7]), size=[3], mode="area", data_format="NCW", _id="x5"), s(rnd([1, 3, 4, 2]), size=[6, 3], data_format="NHWC", _id="x6"), s(I4, size=[5, 6]), s(I4, scale_factor=2), s(I4, size=[5, 7], mode="bilinear"),
      s(I4, size=[5, 7], mode="bilinear", align_corners=True), s(I4, size=[5, 7], mode="bilinear", align_mode=1),
      s(I4, scale_factor=[1.5, 0.5], mode="bilinear"), s(I4, size=[2, 3], mode="bilinear"),
      s(I4, size=[5, 6], mode="bicubic"), s(I4, size=[5, 6], mode="bicubic", align_corners=True),
      s(rnd([1, 2, 5]), size=[8], mode="linear", data_format="NCW"),
      s(rnd([1, 5, 2]), scale_factor=1.5, mode="linear", data_format="NWC", align_mode=1),
      s(rnd([1, 1, 2, 2, 3]), size=[3, 3, 4], mode="trilinear", data_format="NCDHW"),
      s(rnd([1, 1, 2, 2, 3]), scale_factor=2, mode="nearest", data_format="NCDHW"),
      s(rnd([1, 3, 4, 1]), size=[4, 6], mode="bilinear", data_format="NHWC"),
      s(I4, size=[2, 2], mode="area"), grad=3, rtol=1e-4, atol=1e-5,
      errors=[err([ones(1, 1, 2, 2)], ValueError, "interpolate.*resample", size=[3, 3], mode="cubic"),
              err([ones(1, 1, 2, 2)], ValueError, "interpolate.*data_format", size=[3, 3], data_format="NCW"),
              err([ones(1, 1, 2, 2)], ValueError, "interpolate.*size and scale_factor"),
              err([ones(1, 1, 2, 2)], ValueError, "interpolate.*align_corners", size=[3, 3], align_corners=True)]),
    R("upsample", s(I4, size=[5, 6]), s(I4, scale_factor=2, mode="bilinear", align_corners=True), grad=1),
    R("grid_sample", s(rnd([1, 2, 3, 3]), rnd([1, 2, 2, 2], low=-1.1, high=1.1), align_corners=False, _id="x0"), s(rnd([1, 2, 3, 3]), rnd([1, 2, 2, 2], low=-1.1, high=1.1)),
      s(rnd([1, 2, 3, 3]), rnd([1, 2, 2, 2], low=-1.1, high=1.1), mode="nearest", padding_mode="border",
        align_corners=False),
      s(rnd([1, 1, 3, 4]), rnd([1, 3, 2, 2], low=-1.2, high=1.2), padding_mode="reflection"), grad=1,
      rtol=1e-4, atol=1e-5,
      errors=[err([ones(1, 1, 2, 2), ones(1, 2, 2, 2)], ValueError, "grid_sample.*mode", mode="bicubic")]),
    R("affine_grid", s(rnd([1, 2, 3]), [1, 1, 2, 3]), s(rnd([2, 2, 3]), [2, 3, 3, 2], align_corners=False),
      grad=1, errors=[err([ones(1, 2, 3), [1, 2, 3]], ValueError, "affine_grid")]),
    R("pixel_shuffle", s(rnd([1, 8, 2, 2]), 2), s(rnd([1, 2, 2, 4]), 2, data_format="NHWC"), grad=1,
      errors=[err([ones(1, 3, 2, 2), 2], ValueError, "pixel_shuffle"),
              err([ones(1, 4, 2, 2), 2], ValueError, "pixel_shuffle.*data_format", data_format="NCL")]),
    R("temporal_shift", s(rnd([4, 4, 1, 2]), 2), s(rnd([6, 8, 1, 1]), 3, shift_ratio=0.25),
      s(rnd([4, 1, 2, 4]), 2, data_format="NHWC"), grad=1,
      errors=[err([ones(3, 4, 1, 1), 2], ValueError, "temporal_shift")]),
]

ROWS = [r for item in ROWS for r in (item if isinstance(item, list) else [item])]
