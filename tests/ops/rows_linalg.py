"""Rows for paddle.linalg, paddle.fft and paddle.signal (issue 12). Rows without `ref` compare with
tests/goldens/ops26.npz (real Paddle 2.6.2, tools/oracle/rec_ops26.py). Decompositions whose factors are unique
only up to signs (eig, eigh, svd, qr) are checked through sign-free quantities in test_linalg_semantics.py; their
rows here compare the parts that are unique."""

from __future__ import annotations

import numpy as np

from optable import rnd
from rows_tensor import R, T, X, const, err, idx, smp, spd

C = "complex64"


def L(name, *smps, **opts):  # noqa: N802 - a row
    """A row of paddle.linalg.<name>; m=True when paddle.Tensor has the method too."""
    return R(f"paddle.linalg.{name}", *smps, **{"m": False, **opts})


def FFT(name, *smps, **opts):  # noqa: N802 - a row
    return R(f"paddle.fft.{name}", *smps, **{"m": False, "static": False, **opts})


def _tri(upper):
    def make(rng):
        a = rng.uniform(0.5, 1.5, (3, 3)) * (1 + 2 * np.eye(3))
        return (np.triu(a) if upper else np.tril(a)).astype("float32")

    return make


def _batch_spd(rng):
    a = rng.uniform(-1, 1, (2, 3, 3))
    return (a @ a.transpose(0, 2, 1) + 3 * np.eye(3)).astype("float64")


def _unit_phase(v, axis):
    """Scale each vector (column for axis=-2, row for axis=-1) so its largest-magnitude entry is real positive."""
    k = np.take_along_axis(v, np.abs(v).argmax(axis=axis)[..., None, :] if axis == -2
                           else np.abs(v).argmax(axis=axis)[..., :, None], axis=axis)
    mag = np.abs(k)
    return v * np.where(mag == 0, 1, np.conj(k) / np.where(mag == 0, 1, mag))  # an all-zero vector stays


def _canon(*kinds):
    """Canonical outputs: "col" / "row" vectors of the output at that position normalised by _unit_phase."""
    def canon(outs):
        return [o if k is None else _unit_phase(np.asarray(o), -2 if k == "col" else -1) for o, k in zip(outs, kinds)]

    return canon


SQ = rnd([3, 3])
EIG4 = const((np.arange(16).reshape(4, 4) % 7 * 0.37 - np.eye(4)).astype("float32"))
TALL = rnd([4, 2])
SIG = rnd([2, 32])
CPLX = const((np.arange(12).reshape(3, 4) * (1 - 0.5j) / 7).astype(C))
HALF = const((np.arange(10).reshape(2, 5) * (0.3 + 1j) / 5).astype(C))
RANK1 = const(np.outer([1.0, 2.0, 3.0], [1.0, -1.0, 0.5]).astype("float32"))

ROWS = [
    L("det", smp(SQ), smp(rnd([2, 3, 3], "float64")), grad=True),
    L("slogdet", smp(SQ), smp(spd), grad=True),
    L("inv", smp(spd), rtol=1e-4, atol=1e-5, grad=True),
    L("norm", smp(T), smp(T, p=1, axis=1)),
    L("cholesky", smp(spd), rtol=1e-4, atol=1e-5),
    L("cholesky_solve", smp(rnd([3, 2]), _tri(False)), smp(rnd([3, 2]), _tri(True), upper=True), m=True, grad=True,
      rtol=1e-4, atol=1e-5),
    L("triangular_solve", smp(_tri(True), rnd([3, 2])), smp(_tri(False), rnd([3, 2]), upper=False, transpose=True),
      smp(_tri(True), rnd([3, 2]), unitriangular=True), grad=True, rtol=1e-4, atol=1e-5),
    L("solve", smp(spd, rnd([3, 2])), smp(spd, rnd([3])), m=True, grad=True, rtol=1e-4, atol=1e-5),
    L("matrix_power", smp(SQ, 3), smp(spd, -2), smp(SQ, 0), m=True, grad=True, rtol=1e-4, atol=1e-5),
    L("matrix_rank", smp(X), smp(RANK1), smp(RANK1, tol=0.1), smp(spd, hermitian=True)),
    L("multi_dot", smp([rnd([2, 3]), rnd([3, 4]), rnd([4, 2])]), smp([rnd([3]), rnd([3, 2]), rnd([2])])),
    L("pinv", smp(X), smp(spd, hermitian=True), smp(RANK1, rcond=1e-3), m=True, rtol=1e-4, atol=1e-5),
    L("cond", smp(spd), smp(spd, p="fro"), smp(spd, p=1), smp(spd, p=-np.inf), smp(X, p=-2), m=True, rtol=1e-4),
    L("cov", smp(X), smp(X, rowvar=False, ddof=False), smp(X, fweights=idx(1, 2, 1, 3)),
      smp(X, aweights=rnd([4], low=0.1, high=1.0)), smp(rnd([5])), m=True, grad=True,
      errors=[err((np.ones([2, 2, 2], "float32"),), ValueError, "cov")]),
    L("corrcoef", smp(X), smp(X, rowvar=False), m=True, grad=True),
    L("eigvalsh", smp(spd), smp(_batch_spd, UPLO="U"), m=True, rtol=1e-4, atol=1e-5,
      errors=[err((np.ones([3, 3], "float32"),), ValueError, "UPLO", UPLO="X")]),
    L("eigvals", smp(const(np.array([[2.0, 1.0], [0.0, 3.0]], "float32"))), smp(EIG4), m=True, static=False),
    L("lstsq", smp(TALL, rnd([4, 3])), smp(SQ, rnd([3, 2]), driver="gelsd"), smp(TALL, rnd([4, 1]), driver="gels"),
      smp(rnd([4, 2], "float64"), rnd([4, 2], "float64"), driver="gelss"), m=True, rtol=1e-4, atol=1e-4),
    L("lu", smp(SQ), smp(rnd([2, 3, 3]), get_infos=True), m=True, static=False),
    L("householder_product", smp(rnd([3, 2]), rnd([2])), smp(rnd([2, 4, 3], "float64"), rnd([2, 3], "float64")),
      m=True),
    R("paddle.linalg.lu_unpack", smp(const(np.array([[4.0, 3.0, 1.0], [0.5, 2.5, -0.5], [0.25, 0.1, 1.75]],
                                                    "float32")), const(np.array([3, 3, 3], "int32"))), m=True),
    # decompositions: vectors compared up to the sign / phase of each one (canon)
    L("eigh", smp(spd), smp(_batch_spd, UPLO="U"), canon=_canon(None, "col"), rtol=1e-4, atol=1e-5),
    L("eig", smp(const(np.array([[2.0, 1.0], [0.5, 3.0]], "float32"))), smp(EIG4), canon=_canon(None, "col"),
      m=True, static=False, rtol=1e-4, atol=1e-5),
    L("svd", smp(X), smp(rnd([2, 4, 3], "float64"), full_matrices=True), canon=_canon("col", None, "row"),
      rtol=1e-4, atol=1e-5),
    L("qr", smp(X), smp(rnd([4, 3]), mode="complete"), smp(X, mode="r"), canon=_canon("col", "row"), m=True,
      rtol=1e-4, atol=1e-5),
]

# --- paddle.fft --------------------------------------------------------------------------------------
for _n in ("fft", "ifft"):
    ROWS.append(FFT(_n, smp(rnd([6])), smp(X, n=6, axis=0, norm="ortho"), smp(CPLX, n=3, norm="forward"),
                    smp(idx(1, 2, 3))))
for _n in ("rfft", "ihfft"):
    ROWS.append(FFT(_n, smp(rnd([6])), smp(X, n=5, axis=0, norm="ortho"), smp(X, norm="forward")))
for _n in ("irfft", "hfft"):
    ROWS.append(FFT(_n, smp(HALF), smp(HALF, n=6, axis=0, norm="ortho"), smp(HALF, norm="forward")))
for _n in ("fft2", "ifft2", "fftn", "ifftn"):
    ROWS.append(FFT(_n, smp(X), smp(CPLX, s=[2, 3], norm="ortho"), smp(rnd([2, 3, 4]), axes=(0, 2))))
for _n in ("rfft2", "ihfft2", "rfftn", "ihfftn"):
    ROWS.append(FFT(_n, smp(X), smp(X, s=[2, 3], norm="ortho"), smp(rnd([2, 3, 4]), axes=(0, 2))))
for _n in ("irfft2", "hfft2", "irfftn", "hfftn"):
    ROWS.append(FFT(_n, smp(CPLX), smp(CPLX, s=[2, 4], norm="ortho"), smp(HALF, axes=(0, 1), norm="forward")))
ROWS += [
    FFT("fftfreq", smp(5), smp(6, 0.5, dtype="float64")),
    FFT("rfftfreq", smp(5), smp(6, 0.5, dtype="float64")),
    FFT("fftshift", smp(X), smp(X, axes=1), smp(rnd([5]))),
    FFT("ifftshift", smp(X), smp(X, axes=[0]), smp(rnd([5]))),
    FFT("fft", smp(rnd([4]), _id="err"), ref=lambda x: np.fft.fft(x), golden=False, rtol=1e-5, atol=1e-5,
        errors=[err((np.ones([4], "float32"),), ValueError, "norm", norm="none"),
                err((np.ones([4], "float32"),), ValueError, "n", n=0)]),
]

# --- paddle.signal -------------------------------------------------------------------------------------
_WIN = const(np.hanning(16).astype("float32"))
SPEC = const(np.fft.rfft(np.random.RandomState(1).uniform(-1, 1, (9, 16)), axis=1).T.astype(C))  # [9 bins, 9 frames]
ROWS += [
    R("paddle.signal.stft", smp(SIG, 16), smp(SIG, 16, 4, 12, center=False, normalized=True),
      smp(SIG, 16, 8, 16, _WIN, pad_mode="constant", onesided=False), m=False, static=False, rtol=1e-4, atol=1e-5),
    R("paddle.signal.istft", smp(SPEC, 16, 4, window=_WIN), smp(SPEC, 16, 4, 16, center=False, length=40),
      smp(SPEC, 16, 4, window=_WIN, normalized=True), m=False, static=False, rtol=1e-4, atol=1e-5),
]


def _np_frame(x, frame_length, hop_length, axis=-1):
    if axis == 0:
        return np.moveaxis(_np_frame(np.moveaxis(x, 0, -1), frame_length, hop_length), (-2, -1), (1, 0))
    count = 1 + (x.shape[-1] - frame_length) // hop_length
    return np.stack([x[..., i * hop_length:i * hop_length + frame_length] for i in range(count)], axis=-1)


def _np_overlap_add(x, hop_length, axis=-1):
    if axis == 0:
        return np.moveaxis(_np_overlap_add(np.moveaxis(x, (0, 1), (-1, -2)), hop_length), -1, 0)
    length, count = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + ((count - 1) * hop_length + length,), x.dtype)
    for i in range(count):
        out[..., i * hop_length:i * hop_length + length] += x[..., i]
    return out


_ONES5 = np.ones([5], "float32")
ROWS += [
    R("paddle.signal.frame", smp(rnd([2, 10]), 4, 2), smp(rnd([10, 3]), 4, 3, axis=0), smp(rnd([9]), 3, 3),
      smp(rnd([2, 7], "int64", -5, 5), 7, 1), m=False, ref=_np_frame, golden=False, grad=True,
      errors=[err((_ONES5, 6, 2), ValueError, "frame_length"), err((_ONES5, 2, 0), ValueError, "hop_length"),
              err((_ONES5, 2, 1), ValueError, "axis", axis=1)]),
    R("paddle.signal.overlap_add", smp(rnd([2, 4, 3]), 2), smp(rnd([3, 4, 2]), 3, axis=0), smp(rnd([3, 5]), 5),
      smp(rnd([4, 3], "int64", -5, 5), 1), m=False, ref=_np_overlap_add, golden=False, grad=True,
      errors=[err((np.ones([3, 2], "float32"), 0), ValueError, "hop_length"),
              err((np.ones([3, 2], "float32"), 1), ValueError, "axis", axis=2)]),
]
