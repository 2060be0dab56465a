"""paddle.fft (python/paddle/fft.py) on torch.fft: the 1-D, 2-D and N-D transforms share one body per family;
integer input is cast to the default float dtype first, as Paddle does; results never carry torch's lazy
conjugate bit. fftfreq / rfftfreq / fftshift /
ifftshift complete the module."""

from __future__ import annotations

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.ops.common import as_int_list, current_device
from paddle_compat.engine.framework.registry import op

_NORMS = ("forward", "backward", "ortho")
# the 1-D transforms; each also has a 2-D (`fft2`) and an N-D (`fftn`) form: 18 in all
_TRANSFORMS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")


def _prepare(x: torch.Tensor, norm: str, api: str) -> torch.Tensor:
    if norm not in _NORMS:
        raise ValueError(f"{api}: norm should be 'forward', 'backward' or 'ortho', but received {norm!r}")
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(_dt.default_float().torch)
    return x


def _check_n(n, api: str) -> None:
    if n is not None and (not isinstance(n, int) or n <= 0):
        raise ValueError(f"{api}: n should be a positive int, but received {n!r}")


def _one_d(name: str):
    api = f"paddle.fft.{name}"
    fn = getattr(torch.fft, name)

    def body(x, n=None, axis=-1, norm="backward", name=None):
        _check_n(n, api)
        if not isinstance(axis, int) or not -x.dim() <= axis < x.dim():
            raise ValueError(f"{api}: axis should be an int in [-{x.dim()}, {x.dim()}), but received {axis!r}")
        return fn(_prepare(x, norm, api), n=n, dim=axis, norm=norm).resolve_conj()

    return body


def _many_d(name: str, default_axes):
    api = f"paddle.fft.{name}"
    fn = getattr(torch.fft, name)
    two_d = default_axes is not None
    fn_n = getattr(torch.fft, name[:-1] + "n") if two_d else fn  # Paddle: a 2-D transform with axes=None is n-D

    def body(x, s=None, axes=default_axes, norm="backward", name=None):
        if two_d and x.dim() < 2:
            raise ValueError(f"{api}: the rank of x ({x.dim()}) should be >= 2")
        s = None if s is None else as_int_list(s)
        axes = None if axes is None else as_int_list(axes)
        if two_d and ((s is not None and len(s) != 2) or (axes is not None and len(axes) != 2)):
            raise ValueError(f"{api}: s and axes should have 2 elements, but received s={s}, axes={axes}")
        if s is not None and any(d <= 0 for d in s):
            raise ValueError(f"{api}: the FFT sizes s={s} should be positive")
        if s is not None and axes is not None and len(s) != len(axes):
            raise ValueError(f"{api}: s ({s}) and axes ({axes}) should have the same length")
        return (fn if axes is not None else fn_n)(_prepare(x, norm, api), s=s, dim=axes, norm=norm).resolve_conj()

    return body


for _name in _TRANSFORMS:
    globals()[_name] = op(f"fft_{_name}", exports=(f"paddle.fft.{_name}",))(_one_d(_name))
    globals()[f"{_name}2"] = op(f"fft_{_name}2", exports=(f"paddle.fft.{_name}2",))(_many_d(f"{_name}2", (-2, -1)))
    globals()[f"{_name}n"] = op(f"fft_{_name}n", exports=(f"paddle.fft.{_name}n",))(_many_d(f"{_name}n", None))


def _freq(fn, api):
    def body(n, d=1.0, dtype=None, name=None):
        """NOTE: Paddle 2.6.2 ignores `dtype` here (it always uses get_default_dtype()); so do we."""
        if not n or not d:
            raise ValueError(f"{api}: d or n should not be 0")
        return fn(int(n), d=float(d), dtype=_dt.default_float().torch, device=current_device())

    return body


fftfreq = op("fftfreq", exports=("paddle.fft.fftfreq",), differentiable=False)(
    _freq(torch.fft.fftfreq, "paddle.fft.fftfreq"))
rfftfreq = op("rfftfreq", exports=("paddle.fft.rfftfreq",), differentiable=False)(
    _freq(torch.fft.rfftfreq, "paddle.fft.rfftfreq"))


def _shift(fn):
    def body(x, axes=None, name=None):
        return fn(x, dim=None if axes is None else as_int_list(axes))

    return body


fftshift = op("fftshift", exports=("paddle.fft.fftshift",))(_shift(torch.fft.fftshift))
ifftshift = op("ifftshift", exports=("paddle.fft.ifftshift",))(_shift(torch.fft.ifftshift))
