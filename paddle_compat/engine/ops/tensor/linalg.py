"""Linear algebra (python/paddle/tensor/linalg.py): mm, bmm, dot, mv, cross, dist, norm, cholesky, inverse,
histogram. Full reductions give shape [1]; `dot` of 2-D inputs gives [N, 1] (Paddle 2.4's DotInferMeta)."""

from __future__ import annotations

import math

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.common import as_int, as_int_list, scalar_dims, scalar_shape
from paddle_compat.engine.framework.registry import alias, export, op


def _check(cond: bool, msg: str) -> None:
    """Paddle's linalg shape checks are C++ enforce checks: (InvalidArgument), a ValueError."""
    if not cond:
        raise InvalidArgumentError(msg)


@op("mm", exports=("paddle.mm", "paddle.Tensor.mm"))
def mm(input, mat2, name=None):  # noqa: A002
    return torch.matmul(input, mat2)


@op("bmm", exports=("paddle.bmm", "paddle.Tensor.bmm"))
def bmm(x, y, name=None):
    _check(x.dim() == 3 and y.dim() == 3, f"paddle.bmm: x and y must be 3-D, got {list(x.shape)} and {list(y.shape)}")
    _check(x.shape[0] == y.shape[0] and x.shape[2] == y.shape[1],
           f"paddle.bmm: x {list(x.shape)} and y {list(y.shape)} must be [B, M, K] and [B, K, N]")
    return torch.bmm(x, y)


@op("dot", exports=("paddle.dot", "paddle.Tensor.dot"))
def dot(x, y, name=None):
    _check(x.dim() in (1, 2) and list(x.shape) == list(y.shape),
           f"paddle.dot: x and y must be 1-D or 2-D with the same shape, got {list(x.shape)} and {list(y.shape)}")
    # Paddle 2.4's DotInferMeta keeps the reduced dim ([N] -> [1], [B, N] -> [B, 1]); 2.5+ drops it
    return (x * y).sum(-1, keepdim=not LEVEL.zero_d)


@op("mv", exports=("paddle.mv", "paddle.Tensor.mv"))
def mv(x, vec, name=None):
    _check(x.dim() == 2 and vec.dim() == 1 and x.shape[1] == vec.shape[0],
           f"paddle.mv: x must be [M, N] and vec [N], got {list(x.shape)} and {list(vec.shape)}")
    return torch.mv(x, vec)


@op("cross", exports=("paddle.cross", "paddle.Tensor.cross"))
def cross(x, y, axis=9, name=None):
    _check(list(x.shape) == list(y.shape), f"paddle.cross: x {list(x.shape)} and y {list(y.shape)} must match")
    if axis == 9 or axis is None:  # Paddle's DEFAULT_AXIS: the first dim of size 3
        dims = [i for i, d in enumerate(x.shape) if d == 3]
        _check(bool(dims), f"paddle.cross: no dim of size 3 in shape {list(x.shape)}")
        axis = dims[0]
    axis = as_int(axis)
    _check(x.shape[axis] == 3, f"paddle.cross: dim {axis} of shape {list(x.shape)} must be 3")
    return torch.linalg.cross(x, y, dim=axis)


def _vector_norm(x, p, dims, keepdim):
    if p == "fro":
        p = 2.0
    if math.isinf(float(p)):
        return _inf_norm(x, float(p) > 0, dims, keepdim)
    if float(p) == 0:  # the count of non-zeros, with Paddle's zero gradient (torch's has no gradient path)
        dims = tuple(range(x.dim())) if dims is None else tuple(dims)
        return (x != 0).to(x.dtype).sum(dim=dims, keepdim=keepdim) + (x * 0).sum(dim=dims, keepdim=keepdim)
    return torch.linalg.vector_norm(x, ord=float(p), dim=dims, keepdim=keepdim)


def _inf_norm(x, is_max, dims, keepdim):
    """max |x| (min |x| for p=-inf) whose gradient goes in full to every tied extreme, as Paddle's kernel does
    (dx = dout * sign(x) * (|x| == out)); torch splits it among the ties. The value is the extreme itself; the
    masked zero term carries the gradient."""
    a = x.abs()
    dims = tuple(range(x.dim())) if dims is None else tuple(dims)
    m = (torch.amax if is_max else torch.amin)(a, dim=dims, keepdim=True)
    carry = ((a - a.detach()) * (a == m)).sum(dim=dims, keepdim=keepdim)
    return m.detach().reshape(carry.shape) + carry


def _norm_type(a: dict) -> str | None:
    """paddle.norm records frobenius_norm for p='fro' over all axes or two, p_norm otherwise (Paddle 2.4 / 2.6;
    p=+-inf or a number over two axes are several ops there, recorded as our one p_norm)."""
    axis = a.get("axis")
    if a.get("p", "fro") == "fro" and (axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 2)):
        return "frobenius_norm"
    return None


@op("p_norm", exports=("paddle.norm", "paddle.Tensor.norm"), paddle_type=_norm_type)
def norm(x, p="fro", axis=None, keepdim=False, name=None):
    if isinstance(p, str) and p != "fro":
        raise ValueError(f"paddle.norm: p must be 'fro' or a number, got {p!r}")
    if axis is None:
        out = _vector_norm(x, p, None, keepdim)
        return out.reshape([1] * x.dim()) if keepdim else scalar_shape(out)
    axes = as_int_list(axis)
    _check(len(axes) in (1, 2), f"paddle.norm: axis must be an int or a list of 2 ints, got {axis}")
    # NOTE: over two axes Paddle's p-norm is the vector norm of the flattened pair (its p_matrix_norm / inf_norm),
    # not a matrix norm: p=1 sums |x|, p=inf takes max |x|.
    _check(len(axes) == 1 or p != 0, f"paddle.norm: p=0 needs a single axis, got axis={axis}")
    return scalar_shape(_vector_norm(x, p, axes, keepdim))  # a reduction to a scalar gives [1] (2.4)


@op("dist", exports=("paddle.dist", "paddle.Tensor.dist"))
def dist(x, y, p=2, name=None):
    d = (x - y).flatten()
    p = float(p)
    return scalar_shape(_vector_norm(d, p, None, False))


@op("cholesky", exports=("paddle.cholesky", "paddle.Tensor.cholesky"))
def cholesky(x, upper=False, name=None):
    return torch.linalg.cholesky(x, upper=upper)


@op("inverse", exports=("paddle.inverse", "paddle.Tensor.inverse"))
def inverse(x, name=None):
    _check(x.dim() >= 2 and x.shape[-1] == x.shape[-2],
           f"paddle.inverse: x must be a (batch of) square matrix, got shape {list(x.shape)}")
    return torch.linalg.inv(x)


@op("histogram", exports=("paddle.histogram", "paddle.Tensor.histogram"), differentiable=False)
def histogram(input, bins=100, min=0, max=0, name=None):  # noqa: A002
    src = input.flatten().to(torch.float64)
    lo, hi = float(min), float(max)
    if hi < lo:  # Paddle's infermeta check
        raise InvalidArgumentError(f"paddle.histogram: max ({max}) must be larger than or equal to min ({min})")
    if lo == hi and src.numel():  # any equal pair (not only 0, 0) means the data's range, as Paddle's kernel
        lo, hi = float(src.min()), float(src.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return torch.histc(src, bins=int(bins), min=lo, max=hi).to(torch.int64)


# --- paddle.linalg (2.x) -----------------------------------------------------------------------------
# paddle.linalg.norm / cholesky / inv are paddle.norm / cholesky / inverse (one object in Paddle, too)
alias("paddle.norm", "paddle.linalg.norm")
alias("paddle.cholesky", "paddle.linalg.cholesky")
alias("paddle.inverse", "paddle.linalg.inv")


def _square(api: str, x: torch.Tensor) -> None:
    _check(x.dim() >= 2 and x.shape[-1] == x.shape[-2],
           f"{api}: x must be a (batch of) square matrix, but got shape {list(x.shape)}")


def _matrix(api: str, x: torch.Tensor) -> None:
    _check(x.dim() >= 2, f"{api}: x must be a (batch of) matrix of rank >= 2, but got shape {list(x.shape)}")


@op("determinant", exports=("paddle.linalg.det",))
def det(x, name=None):
    _square("paddle.linalg.det", x)
    return scalar_shape(torch.linalg.det(x))


@op("slogdeterminant", exports=("paddle.linalg.slogdet",))
def slogdet(x, name=None):
    """sign and log|det| stacked into one tensor [2, *batch], as Paddle returns them."""
    _square("paddle.linalg.slogdet", x)
    sign, logabs = torch.linalg.slogdet(x)
    return torch.stack([sign.to(logabs.dtype), logabs], 0)


def _geev(x):
    """LAPACK's geev as Paddle's CPU kernel calls it: eigenvalues in the order reference LAPACK's QR iteration
    finds them. Paddle links the reference LAPACK; torch's CPU build calls MKL's geev, whose order differs where
    eigenvalues are close in some sense (PaddleTest linalg/test_eig.py::test_eig2: a batch of (3+4j) * rand(3, 3)),
    so on CPU the factorization goes through numpy's LAPACK (OpenBLAS: the reference LAPACK routines), which lists
    them as Paddle does there (and on 276 of 300 random complex and real matrices against torch's 272: the rest
    are ties whose order depends on BLAS rounding). Meta tensors (static shape inference) and GPU use torch."""
    if x.device.type != "cpu":
        return torch.linalg.eig(x)
    cdt = x.dtype if x.is_complex() else (torch.complex64 if x.dtype == torch.float32 else torch.complex128)
    w, v = np.linalg.eig(x.detach().numpy())
    return torch.from_numpy(np.ascontiguousarray(w)).to(cdt), torch.from_numpy(np.ascontiguousarray(v)).to(cdt)


class _Eig(torch.autograd.Function):
    """eig with Paddle's backward (EigGradKernel): the usual formula gA = V^-H (diag(gL) + (V^H gV -
    V^H V Re(diag(V^H gV))) / conj(L_j - L_i)) V^H, without torch's check that the loss ignores the eigenvectors'
    phases (Paddle does not check: `paddle.grad(eig(x), x)` seeds every output with ones and gets a gradient)."""

    @staticmethod
    def forward(ctx, x):
        w, v = _geev(x)
        ctx.save_for_backward(w, v)
        ctx.real_input = not x.is_complex()
        return w, v

    @staticmethod
    def backward(ctx, gw, gv):
        w, v = ctx.saved_tensors
        vh = v.mH
        ga = torch.zeros_like(v) if gv is None else vh @ gv
        if gv is not None:
            ga = ga - vh @ (v * ga.diagonal(0, -2, -1).real.unsqueeze(-2))
        econj = w.conj().unsqueeze(-2) - w.conj().unsqueeze(-1)
        econj.diagonal(0, -2, -1).fill_(1)
        ga = ga / econj
        ga.diagonal(0, -2, -1).copy_(torch.zeros_like(w) if gw is None else gw)
        gx = torch.linalg.solve(vh, ga @ vh)
        return gx.real if ctx.real_input else gx


@op("eig", exports=("paddle.linalg.eig", "paddle.Tensor.eig"))
def eig(x, name=None):
    _square("paddle.linalg.eig", x)
    if x.requires_grad and torch.is_grad_enabled():
        return tuple(_Eig.apply(x))
    return tuple(_geev(x))  # a plain tuple: dispatch wraps tuples, not torch.return_types


@op("eigvals", exports=("paddle.linalg.eigvals", "paddle.Tensor.eigvals"), differentiable=False)
def eigvals(x, name=None):
    """The eigenvalues in the order Paddle lists them: its kernel hands the row-major matrix to LAPACK's geev,
    which sees x transposed (same eigenvalues, another order than eig's)."""
    _square("paddle.linalg.eigvals", x)
    return torch.linalg.eigvals(x.mT)


def _uplo(api: str, uplo: str) -> str:
    _check(uplo in ("L", "U"), f"{api}: UPLO must be 'L' or 'U', but got {uplo!r}")
    return uplo


@op("eigh", exports=("paddle.linalg.eigh",))
def eigh(x, UPLO="L", name=None):  # noqa: N803 - Paddle's name
    _square("paddle.linalg.eigh", x)
    return tuple(torch.linalg.eigh(x, UPLO=_uplo("paddle.linalg.eigh", UPLO)))


@op("eigvalsh", exports=("paddle.linalg.eigvalsh", "paddle.eigvalsh", "paddle.Tensor.eigvalsh"))
def eigvalsh(x, UPLO="L", name=None):  # noqa: N803 - Paddle's name
    _square("paddle.linalg.eigvalsh", x)
    return torch.linalg.eigvalsh(x, UPLO=_uplo("paddle.linalg.eigvalsh", UPLO))


@op("svd", exports=("paddle.linalg.svd",))
def svd(x, full_matrices=False, name=None):
    _matrix("paddle.linalg.svd", x)
    return tuple(torch.linalg.svd(x, full_matrices=full_matrices))


@op("qr", exports=("paddle.linalg.qr", "paddle.Tensor.qr"))
def qr(x, mode="reduced", name=None):
    _matrix("paddle.linalg.qr", x)
    _check(mode in ("reduced", "complete", "r"), f"paddle.linalg.qr: mode must be 'reduced', 'complete' or 'r', "
                                                  f"but got {mode!r}")
    q, r = torch.linalg.qr(x, mode=mode)
    return r if mode == "r" else (q, r)


@op("solve", exports=("paddle.linalg.solve", "paddle.Tensor.solve"))
def solve(x, y, name=None):
    _square("paddle.linalg.solve", x)
    return torch.linalg.solve(x, y)


@op("triangular_solve", exports=("paddle.linalg.triangular_solve",))
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """Solve x @ out = y (x^T @ out = y with transpose=True) for a triangular x."""
    _square("paddle.linalg.triangular_solve", x)
    if transpose:
        x, upper = x.mT, not upper
    return torch.linalg.solve_triangular(x, y, upper=upper, unitriangular=unitriangular)


@op("cholesky_solve", exports=("paddle.linalg.cholesky_solve", "paddle.Tensor.cholesky_solve"))
def cholesky_solve(x, y, upper=False, name=None):
    """Solve A @ out = x where y is A's Cholesky factor (lower, or upper with upper=True). Only y's triangle is
    read, so only it gets a gradient (as in Paddle)."""
    _square("paddle.linalg.cholesky_solve", y)
    return torch.cholesky_solve(x, y.triu() if upper else y.tril(), upper=upper)


@op("matrix_power", exports=("paddle.linalg.matrix_power", "paddle.Tensor.matrix_power"))
def matrix_power(x, n, name=None):
    _square("paddle.linalg.matrix_power", x)
    return torch.linalg.matrix_power(x, int(n))


@op("matrix_rank", exports=("paddle.linalg.matrix_rank",), differentiable=False)
def matrix_rank(x, tol=None, hermitian=False, name=None):
    """Singular values above tol count (default: max(m, n) * eps * the largest one)."""
    _matrix("paddle.linalg.matrix_rank", x)
    if tol is None:
        out = torch.linalg.matrix_rank(x, hermitian=hermitian)
    else:  # singular values above tol (a number, or a tensor broadcast against the batch)
        sv = torch.linalg.eigvalsh(x).abs() if hermitian else torch.linalg.svdvals(x)
        tol = tol.to(sv.dtype).unsqueeze(-1) if isinstance(tol, torch.Tensor) else float(tol)
        out = (sv > tol).sum(-1)
    return scalar_shape(out.to(torch.int32))


@op("multi_dot", exports=("paddle.linalg.multi_dot", "paddle.Tensor.multi_dot"))
def multi_dot(x, name=None):
    _check(len(x) >= 2, f"paddle.linalg.multi_dot: x must hold at least 2 tensors, but got {len(x)}")
    return scalar_shape(torch.linalg.multi_dot(list(x)))


@op("pinv", exports=("paddle.linalg.pinv", "paddle.Tensor.pinv"))
def pinv(x, rcond=1e-15, hermitian=False, name=None):
    _matrix("paddle.linalg.pinv", x)
    return torch.linalg.pinv(x, rtol=rcond, hermitian=hermitian)


@op("cond", exports=("paddle.linalg.cond", "paddle.Tensor.cond"))
def cond(x, p=None, name=None):
    _matrix("paddle.linalg.cond", x)
    _check(p in (None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf),
           f"paddle.linalg.cond: p must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but got {p!r}")
    if p not in (None, 2, -2):
        _square("paddle.linalg.cond", x)
    return scalar_shape(torch.linalg.cond(x, p))


def _lstsq_infer(x, y, rcond=None, driver=None, name=None):
    """Residuals exist only for full-rank m > n problems (data-dependent); rank and singular values per driver."""
    from paddle_compat.engine.framework.infer import Spec

    batch, (m, n), k = tuple(x.shape[:-2]), x.shape[-2:], y.shape[-1]
    driver = driver or "gelsy"
    return (Spec(batch + (n, k), x.dtype), Spec((-1,) * (len(batch) + 1), x.dtype),
            Spec((0,) if driver == "gels" else (batch or scalar_dims()), _dt.int32),
            Spec((0,) if driver in ("gels", "gelsy") else batch + (min(m, n) if m >= 0 and n >= 0 else -1,), x.dtype))


@op("lstsq", exports=("paddle.linalg.lstsq", "paddle.Tensor.lstsq"), infer=_lstsq_infer)
def lstsq(x, y, rcond=None, driver=None, name=None):
    """(solution, residuals, rank, singular_values) as Paddle gives them on CPU: the default driver is gelsy;
    gels gives no rank, gels / gelsy no singular values (empty tensors); rank is int32."""
    api = "paddle.linalg.lstsq"
    _check(driver in (None, "gels", "gelss", "gelsd", "gelsy"),
           f"{api}: driver must be 'gels', 'gelss', 'gelsd', 'gelsy' or None on CPU, but got {driver!r}")
    _check(x.dtype == y.dtype and x.dtype in (torch.float32, torch.float64),
           f"{api}: x and y must have the same dtype, float32 or float64")
    _check(x.dim() >= 2 and y.dim() >= 2, f"{api}: x (*, M, N) and y (*, M, K) must have rank >= 2")
    _check(x.shape[-2] == y.shape[-2], f"{api}: x {list(x.shape)} and y {list(y.shape)} must have the same M")
    driver = driver or "gelsy"
    if rcond is None:
        rcond = (1e-7 if x.dtype == torch.float32 else 1e-15) * max(x.shape[-2], x.shape[-1])
    sol, res, rank, sv = torch.linalg.lstsq(x, y, rcond=rcond, driver=driver)
    m, n = x.shape[-2], x.shape[-1]
    if res.numel() == 0 and m > n and driver != "gels":
        full = rank.min() == n if rank.numel() else True
        if full:  # Paddle reports residuals for every full-rank m > n solve
            res = ((x @ sol - y) ** 2).sum(-2)
    empty = x.new_empty([0])
    return (sol, res, empty.to(torch.int32) if driver == "gels" else scalar_shape(rank.to(torch.int32)),
            empty if driver in ("gels", "gelsy") else sv)


@op("lu", exports=("paddle.linalg.lu", "paddle.Tensor.lu"))
def lu(x, pivot=True, get_infos=False, name=None):
    """(LU, pivots) or (LU, pivots, infos); pivots are 1-based int32 as in LAPACK."""
    _matrix("paddle.linalg.lu", x)
    _check(pivot, "paddle.linalg.lu: pivot=False is not supported on CPU (as in Paddle)")
    lu_, piv, info = torch.linalg.lu_factor_ex(x, pivot=pivot)
    piv = piv.to(torch.int32)
    return (lu_, piv, info.to(torch.int32).reshape(x.shape[:-2] or [1])) if get_infos else (lu_, piv)


@op("lu_unpack", exports=("paddle.linalg.lu_unpack", "paddle.Tensor.lu_unpack"))
def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """(P, L, U) from lu's output, with x = P @ L @ U."""
    p, low, up = torch.lu_unpack(x, y.to(torch.int32), unpack_data=True, unpack_pivots=True)
    return p, low, up


@op("householder_product", exports=("paddle.linalg.householder_product", "paddle.Tensor.householder_product"))
def householder_product(x, tau, name=None):
    _matrix("paddle.linalg.householder_product", x)
    return torch.linalg.householder_product(x, tau)


@op("pca_lowrank", exports=("paddle.linalg.pca_lowrank", "paddle.Tensor.pca_lowrank"), random=True)
def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    _matrix("paddle.linalg.pca_lowrank", x)
    from paddle_compat.engine.ops.tensor.creation import _gen

    g = _gen()
    state = torch.random.get_rng_state()
    if g is not None:  # torch.pca_lowrank draws from the global generator: seed it from ours
        torch.random.manual_seed(int(torch.randint(0, 2 ** 62, (1,), generator=g)))
    try:
        return tuple(torch.pca_lowrank(x, q=q, center=center, niter=niter))
    finally:
        if g is not None:
            torch.random.set_rng_state(state)


def _cov_infer(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """The weights' values are checked when the program runs; the shape depends on x alone."""
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.tensor._helpers import default_infer

    return default_infer(OPS["cov"], (x, rowvar, ddof), {})


@op("cov", exports=("paddle.linalg.cov", "paddle.Tensor.cov"), infer=_cov_infer)
def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """Paddle's formula (numpy's): rows are variables unless rowvar=False; ddof is a bool (subtract 1)."""
    api = "paddle.linalg.cov"
    _check(1 <= x.dim() <= 2, f"{api}: x must be 1-D or 2-D, but got shape {list(x.shape)}")
    nx = x.reshape(1, -1) if x.dim() == 1 else x
    if not rowvar and nx.shape[0] != 1:
        nx = nx.t()
    n = nx.shape[1]
    w = None
    if fweights is not None:
        _check(fweights.dim() <= 1 and fweights.shape[0] == n,
               f"{api}: fweights must be 1-D with {n} elements, but got shape {list(fweights.shape)}")
        _check(bool((fweights >= 0).all()), f"{api}: fweights must not be negative")
        _check(bool((fweights == fweights.double().round()).all()), f"{api}: fweights must be integers")
        w = fweights.to(nx.dtype)
    if aweights is not None:
        _check(aweights.dim() <= 1 and aweights.shape[0] == n,
               f"{api}: aweights must be 1-D with {n} elements, but got shape {list(aweights.shape)}")
        _check(bool((aweights >= 0).all()), f"{api}: aweights must not be negative")
        aw = aweights.to(nx.dtype)
        w = aw if w is None else w * aw
    w_sum = torch.tensor(float(n), dtype=nx.dtype, device=x.device) if w is None else w.sum()
    _check(w is None or float(w_sum) != 0, f"{api}: the sum of the weights is zero, it cannot be normalized")
    nx_w = nx if w is None else nx * w
    avg = nx_w.sum(1) / w_sum
    if w is not None and aweights is not None and ddof:
        factor = w_sum - (w * aweights.to(nx.dtype)).sum() / w_sum
    else:
        factor = w_sum - int(ddof)
    factor = torch.clamp(factor, min=0)
    nx = nx - avg.unsqueeze(1)
    return scalar_shape((nx @ nx_w.t().conj() / factor).squeeze())


@op("corrcoef", exports=("paddle.linalg.corrcoef", "paddle.Tensor.corrcoef"))
def corrcoef(x, rowvar=True, name=None):
    _check(1 <= x.dim() <= 2, f"paddle.linalg.corrcoef: x must be 1-D or 2-D, but got shape {list(x.shape)}")
    c = cov.__wrapped__(x, rowvar)
    if c.numel() == 1:
        return c / c
    d = torch.diagonal(c)
    std = torch.sqrt(d.real if d.is_complex() else d)
    c = c / std[:, None] / std[None, :]
    if c.is_complex():
        return torch.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


@op("cdist", exports=("paddle.cdist", "paddle.Tensor.cdist"))
def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    _check(x.dim() >= 2 and y.dim() >= 2 and x.shape[-1] == y.shape[-1],
           f"paddle.cdist: x [*, P, M] and y [*, R, M] must have rank >= 2 and the same M, got {list(x.shape)} "
           f"and {list(y.shape)}")
    return torch.cdist(x, y, p=float(p), compute_mode=compute_mode)


def _bincount_infer(x, weights=None, minlength=0, name=None):
    from paddle_compat.engine.framework.infer import Spec

    return Spec((-1,), x.dtype if weights is None else weights.dtype)  # max(x) + 1 bins: data-dependent


@op("bincount", exports=("paddle.bincount", "paddle.Tensor.bincount"), differentiable=False, infer=_bincount_infer)
def bincount(x, weights=None, minlength=0, name=None):
    if x.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"paddle.bincount: x must be int32 or int64, but got {str(x.dtype)[6:]}")
    out = torch.bincount(x, weights=weights, minlength=int(minlength))
    if weights is None:
        return out.to(x.dtype)
    return out.to(weights.dtype)


@op("tensordot", exports=("paddle.tensordot", "paddle.Tensor.tensordot"))
def tensordot(x, y, axes=2, name=None):
    """axes: an int n (x's last n dims with y's first n), a list of x's axes (the same for y), or [x_axes,
    y_axes]; the shorter list is extended from the longer one, as in Paddle."""
    if isinstance(axes, torch.Tensor):
        axes = axes.tolist()
    if isinstance(axes, int):
        _check(axes >= 0, f"paddle.tensordot: axes must not be negative, got {axes}")
        ax, ay = list(range(x.dim() - axes, x.dim())), list(range(axes))
    elif not axes or isinstance(axes[0], int):
        ax, ay = list(axes), []
    else:
        ax, ay = list(axes[0]), list(axes[1]) if len(axes) > 1 else []
    if len(ax) < len(ay):
        ax += ay[len(ax):]
    elif len(ay) < len(ax):
        ay += ax[len(ay):]
    for a, b in zip(ax, ay):  # a size-1 dim contracts with the other side's sum
        if x.shape[a] == 1 and y.shape[b] != 1:
            y = y.sum(b, keepdim=True)
        elif y.shape[b] == 1 and x.shape[a] != 1:
            x = x.sum(a, keepdim=True)
    return torch.tensordot(x, y, dims=(ax, ay))


def einsum(equation, *operands):
    """paddle.einsum(equation, *operands): torch's einsum, one op per call."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _einsum(equation, list(operands))


@op("einsum")
def _einsum(equation, operands):
    return torch.einsum(equation, *operands)


export(einsum, "paddle.einsum")
