"""Bernoulli, Categorical, Geometric and Multinomial (Paddle's formulas)."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
import torch
import torch.nn.functional as F

from paddle_compat.paddle2.distribution.base import (Distribution, ExponentialFamily, call, check_shape, dtype_name, fn,
                                             gen, is_tensor, sample_call, shape_of, to_param)
from paddle_compat.engine.framework.registry import export

_D = "paddle.distribution."


def _eps(dtype: torch.dtype) -> float:
    return float(torch.finfo(dtype).eps)


# ------------------------------------------------------------------------------------------------ Bernoulli
@fn
def bernoulli_clip(probs):
    return probs.clamp(_eps(probs.dtype), 1 - _eps(probs.dtype))


@fn
def bernoulli_logits(probs):
    return torch.log(probs) - torch.log1p(-probs)


@fn
def bernoulli_sample(probs, shape):
    return torch.bernoulli(probs.expand(list(shape) + list(probs.shape)), generator=gen())


@fn
def bernoulli_rsample(probs, shape, temperature):
    p = probs.expand(list(shape) + list(probs.shape))
    u = torch.empty_like(p).uniform_(generator=gen())
    return ((u.log() - (-u).log1p()) + (p.log() - (-p).log1p())) / temperature


@fn
def bernoulli_cdf(probs, value):
    probs, value = torch.broadcast_tensors(probs, value.to(probs.dtype))
    return torch.where(value < 0, torch.zeros_like(probs), torch.where(value < 1, 1 - probs, torch.ones_like(probs)))


@fn
def bernoulli_log_prob(logits, value):
    logits, value = torch.broadcast_tensors(logits, value.to(logits.dtype))
    return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")


@fn
def bernoulli_entropy(logits, probs):
    return F.binary_cross_entropy_with_logits(logits, probs, reduction="none")


@fn
def bernoulli_variance(probs):
    return probs * (1 - probs)


@fn
def bernoulli_kl(a, b):
    pa, one_minus_pa = torch.sigmoid(a), torch.sigmoid(-a)
    return (-F.softplus(-a) * pa - (-F.softplus(-b)) * pa) + (-F.softplus(a) * one_minus_pa -
                                                             (-F.softplus(b)) * one_minus_pa)


class Bernoulli(ExponentialFamily):
    """paddle.distribution.Bernoulli(probs, name=None); probs are clipped to [eps, 1 - eps]."""

    def __init__(self, probs: Any, name: str | None = None) -> None:
        from paddle_compat.engine.core.dtype import get_default_dtype
        from paddle_compat.engine.core.mode import MODE

        self.name = name or "Bernoulli"
        if is_tensor(probs):
            self.dtype = dtype_name(probs)
        else:
            self.dtype = str(get_default_dtype())
            probs = to_param(probs, _D + "Bernoulli", self.dtype)
        if not MODE.static:
            p = probs._t
            if bool((p < 0).any()) or bool((p > 1).any()) or bool(torch.isnan(p).any()):
                raise ValueError(f"{_D}Bernoulli: The arg of `probs` must be in range [0, 1].")
        self.probs = call("bernoulli_clip", probs)
        self.logits = call("bernoulli_logits", self.probs)
        super().__init__(batch_shape=shape_of(self.probs), event_shape=())

    @property
    def mean(self) -> Any:
        return self.probs

    @property
    def variance(self) -> Any:
        return call("bernoulli_variance", self.probs)

    def sample(self, shape: Iterable[int]) -> Any:
        return sample_call("bernoulli_sample", self.probs, attrs=(check_shape(f"{_D}Bernoulli.sample", shape),))

    def rsample(self, shape: Iterable[int], temperature: float = 1.0) -> Any:
        return sample_call("bernoulli_rsample", self.probs,
                           attrs=(check_shape(f"{_D}Bernoulli.rsample", shape), float(temperature)),
                           reparameterized=True)

    def cdf(self, value: Any) -> Any:
        return call("bernoulli_cdf", self.probs, self._value(value, self.probs))

    def log_prob(self, value: Any) -> Any:
        return call("bernoulli_log_prob", self.logits, self._value(value, self.probs))

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def entropy(self) -> Any:
        return call("bernoulli_entropy", self.logits, self.probs)

    def kl_divergence(self, other: "Bernoulli") -> Any:
        return call("bernoulli_kl", self.logits, other.logits)


# ------------------------------------------------------------------------------------------------ Categorical
@fn
def categorical_sample(logits, shape):
    probs = torch.softmax(logits, -1)
    n = int(np.prod(shape)) if len(shape) else 1
    flat = probs.reshape(-1, probs.shape[-1])
    idx = torch.multinomial(flat, n, replacement=True, generator=gen())  # [B, n]
    return idx.t().reshape(list(shape) + list(logits.shape[:-1]))


@fn
def categorical_kl(logits, other_logits):
    a = logits - logits.max(-1, keepdim=True).values
    b = other_logits - other_logits.max(-1, keepdim=True).values
    za, zb = a.exp().sum(-1, keepdim=True), b.exp().sum(-1, keepdim=True)
    p = a.exp() / za
    return (p * (a - za.log() - b + zb.log())).sum(-1, keepdim=True)


@fn
def categorical_entropy(logits):
    a = logits - logits.max(-1, keepdim=True).values
    z = a.exp().sum(-1, keepdim=True)
    p = a.exp() / z
    return -(p * (a - z.log())).sum(-1)


@fn
def categorical_probs(logits, value):
    prob = logits / logits.sum(-1, keepdim=True)  # Paddle normalizes the logits themselves here
    value = value.long()
    if prob.dim() == 1:
        return prob[value.reshape(-1)].reshape(value.shape)
    if value.dim() == 1:
        return torch.take_along_dim(prob, value.reshape([1] * (prob.dim() - 1) + [-1]), dim=-1)
    return torch.take_along_dim(prob, value, dim=-1)


class Categorical(Distribution):
    """paddle.distribution.Categorical(logits, name=None). As Paddle: sample / entropy / kl use softmax(logits);
    probs / log_prob use logits / sum(logits)."""

    def __init__(self, logits: Any, name: str | None = None) -> None:
        self.name = name or "Categorical"
        self.logits = logits if is_tensor(logits) else to_param(logits, _D + "Categorical")
        self.dtype = dtype_name(self.logits)
        super().__init__()

    def sample(self, shape: Iterable[int]) -> Any:
        return sample_call("categorical_sample", self.logits, attrs=(check_shape(f"{_D}Categorical.sample", shape),))

    def kl_divergence(self, other: "Categorical") -> Any:
        return call("categorical_kl", self.logits, other.logits)

    def entropy(self) -> Any:
        return call("categorical_entropy", self.logits)

    def probs(self, value: Any) -> Any:
        return call("categorical_probs", self.logits, value)

    def log_prob(self, value: Any) -> Any:
        return call("log", self.probs(value))


# ------------------------------------------------------------------------------------------------ Geometric
@fn
def geometric_mean(probs):
    return 1.0 / probs - 1.0


@fn
def geometric_variance(probs):
    return (1.0 / probs - 1.0) / probs


@fn
def geometric_pmf(probs, k):
    return torch.pow(1.0 - probs, k) * probs


@fn
def geometric_cdf(probs, k):
    return 1.0 - torch.pow(1.0 - probs, k + 1)


@fn
def geometric_sample(probs, shape):
    u = torch.empty(list(shape) + list(probs.shape), dtype=probs.dtype, device=probs.device)
    u.uniform_(float(np.finfo("float32").tiny), 1.0, generator=gen())
    return torch.floor(torch.log(u) / torch.log1p(-probs))


@fn
def geometric_entropy(probs):
    return -((1.0 - probs) * torch.log(1.0 - probs) + probs * torch.log(probs)) / probs


@fn
def geometric_kl(p, q):
    return p * torch.log(p / q) + (1.0 - p) * torch.log((1.0 - p) / (1.0 - q))


@fn
def sqrt(x):
    return torch.sqrt(x)


class Geometric(Distribution):
    """paddle.distribution.Geometric(probs): failures before the first success, probs in (0, 1]."""

    def __init__(self, probs: Any) -> None:
        from paddle_compat.engine.core.mode import MODE

        api = _D + "Geometric"
        if isinstance(probs, (int, float)) and not isinstance(probs, bool):
            probs = to_param(float(probs), api)
        if not is_tensor(probs):
            raise TypeError(f"{api}: Expected type of probs is Number.Real|Tensor|framework.Variable, but got "
                            f"{type(probs)}")
        if not MODE.static and (bool((probs._t <= 0).any()) or bool((probs._t > 1).any())):
            raise ValueError(f"{api}: Expected parameter probs of distribution Geometric to satisfy the constraint "
                             "Interval(lower_bound=0.0, upper_bound=1.0)")
        self.probs = probs
        super().__init__(shape_of(probs))

    @property
    def mean(self) -> Any:
        return call("geometric_mean", self.probs)

    @property
    def variance(self) -> Any:
        return call("geometric_variance", self.probs)

    @property
    def stddev(self) -> Any:
        return call("sqrt", self.variance)

    def _k(self, api: str, k: Any) -> Any:
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            return to_param(float(k), api, dtype_name(self.probs))
        if is_tensor(k):
            return k
        raise TypeError(f"{api}: Expected type of k is number.Real|framework.Variable, but got {type(k)}")

    def pmf(self, k: Any) -> Any:
        return call("geometric_pmf", self.probs, self._k(f"{_D}Geometric.pmf", k))

    def log_pmf(self, k: Any) -> Any:
        return call("log", self.pmf(k))

    def cdf(self, k: Any) -> Any:
        return call("geometric_cdf", self.probs, self._k(f"{_D}Geometric.cdf", k))

    def sample(self, shape: Iterable[int] = ()) -> Any:
        return sample_call("geometric_sample", self.probs, attrs=(check_shape(f"{_D}Geometric.sample", shape),))

    def rsample(self, shape: Iterable[int] = ()) -> Any:
        return sample_call("geometric_sample", self.probs, attrs=(check_shape(f"{_D}Geometric.rsample", shape),),
                           reparameterized=True)

    def entropy(self) -> Any:
        return call("geometric_entropy", self.probs)

    def kl_divergence(self, other: "Geometric") -> Any:
        if not isinstance(other, Geometric):
            raise TypeError(f"{_D}Geometric.kl_divergence: Exacted type of other is geometric.Geometric, but got "
                            f"{type(other)}")
        return call("geometric_kl", self.probs, other.probs)


# ------------------------------------------------------------------------------------------------ Multinomial
@fn
def normalize_last(probs):
    return probs / probs.sum(-1, keepdim=True)


@fn
def multinomial_log_prob(probs, value):
    logits = torch.log(probs)
    logits, value = torch.broadcast_tensors(logits, value.to(probs.dtype))
    logits = torch.where((value == 0) & torch.isinf(logits), torch.zeros_like(logits), logits)
    return torch.lgamma(value.sum(-1) + 1) - torch.lgamma(value + 1).sum(-1) + (value * logits).sum(-1)


@fn
def multinomial_sample(probs, total_count, shape):
    idx = categorical_sample(torch.log(probs), [total_count] + list(shape))
    return F.one_hot(idx, probs.shape[-1]).to(probs.dtype).sum(0)


@fn
def multinomial_entropy(probs, total_count):
    n = torch.tensor(float(total_count), dtype=probs.dtype, device=probs.device)
    support = torch.arange(total_count + 1, dtype=probs.dtype, device=probs.device)
    support = support.reshape((-1,) + (1,) * probs.dim())[1:]
    logits = torch.log(probs) - torch.log1p(-probs)
    norm = n * logits.clamp(min=0) + n * torch.log1p(torch.exp(-logits.abs())) - torch.lgamma(n + 1)
    log_pmf = support * logits - torch.lgamma(support + 1) - torch.lgamma(n - support + 1) - norm
    cat_entropy = categorical_entropy(torch.log(probs))
    return n * cat_entropy - torch.lgamma(n + 1) + (torch.exp(log_pmf) * torch.lgamma(support + 1)).sum([0, -1])


@fn
def scale_by(x, k):
    return x * k


@fn
def multinomial_variance(probs, total_count):
    return total_count * probs * (1 - probs)


class Multinomial(Distribution):
    """paddle.distribution.Multinomial(total_count, probs): counts of total_count categorical draws."""

    def __init__(self, total_count: int, probs: Any) -> None:
        api = _D + "Multinomial"
        if not isinstance(total_count, int) or total_count < 1:
            raise ValueError(f"{api}: input parameter total_count must be int type and grater than zero.")
        if not is_tensor(probs) or len(probs.shape) < 1:
            raise ValueError(f"{api}: probs parameter shoule not be none and over one dimension")
        self.probs = call("normalize_last", probs)
        self.total_count = total_count
        shape = shape_of(probs)
        super().__init__(shape[:-1], shape[-1:])

    @property
    def mean(self) -> Any:
        return call("scale_by", self.probs, attrs=(self.total_count,))

    @property
    def variance(self) -> Any:
        return call("multinomial_variance", self.probs, attrs=(self.total_count,))

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def log_prob(self, value: Any) -> Any:
        return call("multinomial_log_prob", self.probs, value)

    def sample(self, shape: Iterable[int] = ()) -> Any:
        return sample_call("multinomial_sample", self.probs,
                           attrs=(self.total_count, check_shape(f"{_D}Multinomial.sample", shape)))

    def entropy(self) -> Any:
        return call("multinomial_entropy", self.probs, attrs=(self.total_count,))


for _cls in (Bernoulli, Categorical, Geometric, Multinomial):
    export(_cls, _D + _cls.__name__)
