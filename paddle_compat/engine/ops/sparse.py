"""paddle.sparse (python/paddle/sparse/*) on torch's sparse COO / CSR tensors.

A sparse paddle.Tensor holds a torch sparse tensor (`SparseTensor`, a Tensor that prints indices and values as
Paddle does). Value-wise unary ops map the stored values and keep the pattern; binary elementwise ops work on the
union of the two patterns (Paddle's merge kernels: a value missing on one side is 0 there); reshape / slice /
transpose rewrite COO indices (CSR goes through COO). matmul, masked_matmul, mv and addmm work on CPU here
(Paddle 2.6.2 has only GPU kernels for them)."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.framework.tensor import Tensor, to_tensor
from paddle_compat.engine.ops.common import as_int_list
from paddle_compat.engine.framework.registry import alias, export, op, partial

_CSR, _COO = torch.sparse_csr, torch.sparse_coo
_TORCH_NOTICES = ("Sparse CSR tensor support is in beta", "Sparse invariant checks are implicitly disabled")


def _quiet(fn):
    """Run a body without torch's notices about its sparse support (CSR "beta", unchecked invariants): they are
    not the user's business."""

    @functools.wraps(fn)
    def body(*args, **kwargs):
        with warnings.catch_warnings():
            for msg in _TORCH_NOTICES:
                warnings.filterwarnings("ignore", message=msg, category=UserWarning)
            return fn(*args, **kwargs)

    return body


class SparseTensor(Tensor):
    """A paddle.Tensor holding a torch sparse COO / CSR tensor."""

    __slots__ = ()

    def numpy(self) -> np.ndarray:
        raise ValueError("paddle.Tensor.numpy: a sparse tensor has no numpy() (Paddle crashes on it); call "
                         "to_dense() first")

    def __repr__(self) -> str:
        t, sg = self._t, self.stop_gradient
        head = f"Tensor(shape={self.shape}, dtype={self.dtype}, place={self.place}, stop_gradient={sg}, \n"
        if t.layout == _COO:
            parts = [("indices", t._indices()), ("values", t._values())]
        else:
            parts = [("crows", t.crow_indices()), ("cols", t.col_indices()), ("values", t.values())]
        return head + ", \n".join(f"       {k}={_np_str(v, 8 + len(k))}" for k, v in parts) + ")"

    __str__ = __repr__


def _np_str(t: torch.Tensor, indent: int) -> str:
    return np.array2string(t.detach().cpu().numpy(), separator=", ", prefix=" " * indent)


def _as_sparse(r):
    if isinstance(r, Tensor) and r._t.layout != torch.strided:
        r.__class__ = SparseTensor
    elif isinstance(r, (list, tuple)):
        for x in r:
            _as_sparse(x)
    return r


def _sparse_public(public):
    """The exported function: the op's public callable, sparse results as SparseTensor."""

    @functools.wraps(public)
    def f(*args, **kwargs):
        return _as_sparse(public(*args, **kwargs))

    return f


def sparse_op(type_: str, *exports: str):
    """@op for a paddle.sparse body, exported with sparse results shown as sparse tensors."""

    def deco(fn):
        public = op(type_)(_quiet(fn))
        f = _sparse_public(public)
        f.body = fn  # the torch body, for other bodies to call
        export(f, *exports)
        return f

    return deco


# --- layout helpers -----------------------------------------------------------------------------------
def _check_sparse(api: str, x: torch.Tensor) -> None:
    if not isinstance(x, torch.Tensor) or x.layout not in (_COO, _CSR):
        raise TypeError(f"{api}: x must be a sparse COO or CSR tensor (see paddle.sparse.sparse_coo_tensor / "
                        f"Tensor.to_sparse_coo)")


def _coo_parts(x: torch.Tensor):
    """(indices, values) of a COO tensor in its stored order; a tensor that needs gradients is coalesced first
    (torch differentiates values() of coalesced tensors only), which sorts the indices."""
    if x.is_coalesced() or x.requires_grad:
        x = x.coalesce()
        return x.indices(), x.values()
    return x._indices(), x._values()


def _to_coo(x: torch.Tensor) -> torch.Tensor:
    return x.to_sparse_coo() if x.layout == _CSR else x


def _like(layout, coo: torch.Tensor) -> torch.Tensor:
    """coo in the layout of the input it came from."""
    return coo.coalesce().to_sparse_csr() if layout == _CSR else coo


def _map_values(x: torch.Tensor, fn) -> torch.Tensor:
    if x.layout == _CSR:
        return torch.sparse_csr_tensor(x.crow_indices(), x.col_indices(), fn(x.values()), x.shape)
    idx, vals = _coo_parts(x)
    coalesced = x.is_coalesced() or x.requires_grad
    return torch.sparse_coo_tensor(idx, fn(vals), x.shape, is_coalesced=coalesced or None)


# --- creation -----------------------------------------------------------------------------------------
def _values_tensor(values, dtype, place, stop_gradient):
    v = values if isinstance(values, Tensor) else to_tensor(values, dtype=dtype, place=place)
    if dtype is not None:
        v = v.astype(dtype)
    v = Tensor._wrap(v._t.detach() if stop_gradient else v._t)
    v.stop_gradient = stop_gradient
    return v


def _index_tensor(api: str, v, place) -> Tensor:
    t = v if isinstance(v, Tensor) else to_tensor(v, place=place)
    if t.dtype.name not in ("int8", "int16", "int32", "int64", "uint8"):
        raise TypeError(f"{api}: indices must be an integer tensor, but got {t.dtype.name}")
    return t


@op("sparse_coo_tensor", differentiable=True)
@_quiet
def _coo_body(indices, values, shape):
    return torch.sparse_coo_tensor(indices.long(), values, shape)


def sparse_coo_tensor(indices, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """A COO tensor from indices [sparse_dim, nnz] and values [nnz, *dense_dims]; shape defaults to the smallest
    that holds them."""
    api = "paddle.sparse.sparse_coo_tensor"
    idx = _index_tensor(api, indices, place)
    vals = _values_tensor(values, dtype, place, stop_gradient)
    if len(idx.shape) != 2:
        raise ValueError(f"{api}: indices must be 2-D [sparse_dim, nnz], but got shape {idx.shape}")
    if idx.shape[1] != vals.shape[0]:
        raise ValueError(f"{api}: indices and values must have the same number of non-zeros, but got "
                         f"{idx.shape[1]} and {vals.shape[0]}")
    min_shape = (idx._t.amax(1) + 1).tolist() if idx.shape[1] else [0] * idx.shape[0]
    min_shape += vals.shape[1:]
    if shape is None:
        shape = min_shape
    else:
        shape = as_int_list(shape)
        if len(shape) != idx.shape[0] + len(vals.shape) - 1:
            raise ValueError(f"{api}: len(shape) must be sparse_dim ({idx.shape[0]}) + dense_dim "
                             f"({len(vals.shape) - 1}), but got shape {shape}")
        if any(s < m for s, m in zip(shape, min_shape)):
            raise ValueError(f"{api}: the minimum shape required is {min_shape}, but got {shape}")
    return _as_sparse(_coo_body(idx, vals, shape))


@op("sparse_csr_tensor", differentiable=True)
@_quiet
def _csr_body(crows, cols, values, shape):
    if len(shape) == 3:  # Paddle concatenates the batch's crows; torch wants them [batch, rows + 1]
        b = shape[0]
        return torch.sparse_csr_tensor(crows.long().reshape(b, -1), cols.long().reshape(b, -1),
                                       values.reshape(b, -1), shape)
    return torch.sparse_csr_tensor(crows.long(), cols.long(), values, shape)


def sparse_csr_tensor(crows, cols, values, shape, dtype=None, place=None, stop_gradient=True):
    """A CSR matrix (or a batch: shape [B, M, N], crows of the batch concatenated) from crows / cols / values."""
    api = "paddle.sparse.sparse_csr_tensor"
    crows, cols = _index_tensor(api, crows, place), _index_tensor(api, cols, place)
    vals = _values_tensor(values, dtype, place, stop_gradient)
    shape = as_int_list(shape)
    if len(shape) not in (2, 3):
        raise ValueError(f"{api}: only 2-D or 3-D matrices are supported, but got shape {shape}")
    if len(crows.shape) != 1 or len(cols.shape) != 1 or len(vals.shape) != 1:
        raise ValueError(f"{api}: crows, cols and values must be 1-D")
    if cols.shape[0] != vals.shape[0]:
        raise ValueError(f"{api}: cols ({cols.shape[0]}) and values ({vals.shape[0]}) must have the same length")
    rows = shape[-2]
    if len(shape) == 2:
        c = crows._t
        if c.shape[0] != rows + 1 or int(c[0]) != 0 or int(c[-1]) != vals.shape[0]:
            raise ValueError(f"{api}: crows must have rows + 1 = {rows + 1} entries from 0 to nnz = {vals.shape[0]}, "
                             f"but got {c.tolist()}")
    elif crows.shape[0] != shape[0] * (rows + 1) or vals.shape[0] % shape[0]:
        raise ValueError(f"{api}: a batch of CSR matrices needs {shape[0]} x (rows + 1) crows and the same number "
                         f"of non-zeros in every matrix")
    return _as_sparse(_csr_body(crows, cols, vals, shape))


export(sparse_coo_tensor, "paddle.sparse.sparse_coo_tensor")
export(sparse_csr_tensor, "paddle.sparse.sparse_csr_tensor")
partial("paddle.sparse.sparse_csr_tensor", "a batch (3-D) needs the same number of non-zeros in every matrix")


# --- conversions and queries (Tensor methods) -------------------------------------------------------------
@sparse_op("to_sparse_coo", "paddle.Tensor.to_sparse_coo")
def to_sparse_coo(x, sparse_dim):
    return x.to_sparse_coo().coalesce() if x.layout == _CSR else x.to_sparse(int(sparse_dim)).coalesce()


@sparse_op("to_sparse_csr", "paddle.Tensor.to_sparse_csr")
def to_sparse_csr(x):
    if x.layout == _COO:
        x = x.coalesce()
    return x.to_sparse_csr()


@op("to_dense", exports=("paddle.Tensor.to_dense",))
def to_dense(x):
    return x.to_dense() if x.layout != torch.strided else x


@sparse_op("sparse_indices", "paddle.Tensor.indices")
def indices(x):
    _check_sparse("paddle.Tensor.indices", x)
    return _coo_parts(x)[0] if x.layout == _COO else _coo_parts(x.to_sparse_coo())[0]


@sparse_op("sparse_values", "paddle.Tensor.values")
def values(x):
    _check_sparse("paddle.Tensor.values", x)
    return _coo_parts(x)[1] if x.layout == _COO else x.values().reshape(-1)


@sparse_op("sparse_crows", "paddle.Tensor.crows")
def crows(x):
    if x.layout != _CSR:
        raise TypeError("paddle.Tensor.crows: x must be a sparse CSR tensor")
    return x.crow_indices().reshape(-1)


@sparse_op("sparse_cols", "paddle.Tensor.cols")
def cols(x):
    if x.layout != _CSR:
        raise TypeError("paddle.Tensor.cols: x must be a sparse CSR tensor")
    return x.col_indices().reshape(-1)


def _query(name, fn):
    def method(self):
        return fn(self._t)

    method.__name__ = method.__qualname__ = name
    export(method, f"paddle.Tensor.{name}")


_query("is_sparse", lambda t: t.layout in (_COO, _CSR))
_query("is_sparse_coo", lambda t: t.layout == _COO)
_query("is_sparse_csr", lambda t: t.layout == _CSR)
_query("nnz", lambda t: int(t._nnz()) if t.layout == _COO else int(t.values().numel()))


def is_same_shape(x, y):
    """Whether two (dense or sparse) tensors have the same shape."""
    return list(x.shape) == list(y.shape)


export(is_same_shape, "paddle.sparse.is_same_shape", "paddle.Tensor.is_same_shape")


@sparse_op("sparse_coalesce", "paddle.sparse.coalesce", "paddle.Tensor.coalesce")
def coalesce(x, name=None):
    """Sort the indices and sum the values of duplicates."""
    if x.layout != _COO:
        raise TypeError("paddle.sparse.coalesce: x must be a sparse COO tensor")
    return x.coalesce()


# --- unary ----------------------------------------------------------------------------------------------
def _unary(fn):
    def body(x, name=None):
        _check_sparse("paddle.sparse", x)
        return _map_values(x, fn)

    return body


def _to_float(fn):
    return lambda v: fn(v if v.is_floating_point() else v.to(torch.float32))


UNARY = {
    "abs": torch.abs, "asin": torch.asin, "asinh": torch.asinh, "atan": torch.atan, "atanh": torch.atanh,
    "expm1": torch.expm1, "isnan": torch.isnan, "log1p": torch.log1p, "neg": torch.neg, "sin": torch.sin,
    "sinh": torch.sinh, "sqrt": torch.sqrt, "square": torch.square, "tan": torch.tan, "tanh": torch.tanh,
    "deg2rad": _to_float(torch.deg2rad), "rad2deg": _to_float(torch.rad2deg),
}
for _name, _fn in UNARY.items():
    globals()[_name] = sparse_op(f"sparse_{_name}", f"paddle.sparse.{_name}")(_unary(_fn))


@sparse_op("sparse_pow", "paddle.sparse.pow")
def pow(x, factor, name=None):  # noqa: A001 - Paddle's name
    _check_sparse("paddle.sparse.pow", x)
    return _map_values(x, lambda v: torch.pow(v, factor))


@sparse_op("sparse_cast", "paddle.sparse.cast")
def cast(x, index_dtype=None, value_dtype=None, name=None):
    """New index dtype (COO indices / CSR crows and cols) and value dtype. torch keeps indices int64 (int32 for
    CSR only), so a COO index_dtype other than int64 is recorded on the coverage page."""
    _check_sparse("paddle.sparse.cast", x)
    if value_dtype is not None:
        x = _map_values(x, lambda v: v.to(_dt.to_dtype(value_dtype).torch))
    if index_dtype is not None and x.layout == _CSR:
        d = _dt.to_dtype(index_dtype).torch
        x = torch.sparse_csr_tensor(x.crow_indices().to(d), x.col_indices().to(d), x.values(), x.shape)
    return x


partial("paddle.sparse.cast", "COO indices stay int64 (torch's only COO index dtype)")


# --- shape ops through COO indices --------------------------------------------------------------------
def _dense_dims(x: torch.Tensor) -> int:
    return x.dense_dim() if x.layout == _COO else 0


@sparse_op("sparse_reshape", "paddle.sparse.reshape")
def reshape(x, shape, name=None):
    """Linear positions of the stored elements are kept (sparse dims only; 0 copies a dim, -1 is inferred)."""
    from paddle_compat.engine.ops.tensor.manipulation import _paddle_reshape_shape

    _check_sparse("paddle.sparse.reshape", x)
    layout, coo = x.layout, _to_coo(x).coalesce()
    new = _paddle_reshape_shape(torch.empty(x.shape, device="meta"), shape)
    if -1 in new:
        known = int(np.prod([d for d in new if d != -1]))
        new = [x.numel() // max(known, 1) if d == -1 else d for d in new]
    idx, vals = _coo_parts(coo)
    strides = torch.tensor(torch.empty(x.shape, device="meta").stride(), device=idx.device).unsqueeze(1)
    flat = (idx * strides).sum(0)
    new_idx = torch.stack(torch.unravel_index(flat, tuple(new)), 0) if flat.numel() else \
        idx.new_empty((len(new), 0))
    return _like(layout, torch.sparse_coo_tensor(new_idx, vals, new))


@sparse_op("sparse_transpose", "paddle.sparse.transpose")
def transpose(x, perm, name=None):
    _check_sparse("paddle.sparse.transpose", x)
    perm = as_int_list(perm)
    if sorted(p % x.dim() for p in perm) != list(range(x.dim())):
        raise ValueError(f"paddle.sparse.transpose: perm {perm} is not a permutation of x's {x.dim()} dims")
    layout, coo = x.layout, _to_coo(x)
    idx, vals = _coo_parts(coo)
    perm = [p % x.dim() for p in perm]
    out = torch.sparse_coo_tensor(idx[perm], vals, [x.shape[p] for p in perm]).coalesce()
    return _like(layout, out)


@sparse_op("sparse_slice", "paddle.sparse.slice")
def slice(x, axes, starts, ends, name=None):  # noqa: A001 - Paddle's name
    """Keep the stored elements inside [start, end) of each axis (negative and too-large bounds clamp)."""
    _check_sparse("paddle.sparse.slice", x)
    layout, coo = x.layout, _to_coo(x).coalesce()
    idx, vals = _coo_parts(coo)
    shape = list(x.shape)
    keep = torch.ones(idx.shape[1], dtype=torch.bool, device=idx.device)
    lo = [0] * x.dim()
    for a, s, e in zip(as_int_list(axes), as_int_list(starts), as_int_list(ends)):
        a %= x.dim()
        n = x.shape[a]
        s, e = (s + n if s < 0 else s), (e + n if e < 0 else e)
        s, e = min(max(s, 0), n), min(max(e, 0), n)
        keep &= (idx[a] >= s) & (idx[a] < e)
        lo[a], shape[a] = s, max(e - s, 0)
    off = torch.tensor(lo, device=idx.device).unsqueeze(1)
    return _like(layout, torch.sparse_coo_tensor(idx[:, keep] - off, vals[keep], shape))


@sparse_op("sparse_sum", "paddle.sparse.sum")
def sum(x, axis=None, dtype=None, keepdim=False, name=None):  # noqa: A001 - Paddle's name
    """A sparse result in x's layout; a full sum gives shape [1] (keepdim, or CSR: all ones)."""
    _check_sparse("paddle.sparse.sum", x)
    dense = x.to_dense()
    if dtype is not None:
        dense = dense.to(_dt.to_dtype(dtype).torch)
    elif dense.dtype in (torch.bool, torch.int32):
        dense = dense.to(torch.int64)
    if axis is None:  # a CSR result keeps x's rank (CSR is 2-D or 3-D)
        out = dense.sum().reshape([1] * x.dim() if keepdim or x.layout == _CSR else [1])
    else:
        out = dense.sum(dim=as_int_list(axis), keepdim=keepdim)
    if x.layout == _CSR and out.dim() in (2, 3):
        return out.to_sparse_csr()
    return out.to_sparse()


# --- binary: the union of both patterns ----------------------------------------------------------------
def _elementwise(fn, api):
    def body(x, y, name=None):
        if not isinstance(y, torch.Tensor) or y.layout == torch.strided:
            if x.layout == torch.strided:
                raise TypeError(f"{api}: x or y must be sparse")
            return fn(x.to_dense(), y)  # sparse with dense: a dense result, as Paddle's kernels give
        _check_sparse(api, x)
        if list(x.shape) != list(y.shape):
            raise ValueError(f"{api}: x {list(x.shape)} and y {list(y.shape)} must have the same shape")
        layout = x.layout
        cx, cy = _to_coo(x).coalesce(), _to_coo(y).coalesce()
        ix, vx = _coo_parts(cx)
        iy, vy = _coo_parts(cy)
        union = torch.sparse_coo_tensor(torch.cat([ix, iy], 1), torch.zeros(ix.shape[1] + iy.shape[1],
                                        dtype=vx.dtype, device=vx.device), x.shape).coalesce().indices()
        dense_x, dense_y = cx.to_dense(), cy.to_dense()
        pos = tuple(union)
        return _like(layout, torch.sparse_coo_tensor(union, fn(dense_x[pos], dense_y[pos]), x.shape))

    return body


BINARY = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div}
for _name, _fn in BINARY.items():
    globals()[_name] = sparse_op(f"sparse_{_name}", f"paddle.sparse.{_name}")(
        _elementwise(_fn, f"paddle.sparse.{_name}"))


@sparse_op("sparse_matmul", "paddle.sparse.matmul")
def matmul(x, y, name=None):
    """sparse @ dense -> dense; sparse @ sparse -> sparse (CSR if x is CSR)."""
    if x.layout == torch.strided and y.layout == torch.strided:
        raise TypeError("paddle.sparse.matmul: x or y must be sparse")
    if y.layout != torch.strided:
        out = torch.matmul(x.to_dense(), y.to_dense()) if x.dim() == 3 else torch.sparse.mm(_to_coo(x), _to_coo(y))
        out = out.to_sparse() if out.layout == torch.strided else out
        return _like(x.layout, _to_coo(out))
    return torch.matmul(x.to_dense(), y) if x.dim() == 3 else torch.sparse.mm(x, y)


@sparse_op("sparse_masked_matmul", "paddle.sparse.masked_matmul")
def masked_matmul(x, y, mask, name=None):
    """Dense x @ dense y at mask's stored positions only: a sparse result with mask's pattern and layout."""
    _check_sparse("paddle.sparse.masked_matmul", mask)
    prod = torch.matmul(x, y)
    pos = tuple(_coo_parts(_to_coo(mask))[0])  # CSR values are in the row-major order of its COO form
    return _map_values(mask, lambda v: prod[pos])


@sparse_op("sparse_mv", "paddle.sparse.mv")
def mv(x, vec, name=None):
    _check_sparse("paddle.sparse.mv", x)
    return torch.mv(x.to_dense() if x.layout == _CSR else x, vec)


@sparse_op("sparse_addmm", "paddle.sparse.addmm")
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):  # noqa: A002 - Paddle's name
    """beta * input + alpha * (x @ y), in input's layout."""
    prod = matmul.body(x, y)
    prod = prod.to_dense() if prod.layout != torch.strided else prod
    out = beta * input.to_dense() + alpha * prod
    if input.layout == _CSR:
        return out.to_sparse_csr()
    return out.to_sparse() if input.layout == _COO else out


alias("paddle.linalg.pca_lowrank", "paddle.sparse.pca_lowrank")
