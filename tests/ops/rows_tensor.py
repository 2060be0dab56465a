"""Rows for the `paddle.*` tensor API (issue 5 part A): math, logic, creation, manipulation, linalg, search,
statistics, attributes, random. Rows without `ref` compare with tests/goldens/ops26.npz (real Paddle 2.6.2,
recorded by tools/oracle/rec_ops26.py); full reductions there are 0-D where Paddle 2.4 (and we) give [1]."""

from __future__ import annotations

import numpy as np

from optable import ErrorCase, OpCase, rnd, sample


smp = sample  # one sample: callables (from `rnd`) are drawn from the row's RandomState


def R(api, *smps, m=True, **opts):  # noqa: N802 - a row
    """A row of `paddle.<api>`; m=True: the Tensor method of the same name must agree."""
    name = api.rpartition(".")[2]
    full = api if api.startswith("paddle.") else f"paddle.{api}"
    return OpCase(full, lambda rng: [s(rng, i) for i, s in enumerate(smps)], method=name if m else None, **opts)


def _zero_d() -> bool:
    """API level 2.6 in this process (PADDLE_COMPAT_API_LEVEL): scalar results are 0-D."""
    from paddle_compat.engine.core.api_level import LEVEL

    return LEVEL.zero_d


def const(a):
    return lambda rng: np.asarray(a)


X = rnd([3, 4])
T = rnd([2, 3])  # tiny: gradient checks
POS = rnd([2, 3], low=0.5, high=2.0)
UNIT = rnd([2, 3], low=-0.9, high=0.9)
I34 = rnd([3, 4], "int64", 0, 3)
B34 = rnd([3, 4], "bool")
B34b = rnd([3, 4], "bool")
F64 = rnd([2, 3], "float64")
SPECIAL = const(np.array([[1.0, np.inf, -np.inf], [np.nan, 0.0, -2.5]], "float32"))


def idx(*v):
    return const(np.array(v, "int64"))


def spd(rng):
    a = rng.uniform(-1, 1, (3, 3))
    return (a @ a.T + 3 * np.eye(3)).astype("float32")


def err(args, exc, match="", **kwargs):
    return ErrorCase(args, kwargs, exc, match)


ROWS = []

# --- unary math: name -> input domain; rounding ops have no useful gradient -------------------------
_UNARY = {
    "abs": T, "acos": UNIT, "asin": UNIT, "atan": T, "ceil": X, "cos": T, "cosh": T, "erf": T, "exp": T,
    "floor": X, "log": POS, "log10": POS, "log1p": POS, "log2": POS, "reciprocal": POS, "round": X,
    "rsqrt": POS, "sign": X, "sin": T, "sinh": T, "sqrt": POS, "square": T, "tan": UNIT,
}
_NO_GRAD = {"ceil", "floor", "round", "sign"}
for _n, _dom in _UNARY.items():
    ROWS.append(R(_n, smp(_dom), inplace=f"{_n}_", grad=_n not in _NO_GRAD))
ROWS += [
    R("stanh", smp(T), smp(T, scale_a=1.0, scale_b=2.0), grad=True),
    R("neg", smp(T), grad=True),
]

# --- binary math (functions raise on mixed dtypes; operators cast the right operand) ----------------
_BIN_ERR = [err((rnd([2], "float32")(np.random.RandomState(0)), np.array([1, 2], "int64")), ValueError, "dtype")]
ROWS += [
    R("subtract", smp(X, rnd([4])), smp(I34, I34), inplace="subtract_", grad=True, errors=_BIN_ERR),
    R("multiply", smp(X, rnd([3, 1])), grad=True, errors=_BIN_ERR),
    R("divide", smp(X, rnd([4], low=0.5, high=2)), smp(I34, idx(1, 2, 3, 1)), grad=True),
    R("maximum", smp(X, rnd([3, 4])), grad=True),
    R("minimum", smp(X, rnd([3, 4])), grad=True),
    R("mod", smp(rnd([3, 4], low=-5, high=5), rnd([3, 4], low=0.5, high=2)), smp(I34, idx(1, 2, 3, 2))),
    R("floor_divide", smp(rnd([3, 4], "int64", -9, 9), idx(1, 2, 3, 4))),
    R("pow", smp(POS, 2.0), smp(POS, rnd([2, 3], low=0.5, high=2)), smp(I34, 2), grad=True),
    R("add_n", smp([X, X, X]), m=False),
    R("scale", smp(X, scale=2.0, bias=1.0), smp(X, scale=2.0, bias=1.0, bias_after_scale=False),
      inplace="scale_", grad=True),
    R("clip", smp(X, min=-0.5, max=0.5), smp(X, min=0.0), smp(I34, min=1, max=2), inplace="clip_"),
    R("addmm", smp(rnd([2, 2]), rnd([2, 3]), rnd([3, 2]), beta=0.5, alpha=2.0), grad=True,
      errors=[err((np.ones([2, 2], "float32"), np.ones([2, 3], "float32"), np.ones([2, 2], "float32")),
                  ValueError, "addmm")]),
    R("kron", smp(rnd([2, 2]), rnd([2, 3])), grad=True),
    R("trace", smp(X), smp(X, offset=1), smp(rnd([2, 3, 4]), axis1=1, axis2=2), grad=True),
    R("cumsum", smp(T), smp(T, axis=1), smp(I34, axis=0), smp(I34, axis=-1, dtype="float64"), grad=True),
    R("logsumexp", smp(T), smp(T, axis=1), smp(T, axis=[0, 1], keepdim=True), grad=True),
    R("increment", smp(rnd([1])), smp(rnd([1]), value=3.0), m=False),  # in place: x.increment() mutates x
    R("multiplex", smp([X, rnd([3, 4])], const(np.array([[1], [0], [1]], "int32"))), m=False),
]

# --- reductions ----------------------------------------------------------------------------------
_RED = [smp(T), smp(T, axis=1), smp(T, axis=[0, 1], keepdim=True), smp(T, axis=-1, keepdim=True)]
ROWS += [
    R("sum", *_RED, smp(I34), smp(B34, axis=0), smp(X, dtype="float64"), grad=True),
    R("mean", *_RED, grad=True),
    R("max", *_RED, grad=True),
    R("min", *_RED, grad=True),
    R("prod", *_RED, grad=True),
    R("all", smp(B34), smp(B34, axis=1), smp(B34, axis=0, keepdim=True)),
    R("any", smp(B34), smp(B34, axis=1), smp(B34, axis=0, keepdim=True)),
]

# --- logic -------------------------------------------------------------------------------------------
for _n in ("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"):
    ROWS.append(R(_n, smp(I34, rnd([3, 4], "int64", 0, 3)), smp(X, rnd([4])), errors=_BIN_ERR))
for _n in ("logical_and", "logical_or", "logical_xor"):
    ROWS.append(R(_n, smp(B34, B34b)))
ROWS += [
    R("logical_not", smp(B34)),
    R("equal_all", smp(I34, I34), smp(I34, rnd([3, 4], "int64", 0, 3)), smp(X, rnd([2, 4]))),
    R("allclose", smp(X, X), smp(X, rnd([3, 4])), smp(SPECIAL, SPECIAL, equal_nan=True)),
    R("isfinite", smp(SPECIAL)),
    R("isinf", smp(SPECIAL)),
    R("isnan", smp(SPECIAL)),
    R("is_empty", smp(X), smp(const(np.zeros([0, 3], "float32")))),
    R("is_tensor", smp(X), smp(3.0), ref=lambda x: np.asarray(not isinstance(x, float)), static=False, m=False,
      golden=False),
]

# --- creation ------------------------------------------------------------------------------------
ROWS += [
    R("arange", smp(5), smp(1, 7, 2), smp(0.5, 3.5, 0.5, dtype="float32"), smp(0, 3, 0.5, dtype="float64"), m=False,
      errors=[err((0, 3, 0), ValueError, "step"), err((0, 3, 0.5), ValueError, "step")]),
    # Paddle 2.4: dtype=None is int64 even for float bounds (truncated); 2.5+ would give float32
    R("arange", smp(0.5, 3.7, _id="p24_float_bounds"), ref=lambda s, e: np.arange(0, 3, dtype="int64"), m=False,
      golden=False),
    R("linspace", smp(0, 1, 5), smp(-2.0, 3.0, 4, dtype="float64"), smp(0, 10, 6, dtype="int64"), m=False),
    R("eye", smp(3), smp(2, 4), smp(3, dtype="int64"), m=False, errors=[err((-1,), TypeError, "eye")]),
    R("full", smp([2, 3], 1.5), smp([2], 7, dtype="int64"), smp([2, 2], True, dtype="bool"), m=False),
    R("full_like", smp(X, 2.0), smp(I34, 3), smp(X, 1, dtype="int32"), m=False),
    R("zeros", smp([2, 3]), smp([2], dtype="int64"), m=False),
    R("ones", smp([2, 3]), smp([2], dtype="int32"), m=False),
    R("zeros_like", smp(X), smp(X, dtype="int64"), m=False),
    R("ones_like", smp(I34), smp(X, dtype="float64"), m=False),
    R("empty", smp([2, 3]), smp([2], dtype="int64"), m=False, random=True),
    R("empty_like", smp(X), m=False, random=True),
    R("diag", smp(rnd([3])), smp(rnd([3]), offset=1), smp(rnd([3]), padding_value=9.0), smp(X), smp(X, offset=-1),
      m=False, grad=True),
    R("tril", smp(X), smp(X, diagonal=1), smp(rnd([2, 3, 3]), diagonal=-1), grad=True),
    R("triu", smp(X), smp(X, diagonal=-1), grad=True),
    R("meshgrid", smp(rnd([2]), rnd([3])), smp([rnd([2]), rnd([3]), rnd([4])]), m=False),
    R("assign", smp(X), smp(I34), m=False),
    R("to_tensor", smp(X), smp(I34), ref=lambda x: x, m=False, static=False, golden=False),
    R("cast", smp(X, "int64"), smp(I34, "float32"), smp(X, "bool"), m=False,
      errors=[err((np.ones([2], "float32"), "float7"), TypeError, "float7")]),
]

# --- manipulation --------------------------------------------------------------------------------
ROWS += [
    R("reshape", smp(X, [2, 6]), smp(X, [0, -1]), smp(X, [-1]), inplace="reshape_", grad=True,
      errors=[err((np.ones([3, 4], "float32"), [5, -1]), ValueError, "paddle.reshape")]),
    R("squeeze", smp(rnd([3, 1, 4, 1])), smp(rnd([3, 1, 4, 1]), axis=1), smp(rnd([3, 1, 4, 1]), axis=[0, -1]),
      inplace="squeeze_", grad=True),
    R("unsqueeze", smp(X, 0), smp(X, [0, 3]), smp(X, -1), inplace="unsqueeze_", grad=True),
    R("flatten", smp(rnd([2, 3, 4])), smp(rnd([2, 3, 4]), start_axis=1), smp(rnd([2, 3, 4]), 0, 1),
      inplace="flatten_", grad=True),
    R("transpose", smp(rnd([2, 3, 4]), [2, 0, 1]), grad=True,
      errors=[err((np.ones([2, 3], "float32"), [0, 0]), ValueError, "paddle.transpose")]),
    R("concat", smp([X, X]), smp([X, rnd([3, 2])], axis=1), smp([X, X], axis=-1), m=False,
      errors=[err(([np.ones([3, 4], "float32"), np.ones([2, 3], "float32")],), ValueError, "paddle.concat")]),
    R("stack", smp([X, X]), smp([X, X], axis=-1), m=False,
      errors=[err(([np.ones([3, 4], "float32"), np.ones([2, 4], "float32")],), ValueError, "paddle.stack")]),
    R("split", smp(rnd([4, 6]), 2), smp(rnd([4, 6]), [1, 2, 3], axis=1), smp(rnd([4, 6]), [2, -1], axis=1),
      grad=True, errors=[err((np.ones([3, 4], "float32"), 2), ValueError, "divisible")]),
    R("chunk", smp(rnd([4, 6]), 2), smp(rnd([4, 6]), 3, axis=1), grad=True),
    R("unstack", smp(X), smp(X, axis=1), grad=True),
    R("unbind", smp(X), smp(X, axis=1), grad=True),
    R("expand", smp(rnd([3, 1]), [2, 3, 4]), smp(rnd([3, 1]), [-1, 5]), grad=True,
      errors=[err((np.ones([3, 2], "float32"), [3, 4]), ValueError, "expand")]),
    R("broadcast_to", smp(rnd([1, 4]), [3, 4]), grad=True),
    R("expand_as", smp(rnd([1, 4]), X), grad=True),
    R("tile", smp(rnd([2, 3]), [2, 1]), smp(rnd([2, 3]), [2]), smp(rnd([2, 3]), [2, 1, 2]), grad=True),
    R("flip", smp(X, [0]), smp(X, [0, 1]), smp(X, 1), grad=True),
    R("roll", smp(X, 1), smp(X, [1, -2], axis=[0, 1]), smp(X, 2, axis=1), grad=True),
    R("t", smp(X), smp(rnd([3])), grad=True,
      errors=[err((np.ones([2, 2, 2], "float32"),), ValueError, "paddle.t")]),
    R("gather", smp(X, idx(2, 0)), smp(X, idx(1, 3, 3), axis=1), grad=True,
      errors=[err((np.ones([3], "float32"), np.ones([2], "float32")), TypeError, "index")]),
    R("gather_nd", smp(rnd([3, 4, 2]), idx([0, 1], [2, 3])), smp(rnd([3, 4, 2]), idx([1], [0])), grad=True),
    R("index_select", smp(X, idx(0, 2)), smp(X, idx(3, 1), axis=1), grad=True,
      errors=[err((np.ones([3], "float32"), np.ones([2], "float32")), ValueError, "paddle.index_select")]),
    R("index_sample", smp(X, idx([0, 1], [2, 2], [3, 0])), grad=True),
    R("masked_select", smp(X, B34), grad=True,
      errors=[err((np.ones([2], "float32"), np.ones([2], "float32")), TypeError, "bool")]),
    R("scatter", smp(X, idx(2, 0), rnd([2, 4])), smp(X, idx(1, 1), rnd([2, 4]), overwrite=False),
      inplace="scatter_", grad=True),
    R("scatter_nd_add", smp(X, idx([0, 1], [2, 3], [0, 1]), rnd([3])), smp(X, idx([1], [2]), rnd([2, 4])), grad=True),
    R("scatter_nd", smp(idx([0, 1], [2, 3]), rnd([2]), [3, 4]), smp(idx([1], [1]), rnd([2, 4]), [3, 4]), m=False),
    R("slice", smp(rnd([3, 4, 5]), [0, 2], [1, 0], [3, 3]), smp(rnd([3, 4, 5]), [1], [-3], [100]), grad=True),
    R("strided_slice", smp(rnd([3, 4, 5]), [0, 2], [0, 1], [3, 5], [2, 2]),
      smp(rnd([3, 4, 5]), [1], [-1], [-5], [-1]), grad=True),
    R("shard_index", smp(idx([1], [6], [12], [19]), 20, 2, 0), smp(idx([1], [6], [12], [19]), 20, 2, 1, -2),
      m=False),
    R("unique", smp(idx(3, 1, 1, 2, 5, 3)),
      smp(idx(3, 1, 1, 2, 5, 3), return_index=True, return_inverse=True, return_counts=True),
      smp(idx([1, 2], [0, 1], [1, 2]), axis=0, return_counts=True)),
]

# --- linalg --------------------------------------------------------------------------------------
ROWS += [
    R("mm", smp(rnd([2, 3]), rnd([3, 2])), grad=True),
    R("bmm", smp(rnd([2, 2, 3]), rnd([2, 3, 2])), grad=True,
      errors=[err((np.ones([2, 3], "float32"), np.ones([3, 2], "float32")), ValueError, "3-D")]),
    R("dot", smp(rnd([4]), rnd([4])), grad=True),
    R("dot", smp(T, T, _id="2d"), golden=False,
      ref=lambda x, y: (x * y).sum(-1, keepdims=not _zero_d())),  # [B, 1] in 2.4, [B] in 2.5+
    R("mv", smp(rnd([2, 3]), rnd([3])), grad=True),
    R("cross", smp(rnd([3, 2]), rnd([3, 2])), smp(rnd([2, 3]), rnd([2, 3]), axis=1), grad=True),
    R("dist", smp(T, rnd([2, 3])), smp(T, rnd([3]), p=1), smp(T, rnd([2, 3]), p=float("inf")),
      smp(T, rnd([2, 3]), p=0), grad=True),
    R("norm", smp(T), smp(T, p=1, axis=1), smp(T, p=2, axis=0, keepdim=True), smp(T, p="fro", axis=[0, 1]),
      smp(T, p=float("inf"), axis=1), smp(T, p=1, axis=[0, 1], _id="pair_p1"),
      smp(T, p=3, axis=[0, 1], keepdim=True, _id="pair_p3"), smp(T, p=-float("inf"), axis=[0, 1], _id="pair_ninf"),
      grad=True),
    R("cholesky", smp(spd), smp(spd, upper=True), grad=False, rtol=1e-4, atol=1e-5),
    R("inverse", smp(spd), rtol=1e-4, atol=1e-5),
    R("histogram", smp(rnd([10])), smp(rnd([10]), bins=4, min=-1, max=1), smp(I34, bins=3)),
]

# --- search --------------------------------------------------------------------------------------
ROWS += [
    R("argmax", smp(X), smp(X, axis=1), smp(X, axis=0, keepdim=True), smp(X, axis=1, dtype="int32"),
      errors=[err((np.ones([2], "float32"),), ValueError, "dtype", dtype="float32")]),
    R("argmin", smp(X), smp(X, axis=1), smp(X, axis=-1, keepdim=True)),
    R("argsort", smp(X), smp(X, axis=0), smp(X, descending=True)),
    R("sort", smp(X), smp(X, axis=0), smp(X, descending=True), grad=True),
    R("topk", smp(X, 2), smp(X, 1, axis=0), smp(X, 2, largest=False), grad=True,
      errors=[err((np.ones([2], "float32"), 5), ValueError, "k")]),
    R("where", smp(B34, X, rnd([3, 4])), smp(B34, X, rnd([4])), grad=True,
      errors=[err((np.ones([2], bool), np.ones([2], "float32"), np.ones([2], "float64")), TypeError, "dtype")]),
    R("where", smp(B34, _id="cond"), m=False),
    R("nonzero", smp(B34), smp(X, as_tuple=True), m=False),
]

# --- statistics / attributes ------------------------------------------------------------------------
ROWS += [
    R("std", *_RED, smp(T, unbiased=False), grad=True),
    R("var", *_RED, smp(T, axis=0, unbiased=False), grad=True),
    R("median", smp(X), smp(X, axis=1), smp(rnd([3, 5]), axis=0, keepdim=True), smp(I34, axis=1)),
    R("sum", smp(X, _id="err"), m=False, golden=False, ref=lambda x: np.asarray(x.sum(), "float32").reshape(1),
      errors=[err((np.ones([2, 3], "float32"),), ValueError, "out of range", axis=2)]),
    R("numel", smp(X), smp(rnd([2, 0]))),
    R("shape", smp(X), smp(rnd([2, 1, 3])), m=False),
    R("rank", smp(X), smp(rnd([2, 1, 3])), m=False),
    R("real", smp(const(np.array([1 + 2j, 3 - 1j], "complex64")))),
    R("imag", smp(const(np.array([1 + 2j, 3 - 1j], "complex64")))),
    R("conj", smp(const(np.array([1 + 2j, 3 - 1j], "complex64"))), smp(X)),
]

# --- random: only shapes and dtypes are compared -------------------------------------------------
ROWS += [
    R("rand", smp([2, 3]), smp([4], dtype="float64"), m=False, random=True),
    R("randn", smp([2, 3]), m=False, random=True),
    R("randint", smp(5, shape=[3]), smp(-2, 3, [2, 2], dtype="int32"), m=False, random=True,
      errors=[err((3, 1), ValueError, "high")]),
    R("randperm", smp(5), smp(3, dtype="int32"), m=False, random=True),
    R("uniform", smp([2, 3]), smp([2], dtype="float64", min=2.0, max=3.0), m=False, random=True),
    R("normal", smp(shape=[2, 3]), smp(rnd([2]), rnd([2], low=0.5, high=1.0)), smp(1.0, 2.0, [3]), m=False,
      random=True),
    R("bernoulli", smp(rnd([3, 4], low=0.0, high=1.0)), m=False, random=True),
    R("multinomial", smp(rnd([4], low=0.1, high=1.0), 2), smp(rnd([2, 4], low=0.1, high=1.0), 3, True), m=False,
      random=True),
]
