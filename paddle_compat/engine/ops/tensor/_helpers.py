"""Helpers for the `paddle.*` tensor API modules (never user-facing): the Paddle 2.4 operator dtype rule,
in-place variants of composed APIs, and checks that raise errors naming the Paddle API."""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE


def is_tensorlike(v: Any) -> bool:
    """A dygraph Tensor or a static Variable (both carry `.dtype` / `.shape`)."""
    from paddle_compat.engine.framework.tensor import TensorMethods

    return isinstance(v, TensorMethods)


def check_same_dtype(api: str, x: Any, y: Any) -> None:
    """Paddle's functional binary APIs (paddle.add, paddle.equal, ...) raise on mismatched dtypes."""
    if is_tensorlike(x) and is_tensorlike(y) and x.dtype is not y.dtype:
        raise InvalidArgumentError(
            f"{api}: the dtypes of x ({x.dtype.name}) and y ({y.dtype.name}) must be the same; "
            f"cast one of them with paddle.cast"
        )


def operator_operands(x: Any, other: Any, divide: bool = False) -> tuple[Any, Any]:
    """Paddle 2.4 math_op_patch: a float scalar makes an int tensor float32; a tensor right operand of a
    different dtype is cast to the left one's dtype with a warning; `/` computes in float32 for ints. In a Program
    these casts are `astype`s (`tmp_N` outputs), as math_op_patch records them."""
    from paddle_compat.engine.ops.tensor.creation import astype, cast

    if MODE.static:
        cast = astype  # noqa: F811 - the same cast op, named as math_op_patch names it

    int_x = not x.dtype.torch.is_floating_point and not x.dtype.torch.is_complex and x.dtype.name != "bool"
    if isinstance(other, np.generic):
        other = other.item()
    elif isinstance(other, (np.ndarray, list)):  # `np_array + x`: a constant tensor of x's dtype
        from paddle_compat.engine.framework.tensor import to_tensor

        other = to_tensor(np.asarray(other).astype(x.dtype.numpy))
    if isinstance(other, bool):
        pass
    elif isinstance(other, float):
        if int_x:
            x = cast(x, "float32")
    elif isinstance(other, int):
        if divide and int_x:
            x = cast(x, "float32")
    elif is_tensorlike(other):
        if other.dtype is not x.dtype:
            warnings.warn(
                f"The dtype of left and right variables are not the same, left dtype is {x.dtype}, but right "
                f"dtype is {other.dtype}, the right dtype will convert to {x.dtype}", stacklevel=3)
            other = cast(other, x.dtype)
        if divide and int_x:
            x, other = cast(x, "float32"), cast(other, "float32")
    return x, other


def make_inplace_api(fn: Callable, name: str) -> Callable:
    """`x.add_(y)`-style variant of a composed API: the result replaces x (dygraph); static mode is out of place.
    Paddle requires the result to keep x's shape (no broadcasting of x)."""

    def inplace(x: Any, *args: Any, **kwargs: Any) -> Any:
        from paddle_compat.engine.core.mode import MODE
        from paddle_compat.engine.framework.dispatch import warn_static_inplace, write_result

        if MODE.static and name.endswith("_"):  # x_ APIs are out of place in static mode (paddle.increment is not)
            warn_static_inplace(name)
            return fn(x, *args, **kwargs)
        out = fn(x, *args, **kwargs)
        if list(out.shape) != list(x.shape):
            raise InvalidArgumentError(
                f"paddle.Tensor.{name}: the in-place result has shape {list(out.shape)} but x has shape "
                f"{list(x.shape)}; an in-place op cannot broadcast x"
            )
        return write_result(x, out, f"paddle.Tensor.{name}")

    inplace.__name__ = inplace.__qualname__ = name
    return inplace


def to_tdtype(d: Any, default: torch.dtype | None = None) -> torch.dtype | None:
    return _dt.to_dtype(d).torch if d is not None else default


def default_infer(opdef, args: tuple, kwargs: dict) -> Any:
    """The generic meta-tensor inference (engine/framework/infer.py), for an explicit rule to fall back on."""
    import dataclasses

    from paddle_compat.engine.framework.infer import infer_outputs

    return infer_outputs(dataclasses.replace(opdef, infer=None), args, kwargs)


def entry_value(d: Any) -> int | None:
    """The value of one entry of a shape list recorded in a Program: an int as given, a Variable a fill_constant
    made (a 2.6 jit.save model's ShapeTensor entries) its value, any other Variable None (a runtime size)."""
    if not is_tensorlike(d):
        return int(d)
    from paddle_compat.engine.framework.infer import _constant

    return _constant(d)


def static_dims(v: Any) -> list[int] | None:
    """A shape argument recorded in a Program: known entries keep their value (entry_value), runtime sizes are
    unknown (-1); a whole Variable shape gives None."""
    if is_tensorlike(v):
        return None
    if isinstance(v, (list, tuple)):
        return [-1 if (n := entry_value(d)) is None else n for d in v]
    return [int(v)]


def operator_tmp_name(*operands: Any) -> str | None:
    """The output name of a Tensor operator (`x + y`, `x * 2`, `x < y`) recorded in a Program: Paddle's
    math_op_patch names it `tmp_N` (1.8, 2.4 and 2.6 agree); None in dygraph."""
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.unique_name import generate

    if any(isinstance(o, Variable) for o in operands):
        return generate("tmp")
    return None


def static_scalar_operand(x: Any, value: Any, reverse: bool = False) -> Any:
    """The Variable Paddle's math_op_patch fills for a Python scalar operand of a Tensor operator, named `tmp_N`:
    the right operand a one-element `fill_constant` of x's dtype, the left one of a reflected operator (`2 / x`)
    a tensor of x's shape."""
    from paddle_compat.engine.ops.tensor.creation import fill_constant, full_like

    if not isinstance(value, (int, float)):
        return value
    if reverse:
        return full_like(x, value, name=operator_tmp_name(x))
    return fill_constant([1], x.dtype, value, name=operator_tmp_name(x))
