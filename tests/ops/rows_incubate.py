"""Rows for paddle.incubate (segment pools, graph_send_recv, graph reindex / sampling, identity_loss, fused
masked softmaxes). Golden: tests/goldens/ops26_incubate.npz (real Paddle 2.6.2, recorded by
`tools/oracle/rec_ops26_functional.py rows_incubate`). Ties in the max / min rows check that every tied element
gets the gradient; the samplers' rows take every neighbor (deterministic); softmax_mask_fuse_upper_triangle has no
CPU kernel in Paddle: numpy reference."""

from __future__ import annotations

import numpy as np

from optable import OpCase, rnd
from optable import sample as s

GOLDEN = "ops26_incubate"
P = "paddle.incubate."


def const(a, dtype=None):
    return lambda rng: np.asarray(a, dtype=dtype)


def R(name, *smps, **opts):  # noqa: N802 - a row
    return OpCase(P + name, lambda rng: [m(rng, i) for i, m in enumerate(smps)], **opts)


TIES = const([[1.0, 2.0, 3.0], [1.0, 5.0, 0.5], [4.0, 5.0, 6.0], [4.0, -1.0, 6.0]], "float64")
SEG = const([0, 0, 2, 2], "int64")
ROW = const([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7], "int64")
COLPTR = const([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13], "int64")
NODES = const([0, 8, 1, 2], "int64")


def _softmax_upper(x):
    keep = np.tril(np.ones(x.shape[-2:], bool))
    z = np.where(keep, x, -np.inf)
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


ROWS: list = []
for _p in ("sum", "mean", "max", "min"):  # gradients at ties: tests/api2x/test_incubate.py (finite differences split)
    ROWS += [R(f"segment_{_p}", s(rnd([5, 3]), const([0, 0, 1, 3, 3], "int32")), grad=True),
             R(f"segment_{_p}", s(TIES, SEG, _id="ties"))]
ROWS += [
    R("graph_send_recv", s(TIES, const([0, 1, 2, 3, 0], "int64"), const([1, 2, 1, 0, 1], "int64"), "max", _id="max"),
      s(TIES, const([0, 1, 2, 3], "int64"), const([2, 2, 0, 0], "int64"), pool_type="min", _id="min")),
    R("graph_send_recv", s(rnd([4, 3]), const([0, 1, 2, 3], "int64"), const([1, 2, 1, 0], "int64"), "max"),
      s(rnd([4, 3]), const([0, 1, 2, 3, 0], "int64"), const([1, 2, 1, 0, 1], "int64"), "sum", out_size=5),
      s(rnd([4, 3]), const([0, 1, 2], "int32"), const([1, 1, 0], "int32"), pool_type="mean"),
      s(rnd([4, 3]), const([0, 1, 2, 3], "int64"), const([2, 2, 0, 0], "int64"), pool_type="min"), grad=True),
    R("graph_reindex", s(const([0, 1, 2], "int64"), const([8, 9, 0, 4, 7, 6, 7], "int64"),
                         const([2, 3, 2], "int32"))),
    R("graph_sample_neighbors", s(ROW, COLPTR, NODES, sample_size=10),
      s(ROW, COLPTR, NODES, eids=const(np.arange(13), "int64"), sample_size=2, return_eids=True)),
    R("graph_khop_sampler", s(ROW, COLPTR, NODES, [2, 2]),
      s(ROW, COLPTR, const([3, 5], "int64"), [3, 1, 2], sorted_eids=const(np.arange(13), "int64"), return_eids=True)),
    R("identity_loss", s(rnd([3, 2])), s(rnd([3, 2]), reduction=1), s(rnd([3, 2]), reduction="sum"), grad=True),
    R("softmax_mask_fuse", s(rnd([1, 2, 3, 3]), rnd([1, 1, 3, 3], low=-3, high=0)), grad=True),
    R("softmax_mask_fuse_upper_triangle", s(rnd([1, 2, 3, 3])), ref=_softmax_upper, golden=False, grad=True),
]
