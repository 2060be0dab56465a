"""paddle.distribution.kl_divergence / register_kl: the KL of two distributions, dispatched on their types
(the most specific registered pair wins, as Paddle's)."""

from __future__ import annotations

import functools
from typing import Any, Callable


from paddle_compat.engine.core.mode import MODE
from paddle_compat.paddle2.distribution.base import Distribution, ExponentialFamily, call, fn, sum_rightmost_call
from paddle_compat.paddle2.distribution.continuous import Beta, Cauchy, Dirichlet, Laplace, Normal, Uniform
from paddle_compat.paddle2.distribution.discrete import Bernoulli, Categorical, Geometric
from paddle_compat.paddle2.distribution.transformed import LogNormal
from paddle_compat.engine.framework.registry import EXPORTS, export

_D = "paddle.distribution."
_REGISTER_TABLE: dict[tuple[type, type], Callable] = {}


def register_kl(cls_p: type, cls_q: type) -> Callable[[Callable], Callable]:
    """Decorator: f(p, q) computes the KL divergence of instances of cls_p and cls_q."""
    if not (isinstance(cls_p, type) and issubclass(cls_p, Distribution) and isinstance(cls_q, type)
            and issubclass(cls_q, Distribution)):
        raise TypeError(f"{_D}register_kl: cls_p and cls_q must be subclass of Distribution")

    def decorator(f: Callable) -> Callable:
        _REGISTER_TABLE[cls_p, cls_q] = f
        return f

    return decorator


@functools.total_ordering
class _Compare:
    def __init__(self, *classes: type) -> None:
        self.classes = classes

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Compare) and self.classes == other.classes

    def __le__(self, other: "_Compare") -> bool:
        for x, y in zip(self.classes, other.classes):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch(cls_p: type, cls_q: type) -> Callable:
    matches = [(p, q) for p, q in _REGISTER_TABLE if issubclass(cls_p, p) and issubclass(cls_q, q)]
    if not matches:
        raise NotImplementedError(f"{_D}kl_divergence: no KL divergence is registered for {cls_p.__name__} and "
                                  f"{cls_q.__name__}")
    left_p, left_q = min(_Compare(*m) for m in matches).classes
    # NOTE: Paddle unpacks this reversed pair as (p, q) and so raises KeyError for any pair registered one way
    # only (e.g. (MyNormal, Normal)); read back in the right order (tests/api2x/test_distribution.py)
    right_q, right_p = min(_Compare(*reversed(m)) for m in matches).classes
    if _REGISTER_TABLE[left_p, left_q] is not _REGISTER_TABLE[right_p, right_q]:
        import warnings

        warnings.warn(f"Ambiguous kl_divergence({cls_p.__name__}, {cls_q.__name__}). Please register_kl"
                      f"({left_p.__name__}, {right_q.__name__})", RuntimeWarning)
    return _REGISTER_TABLE[left_p, left_q]


def kl_divergence(p: Distribution, q: Distribution) -> Any:
    """KL(p || q)."""
    return _dispatch(type(p), type(q))(p, q)


def _own(p: Any, q: Any) -> Any:
    return p.kl_divergence(q)


for _pair in ((Bernoulli, Bernoulli), (Categorical, Categorical), (Cauchy, Cauchy), (Normal, Normal),
              (Uniform, Uniform), (Laplace, Laplace), (Geometric, Geometric)):
    register_kl(*_pair)(_own)


@fn
def beta_kl(a1, b1, a2, b2):
    s1, s2 = a1 + b1, a2 + b2
    return (a2.lgamma() + b2.lgamma() + s1.lgamma() - (a1.lgamma() + b1.lgamma() + s2.lgamma())
            + (a1 - a2) * a1.digamma() + (b1 - b2) * b1.digamma() + (s2 - s1) * s1.digamma())


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Beta, q: Beta) -> Any:
    return call("beta_kl", p.alpha, p.beta, q.alpha, q.beta)


@fn
def dirichlet_kl(c1, c2):
    return (c1.sum(-1).lgamma() - c2.sum(-1).lgamma() - (c1.lgamma() - c2.lgamma()).sum(-1)
            + ((c1 - c2) * (c1.digamma() - c1.sum(-1).digamma().unsqueeze(-1))).sum(-1))


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Dirichlet, q: Dirichlet) -> Any:
    return call("dirichlet_kl", p.concentration, q.concentration)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p: ExponentialFamily, q: ExponentialFamily) -> Any:
    """Bregman divergence of the log normalizers (dygraph: uses paddle.grad)."""
    if type(p) is not type(q):
        raise NotImplementedError(f"{_D}kl_divergence: the exponential families {type(p).__name__} and "
                                  f"{type(q).__name__} differ")
    if MODE.static:
        raise NotImplementedError(f"{_D}kl_divergence of exponential families is computed with paddle.grad, in "
                                  "dygraph mode")
    params = []
    for prm in p._natural_parameters:
        x = prm.detach()
        x.stop_gradient = False
        params.append(x)
    p_log_norm = p._log_normalizer(*params)
    grads = EXPORTS["paddle"]["grad"](p_log_norm.sum(), params, create_graph=True)
    kl = q._log_normalizer(*q._natural_parameters) - p_log_norm
    for pp, qp, g in zip(params, q._natural_parameters, grads):
        kl = kl - sum_rightmost_call((qp - pp) * g, len(q.event_shape))
    return kl


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p: LogNormal, q: LogNormal) -> Any:
    return p._base.kl_divergence(q._base)


export(kl_divergence, _D + "kl_divergence")
export(register_kl, _D + "register_kl")
