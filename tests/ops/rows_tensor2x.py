"""Rows for the Paddle 2.x `paddle.*` tensor API added by issue 12 (special functions, more reductions,
cumulative ops, views, gather / scatter, creation, search, statistics, random samplers). Rows without `ref`
compare with tests/goldens/ops26.npz (real Paddle 2.6.2, tools/oracle/rec_ops26.py); full reductions there are
0-D where Paddle 2.4 (and we) give [1]."""

from __future__ import annotations

import numpy as np

from optable import rnd
from rows_tensor import POS, SPECIAL, T, UNIT, X, B34, I34, R, const, err, idx, smp

F64 = rnd([2, 3], "float64")
GT1 = rnd([2, 3], low=1.1, high=3.0)  # acosh's domain
P01 = rnd([2, 3], low=0.05, high=0.95)  # logit's domain
I23 = rnd([2, 3], "int64", -6, 6)
NZ_I = rnd([2, 3], "int64", 1, 9)
C2 = const(np.array([1 + 2j, -3 + 0.5j, 0j], "complex64"))
TIES = const(np.array([[1.0, 3.0, 3.0, 2.0], [2.0, 2.0, 5.0, 5.0], [4.0, 1.0, 1.0, 4.0]], "float32"))
WITH_NAN = const(np.array([[1.0, np.nan, 3.0, 0.5], [np.nan, np.nan, 2.0, 4.0], [1.0, 2.0, 3.0, 4.0]], "float32"))
SORTED = const(np.array([1.0, 3.0, 5.0, 7.0, 9.0], "float32"))
SORTED2 = const(np.array([[1.0, 3.0, 5.0, 7.0], [2.0, 4.0, 6.0, 8.0]], "float32"))
VALS = const(np.array([[3.0, 6.0, 9.0], [3.0, 6.0, 9.0]], "float32"))

ROWS = []

# --- unary special functions (float) -------------------------------------------------------------
_UNARY = {
    "acosh": GT1, "asinh": T, "atanh": UNIT, "expm1": T, "lgamma": POS, "digamma": POS, "erfinv": UNIT,
    "i0": T, "i0e": T, "i1": T, "i1e": T, "trunc": X,
}
for _n, _dom in _UNARY.items():
    ROWS.append(R(_n, smp(_dom), smp(rnd([2, 3], "float64")), inplace=f"{_n}_", grad=_n != "trunc"))
ROWS += [
    R("trunc", smp(I23, _id="int"), m=False),
    R("frac", smp(X), smp(I23), inplace="frac_", grad=True),
    R("deg2rad", smp(X), smp(I23), grad=True),
    R("rad2deg", smp(X), smp(I23), grad=True),
    R("sgn", smp(X), smp(C2), static=False),
    R("angle", smp(X), smp(C2), static=False),
    R("logit", smp(P01), smp(X, eps=0.2), inplace="logit_", grad=True),
    R("polygamma", smp(POS, 1), smp(POS, 2), inplace="polygamma_", grad=True,
      errors=[err((np.ones([2], "float32"), -1), ValueError, "polygamma"),
              err((np.ones([2], "float32"), 1.5), TypeError, "polygamma")]),
    R("multigammaln", smp(rnd([2, 3], low=1.5, high=4), 2), smp(rnd([2, 3], low=-1, high=4), 3), inplace="multigammaln_",
      grad=True),
    R("nan_to_num", smp(SPECIAL), smp(SPECIAL, nan=1.0, posinf=9.0, neginf=-9.0), inplace="nan_to_num_"),
    R("frexp", smp(rnd([2, 3], low=-20, high=20)), smp(const(np.array([0.0, 1.0, -0.75, 1e-3], "float64")))),
    R("renorm", smp(rnd([3, 4], low=-2, high=2), 2, 0, 1.0), smp(rnd([3, 4], low=-2, high=2), 1, 1, 2.0),
      inplace="renorm_", grad=True),
]

# --- binary ------------------------------------------------------------------------------------------
ROWS += [
    R("atan2", smp(T, rnd([2, 3])), smp(I23, NZ_I), grad=True),
    R("fmax", smp(X, rnd([3, 4])), smp(SPECIAL, const(np.zeros([2, 3], "float32")))),
    R("fmin", smp(X, rnd([3, 4])), smp(SPECIAL, const(np.zeros([2, 3], "float32")))),
    R("heaviside", smp(const(np.array([-1.0, 0.0, 2.0], "float32")), const(np.array([0.5, 0.5, 0.5], "float32")))),
    R("hypot", smp(T, rnd([2, 3])), inplace="hypot_", grad=True),
    R("gcd", smp(rnd([2, 3], "int64", -12, 12), rnd([2, 3], "int64", -12, 12)), inplace="gcd_"),
    R("lcm", smp(rnd([2, 3], "int64", -12, 12), rnd([2, 3], "int64", -12, 12)), inplace="lcm_"),
    R("ldexp", smp(T, I23), smp(I23, rnd([2, 3], "int64", 0, 4))),
    R("logaddexp", smp(T, rnd([2, 3])), grad=True),
    R("nextafter", smp(T, rnd([2, 3]))),
    R("inner", smp(rnd([2, 3]), rnd([4, 3])), smp(rnd([3]), rnd([3])), grad=True),
    R("outer", smp(rnd([3]), rnd([2])), smp(rnd([2, 2]), rnd([3])), grad=True),
    R("lerp", smp(T, rnd([2, 3]), 0.3), smp(T, rnd([2, 3]), rnd([3])), inplace="lerp_", grad=True),
    R("isclose", smp(X, X), smp(SPECIAL, SPECIAL, equal_nan=True), smp(X, rnd([3, 4]), rtol=0.5, atol=0.5)),
]

# --- reductions and cumulative ops ------------------------------------------------------------------
_RED = [smp(T), smp(T, axis=1), smp(T, axis=[0, 1], keepdim=True), smp(T, axis=-1, keepdim=True)]
ROWS += [
    R("amax", *_RED, smp(TIES, axis=1, _id="ties"), grad=True),
    R("amin", *_RED, smp(TIES, axis=0, _id="ties"), grad=True),
    R("nansum", smp(WITH_NAN), smp(WITH_NAN, axis=1), smp(I34, axis=0, keepdim=True)),
    R("nanmean", smp(WITH_NAN), smp(WITH_NAN, axis=1), smp(WITH_NAN, axis=0, keepdim=True)),
    R("count_nonzero", smp(I34), smp(I34, axis=1), smp(X, axis=[0, 1], keepdim=True)),
    R("cumprod", smp(T, 1), smp(T, 0), smp(I34, -1), smp(I34, 0, dtype="float64"), inplace="cumprod_", grad=True),
    R("cummax", smp(X), smp(X, axis=1), smp(I34, axis=0, dtype="int32"), grad=True),
    R("cummin", smp(X), smp(X, axis=0), smp(TIES, axis=1)),
    R("logcumsumexp", smp(T), smp(T, axis=1), smp(T, axis=0, dtype="float64"), grad=True),
    R("diff", smp(X), smp(X, n=2, axis=0), smp(X, prepend=rnd([3, 1]), append=rnd([3, 2])), smp(B34, axis=1),
      grad=True),
    R("trapezoid", smp(X), smp(X, dx=0.5, axis=0), smp(X, x=rnd([4], low=0, high=3))),
    R("cumulative_trapezoid", smp(X), smp(X, dx=0.5, axis=0), smp(X, x=rnd([4], low=0, high=3))),
]

# --- views and shapes ------------------------------------------------------------------------------
ROWS += [
    R("view", smp(X, [2, 6]), smp(X, "int32"), static=False),
    R("view_as", smp(X, rnd([6, 2])), static=False),
    R("as_strided", smp(X, [2, 2], [1, 2]), smp(X, [3], [4], 4), static=False,
      errors=[err((np.ones([4], "float32"), [2], [1], 2), ValueError, "bytes")]),
    R("unflatten", smp(rnd([2, 6]), 1, [2, 3]), smp(rnd([2, 6]), -1, [3, -1]), grad=True),
    R("unfold", smp(rnd([2, 7]), 1, 3, 2), smp(rnd([5, 2]), 0, 2, 1)),
    R("moveaxis", smp(rnd([2, 3, 4]), 0, 2), smp(rnd([2, 3, 4]), [0, 1], [2, 0]), grad=True),
    R("rot90", smp(X), smp(X, 2), smp(rnd([2, 3, 4]), -1, [1, 2]), grad=True),
    R("repeat_interleave", smp(X, 2), smp(X, 2, axis=1), smp(rnd([3]), idx(1, 0, 2), axis=0)),
    R("vsplit", smp(rnd([4, 3]), 2), smp(rnd([4, 3]), [1, 3])),
    R("diagonal", smp(X), smp(X, 1), smp(rnd([2, 3, 4]), -1, 1, 2), grad=True),
    R("crop", smp(X, [2, 2], [1, 1]), smp(X, [2, -1], [0, 1]), m=False),
    R("broadcast_tensors", smp([rnd([3, 1]), rnd([1, 4])]), m=False),
    R("atleast_1d", smp(X), smp(rnd([3])), m=False, static=False),
    R("atleast_2d", smp(rnd([3])), smp(X), m=False, static=False),
    R("atleast_3d", smp(rnd([3])), smp(X), smp(rnd([2, 1, 3])), m=False, static=False),
    R("unique_consecutive", smp(idx(1, 1, 2, 2, 3, 1, 1, 2)),
      smp(idx(1, 1, 2, 2, 3, 1, 1, 2), return_inverse=True, return_counts=True),
      smp(idx([1, 2], [1, 2], [3, 4]), axis=0, return_counts=True, dtype="int32")),
]

# --- gather / scatter --------------------------------------------------------------------------------
ROWS += [
    R("take_along_axis", smp(X, idx([0, 2, 1, 3]), 1), smp(X, idx([2], [0]), 0),
      smp(X, idx([1], [0], [2]), 1, broadcast=False), grad=True),
    R("put_along_axis", smp(X, idx([0], [2], [1]), 9.0, 1), smp(X, idx([1, 1, 0, 2]), rnd([1, 4]), 0, "add"),
      smp(X, idx([0], [0], [1]), rnd([3, 1]), 1, "mul"), smp(X, idx([0, 0], [1, 1], [2, 3]), 0.5, 1, "amax", False),
      smp(X, idx([2], [2], [2]), rnd([3, 1]), 1, "mean"), inplace="put_along_axis_"),
    R("take", smp(X, idx([0, 5], [11, -1])), smp(X, idx(13, -14), mode="wrap"), smp(X, idx(13, -2), mode="clip"),
      errors=[err((np.ones([2], "float32"), np.array([0.5])), TypeError, "index")]),
    R("index_add", smp(X, idx(0, 2), 0, rnd([2, 4])), smp(X, idx(1, 1), 1, rnd([3, 2])), inplace="index_add_",
      grad=True),
    R("index_fill", smp(X, idx(0, 2), 0, 2.5), smp(I34, idx(1, 3), 1, -1), inplace="index_fill_"),
    R("index_put", smp(X, [idx(0, 2), idx(1, 3)], rnd([2])), smp(X, [idx(0, 0)], rnd([4]), True),
      inplace="index_put_", static=False),
    R("masked_fill", smp(X, B34, 0.5), smp(I34, B34, const(np.array(7, "int64"))), inplace="masked_fill_"),
    R("select_scatter", smp(X, rnd([4]), 0, 1), smp(X, rnd([3]), 1, -1), grad=True),
    R("diagonal_scatter", smp(X, rnd([3])), smp(X, rnd([3]), 1), smp(rnd([2, 3, 3]), rnd([2, 2]), -1, 1, 2)),
]

# --- creation ----------------------------------------------------------------------------------------
ROWS += [
    R("logspace", smp(0, 2, 5), smp(1.0, -1.0, 3, base=2.0, dtype="float64"), smp(0, 3, 4, dtype="int64"), m=False),
    R("tril_indices", smp(4, 3), smp(4, 4, -1), smp(3, 5, 2, "int32"), m=False),
    R("triu_indices", smp(4, 3), smp(4, None, 1), smp(3, 5, -1, "int32"), m=False),
    R("complex", smp(rnd([3]), rnd([3])), smp(rnd([2, 1], "float64"), rnd([3], "float64")), m=False,
      static=False),
    R("polar", smp(rnd([3], low=0, high=2), rnd([3], low=-3, high=3)), static=False),
    R("vander", smp(rnd([3])), smp(rnd([3]), 4, True), smp(idx(1, 2, 3), 2)),
    R("diagflat", smp(rnd([3])), smp(X, 1), smp(rnd([2]), -2), grad=True),
    R("diag_embed", smp(rnd([2, 3])), smp(rnd([2, 3]), 1, 0, 2)),
    R("combinations", smp(rnd([4])), smp(rnd([3]), 3), smp(idx(1, 2, 3), 2, True)),
    R("as_complex", smp(rnd([3, 2])), static=False),
    R("as_real", smp(C2), static=False),
    R("is_complex", smp(X), smp(C2), ref=lambda x: np.asarray(x.dtype.kind == "c"), static=False, golden=False),
    R("is_floating_point", smp(X), smp(I34), ref=lambda x: np.asarray(x.dtype.kind == "f"), static=False,
      golden=False),
    R("is_integer", smp(X), smp(I34), ref=lambda x: np.asarray(x.dtype.kind == "i"), static=False, golden=False),
    R("tolist", smp(X), smp(I34), ref=lambda x: list(x), static=False, golden=False),
]

# --- search / statistics / linalg-like ---------------------------------------------------------------
ROWS += [
    # static kthvalue ignores keepdim as Paddle's does: checked in tests/api2x/test_paddletest26.py, dygraph here
    R("kthvalue", smp(X, 2), smp(X, 1, axis=0), smp(X, 3, axis=1, keepdim=True), grad=True, static=False),
    R("mode", smp(TIES), smp(TIES, axis=0), smp(TIES, axis=1, keepdim=True)),
    R("searchsorted", smp(SORTED, VALS), smp(SORTED2, const(np.array([[3.0, 8.0], [0.0, 9.0]], "float32")),
                                             right=True), smp(SORTED, VALS, out_int32=True), m=False),
    R("bucketize", smp(VALS, SORTED), smp(VALS, SORTED, right=True), smp(VALS, SORTED, out_int32=True)),
    R("quantile", smp(X, 0.5), smp(X, [0.2, 0.75], axis=1), smp(X, 0.3, axis=[0, 1], keepdim=True), grad=True),
    R("quantile", smp(WITH_NAN, 0.5, axis=1, _id="nan")),
    R("nanquantile", smp(WITH_NAN, 0.5), smp(WITH_NAN, [0.25, 0.5], axis=1), smp(WITH_NAN, 0.4, axis=0,
                                                                                    keepdim=True)),
    R("nanmedian", smp(WITH_NAN), smp(WITH_NAN, axis=1), smp(WITH_NAN, axis=0, keepdim=True), smp(X, axis=[0, 1])),
    R("bincount", smp(idx(1, 2, 2, 5)), smp(idx(1, 2, 2, 5), rnd([4]), minlength=7)),
    R("cdist", smp(rnd([3, 2]), rnd([4, 2])), smp(rnd([3, 2]), rnd([4, 2]), p=1.0), grad=True),
    R("tensordot", smp(rnd([2, 3, 4]), rnd([3, 4, 2])), smp(rnd([2, 3]), rnd([3, 2]), 1),
      smp(rnd([2, 3, 4]), rnd([4, 3, 2]), [[1, 2], [1, 0]]), grad=True),
    R("einsum", smp("ij,jk->ik", rnd([2, 3]), rnd([3, 2])), smp("bij->bji", rnd([2, 3, 2])), m=False),
]

# --- in-place variants that Paddle also exports at `paddle.*` ---------------------------------------
for _n in ("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"):
    ROWS.append(R(_n, smp(I34, rnd([3, 4], "int64", 0, 3), _id="inplace"), inplace=f"{_n}_"))
for _n in ("logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"):
    _a = B34 if _n.startswith("logical") else I34
    ROWS.append(R(_n, smp(_a, _a, _id="inplace"), inplace=f"{_n}_"))

# --- random: shapes / dtypes only ---------------------------------------------------------------------
ROWS += [
    R("standard_normal", smp([2, 3]), smp([4], dtype="float64"), m=False, random=True),
    R("randint_like", smp(X, 5), smp(X, -2, 3, dtype="int32"), m=False, random=True),
    R("poisson", smp(rnd([2, 3], low=0.5, high=3.0)), m=False, random=True),
]
