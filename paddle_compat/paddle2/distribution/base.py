"""The Distribution base class and the two registry ops every distribution method runs its torch math through."""

from __future__ import annotations

from paddle_compat.engine.core.dtype import dtype_name as _dtype_name

from typing import Any, Callable, Iterable

import numpy as np
import torch

from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import EXPORTS, export, op

_FNS: dict[str, Callable[..., Any]] = {}  # name -> torch function (the op attribute is the name)
_D = "paddle.distribution."


def fn(f: Callable) -> Callable:
    """Register a torch function that distribution methods run with `call`."""
    _FNS[f.__name__] = f
    return f


@op("distribution")
def distribution_op(xs, fn, attrs=()):  # noqa: A002 - fn: the name of the registered torch function
    return _FNS[fn](*xs, *attrs)


@op("distribution_sample", random=True, differentiable=False)
def distribution_sample_op(xs, fn, attrs=()):  # noqa: A002
    """sample(): no gradient flows back to the parameters (rsample is the reparameterized one)."""
    out = _FNS[fn](*xs, *attrs)
    return out.detach() if isinstance(out, torch.Tensor) else out


@op("distribution_rsample", random=True)
def distribution_rsample_op(xs, fn, attrs=()):  # noqa: A002
    return _FNS[fn](*xs, *attrs)


def call(name: str, *xs: Any, attrs: tuple = ()) -> Any:
    """Run the torch function `name` on the Tensors / Variables xs (plus constant attrs) as a registry op."""
    return distribution_op(list(xs), name, tuple(attrs))


def sample_call(name: str, *xs: Any, attrs: tuple = (), reparameterized: bool = False) -> Any:
    f = distribution_rsample_op if reparameterized else distribution_sample_op
    return f(list(xs), name, tuple(attrs))


def gen() -> torch.Generator | None:
    from paddle_compat.engine.ops.tensor.creation import _gen

    return _gen()


def is_tensor(v: Any) -> bool:
    from paddle_compat.engine.framework.program import Variable

    return isinstance(v, (Tensor, Variable))


def to_param(v: Any, api: str, dtype: str | None = None) -> Any:
    """A distribution parameter as a Tensor (a Variable in static mode stays one): numbers become shape [1],
    lists / arrays keep their shape; float64 arrays stay float64, anything else is float32 (Paddle's rule)."""
    if is_tensor(v):
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, list, tuple, np.ndarray, np.number)):
        raise TypeError(f"{api}: Type of input args must be float, list, tuple, numpy.ndarray or Tensor, but received "
                        f"type {type(v)}")
    arr = np.asarray(v)
    if dtype is None:
        dtype = "float64" if arr.dtype == np.float64 and isinstance(v, np.ndarray) else "float32"
    arr = arr.astype(dtype).reshape([1] if arr.ndim == 0 else arr.shape)
    return EXPORTS["paddle"]["assign"](arr)


def shape_of(v: Any) -> tuple:
    return tuple(int(d) for d in v.shape)


def broadcast_shape(*shapes: Iterable[int]) -> tuple:
    try:
        return tuple(np.broadcast_shapes(*[tuple(max(d, 1) if d < 0 else d for d in s) for s in shapes]))
    except ValueError as e:
        raise ValueError(f"the parameters' shapes {[list(s) for s in shapes]} do not broadcast: {e}") from None


def check_shape(api: str, shape: Any) -> tuple:
    if not isinstance(shape, Iterable) or isinstance(shape, str):
        raise TypeError(f"{api}: sample shape must be Iterable object.")
    return tuple(int(s) for s in shape)


def dtype_name(v: Any) -> str:
    return _dtype_name(v.dtype)


class Distribution:
    """paddle.distribution.Distribution(batch_shape=(), event_shape=())"""

    def __init__(self, batch_shape: Iterable[int] = (), event_shape: Iterable[int] = ()) -> None:
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)

    @property
    def batch_shape(self) -> tuple:
        return self._batch_shape

    @property
    def event_shape(self) -> tuple:
        return self._event_shape

    @property
    def mean(self) -> Any:
        raise NotImplementedError

    @property
    def variance(self) -> Any:
        raise NotImplementedError

    def sample(self, shape: Iterable[int] = ()) -> Any:
        raise NotImplementedError

    def rsample(self, shape: Iterable[int] = ()) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        raise NotImplementedError

    def kl_divergence(self, other: "Distribution") -> Any:
        raise NotImplementedError(f"{_D}{type(self).__name__}.kl_divergence is not implemented (nor in Paddle)")

    def prob(self, value: Any) -> Any:
        return call("exp", self.log_prob(value))

    def log_prob(self, value: Any) -> Any:
        raise NotImplementedError

    def probs(self, value: Any) -> Any:
        raise NotImplementedError

    def _extend_shape(self, sample_shape: Iterable[int]) -> tuple:
        return tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape)

    def _value(self, value: Any, like: Any) -> Any:
        """A value to evaluate: numbers / arrays become Tensors of the parameter's dtype."""
        if is_tensor(value):
            return value
        return to_param(value, type(self).__name__, dtype_name(like))


class ExponentialFamily(Distribution):
    """Entropy from the log normalizer: -E[carrier] + A(theta) - sum(theta * dA/dtheta) (dygraph)."""

    @property
    def _natural_parameters(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural: Any) -> Any:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        if MODE.static:
            raise NotImplementedError(f"{_D}ExponentialFamily.entropy: computed with paddle.grad, in dygraph mode")
        params = []
        for p in self._natural_parameters:
            q = p.detach()
            q.stop_gradient = False
            params.append(q)
        log_norm = self._log_normalizer(*params)
        grads = EXPORTS["paddle"]["grad"](log_norm.sum(), params, create_graph=True)
        value = -self._mean_carrier_measure + log_norm
        for p, g in zip(params, grads):
            value = value - p * g
        return value


# torch functions shared by several distributions
@fn
def exp(x):
    return torch.exp(x)


@fn
def log(x):
    return torch.log(x)


@fn
def sum_rightmost(x, n):
    return x.sum(list(range(-n, 0))) if n > 0 else x


def sum_rightmost_call(x: Any, n: int) -> Any:
    return x if n <= 0 else call("sum_rightmost", x, attrs=(n,))


export(Distribution, _D + "Distribution")
export(ExponentialFamily, _D + "ExponentialFamily")
