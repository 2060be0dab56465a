"""fluid.ComplexVariable and the paddle.complex module of Paddle 1.8: a complex value held as two real Tensors /
Variables (real, imag), and elementwise_add / sub / mul / div, matmul, kron, trace, sum, reshape, transpose over
them, built from the real ops (so they run in dygraph and record in static programs). A complex-dtype Tensor is
accepted too (split into its parts)."""

from __future__ import annotations

import types
from typing import Any, Callable

from paddle_compat.engine.core.api_level import legacy_shapes
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import EXPORTS, after_load, export

L = "paddle.fluid.layers."


class ComplexVariable:
    """real + 1j * imag, two real tensors of one shape and dtype."""

    def __init__(self, real: Any, imag: Any) -> None:
        if list(real.shape) != list(imag.shape):
            raise AssertionError("The real part and imaginary part of a ComplexVariable should have the same shape!")
        if real.dtype != imag.dtype:
            raise AssertionError("The real part and imaginary part of a ComplexVariable should have the same data "
                                 "type!")
        self.real, self.imag = real, imag
        self._dtype = "complex64" if real.dtype.name in ("float16", "float32") else "complex128"
        self._shape = real.shape

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def shape(self) -> Any:
        return self._shape

    @property
    def name(self) -> dict:
        return {"real": self.real.name, "imag": self.imag.name}

    @name.setter
    def name(self, name: Any) -> None:
        if isinstance(name, str):
            self.real.name, self.imag.name = name + ".real", name + ".imag"
        elif isinstance(name, (tuple, list)) and len(name) == 2:
            self.real.name, self.imag.name = name[0], name[1]
        else:
            raise ValueError("An invalid name assigned to the ComplexVariable, which must be a string, or a tuple or "
                             "a list with length 2!")

    def numpy(self) -> Any:
        return self.real.numpy() + 1j * self.imag.numpy()

    def __str__(self) -> str:
        return "REAL: " + str(self.real) + "IMAG: " + str(self.imag)

    __repr__ = __str__


export(ComplexVariable, "paddle.fluid.ComplexVariable", "paddle.fluid.framework.ComplexVariable")


def _is_complex_tensor(x: Any) -> bool:
    return hasattr(x, "dtype") and getattr(x.dtype, "name", "").startswith("complex")


def _parts(x: Any) -> tuple[Any, Any]:
    if isinstance(x, ComplexVariable):
        return x.real, x.imag
    if _is_complex_tensor(x):
        return P("paddle.real")(x), P("paddle.imag")(x)
    return x, None


def _need_complex(inputs: list, layer: str) -> None:
    if not any(isinstance(x, ComplexVariable) or _is_complex_tensor(x) for x in inputs):
        lead = "At least one inputs of layer complex." if len(inputs) > 1 else "The input of layer complex."
        raise ValueError(f"{lead}{layer}() must be ComplexVariable, please use the layer for real numher instead.")


def _add_like(layer: str) -> Callable:
    def fn(x, y, axis=-1, name=None):
        _need_complex([x, y], layer)
        (a, b), (c, d) = _parts(x), _parts(y)
        op = P(L + layer)
        real = op(a, c, axis=axis)
        if b is not None and d is not None:
            imag = op(b, d, axis=axis)
        elif b is not None:
            imag = P(L + "assign")(b)
        else:
            imag = op(P(L + "zeros_like")(a), d, axis=axis)
        return ComplexVariable(real, imag)

    fn.__name__ = fn.__qualname__ = layer
    fn.__doc__ = f"paddle.complex.{layer}: element-wise on the real and imaginary parts (real inputs allowed)."
    return fn


def _bilinear(x: Any, y: Any, op: Callable) -> ComplexVariable:
    """(a + bi) * (c + di) for a bilinear product op: real = ac - bd, imag = ad + bc (absent terms skipped)."""
    (a, b), (c, d) = _parts(x), _parts(y)
    real = op(a, c)
    if b is not None and d is not None:
        real = P(L + "elementwise_sub")(real, op(b, d))
    terms = [op(a, d) if d is not None else None, op(b, c) if b is not None else None]
    terms = [t for t in terms if t is not None]
    imag = terms[0] if len(terms) == 1 else P(L + "elementwise_add")(terms[0], terms[1])
    return ComplexVariable(real, imag)


def elementwise_mul(x, y, axis=-1, name=None):
    _need_complex([x, y], "elementwise_mul")
    return _bilinear(x, y, lambda u, v: P(L + "elementwise_mul")(u, v, axis=axis))


def elementwise_div(x, y, axis=-1, name=None):
    """x * conj(y) / |y|^2."""
    _need_complex([x, y], "elementwise_div")
    c, d = _parts(y)
    conj = ComplexVariable(c, P("paddle.scale")(d, scale=-1.0)) if d is not None else c
    norm = P(L + "pow")(c, 2.0)
    if d is not None:
        norm = P(L + "elementwise_add")(norm, P(L + "pow")(d, 2.0))
    inv = P("paddle.reciprocal")(norm)
    return elementwise_mul(elementwise_mul(x, conj, axis=axis), inv, axis=axis)


def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    _need_complex([x, y], "matmul")
    return _bilinear(x, y, lambda u, v: P(L + "matmul")(u, v, transpose_x, transpose_y, alpha))


def kron(x, y, name=None):
    _need_complex([x, y], "kron")
    return _bilinear(x, y, lambda u, v: P(L + "kron")(u, v))


def _each(layer: str, call: Callable) -> Callable:
    def fn(input, *args, **kwargs):  # noqa: A002
        _need_complex([input], layer)
        re, im = _parts(input)
        return ComplexVariable(call(re, *args, **kwargs), call(im, *args, **kwargs))

    fn.__name__ = fn.__qualname__ = layer
    return fn


def trace(input, offset=0, dim1=0, dim2=1, name=None):  # noqa: A002
    return _each("trace", lambda v: P(L + "trace")(v, offset, dim1, dim2))(input)


def sum(input, dim=None, keep_dim=False, name=None):  # noqa: A001,A002
    return _each("sum", lambda v: P(L + "reduce_sum")(v, dim=dim, keep_dim=keep_dim))(input)


def reshape(x, shape, inplace=False, name=None):
    return _each("reshape", lambda v: P(L + "reshape")(v, shape))(x)


def transpose(x, perm, name=None):
    return _each("transpose", lambda v: P(L + "transpose")(v, perm))(x)


elementwise_add = _add_like("elementwise_add")
elementwise_sub = _add_like("elementwise_sub")
# 1.8's shapes at every API level (engine/core/api_level.py): they are also reached as attributes of 2.x's paddle.complex
_MODULES = {k: tuple(legacy_shapes(f) for f in fns) for k, fns in {
    "math": (elementwise_add, elementwise_sub, elementwise_mul, elementwise_div, kron, trace, sum),
    "manipulation": (reshape, transpose), "linalg": (matmul,)}.items()}
for _sub, _fns in _MODULES.items():
    for _fn in _fns:
        export(_fn, f"paddle.complex.{_fn.__name__}", f"paddle.complex.tensor.{_fn.__name__}",
               f"paddle.complex.tensor.{_sub}.{_fn.__name__}")

# In 2.x `paddle.complex` is a function (complex(real, imag)) and it wins over the 1.8 module of that name: the
# module's functions become attributes of it too, so `paddle.complex.elementwise_add(x, y)` keeps working.
@after_load
def _attach_to_complex_function() -> None:
    complex_fn = EXPORTS["paddle"]["complex"]
    for fns in _MODULES.values():
        for fn in fns:
            setattr(complex_fn, fn.__name__, fn)
    complex_fn.tensor = types.SimpleNamespace(**{f.__name__: f for fs in _MODULES.values() for f in fs})
