"""Rows for paddle.sparse (issue 12): the arguments at `sparse`'s positions are passed as sparse COO / CSR
tensors and sparse outputs are compared densified, against tests/goldens/ops26.npz (real Paddle 2.6.2). matmul,
masked_matmul, mv and addmm have no CPU kernel in Paddle 2.6.2: those rows compare with numpy."""

from __future__ import annotations

import numpy as np

from optable import OpCase, rnd
from rows_tensor import const, smp


def S(name, *smps, layout="coo", args=(0,), **opts):  # noqa: N802 - a row
    return OpCase(f"paddle.sparse.{name}", lambda rng: [s(rng, i) for i, s in enumerate(smps)], static=False,
                  sparse=(layout, args), **opts)


def _holes(shape, dtype="float32", low=-0.9, high=0.9):
    """Random values with about half of them zero (the sparse pattern)."""
    def make(rng):
        a = rng.uniform(low, high, size=shape)
        a[rng.rand(*shape) < 0.5] = 0
        return a.astype(dtype)

    return make


A = _holes([3, 4])
B = _holes([3, 4])
POSA = _holes([3, 4], low=0.1, high=2.0)
A3 = _holes([2, 3, 4])

ROWS = []
for _name in ("abs", "asin", "asinh", "atan", "atanh", "expm1", "log1p", "neg", "sin", "sinh", "tan", "tanh",
              "square", "deg2rad", "rad2deg", "isnan"):
    ROWS += [S(_name, smp(A)), S(_name, smp(A, _id="csr"), layout="csr")]
ROWS += [
    S("sqrt", smp(POSA)), S("sqrt", smp(POSA, _id="csr"), layout="csr"),
    S("pow", smp(A, 2.0), smp(POSA, 0.5)), S("pow", smp(A, 3.0, _id="csr"), layout="csr"),
    S("cast", smp(A, "int32", "float64"), smp(A, None, "int64")),
    S("cast", smp(A, "int32", "float64", _id="csr"), layout="csr"),
    S("coalesce", smp(A)),
    S("reshape", smp(A, [4, 3]), smp(A3, [6, -1]), smp(A3, [0, 12])),
    S("reshape", smp(A, [2, 6], _id="csr"), layout="csr"),
    S("transpose", smp(A, [1, 0]), smp(A3, [2, 0, 1])),
    S("transpose", smp(A, [1, 0], _id="csr"), layout="csr"),
    S("slice", smp(A, [1], [1], [3]), smp(A3, [0, 2], [1, -3], [2, 10])),
    S("slice", smp(A, [0, 1], [1, 0], [3, 2], _id="csr"), layout="csr"),
    S("sum", smp(A), smp(A, axis=1), smp(A3, axis=-1, keepdim=True), smp(A, dtype="float64")),
    S("sum", smp(A, _id="csr"), smp(A, axis=-1, keepdim=True, _id="csr_axis"), layout="csr"),
    S("add", smp(A, B), args=(0, 1)), S("add", smp(A, B, _id="csr"), layout="csr", args=(0, 1)),
    S("subtract", smp(A, B), args=(0, 1)), S("subtract", smp(A, B, _id="csr"), layout="csr", args=(0, 1)),
    S("multiply", smp(A, B), args=(0, 1)), S("multiply", smp(A, B, _id="csr"), layout="csr", args=(0, 1)),
    S("divide", smp(A, const(np.ones([3, 4], "float32") * 2)), args=(0, 1)),
    S("matmul", smp(A, rnd([4, 2])), ref=lambda x, y: x @ y, golden=False),
    S("matmul", smp(A, rnd([4, 2]), _id="csr"), layout="csr", ref=lambda x, y: x @ y, golden=False),
    S("matmul", smp(A, _holes([4, 2]), _id="sparse_sparse"), args=(0, 1), ref=lambda x, y: x @ y, golden=False),
    S("masked_matmul", smp(rnd([3, 2]), rnd([2, 4]), A), layout="csr", args=(2,),
      ref=lambda x, y, m: np.where(m != 0, x @ y, 0), golden=False),
    S("mv", smp(A, rnd([4])), ref=lambda x, v: x @ v, golden=False),
    S("mv", smp(A, rnd([4]), _id="csr"), layout="csr", ref=lambda x, v: x @ v, golden=False),
    S("addmm", smp(rnd([3, 2]), A, rnd([4, 2]), 0.5, 2.0), args=(1,), ref=lambda i, x, y, b, a: b * i + a * (x @ y),
      golden=False),
]
