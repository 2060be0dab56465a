"""Attribute ops (python/paddle/tensor/attribute.py): shape, rank, real, imag, and conj."""

from __future__ import annotations

import torch

from paddle_compat.engine.ops.common import scalar_shape
from paddle_compat.engine.framework.registry import op


@op("shape", exports=("paddle.shape",), differentiable=False)
def shape(input):  # noqa: A002
    """The runtime shape as an int32 tensor (static mode: known when the program runs)."""
    return torch.tensor(list(input.shape), dtype=torch.int32, device=input.device)


@op("rank", exports=("paddle.rank",), differentiable=False)
def rank(input):  # noqa: A002
    return scalar_shape(torch.tensor(input.dim(), dtype=torch.int32, device=input.device))


def _complex_part(fn, api):
    def body(x, name=None):
        if not x.is_complex():
            raise TypeError(f"{api}: x must be a complex tensor (complex64 / complex128), got {x.dtype}")
        return fn(x).clone()

    return body


real = op("real", exports=("paddle.real", "paddle.Tensor.real"))(_complex_part(torch.real, "paddle.real"))
imag = op("imag", exports=("paddle.imag", "paddle.Tensor.imag"))(_complex_part(torch.imag, "paddle.imag"))


@op("conj", exports=("paddle.conj", "paddle.Tensor.conj"))
def conj(x, name=None):
    return torch.conj(x).resolve_conj() if x.is_complex() else x.clone()


@op("as_complex", exports=("paddle.as_complex", "paddle.Tensor.as_complex"))
def as_complex(x, name=None):
    """[..., 2] float -> [...] complex (real and imaginary parts from the last dim)."""
    if x.dim() == 0 or x.shape[-1] != 2 or x.dtype not in (torch.float32, torch.float64):
        raise ValueError(f"paddle.as_complex: x must be float32 / float64 with a last dim of size 2, but got shape "
                         f"{list(x.shape)} ({str(x.dtype)[6:]})")
    return torch.view_as_complex(x.contiguous()).clone()


@op("as_real", exports=("paddle.as_real", "paddle.Tensor.as_real"))
def as_real(x, name=None):
    """[...] complex -> [..., 2] float."""
    if not x.is_complex():
        raise ValueError(f"paddle.as_real: x must be complex64 / complex128, but got {str(x.dtype)[6:]}")
    return torch.view_as_real(x).clone()
