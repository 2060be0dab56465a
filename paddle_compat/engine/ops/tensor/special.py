"""More elementwise math of python/paddle/tensor/math.py (2.x): inverse hyperbolics, special functions
(lgamma, digamma, polygamma, erfinv, Bessel i0 / i1), degree conversions, and binary ops (atan2, fmax, hypot,
gcd, ldexp, logaddexp, lerp, ...). Tables as in math.py: each row is a Paddle op type and its torch function;
the body and the exports (`paddle.X`, `paddle.Tensor.X`, in-place `X_`) are shared."""

from __future__ import annotations

import math

import torch

from paddle_compat.engine.ops.common import scalar_shape, unary_body
from paddle_compat.engine.framework.registry import op

# Paddle op type -> torch function, for float tensors (Paddle's kernels are float-only here)
UNARY = {
    "acosh": torch.acosh, "asinh": torch.asinh, "atanh": torch.atanh, "expm1": torch.expm1,
    "lgamma": torch.lgamma, "digamma": torch.digamma, "erfinv": torch.erfinv,
    "i0": torch.special.i0, "i0e": torch.special.i0e, "i1": torch.special.i1, "i1e": torch.special.i1e,
}
for _type, _fn in UNARY.items():
    globals()[_type] = op(_type, exports=(f"paddle.{_type}", f"paddle.Tensor.{_type}"),
                          inplace=f"{_type}_")(unary_body(_fn))


def _check_tensor(api: str, **named) -> None:
    for k, v in named.items():
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"{api}: {k} must be a Tensor, but got {type(v).__name__}")


def _check_dtype(api: str, x: torch.Tensor, allowed: tuple, what: str = "x") -> None:
    if x.dtype not in allowed:
        names = ", ".join(str(d).replace("torch.", "") for d in allowed)
        raise TypeError(f"{api}: the dtype of {what} must be one of [{names}], but got "
                        f"{str(x.dtype).replace('torch.', '')}")


_F = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_FI = _F + (torch.int32, torch.int64)


@op("trunc", exports=("paddle.trunc", "paddle.Tensor.trunc"), inplace="trunc_")
def trunc(input, name=None):  # noqa: A002
    return torch.trunc(input) if input.is_floating_point() else input.clone()


@op("frac", exports=("paddle.frac", "paddle.Tensor.frac"), inplace="frac_")
def frac(x, name=None):
    _check_dtype("paddle.frac", x, (torch.int32, torch.int64, torch.float32, torch.float64))
    return torch.frac(x) if x.is_floating_point() else torch.zeros_like(x)


def _scaled(scale, api):
    def body(x, name=None):
        _check_dtype(api, x, _FI)
        if not x.is_floating_point():  # Paddle casts int input to float32
            x = x.to(torch.float32)
        return x * scale

    return body


deg2rad = op("deg2rad", exports=("paddle.deg2rad", "paddle.Tensor.deg2rad"))(
    _scaled(math.pi / 180.0, "paddle.deg2rad"))
rad2deg = op("rad2deg", exports=("paddle.rad2deg", "paddle.Tensor.rad2deg"))(
    _scaled(180.0 / math.pi, "paddle.rad2deg"))


@op("sgn", exports=("paddle.sgn", "paddle.Tensor.sgn"))
def sgn(x, name=None):
    """sign for real x; x / |x| (0 where x is 0) for complex x."""
    _check_dtype("paddle.sgn", x, _F + (torch.complex64, torch.complex128))
    return torch.sgn(x)


@op("angle", exports=("paddle.angle", "paddle.Tensor.angle"))
def angle(x, name=None):
    return torch.angle(x)


@op("logit", exports=("paddle.logit", "paddle.Tensor.logit"), inplace="logit_")
def logit(x, eps=None, name=None):
    return torch.logit(x, eps=eps if eps else None)


@op("polygamma", exports=("paddle.polygamma", "paddle.Tensor.polygamma"), inplace="polygamma_")
def polygamma(x, n, name=None):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"paddle.polygamma: n must be an int, but received {type(n).__name__}")
    if n < 0:
        raise ValueError(f"paddle.polygamma: n must be greater than or equal to 0, but received n = {n}")
    return torch.polygamma(n, x)


@op("multigammaln", exports=("paddle.multigammaln", "paddle.Tensor.multigammaln"), inplace="multigammaln_")
def multigammaln(x, p, name=None):
    """Paddle's formula, for every x (torch.mvlgamma rejects x <= (p - 1) / 2)."""
    if p < 1:
        raise ValueError(f"paddle.multigammaln: p must be greater than or equal to 1, but received p = {p}")
    b = 0.5 * torch.arange(1 - p, 1, dtype=x.dtype, device=x.device)
    return torch.lgamma(x.unsqueeze(-1) + b).sum(-1) + 0.25 * p * (p - 1) * math.log(math.pi)


@op("nan_to_num", exports=("paddle.nan_to_num", "paddle.Tensor.nan_to_num"), inplace="nan_to_num_")
def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    _check_dtype("paddle.nan_to_num", x, (torch.float32, torch.float64))
    return torch.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


@op("frexp", exports=("paddle.frexp", "paddle.Tensor.frexp"))
def frexp(x, name=None):
    """(mantissa, exponent), the exponent in x's dtype as Paddle gives it."""
    _check_dtype("paddle.frexp", x, (torch.float32, torch.float64))
    mantissa, exponent = torch.frexp(x)
    return mantissa, exponent.to(x.dtype)


@op("renorm", exports=("paddle.renorm", "paddle.Tensor.renorm"), inplace="renorm_")
def renorm(x, p, axis, max_norm):
    if not -x.dim() <= axis < x.dim():
        raise ValueError(f"paddle.renorm: axis {axis} is out of range for x of shape {list(x.shape)}")
    return torch.renorm(x, p, axis % x.dim(), max_norm)


# --- binary ----------------------------------------------------------------------------------------
def _atan2(x, y):
    if not x.is_floating_point():  # Paddle's int kernel computes in float64
        x, y = x.to(torch.float64), y.to(torch.float64)
    return torch.atan2(x, y)


def _hypot(x, y):
    _check_tensor("paddle.hypot", x=x, y=y)
    return torch.hypot(x, y)


def _logaddexp(x, y):
    if not x.is_floating_point():
        x, y = x.to(torch.float32), y.to(torch.float32)
    return torch.logaddexp(x, y)


def _ldexp(x, y):
    """x * 2 ** y in float64 if either is float64, else in the default float dtype (Paddle's rule)."""
    _check_tensor("paddle.ldexp", x=x, y=y)
    if y.is_floating_point():
        raise TypeError(f"paddle.ldexp: y must be an integer tensor, but got {str(y.dtype).replace('torch.', '')}")
    d = torch.float64 if torch.float64 in (x.dtype, y.dtype) else torch.get_default_dtype()
    return x.to(d) * torch.pow(torch.tensor(2, dtype=d, device=x.device), y.to(d))


def _int_only(fn, api):
    def f(x, y):
        _check_dtype(api, x, (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64))
        return fn(x, y)

    return f


# Paddle op type -> (torch function, in-place variant)
BINARY = {
    "atan2": (_atan2, None), "fmax": (torch.fmax, None), "fmin": (torch.fmin, None),
    "heaviside": (torch.heaviside, None), "hypot": (_hypot, "hypot_"),
    "gcd": (_int_only(torch.gcd, "paddle.gcd"), "gcd_"), "lcm": (_int_only(torch.lcm, "paddle.lcm"), "lcm_"),
    "ldexp": (_ldexp, "ldexp_"), "logaddexp": (_logaddexp, None), "nextafter": (torch.nextafter, None),
}


def _binary_body(fn):
    def body(x, y, name=None):
        return fn(x, y)

    return body


for _type, (_fn, _ip) in BINARY.items():
    globals()[_type] = op(_type, exports=(f"paddle.{_type}", f"paddle.Tensor.{_type}"), inplace=_ip)(
        _binary_body(_fn))


@op("inner", exports=("paddle.inner", "paddle.Tensor.inner"))
def inner(x, y, name=None):
    if x.numel() == 1 or y.numel() == 1:  # Paddle multiplies when either is a single element
        return x * y
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"paddle.inner: the last dims of x {list(x.shape)} and y {list(y.shape)} must be equal")
    return scalar_shape(torch.inner(x, y))


@op("outer", exports=("paddle.outer", "paddle.Tensor.outer"))
def outer(x, y, name=None):
    return torch.matmul(x.reshape(-1, 1), y.reshape(1, -1))


@op("lerp", exports=("paddle.lerp", "paddle.Tensor.lerp"), inplace="lerp_")
def lerp(x, y, weight, name=None):
    if not isinstance(weight, torch.Tensor):
        weight = torch.tensor(float(weight), dtype=x.dtype, device=x.device)
    return x + weight * (y - x)

