"""Random ops (python/paddle/tensor/random.py). They draw from the generator `paddle.seed` sets
(engine/core/runtime.py), so a seeded script is reproducible in our runtime (values differ from Paddle's), or, under
paddle_compat.use_paddle_rng(True), from the copy of Paddle's CPU generator (engine/core/paddle_rng.py): Paddle's values."""

from __future__ import annotations

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core import paddle_rng as _prng
from paddle_compat.engine.core.errors import InvalidArgumentError, PreconditionNotMetError
from paddle_compat.engine.ops.common import as_int, current_device, require_kernel_dtype, shape_list
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.ops.tensor.creation import _dtype_or_default, _gen, draw_normal, draw_uniform, normal_fill_


@op("bernoulli", exports=("paddle.bernoulli",), random=True, differentiable=False)
def bernoulli(x, name=None):
    if _prng.ON:  # Paddle's own stream (use_paddle_rng)
        return _prng.t_bernoulli(x)
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
        if _prng.ON:  # Paddle 2.6: standard_normal of mean's shape, * std + mean
            return _prng.t_gaussian(list(m.shape), m.dtype, 0.0, 1.0, device=m.device) * s + m
        if bool((s < 0).any()):  # mean + std * z as Paddle: a negative std mirrors about the mean
            z = torch.normal(m, s.abs(), generator=_gen())
            return torch.where(s < 0, 2 * m - z, z)
        return torch.normal(m, s, generator=_gen())
    return draw_normal(shape_list(shape if shape is not None else [1], "paddle.normal"), _dt.default_float().torch,
                       mean, std)


@op("uniform_random_2x", exports=("paddle.rand",), random=True, differentiable=False)
def rand(shape, dtype=None, name=None):
    return draw_uniform(shape_list(shape, "paddle.rand"), _dtype_or_default(dtype), 0.0, 1.0)


@op("gaussian_random_std", exports=("paddle.randn",), random=True, differentiable=False)
def randn(shape, dtype=None, name=None):
    return draw_normal(shape_list(shape, "paddle.randn"), _dtype_or_default(dtype), 0.0, 1.0)


@op("randint", exports=("paddle.randint",), random=True, differentiable=False)
def randint(low=0, high=None, shape=[1], dtype=None, name=None):  # noqa: B006 - Paddle's default
    low = as_int(low)
    if high is None:
        low, high = 0, low
    high = as_int(high)
    if high <= low:
        raise InvalidArgumentError(f"paddle.randint: high ({high}) must be larger than low ({low})")
    if isinstance(shape, str):  # Paddle 2.6: dygraph fails converting it, static checks the type
        from paddle_compat.engine.core.mode import in_dynamic_mode

        msg = "paddle.randint: shape must be a list, tuple or Tensor, but received str"
        raise AttributeError(msg) if in_dynamic_mode() else TypeError(msg)
    if dtype is not None:  # Paddle's CPU kernels
        require_kernel_dtype("paddle.randint", "randint", dtype, ("int64", "int32"))
    d = _dt.to_dtype(dtype).torch if dtype is not None else torch.int64
    if _prng.ON:
        return _prng.t_randint(low, high, shape_list(shape, "paddle.randint"), d, device=current_device())
    return torch.randint(low, high, shape_list(shape, "paddle.randint"), dtype=d, generator=_gen(), device=current_device())


@op("randperm", exports=("paddle.randperm",), random=True, differentiable=False)
def randperm(n, dtype="int64", name=None):
    require_kernel_dtype("paddle.randperm", "randperm", dtype, ("int32", "int64", "float32", "float64"))
    if as_int(n) < 0:  # Paddle 2.6.2's kernel check
        raise PreconditionNotMetError(f"paddle.randperm: n should be greater than or equal to 0, but received n={n}")
    if _prng.ON:
        return _prng.t_randperm(as_int(n), _dt.to_dtype(dtype).torch, device=current_device())
    return torch.randperm(as_int(n), generator=_gen(), device=current_device()).to(_dt.to_dtype(dtype).torch)


def _like_shape(input, shape, input_dim_idx, output_dim_idx):
    s = [int(d) for d in shape]
    s[output_dim_idx] = int(input.shape[input_dim_idx])
    return s


def _like_infer(input, shape, dtype, input_dim_idx, output_dim_idx, a, b, seed):  # noqa: A002
    from paddle_compat.engine.framework.infer import Spec

    s = [int(d) for d in shape]
    s[output_dim_idx] = input.shape[input_dim_idx]
    return Spec(tuple(s), _dt.to_dtype(dtype))


@op("uniform_random_batch_size_like", random=True, differentiable=False, infer=_like_infer)
def _uniform_like(input, shape, dtype, input_dim_idx, output_dim_idx, a, b, seed):  # noqa: A002
    out = torch.empty(_like_shape(input, shape, input_dim_idx, output_dim_idx), dtype=_dt.to_torch_dtype(dtype),
                      device=input.device)
    return out.uniform_(float(a), float(b), generator=_gen())


@op("gaussian_random_batch_size_like", random=True, differentiable=False, infer=_like_infer)
def _gaussian_like(input, shape, dtype, input_dim_idx, output_dim_idx, a, b, seed):  # noqa: A002
    out = torch.empty(_like_shape(input, shape, input_dim_idx, output_dim_idx), dtype=_dt.to_torch_dtype(dtype),
                      device=input.device)
    return normal_fill_(out, a, b, _gen())


def uniform_random_batch_size_like(input, shape, dtype="float32", input_dim_idx=0, output_dim_idx=0,  # noqa: A002
                                   min=-1.0, max=1.0, seed=0):  # noqa: A002
    """fluid.layers: uniform [min, max) of `shape` with dim output_dim_idx = input's dim input_dim_idx (known when
    the program runs). The numbers come from torch's generator, not Paddle's."""
    return _uniform_like(input, list(shape), dtype, int(input_dim_idx), int(output_dim_idx), min, max, seed)


def gaussian_random_batch_size_like(input, shape, input_dim_idx=0, output_dim_idx=0, mean=0.0, std=1.0,  # noqa: A002
                                    seed=0, dtype="float32"):
    """fluid.layers: normal(mean, std) of `shape` with dim output_dim_idx = input's dim input_dim_idx."""
    return _gaussian_like(input, list(shape), dtype, int(input_dim_idx), int(output_dim_idx), mean, std, seed)


export(uniform_random_batch_size_like, "paddle.fluid.layers.uniform_random_batch_size_like")
export(gaussian_random_batch_size_like, "paddle.fluid.layers.gaussian_random_batch_size_like")


# --- more of python/paddle/tensor/random.py (2.x) --------------------------------------------------
@op("standard_normal", exports=("paddle.standard_normal",), random=True, differentiable=False)
def standard_normal(shape, dtype=None, name=None):
    return draw_normal(shape_list(shape, "paddle.standard_normal"), _dtype_or_default(dtype), 0.0, 1.0)


@op("randint_like", exports=("paddle.randint_like",), random=True, differentiable=False)
def randint_like(x, low=0, high=None, dtype=None, name=None):
    if high is None:
        if low <= 0:
            raise ValueError(f"paddle.randint_like: if high is None, low must be greater than 0, but got {low}")
        low, high = 0, low
    if low >= high:
        raise ValueError(f"paddle.randint_like: low ({low}) must be less than high ({high})")
    if _prng.ON:
        return _prng.t_randint(low, high, list(x.shape), _dt.to_dtype(dtype).torch if dtype is not None else x.dtype,
                               device=x.device)
    out = torch.randint(int(low), int(high), list(x.shape), generator=_gen(), device=x.device)
    return out.to(_dt.to_dtype(dtype).torch if dtype is not None else x.dtype)


@op("poisson", exports=("paddle.poisson",), random=True, differentiable=False)
def poisson(x, name=None):
    if _prng.ON:
        return _prng.t_poisson(x)
    return torch.poisson(x, generator=_gen())


# In-place samplers `x.normal_()`, ...: the draw (x's shape and dtype) replaces x. cauchy_ and geometric_ use
# Paddle's formulas (tan(pi * (n - 0.5)) of a *normal* draw n; log(u) / log1p(-p), not rounded), so their
# statistics follow Paddle's.
def _normal_like(x, mean=0.0, std=1.0, name=None):
    if _prng.ON:
        return _prng.t_gaussian(list(x.shape), x.dtype, mean, std, device=x.device)
    return normal_fill_(torch.empty_like(x), mean, std, _gen())


def _exponential_like(x, lam=1.0, name=None):
    if _prng.ON:
        return _prng.t_exponential(x, lam)
    return torch.empty_like(x).exponential_(float(lam), generator=_gen())


def _cauchy_like(x, loc=0, scale=1, name=None):
    return torch.tan((_normal_like(x) - 0.5) * torch.pi) * scale + loc


def _geometric_like(x, probs, name=None):
    # Paddle: paddle.to_tensor(probs) (the default float dtype) cast to x's
    p = (probs if isinstance(probs, torch.Tensor) else torch.tensor(float(probs), dtype=_dt.default_float().torch)
         ).to(x.dtype)
    if _prng.ON:  # Paddle's x.uniform_(tiny, 1) (its float32 attribute: 0 for float64's tiny)
        u = _prng.t_uniform(list(x.shape), x.dtype, float(torch.finfo(x.dtype).tiny), 1.0, device=x.device)
    else:
        u = torch.empty_like(x).uniform_(float(torch.finfo(x.dtype).tiny), 1.0, generator=_gen())
    return torch.log(u) / torch.log1p(-p)


def _sampler(fn, name):
    from paddle_compat.engine.ops.tensor._helpers import make_inplace_api

    body = op(name.rstrip("_") + "_sample", random=True, differentiable=False)(fn)
    return make_inplace_api(body, name)


normal_ = _sampler(_normal_like, "normal_")
exponential_ = _sampler(_exponential_like, "exponential_")
cauchy_ = _sampler(_cauchy_like, "cauchy_")
geometric_ = _sampler(_geometric_like, "geometric_")
export(normal_, "paddle.normal_", "paddle.Tensor.normal_")
export(exponential_, "paddle.Tensor.exponential_")
export(cauchy_, "paddle.cauchy_", "paddle.Tensor.cauchy_")
export(geometric_, "paddle.geometric_", "paddle.Tensor.geometric_")


@op("top_p_sampling", exports=("paddle.Tensor.top_p_sampling",), random=True,
    differentiable=False)
def top_p_sampling(x, ps, threshold=None, seed=None, name=None):
    """Nucleus sampling per row of x [batch, vocab] (probabilities): draw from the smallest set of most probable
    tokens whose mass reaches ps[i] (tokens below `threshold` excluded). Returns (their probability [batch, 1],
    their id [batch, 1] int64). Paddle 2.6.2 has this kernel on GPU only; the draws here come from torch."""
    if x.dim() != 2:
        raise ValueError(f"paddle.Tensor.top_p_sampling: x must be [batch, vocab], but got shape {list(x.shape)}")
    g = _gen()
    if seed is not None and seed != -1:
        g = torch.Generator(device=x.device)
        g.manual_seed(int(seed))
    probs, order = torch.sort(x, dim=-1, descending=True)
    before = torch.cumsum(probs, -1) - probs  # the mass of the more probable tokens
    keep = before < ps.reshape(-1, 1).to(probs.dtype)
    keep[:, 0] = True
    if threshold is not None:
        keep &= probs >= threshold.reshape(-1, 1).to(probs.dtype)
        keep[:, 0] = True
    weights = torch.where(keep, probs, torch.zeros_like(probs)).to(torch.float32)
    pick = torch.multinomial(weights, 1, generator=g)
    return torch.gather(probs, 1, pick), torch.gather(order, 1, pick)
