"""paddle.distribution transforms: bijections (and Abs) with log-determinants of their Jacobians, composable
(ChainTransform, StackTransform, IndependentTransform), as Paddle's transform.py. `_domain` / `_codomain` carry
the event rank each side works on."""

from __future__ import annotations

import enum
from typing import Any, Sequence

import torch
import torch.nn.functional as F

from paddle_compat.paddle2.distribution.base import Distribution, broadcast_shape, call, fn, is_tensor, shape_of
from paddle_compat.engine.framework.registry import EXPORTS, export

_D = "paddle.distribution."


class _Domain:
    """Where a transform's input or output lives: its event rank (and whether it is discrete)."""

    def __init__(self, event_rank: int = 0, is_discrete: bool = False) -> None:
        self.event_rank, self.is_discrete = event_rank, is_discrete


REAL, POSITIVE, SIMPLEX = _Domain(0), _Domain(0), _Domain(1)


def _independent(base: _Domain, rank: int) -> _Domain:
    return _Domain(base.event_rank + rank, base.is_discrete)


class Type(enum.Enum):
    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, _type: "Type") -> bool:
        return _type in (cls.BIJECTION, cls.INJECTION)


def _rank(api: str, v: Any, need: int, what: str) -> None:
    if len(v.shape) < need:
        raise ValueError(f"{api}: The dimensions of {what}({len(v.shape)}) should be grater than or equal to {need}")


class Transform:
    """Base of the transforms: forward / inverse and their log-det-Jacobians; calling a transform on a
    Distribution gives a TransformedDistribution, on a Transform a ChainTransform."""

    _type = Type.INJECTION

    @classmethod
    def _is_injective(cls) -> bool:
        return Type.is_injective(cls._type)

    def __call__(self, input: Any) -> Any:  # noqa: A002
        if isinstance(input, Distribution):
            from paddle_compat.paddle2.distribution.transformed import TransformedDistribution

            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def forward(self, x: Any) -> Any:
        _rank(f"{type(self).__name__}.forward", x, self._domain.event_rank, "x")
        return self._forward(x)

    def inverse(self, y: Any) -> Any:
        _rank(f"{type(self).__name__}.inverse", y, self._codomain.event_rank, "y")
        return self._inverse(y)

    def forward_log_det_jacobian(self, x: Any) -> Any:
        _rank(f"{type(self).__name__}.forward_log_det_jacobian", x, self._domain.event_rank, "x")
        if not self._is_injective():
            raise NotImplementedError("forward_log_det_jacobian can't be implemented for non-injective transforms.")
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y: Any) -> Any:
        _rank(f"{type(self).__name__}.inverse_log_det_jacobian", y, self._codomain.event_rank, "y")
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape: Sequence[int]) -> tuple:
        return self._forward_shape(shape)

    def inverse_shape(self, shape: Sequence[int]) -> tuple:
        return self._inverse_shape(shape)

    @property
    def _domain(self) -> _Domain:
        return REAL

    @property
    def _codomain(self) -> _Domain:
        return REAL

    def _forward(self, x: Any) -> Any:
        raise NotImplementedError("Forward not implemented")

    def _inverse(self, y: Any) -> Any:
        raise NotImplementedError("Inverse not implemented")

    def _call_forward_log_det_jacobian(self, x: Any) -> Any:
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return call("neg", self._inverse_log_det_jacobian(self.forward(x)))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. "
                                  "One of them is required.")

    def _call_inverse_log_det_jacobian(self, y: Any) -> Any:
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return call("neg", self._forward_log_det_jacobian(self._inverse(y)))
        raise NotImplementedError("Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. "
                                  "One of them is required")

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        return tuple(shape)

    def _inverse_shape(self, shape: Sequence[int]) -> tuple:
        return tuple(shape)


@fn
def neg(x):
    return -x


@fn
def abs_(x):
    return x.abs()


@fn
def abs_inverse(y):
    return -y, y


@fn
def zeros_pair(y):
    z = torch.zeros([], dtype=y.dtype, device=y.device)
    return z, z


class AbsTransform(Transform):
    """y = |x|; the inverse gives both preimages (-y, y)."""

    _type = Type.SURJECTION

    def _forward(self, x: Any) -> Any:
        return call("abs_", x)

    def _inverse(self, y: Any) -> Any:
        return tuple(call("abs_inverse", y))

    def _inverse_log_det_jacobian(self, y: Any) -> Any:
        return tuple(call("zeros_pair", y))

    @property
    def _codomain(self) -> _Domain:
        return POSITIVE


@fn
def affine_forward(loc, scale, x):
    return loc + scale * x


@fn
def affine_inverse(loc, scale, y):
    return (y - loc) / scale


@fn
def affine_fldj(scale, x):
    return torch.abs(scale).log()


class AffineTransform(Transform):
    """y = loc + scale * x"""

    _type = Type.BIJECTION

    def __init__(self, loc: Any, scale: Any) -> None:
        if not is_tensor(loc) or not is_tensor(scale):
            raise TypeError(f"{_D}AffineTransform: Expected 'loc' and 'scale' is Tensor, but got {type(loc)} and "
                            f"{type(scale)}")
        self._loc, self._scale = loc, scale

    @property
    def loc(self) -> Any:
        return self._loc

    @property
    def scale(self) -> Any:
        return self._scale

    def _forward(self, x: Any) -> Any:
        return call("affine_forward", self._loc, self._scale, x)

    def _inverse(self, y: Any) -> Any:
        return call("affine_inverse", self._loc, self._scale, y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("affine_fldj", self._scale, x)

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        return broadcast_shape(shape, shape_of(self._loc), shape_of(self._scale))

    _inverse_shape = _forward_shape


def _sum_rightmost(v: Any, n: int) -> Any:
    return call("sum_rightmost", v, attrs=(n,)) if n > 0 else v


class ChainTransform(Transform):
    """The composition transforms[-1](... transforms[0](x))."""

    def __init__(self, transforms: Sequence[Transform]) -> None:
        if not isinstance(transforms, Sequence) or not all(isinstance(t, Transform) for t in transforms):
            raise TypeError(f"{_D}ChainTransform: Type of transforms must be Sequence[Transform], but got "
                            f"{type(transforms)}")
        self.transforms = transforms

    def _is_injective(self) -> bool:  # type: ignore[override]
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x: Any) -> Any:
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y: Any) -> Any:
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        value: Any = None
        event_rank = self._domain.event_rank
        for t in self.transforms:
            term = _sum_rightmost(t.forward_log_det_jacobian(x), event_rank - t._domain.event_rank)
            value = term if value is None else call("add", value, term)
            x = t.forward(x)
            event_rank += t._codomain.event_rank - t._domain.event_rank
        return value if value is not None else 0.0

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return tuple(shape)

    def _inverse_shape(self, shape: Sequence[int]) -> tuple:
        for t in self.transforms:
            shape = t.inverse_shape(shape)
        return tuple(shape)

    @property
    def _domain(self) -> _Domain:
        domain = self.transforms[0]._domain
        rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            rank -= t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._domain.event_rank)
        return _independent(domain, rank - domain.event_rank)

    @property
    def _codomain(self) -> _Domain:
        codomain = self.transforms[-1]._codomain
        rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            rank += t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._codomain.event_rank)
        return _independent(codomain, rank - codomain.event_rank)


@fn
def add(a, b):
    return a + b


@fn
def identity(x):
    return x


class ExpTransform(Transform):
    """y = exp(x)"""

    _type = Type.BIJECTION

    @property
    def _codomain(self) -> _Domain:
        return POSITIVE

    def _forward(self, x: Any) -> Any:
        return call("exp", x)

    def _inverse(self, y: Any) -> Any:
        return call("log", y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("identity", x)


class IndependentTransform(Transform):
    """`base` with its rightmost reinterpreted_batch_rank batch dims treated as event dims (log-det summed)."""

    def __init__(self, base: Transform, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Transform):
            raise TypeError(f"{_D}IndependentTransform: Expected 'base' is Transform type, but get {type(base)}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError(f"{_D}IndependentTransform: Expected 'reinterpreted_batch_rank' is grater than zero, but "
                             f"got {reinterpreted_batch_rank}")
        self._base, self._reinterpreted_batch_rank = base, reinterpreted_batch_rank

    def _is_injective(self) -> bool:  # type: ignore[override]
        return self._base._is_injective()

    def _forward(self, x: Any) -> Any:
        return self._base.forward(x)

    def _inverse(self, y: Any) -> Any:
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return _sum_rightmost(self._base.forward_log_det_jacobian(x), self._reinterpreted_batch_rank)

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape: Sequence[int]) -> tuple:
        return self._base.inverse_shape(shape)

    @property
    def _domain(self) -> _Domain:
        return _independent(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self) -> _Domain:
        return _independent(self._base._codomain, self._reinterpreted_batch_rank)


@fn
def power_forward(power, x):
    return x.pow(power)


@fn
def power_inverse(power, y):
    return y.pow(1 / power)


@fn
def power_fldj(power, x):
    return (power * x.pow(power - 1)).abs().log()


class PowerTransform(Transform):
    """y = x ** power"""

    _type = Type.BIJECTION

    def __init__(self, power: Any) -> None:
        if not is_tensor(power):
            raise TypeError(f"{_D}PowerTransform: Expected 'power' is a tensor, but got {type(power)}")
        self._power = power

    @property
    def power(self) -> Any:
        return self._power

    @property
    def _codomain(self) -> _Domain:
        return POSITIVE

    def _forward(self, x: Any) -> Any:
        return call("power_forward", self._power, x)

    def _inverse(self, y: Any) -> Any:
        return call("power_inverse", self._power, y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("power_fldj", self._power, x)

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        return broadcast_shape(shape, shape_of(self._power))

    _inverse_shape = _forward_shape


@fn
def reshape_event(x, n_event_in, out_event_shape):
    return x.reshape(list(x.shape[:x.dim() - n_event_in]) + list(out_event_shape))


@fn
def zeros_batch(x, n_event):
    return torch.zeros(list(x.shape[:x.dim() - n_event]), dtype=x.dtype, device=x.device)


class ReshapeTransform(Transform):
    """Reshape the event part of x from in_event_shape to out_event_shape."""

    _type = Type.BIJECTION

    def __init__(self, in_event_shape: Sequence[int], out_event_shape: Sequence[int]) -> None:
        import math

        if not isinstance(in_event_shape, Sequence) or not isinstance(out_event_shape, Sequence):
            raise TypeError(f"{_D}ReshapeTransform: Expected type of 'in_event_shape' and 'out_event_shape' is "
                            f"Squence[int], but got 'in_event_shape': {in_event_shape}, 'out_event_shape': "
                            f"{out_event_shape}")
        if math.prod(in_event_shape) != math.prod(out_event_shape):
            raise ValueError(f"{_D}ReshapeTransform: The numel of 'in_event_shape' should be 'out_event_shape', but "
                             f"got {math.prod(in_event_shape)}!={math.prod(out_event_shape)}")
        self._in_event_shape, self._out_event_shape = tuple(in_event_shape), tuple(out_event_shape)

    @property
    def in_event_shape(self) -> tuple:
        return self._in_event_shape

    @property
    def out_event_shape(self) -> tuple:
        return self._out_event_shape

    @property
    def _domain(self) -> _Domain:
        return _independent(REAL, len(self._in_event_shape))

    @property
    def _codomain(self) -> _Domain:
        return _independent(REAL, len(self._out_event_shape))

    def _forward(self, x: Any) -> Any:
        return call("reshape_event", x, attrs=(len(self._in_event_shape), self._out_event_shape))

    def _inverse(self, y: Any) -> Any:
        return call("reshape_event", y, attrs=(len(self._out_event_shape), self._in_event_shape))

    def _check(self, shape: Sequence[int], event: tuple) -> None:
        if len(shape) < len(event):
            raise ValueError(f"{_D}ReshapeTransform: Expected length of 'shape' is not less than {len(event)}, but "
                             f"got {len(shape)}")
        if tuple(shape[len(shape) - len(event):]) != event:
            raise ValueError(f"{_D}ReshapeTransform: Event shape mismatch, expected: {event}, but got "
                             f"{tuple(shape[len(shape) - len(event):])}")

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        self._check(shape, self._in_event_shape)
        return tuple(shape[:len(shape) - len(self._in_event_shape)]) + self._out_event_shape

    def _inverse_shape(self, shape: Sequence[int]) -> tuple:
        self._check(shape, self._out_event_shape)
        return tuple(shape[:len(shape) - len(self._out_event_shape)]) + self._in_event_shape

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("zeros_batch", x, attrs=(len(self._in_event_shape),))


@fn
def sigmoid(x):
    return torch.sigmoid(x)


@fn
def logit(y):
    return y.log() - (-y).log1p()


@fn
def sigmoid_fldj(x):
    return -F.softplus(-x) - F.softplus(x)


class SigmoidTransform(Transform):
    """y = sigmoid(x)"""

    _type = Type.BIJECTION

    def _forward(self, x: Any) -> Any:
        return call("sigmoid", x)

    def _inverse(self, y: Any) -> Any:
        return call("logit", y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("sigmoid_fldj", x)


@fn
def softmax_last(x):
    e = (x - x.max(-1, keepdim=True).values).exp()
    return e / e.sum(-1, keepdim=True)


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last axis (not injective: no log-det-Jacobian); inverse log(y)."""

    _type = Type.OTHER

    @property
    def _domain(self) -> _Domain:
        return _independent(REAL, 1)

    @property
    def _codomain(self) -> _Domain:
        return SIMPLEX

    def _forward(self, x: Any) -> Any:
        return call("softmax_last", x)

    def _inverse(self, y: Any) -> Any:
        return call("log", y)

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        if len(shape) < 1:
            raise ValueError(f"{_D}SoftmaxTransform: Expected length of shape is grater than 1, but got {len(shape)}")
        return tuple(shape)

    _inverse_shape = _forward_shape


class StackTransform(Transform):
    """transforms[i] applied to slice i of x along axis."""

    def __init__(self, transforms: Sequence[Transform], axis: int = 0) -> None:
        if not transforms or not isinstance(transforms, Sequence):
            raise TypeError(f"{_D}StackTransform: Expected 'transforms' is Sequence[Transform], but got "
                            f"{type(transforms)}.")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError(f"{_D}StackTransform: Expected all element in transforms is Transform Type.")
        if not isinstance(axis, int):
            raise TypeError(f"{_D}StackTransform: Expected 'axis' is int, but got {type(axis)}.")
        self._transforms, self._axis = transforms, axis

    def _is_injective(self) -> bool:  # type: ignore[override]
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self) -> Sequence[Transform]:
        return self._transforms

    @property
    def axis(self) -> int:
        return self._axis

    def _map(self, v: Any, method: str) -> Any:
        if not -len(v.shape) <= self._axis < len(v.shape):
            raise ValueError(f"{_D}StackTransform: Input dimensions {len(v.shape)} should be grater than stack "
                             f"transform axis {self._axis}.")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"{_D}StackTransform: Input size along {self._axis} should be equal to the length of "
                             "transforms.")
        p = EXPORTS["paddle"]
        parts = p["unbind"](v, self._axis)
        return p["stack"]([getattr(t, method)(part) for part, t in zip(parts, self._transforms)], self._axis)

    def _forward(self, x: Any) -> Any:
        return self._map(x, "forward")

    def _inverse(self, y: Any) -> Any:
        return self._map(y, "inverse")

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return self._map(x, "forward_log_det_jacobian")


@fn
def stick_forward(x):
    k = x.shape[-1]
    offset = k + 1 - torch.ones([k], dtype=x.dtype, device=x.device).cumsum(-1)
    z = torch.sigmoid(x - offset.log())
    cum = (1 - z).cumprod(-1)
    return F.pad(z, [0, 1], value=1) * F.pad(cum, [1, 0], value=1)


@fn
def stick_inverse(y):
    crop = y[..., :-1]
    offset = y.shape[-1] - torch.ones([crop.shape[-1]], dtype=y.dtype, device=y.device).cumsum(-1)
    return crop.log() - (1 - crop.cumsum(-1)).log() + offset.log()


@fn
def stick_fldj(x):
    y = stick_forward(x)
    k = x.shape[-1]
    offset = k + 1 - torch.ones([k], dtype=x.dtype, device=x.device).cumsum(-1)
    x = x - offset.log()
    return (-x + F.logsigmoid(x) + y[..., :-1].log()).sum(-1)


class StickBreakingTransform(Transform):
    """Unconstrained [..., K] -> the simplex [..., K + 1] by stick breaking."""

    _type = Type.BIJECTION

    def _forward(self, x: Any) -> Any:
        return call("stick_forward", x)

    def _inverse(self, y: Any) -> Any:
        return call("stick_inverse", y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("stick_fldj", x)

    def _forward_shape(self, shape: Sequence[int]) -> tuple:
        if not shape:
            raise ValueError(f"{_D}StickBreakingTransform: Expected 'shape' is not empty, but got {shape}")
        return tuple(shape[:-1]) + (shape[-1] + 1,)

    def _inverse_shape(self, shape: Sequence[int]) -> tuple:
        if not shape:
            raise ValueError(f"{_D}StickBreakingTransform: Expected 'shape' is not empty, but got {shape}")
        return tuple(shape[:-1]) + (shape[-1] - 1,)

    @property
    def _domain(self) -> _Domain:
        return _independent(REAL, 1)

    @property
    def _codomain(self) -> _Domain:
        return SIMPLEX


@fn
def tanh(x):
    return torch.tanh(x)


@fn
def atanh(y):
    return torch.atanh(y)


@fn
def tanh_fldj(x):
    import math

    return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class TanhTransform(Transform):
    """y = tanh(x)"""

    _type = Type.BIJECTION

    def _forward(self, x: Any) -> Any:
        return call("tanh", x)

    def _inverse(self, y: Any) -> Any:
        return call("atanh", y)

    def _forward_log_det_jacobian(self, x: Any) -> Any:
        return call("tanh_fldj", x)


for _cls in (Transform, AbsTransform, AffineTransform, ChainTransform, ExpTransform, IndependentTransform,
             PowerTransform, ReshapeTransform, SigmoidTransform, SoftmaxTransform, StackTransform,
             StickBreakingTransform, TanhTransform):
    export(_cls, _D + _cls.__name__)
