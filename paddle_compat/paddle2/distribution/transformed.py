"""TransformedDistribution, Independent, and the distributions Paddle builds on them (LogNormal, Gumbel)."""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

import numpy as np
import torch

from paddle_compat.paddle2.distribution.base import Distribution, call, fn, sum_rightmost_call
from paddle_compat.paddle2.distribution.continuous import Normal, Uniform, _real_pair
from paddle_compat.paddle2.distribution.transform import AffineTransform, ChainTransform, ExpTransform, Transform
from paddle_compat.engine.framework.registry import EXPORTS, export

_D = "paddle.distribution."


class Independent(Distribution):
    """`base` with its rightmost reinterpreted_batch_rank batch dims as event dims (log_prob / entropy summed)."""

    def __init__(self, base: Distribution, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"{_D}Independent: Expected type of 'base' is Distribution, but got {type(base)}")
        if not 0 < reinterpreted_batch_rank <= len(base.batch_shape):
            raise ValueError(f"{_D}Independent: Expected 0 < reinterpreted_batch_rank <= {len(base.batch_shape)}, but "
                             f"got {reinterpreted_batch_rank}")
        self._base, self._reinterpreted_batch_rank = base, reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        cut = len(base.batch_shape) - reinterpreted_batch_rank
        super().__init__(batch_shape=shape[:cut], event_shape=shape[cut:])

    @property
    def mean(self) -> Any:
        return self._base.mean

    @property
    def variance(self) -> Any:
        return self._base.variance

    def sample(self, shape: Iterable[int] = ()) -> Any:
        return self._base.sample(shape)

    def log_prob(self, value: Any) -> Any:
        return sum_rightmost_call(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def entropy(self) -> Any:
        return sum_rightmost_call(self._base.entropy(), self._reinterpreted_batch_rank)


class TransformedDistribution(Distribution):
    """The distribution of transforms[-1](...transforms[0](x)), x ~ base."""

    def __init__(self, base: Distribution, transforms: Sequence[Transform]) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"{_D}TransformedDistribution: Expected type of 'base' is Distribution, but got "
                            f"{type(base)}.")
        if not isinstance(transforms, Sequence) or not all(isinstance(t, Transform) for t in transforms):
            raise TypeError(f"{_D}TransformedDistribution: All element of transforms must be Transform type.")
        self._base, self._transforms = base, list(transforms)
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = ChainTransform(transforms)
        base_shape = tuple(base.batch_shape) + tuple(base.event_shape)
        if len(base_shape) < chain._domain.event_rank:
            raise ValueError(f"{_D}TransformedDistribution: 'base' needs to have shape with size at least "
                             f"{chain._domain.event_rank}, bug got {len(base_shape)}.")
        if chain._domain.event_rank > len(base.event_shape):
            base = Independent(base, chain._domain.event_rank - len(base.event_shape))
        shape = chain.forward_shape(tuple(base.batch_shape) + tuple(base.event_shape))
        rank = chain._codomain.event_rank + max(len(base.event_shape) - chain._domain.event_rank, 0)
        super().__init__(shape[:len(shape) - rank], shape[len(shape) - rank:])

    def sample(self, shape: Iterable[int] = ()) -> Any:
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape: Iterable[int] = ()) -> Any:
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value: Any) -> Any:
        log_prob: Any = None
        y = value
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain.event_rank - t._codomain.event_rank
            term = sum_rightmost_call(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            log_prob = call("neg", term) if log_prob is None else call("sub", log_prob, term)
            y = x
        base = sum_rightmost_call(self._base.log_prob(y), rank - len(self._base.event_shape))
        return base if log_prob is None else call("add", log_prob, base)


@fn
def sub(a, b):
    return a - b


@fn
def lognormal_mean(loc, scale):
    return torch.exp(loc + scale * scale / 2)


@fn
def lognormal_variance(loc, scale):
    var = scale * scale
    return torch.expm1(var) * torch.exp(2 * loc + var)


class LogNormal(TransformedDistribution):
    """exp(x), x ~ Normal(loc, scale)."""

    def __init__(self, loc: Any, scale: Any) -> None:
        self._base = Normal(loc=loc, scale=scale)
        self.loc, self.scale = self._base.loc, self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self) -> Any:
        return call("lognormal_mean", self.loc, self.scale)

    @property
    def variance(self) -> Any:
        return call("lognormal_variance", self.loc, self.scale)

    def entropy(self) -> Any:
        return call("add", self._base.entropy(), self._base.mean)

    def probs(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def kl_divergence(self, other: "LogNormal") -> Any:
        return self._base.kl_divergence(other._base)


@fn
def gumbel_mean(loc, scale):
    return loc + scale * np.euler_gamma


@fn
def gumbel_variance(scale):
    return scale.pow(2) * math.pi * math.pi / 6


@fn
def gumbel_prob(loc, scale, value):
    y = (loc - value) / scale
    return torch.exp(y - torch.exp(y)) / scale


@fn
def gumbel_cdf(loc, scale, value):
    return torch.exp(-torch.exp(-(value - loc) / scale))


@fn
def gumbel_entropy(scale):
    return torch.log(scale) + 1 + np.euler_gamma


class Gumbel(TransformedDistribution):
    """paddle.distribution.Gumbel(loc, scale): loc - scale * log(-log(u)), u ~ Uniform(tiny, 1 - eps)."""

    def __init__(self, loc: Any, scale: Any) -> None:
        self.loc, self.scale, _ = _real_pair(_D + "Gumbel", loc, scale)
        finfo = np.finfo("float32")
        full_like = EXPORTS["paddle"]["full_like"]
        self.base_dist = Uniform(full_like(self.loc, float(finfo.tiny)), full_like(self.loc, float(1 - finfo.eps)))
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self) -> Any:
        return call("gumbel_mean", self.loc, self.scale)

    @property
    def variance(self) -> Any:
        return call("gumbel_variance", self.scale)

    @property
    def stddev(self) -> Any:
        return call("sqrt", self.variance)

    def prob(self, value: Any) -> Any:
        return call("gumbel_prob", self.loc, self.scale, self._value(value, self.loc))

    def log_prob(self, value: Any) -> Any:
        return call("log", self.prob(value))

    def cdf(self, value: Any) -> Any:
        return call("gumbel_cdf", self.loc, self.scale, self._value(value, self.loc))

    def entropy(self) -> Any:
        return call("gumbel_entropy", self.scale)

    def sample(self, shape: Iterable[int]) -> Any:
        return self._rsample(shape, reparameterized=False)

    def rsample(self, shape: Iterable[int]) -> Any:
        return self._rsample(shape, reparameterized=True)

    def _rsample(self, shape: Iterable[int], reparameterized: bool) -> Any:
        exp = ExpTransform()
        zeros = EXPORTS["paddle"]["zeros_like"](self.scale)
        neg_ones = call("neg", EXPORTS["paddle"]["ones_like"](self.scale))
        first, second = AffineTransform(zeros, neg_ones), AffineTransform(self.loc, call("neg", self.scale))
        u = self.base_dist.sample(list(shape))
        out = second.forward(exp.inverse(first.forward(exp.inverse(u))))
        if not reparameterized:
            out = out.detach() if hasattr(out, "detach") else out
        return out


for _cls in (Independent, TransformedDistribution, LogNormal, Gumbel):
    export(_cls, _D + _cls.__name__)
