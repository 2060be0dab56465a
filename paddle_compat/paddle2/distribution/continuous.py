"""Normal, Uniform, Cauchy, Laplace, Beta and Dirichlet (Paddle's formulas, parameters as in base.to_param)."""

from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np
import torch

from paddle_compat.paddle2.distribution.base import (Distribution, ExponentialFamily, broadcast_shape, call, check_shape,
                                             dtype_name, fn, gen, is_tensor, sample_call, shape_of, to_param)
from paddle_compat.engine.framework.registry import EXPORTS, export

_D = "paddle.distribution."


def _pair(api: str, a: Any, b: Any) -> tuple:
    """Two parameters: Tensors stay; numbers / arrays are converted together, as Paddle's _to_tensor."""
    a = float(a) if isinstance(a, int) and not isinstance(a, bool) else a
    b = float(b) if isinstance(b, int) and not isinstance(b, bool) else b
    if is_tensor(a) != is_tensor(b):
        raise ValueError(f"{api}: if one argument is Tensor, all arguments should be Tensor")
    if is_tensor(a):
        return a, b, dtype_name(a), False
    floats = isinstance(a, float) and isinstance(b, float)
    dtype = "float32"
    for v in (a, b):
        if isinstance(v, np.ndarray) and str(v.dtype) in ("float32", "float64"):
            dtype = str(v.dtype)
            break
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    a, b = (np.broadcast_to(np.asarray(v, dtype), shape) for v in (a, b))
    return to_param(a, api, dtype), to_param(b, api, dtype), dtype, floats


# ------------------------------------------------------------------------------------------------ Normal
@fn
def normal_sample(loc, scale, shape, reshape_to_shape):
    batch = torch.broadcast_shapes(loc.shape, scale.shape)
    out = torch.empty(list(shape) + list(batch), dtype=loc.dtype, device=loc.device).normal_(generator=gen())
    out = out * scale + loc
    return out.reshape(list(shape)) if reshape_to_shape else out


@fn
def normal_entropy(loc, scale):
    zero = torch.zeros(torch.broadcast_shapes(loc.shape, scale.shape), dtype=loc.dtype, device=loc.device)
    return 0.5 + zero + (0.5 * math.log(2 * math.pi) + torch.log(scale + zero))


@fn
def normal_log_prob(loc, scale, value):
    value = value.to(loc.dtype)
    return -1.0 * ((value - loc) * (value - loc)) / (2.0 * scale * scale) - (torch.log(scale) +
                                                                               math.log(math.sqrt(2.0 * math.pi)))


@fn
def normal_probs(loc, scale, value):
    value = value.to(loc.dtype)
    return torch.exp(-1.0 * ((value - loc) * (value - loc)) / (2.0 * scale * scale)) / (math.sqrt(2 * math.pi) * scale)


@fn
def normal_kl(loc, scale, other_loc, other_scale):
    ratio = (scale / other_scale) ** 2
    t1 = ((loc - other_loc) / other_scale) ** 2
    return 0.5 * ratio + 0.5 * (t1 - 1.0 - torch.log(ratio))


@fn
def square(x):
    return x * x


class Normal(Distribution):
    """paddle.distribution.Normal(loc, scale, name=None)"""

    def __init__(self, loc: Any, scale: Any, name: str | None = None) -> None:
        self.name = name or "Normal"
        self.loc, self.scale, self.dtype, self.all_arg_is_float = _pair(_D + "Normal", loc, scale)
        super().__init__(broadcast_shape(shape_of(self.loc), shape_of(self.scale)))

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def variance(self) -> Any:
        return call("square", self.scale)

    def sample(self, shape: Iterable[int] = (), seed: int = 0) -> Any:
        shape = check_shape(f"{_D}Normal.sample", shape)
        return sample_call("normal_sample", self.loc, self.scale, attrs=(shape, self.all_arg_is_float))

    def rsample(self, shape: Iterable[int] = ()) -> Any:
        shape = check_shape(f"{_D}Normal.rsample", shape)
        return sample_call("normal_sample", self.loc, self.scale, attrs=(shape, False), reparameterized=True)

    def entropy(self) -> Any:
        return call("normal_entropy", self.loc, self.scale)

    def log_prob(self, value: Any) -> Any:
        return call("normal_log_prob", self.loc, self.scale, self._value(value, self.loc))

    def probs(self, value: Any) -> Any:
        return call("normal_probs", self.loc, self.scale, self._value(value, self.loc))

    def kl_divergence(self, other: "Normal") -> Any:
        return call("normal_kl", self.loc, self.scale, other.loc, other.scale)


# ------------------------------------------------------------------------------------------------ Uniform
@fn
def uniform_sample(low, high, shape, reshape_to_shape):
    batch = torch.broadcast_shapes(low.shape, high.shape)
    u = torch.empty(list(shape) + list(batch), dtype=low.dtype, device=low.device).uniform_(0.0, 1.0, generator=gen())
    out = u * (high - low) + low
    return out.reshape(list(shape)) if reshape_to_shape else out


@fn
def uniform_log_prob(low, high, value):
    value = value.to(low.dtype)
    inside = ((low < value) & (value < high)).to(value.dtype)
    return torch.log(inside) - torch.log(high - low)


@fn
def uniform_probs(low, high, value):
    value = value.to(low.dtype)
    return ((low < value) & (value < high)).to(value.dtype) / (high - low)


@fn
def log_diff(low, high):
    return torch.log(high - low)


class Uniform(Distribution):
    """paddle.distribution.Uniform(low, high, name=None): [low, high)."""

    def __init__(self, low: Any, high: Any, name: str | None = None) -> None:
        self.name = name or "Uniform"
        self.low, self.high, self.dtype, self.all_arg_is_float = _pair(_D + "Uniform", low, high)
        super().__init__(broadcast_shape(shape_of(self.low), shape_of(self.high)))

    def sample(self, shape: Iterable[int], seed: int = 0) -> Any:
        shape = check_shape(f"{_D}Uniform.sample", shape)
        return sample_call("uniform_sample", self.low, self.high, attrs=(shape, self.all_arg_is_float))

    def log_prob(self, value: Any) -> Any:
        return call("uniform_log_prob", self.low, self.high, self._value(value, self.low))

    def probs(self, value: Any) -> Any:
        return call("uniform_probs", self.low, self.high, self._value(value, self.low))

    def entropy(self) -> Any:
        return call("log_diff", self.low, self.high)


# ------------------------------------------------------------------------------------------------ 2.x-style pairs
def _real_pair(api: str, a: Any, b: Any) -> tuple:
    """Cauchy / Laplace / Gumbel parameters: a number becomes a float32 [1] tensor; both broadcast."""
    a = to_param(float(a), api) if isinstance(a, (int, float)) and not isinstance(a, bool) else a
    b = to_param(float(b), api) if isinstance(b, (int, float)) and not isinstance(b, bool) else b
    if not is_tensor(a) or not is_tensor(b):
        raise TypeError(f"{api}: Expected type of loc and scale is Real|Tensor, but got {type(a)} and {type(b)}")
    shape = broadcast_shape(shape_of(a), shape_of(b))
    if shape_of(a) != shape or shape_of(b) != shape:
        a, b = EXPORTS["paddle"]["broadcast_to"](a, list(shape)), EXPORTS["paddle"]["broadcast_to"](b, list(shape))
    return a, b, shape


@fn
def cauchy_sample(loc, scale, shape):
    u = torch.empty(list(shape) + list(loc.shape), dtype=loc.dtype, device=loc.device).uniform_(generator=gen())
    return loc + scale * torch.tan(math.pi * (u - 0.5))


@fn
def cauchy_log_prob(loc, scale, value):
    value = value.to(loc.dtype)
    return -torch.log1p(((value - loc) / scale) ** 2) - (math.log(math.pi) + torch.log(scale))


@fn
def cauchy_cdf(loc, scale, value):
    return torch.atan((value.to(loc.dtype) - loc) / scale) / math.pi + 0.5


@fn
def cauchy_entropy(loc, scale):
    return math.log(4 * math.pi) + torch.log(scale)


@fn
def cauchy_kl(loc, scale, other_loc, other_scale):
    return torch.log((scale + other_scale) ** 2 + (loc - other_loc) ** 2) - torch.log(4 * scale * other_scale)


class Cauchy(Distribution):
    """paddle.distribution.Cauchy(loc, scale, name=None): no mean or variance."""

    def __init__(self, loc: Any, scale: Any, name: str | None = None) -> None:
        self.name = name or "Cauchy"
        self.loc, self.scale, shape = _real_pair(_D + "Cauchy", loc, scale)
        self.dtype = self.loc.dtype
        super().__init__(shape)

    @property
    def mean(self) -> Any:
        raise ValueError("Cauchy distribution has no mean.")

    @property
    def variance(self) -> Any:
        raise ValueError("Cauchy distribution has no variance.")

    @property
    def stddev(self) -> Any:
        raise ValueError("Cauchy distribution has no stddev.")

    def sample(self, shape: Iterable[int], name: str | None = None) -> Any:
        return sample_call("cauchy_sample", self.loc, self.scale, attrs=(check_shape(f"{_D}Cauchy.sample", shape),))

    def rsample(self, shape: Iterable[int], name: str | None = None) -> Any:
        return sample_call("cauchy_sample", self.loc, self.scale, attrs=(check_shape(f"{_D}Cauchy.rsample", shape),),
                           reparameterized=True)

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def log_prob(self, value: Any) -> Any:
        return call("cauchy_log_prob", self.loc, self.scale, self._value(value, self.loc))

    def cdf(self, value: Any) -> Any:
        return call("cauchy_cdf", self.loc, self.scale, self._value(value, self.loc))

    def entropy(self) -> Any:
        return call("cauchy_entropy", self.loc, self.scale)

    def kl_divergence(self, other: "Cauchy") -> Any:
        return call("cauchy_kl", self.loc, self.scale, other.loc, other.scale)


@fn
def laplace_sample(loc, scale, shape):
    eps = 2.22045e-16 if loc.dtype == torch.float64 else 1.19209e-07
    u = torch.empty(list(shape) + list(loc.shape), dtype=loc.dtype, device=loc.device)
    u.uniform_(float(np.nextafter(-1, 1)) + eps / 2, 1.0 - eps / 2, generator=gen())
    return loc - scale * u.sign() * torch.log1p(-u.abs())


@fn
def laplace_log_prob(loc, scale, value):
    return -torch.log(2 * scale) - torch.abs(value.to(scale.dtype) - loc) / scale


@fn
def laplace_cdf(loc, scale, value):
    d = value.to(scale.dtype) - loc
    return 0.5 - 0.5 * d.sign() * torch.expm1(-d.abs() / scale)


@fn
def laplace_icdf(loc, scale, value):
    term = value.to(scale.dtype) - 0.5
    return loc - scale * term.sign() * torch.log1p(-2 * term.abs())


@fn
def laplace_entropy(loc, scale):
    return 1 + torch.log(2 * scale) + 0 * loc


@fn
def laplace_stddev(scale):
    return 2 ** 0.5 * scale


@fn
def laplace_kl(loc, scale, other_loc, other_scale):
    t = torch.abs(loc - other_loc)
    return (scale * torch.exp(-t / scale) + t) / other_scale + torch.log(other_scale / scale) - 1


class Laplace(Distribution):
    """paddle.distribution.Laplace(loc, scale)"""

    def __init__(self, loc: Any, scale: Any) -> None:
        self.loc, self.scale, shape = _real_pair(_D + "Laplace", loc, scale)
        super().__init__(shape)

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def stddev(self) -> Any:
        return call("laplace_stddev", self.scale)

    @property
    def variance(self) -> Any:
        return call("square", self.stddev)

    def log_prob(self, value: Any) -> Any:
        return call("laplace_log_prob", self.loc, self.scale, self._value(value, self.scale))

    def entropy(self) -> Any:
        return call("laplace_entropy", self.loc, self.scale)

    def cdf(self, value: Any) -> Any:
        return call("laplace_cdf", self.loc, self.scale, self._value(value, self.scale))

    def icdf(self, value: Any) -> Any:
        return call("laplace_icdf", self.loc, self.scale, self._value(value, self.scale))

    def sample(self, shape: Iterable[int] = ()) -> Any:
        return sample_call("laplace_sample", self.loc, self.scale, attrs=(check_shape(f"{_D}Laplace.sample", shape),))

    def rsample(self, shape: Iterable[int]) -> Any:
        return sample_call("laplace_sample", self.loc, self.scale,
                           attrs=(check_shape(f"{_D}Laplace.rsample", shape),), reparameterized=True)

    def kl_divergence(self, other: "Laplace") -> Any:
        return call("laplace_kl", self.loc, self.scale, other.loc, other.scale)


# ------------------------------------------------------------------------------------------------ Dirichlet / Beta
@fn
def dirichlet_sample(concentration, shape):
    c = concentration.expand(list(shape) + list(concentration.shape))
    g = torch._standard_gamma(c.double() if c.dtype == torch.float16 else c, generator=gen())
    return (g / g.sum(-1, keepdim=True)).to(concentration.dtype)


@fn
def dirichlet_log_prob(concentration, value):
    return (torch.log(value) * (concentration - 1.0)).sum(-1) + torch.lgamma(concentration.sum(-1)) - \
        torch.lgamma(concentration).sum(-1)


@fn
def dirichlet_entropy(concentration):
    c0 = concentration.sum(-1)
    k = concentration.shape[-1]
    return torch.lgamma(concentration).sum(-1) - torch.lgamma(c0) - (k - c0) * torch.digamma(c0) - \
        ((concentration - 1.0) * torch.digamma(concentration)).sum(-1)


@fn
def dirichlet_mean(concentration):
    return concentration / concentration.sum(-1, keepdim=True)


@fn
def dirichlet_variance(concentration):
    c0 = concentration.sum(-1, keepdim=True)
    return concentration * (c0 - concentration) / (c0.pow(2) * (c0 + 1))


@fn
def dirichlet_log_normalizer(x):
    return torch.lgamma(x).sum(-1) - torch.lgamma(x.sum(-1))


class Dirichlet(ExponentialFamily):
    """paddle.distribution.Dirichlet(concentration): event shape concentration.shape[-1:]."""

    def __init__(self, concentration: Any) -> None:
        if not is_tensor(concentration) or len(concentration.shape) < 1:
            raise ValueError("`concentration` parameter must be at least one dimensional")
        self.concentration = concentration
        shape = shape_of(concentration)
        super().__init__(shape[:-1], shape[-1:])

    @property
    def mean(self) -> Any:
        return call("dirichlet_mean", self.concentration)

    @property
    def variance(self) -> Any:
        return call("dirichlet_variance", self.concentration)

    def sample(self, shape: Iterable[int] = ()) -> Any:
        return sample_call("dirichlet_sample", self.concentration,
                           attrs=(check_shape(f"{_D}Dirichlet.sample", shape),))

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def log_prob(self, value: Any) -> Any:
        return call("dirichlet_log_prob", self.concentration, self._value(value, self.concentration))

    def entropy(self) -> Any:
        return call("dirichlet_entropy", self.concentration)

    @property
    def _natural_parameters(self) -> tuple:
        return (self.concentration,)

    def _log_normalizer(self, x: Any) -> Any:
        return call("dirichlet_log_normalizer", x)


@fn
def beta_stack(alpha, beta):
    a, b = torch.broadcast_tensors(alpha, beta)
    return torch.stack([a, b], -1)


@fn
def beta_value(value):
    return torch.stack([value, 1.0 - value], -1)


@fn
def beta_mean(alpha, beta):
    return alpha / (alpha + beta)


@fn
def beta_variance(alpha, beta):
    s = alpha + beta
    return alpha * beta / (s.pow(2) * (s + 1))


@fn
def first_of_last(x):
    """x[..., 0], squeezed once more when that leaves a trailing 1 (Paddle's squeeze(axis=-1))."""
    out = x[..., 0]
    return out.squeeze(-1) if out.dim() and out.shape[-1] == 1 else out


@fn
def beta_log_normalizer(x, y):
    return torch.lgamma(x) + torch.lgamma(y) - torch.lgamma(x + y)


class Beta(ExponentialFamily):
    """paddle.distribution.Beta(alpha, beta): a Dirichlet over (alpha, beta)."""

    def __init__(self, alpha: Any, beta: Any) -> None:
        api = _D + "Beta"
        alpha = to_param(float(alpha), api) if isinstance(alpha, (int, float)) else alpha
        beta = to_param(float(beta), api) if isinstance(beta, (int, float)) else beta
        shape = broadcast_shape(shape_of(alpha), shape_of(beta))
        to = EXPORTS["paddle"]["broadcast_to"]
        self.alpha = alpha if shape_of(alpha) == shape else to(alpha, list(shape))
        self.beta = beta if shape_of(beta) == shape else to(beta, list(shape))
        self._dirichlet = Dirichlet(call("beta_stack", self.alpha, self.beta))
        super().__init__(self._dirichlet.batch_shape)

    @property
    def mean(self) -> Any:
        return call("beta_mean", self.alpha, self.beta)

    @property
    def variance(self) -> Any:
        return call("beta_variance", self.alpha, self.beta)

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def log_prob(self, value: Any) -> Any:
        return self._dirichlet.log_prob(call("beta_value", self._value(value, self.alpha)))

    def sample(self, shape: Iterable[int] = ()) -> Any:
        return call("first_of_last", self._dirichlet.sample(shape))

    def entropy(self) -> Any:
        return self._dirichlet.entropy()

    @property
    def _natural_parameters(self) -> tuple:
        return (self.alpha, self.beta)

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        return call("beta_log_normalizer", x, y)


for _cls in (Normal, Uniform, Cauchy, Laplace, Dirichlet, Beta):
    export(_cls, _D + _cls.__name__)
