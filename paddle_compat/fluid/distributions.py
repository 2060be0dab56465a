"""fluid.layers distributions (1.8): Uniform, Normal, Categorical, MultivariateNormalDiag, composed of
public Paddle ops so they work in static and dygraph mode. Float arguments become float32 constants."""

from __future__ import annotations

import math

import numpy as np

from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export


def _t(v):
    if hasattr(v, "shape") and hasattr(v, "dtype"):
        return v
    return P("paddle.assign")(np.asarray(v, dtype="float32").reshape(-1) if np.ndim(v) == 0
                              else np.asarray(v, dtype="float32"))


def _shape_of(a, b) -> list:
    return list(np.broadcast_shapes(tuple(max(d, 1) for d in a.shape), tuple(max(d, 1) for d in b.shape)))


class Distribution:
    def sample(self, shape, seed=0):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def log_prob(self, value):
        raise NotImplementedError

    def kl_divergence(self, other):
        raise NotImplementedError


class Uniform(Distribution):
    """Uniform(low, high)."""

    def __init__(self, low, high):
        self.low, self.high = _t(low), _t(high)

    def sample(self, shape, seed=0):
        bshape = _shape_of(self.low, self.high)
        u = P("paddle.uniform")(list(shape) + bshape, "float32", 0.0, 1.0, seed=seed)
        return P("paddle.add")(P("paddle.multiply")(u, P("paddle.subtract")(self.high, self.low)), self.low)

    def log_prob(self, value):
        lb = P("paddle.cast")(P("paddle.less_than")(self.low, value), "float32")
        ub = P("paddle.cast")(P("paddle.less_than")(value, self.high), "float32")
        return P("paddle.subtract")(P("paddle.log")(P("paddle.multiply")(lb, ub)),
                                    P("paddle.log")(P("paddle.subtract")(self.high, self.low)))

    def entropy(self):
        return P("paddle.log")(P("paddle.subtract")(self.high, self.low))


class Normal(Distribution):
    """Normal(loc, scale)."""

    def __init__(self, loc, scale):
        self.loc, self.scale = _t(loc), _t(scale)

    def sample(self, shape, seed=0):
        bshape = _shape_of(self.loc, self.scale)
        z = P("paddle.normal")(0.0, 1.0, list(shape) + bshape)
        return P("paddle.add")(P("paddle.multiply")(z, self.scale), self.loc)

    def entropy(self):
        zero = P("paddle.multiply")(self.loc, P("paddle.zeros_like")(self.loc))
        return P("paddle.add")(P("paddle.scale")(P("paddle.log")(self.scale), 1.0,
                                                 bias=0.5 + 0.5 * math.log(2 * math.pi)), zero)

    def log_prob(self, value):
        var = P("paddle.square")(self.scale)
        d = P("paddle.square")(P("paddle.subtract")(value, self.loc))
        return P("paddle.subtract")(P("paddle.scale")(P("paddle.divide")(d, var), -0.5),
                                    P("paddle.scale")(P("paddle.log")(self.scale), 1.0,
                                                      bias=math.log(math.sqrt(2.0 * math.pi))))

    def kl_divergence(self, other):
        var_ratio = P("paddle.square")(P("paddle.divide")(self.scale, other.scale))
        t1 = P("paddle.square")(P("paddle.divide")(P("paddle.subtract")(self.loc, other.loc), other.scale))
        total = P("paddle.subtract")(P("paddle.add")(var_ratio, t1), P("paddle.log")(var_ratio))
        return P("paddle.scale")(total, 0.5, bias=-0.5)


class Categorical(Distribution):
    """Categorical(logits): entropy and kl_divergence over the last axis."""

    def __init__(self, logits):
        self.logits = _t(logits)

    def _logp(self):
        z = P("paddle.subtract")(self.logits, P("paddle.max")(self.logits, axis=-1, keepdim=True))
        return P("paddle.subtract")(z, P("paddle.log")(P("paddle.sum")(P("paddle.exp")(z), axis=-1, keepdim=True)))

    def kl_divergence(self, other):
        lp, lq = self._logp(), other._logp()
        return P("paddle.sum")(P("paddle.multiply")(P("paddle.exp")(lp), P("paddle.subtract")(lp, lq)), axis=-1,
                               keepdim=True)

    def entropy(self):
        lp = self._logp()
        return P("paddle.scale")(P("paddle.sum")(P("paddle.multiply")(P("paddle.exp")(lp), lp), axis=-1,
                                                 keepdim=True), -1.0)


class MultivariateNormalDiag(Distribution):
    """MultivariateNormalDiag(loc [k], scale [k, k] diagonal matrix): entropy and kl_divergence."""

    def __init__(self, loc, scale):
        self.loc, self.scale = _t(loc), _t(scale)

    def _det(self, m):
        d = P("paddle.sum")(P("paddle.multiply")(m, P("paddle.eye")(m.shape[0], m.shape[1], "float32")), axis=1)
        return P("paddle.prod")(d)

    def _inv(self, m):
        eye = P("paddle.eye")(m.shape[0], m.shape[1], "float32")
        diag = P("paddle.multiply")(m, eye)
        return P("paddle.multiply")(P("paddle.reciprocal")(P("paddle.add")(diag, P("paddle.subtract")(
            P("paddle.ones_like")(eye), eye))), eye)

    def entropy(self):
        k = self.scale.shape[0]
        return P("paddle.scale")(P("paddle.log")(self._det(self.scale)), 0.5,
                                 bias=0.5 * k * (1.0 + math.log(2 * math.pi)))

    def kl_divergence(self, other):
        inv_o = self._inv(other.scale)
        tr = P("paddle.sum")(P("paddle.multiply")(inv_o, self.scale))
        diff = P("paddle.reshape")(P("paddle.subtract")(other.loc, self.loc), [1, -1])
        quad = P("paddle.sum")(P("paddle.matmul")(P("paddle.matmul")(diff, inv_o), diff, transpose_y=True))
        k = self.scale.shape[0]
        ld = P("paddle.log")(P("paddle.divide")(self._det(other.scale), self._det(self.scale)))
        return P("paddle.scale")(P("paddle.add")(P("paddle.add")(tr, quad), ld), 0.5, bias=-0.5 * k)


for _c in (Uniform, Normal, Categorical, MultivariateNormalDiag):
    export(_c, f"paddle.fluid.layers.{_c.__name__}")
export(Distribution, "paddle.fluid.layers.distributions.Distribution")
