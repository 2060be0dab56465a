"""Random ops (python/paddle/tensor/random.py). They draw from the generator `paddle.seed` sets
(core/runtime.py), so a seeded script is reproducible in our runtime (values differ from Paddle's)."""

from __future__ import annotations

import torch

from paddle_compat.core import dtype as _dt
from paddle_compat.ops.common import as_int, current_device, shape_list
from paddle_compat.ops.registry import op
from paddle_compat.ops.tensor.creation import _dtype_or_default, _gen


@op("bernoulli", exports=("paddle.bernoulli",), random=True, differentiable=False)
def bernoulli(x, name=None):
    return torch.bernoulli(x, generator=_gen())


@op("multinomial", exports=("paddle.multinomial",), random=True, differentiable=False)
def multinomial(x, num_samples=1, replacement=False, name=None):
    if not replacement and num_samples > x.shape[-1]:
        raise ValueError(f"paddle.multinomial: num_samples ({num_samples}) exceeds the number of categories "
                         f"({x.shape[-1]}) while replacement=False")
    return torch.multinomial(x, int(num_samples), replacement=replacement, generator=_gen())


@op("gaussian_random_2x", exports=("paddle.normal",), random=True, differentiable=False)
def normal(mean=0.0, std=1.0, shape=None, name=None):
    if isinstance(mean, torch.Tensor) or isinstance(std, torch.Tensor):
        m = mean if isinstance(mean, torch.Tensor) else torch.tensor(float(mean))
        s = std if isinstance(std, torch.Tensor) else torch.tensor(float(std))
        m, s = torch.broadcast_tensors(m.to(_dt.default_float().torch), s.to(m.dtype if m.is_floating_point()
                                                                           else _dt.default_float().torch))
        return torch.normal(m, s, generator=_gen())
    out = torch.empty(shape_list(shape if shape is not None else [1]), dtype=_dt.default_float().torch,
                      device=current_device())
    return out.normal_(float(mean), float(std), generator=_gen())


@op("uniform_random_2x", exports=("paddle.rand",), random=True, differentiable=False)
def rand(shape, dtype=None, name=None):
    out = torch.empty(shape_list(shape), dtype=_dtype_or_default(dtype), device=current_device())
    return out.uniform_(0.0, 1.0, generator=_gen())


@op("gaussian_random_std", exports=("paddle.randn",), random=True, differentiable=False)
def randn(shape, dtype=None, name=None):
    out = torch.empty(shape_list(shape), dtype=_dtype_or_default(dtype), device=current_device())
    return out.normal_(0.0, 1.0, generator=_gen())


@op("randint", exports=("paddle.randint",), random=True, differentiable=False)
def randint(low=0, high=None, shape=[1], dtype=None, name=None):  # noqa: B006 - Paddle's default
    low = as_int(low)
    if high is None:
        low, high = 0, low
    high = as_int(high)
    if high <= low:
        raise ValueError(f"paddle.randint: high ({high}) must be larger than low ({low})")
    d = _dt.to_dtype(dtype).torch if dtype is not None else torch.int64
    return torch.randint(low, high, shape_list(shape), dtype=d, generator=_gen(), device=current_device())


@op("randperm", exports=("paddle.randperm",), random=True, differentiable=False)
def randperm(n, dtype="int64", name=None):
    return torch.randperm(as_int(n), generator=_gen(), device=current_device()).to(_dt.to_dtype(dtype).torch)
