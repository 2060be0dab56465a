"""Comparison and logical ops (python/paddle/tensor/logic.py), the Tensor comparison / bitwise operators,
and isfinite / isinf / isnan. Comparisons return bool tensors; full reductions give shape [1] (2.4)."""

from __future__ import annotations

import torch

from paddle_compat.engine.ops.common import require_kernel_dtype, runs_on_cpu, scalar_shape
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.ops.tensor._helpers import (check_same_dtype, operator_operands, operator_tmp_name,
                                              static_scalar_operand)

# Paddle op type -> (torch function, 2.x name, Tensor operator)
COMPARE = {
    "equal": (torch.eq, "equal", "__eq__"),
    "not_equal": (torch.ne, "not_equal", "__ne__"),
    "less_than": (torch.lt, "less_than", "__lt__"),
    "less_equal": (torch.le, "less_equal", "__le__"),
    "greater_than": (torch.gt, "greater_than", "__gt__"),
    "greater_equal": (torch.ge, "greater_equal", "__ge__"),
}
# Paddle op type -> (torch function, Tensor operator); logical_* cast to bool, bitwise_* keep the dtype
LOGICAL = {
    "logical_and": (torch.logical_and, None), "logical_or": (torch.logical_or, None),
    "logical_xor": (torch.logical_xor, None),
    "bitwise_and": (torch.bitwise_and, "__and__"), "bitwise_or": (torch.bitwise_or, "__or__"),
    "bitwise_xor": (torch.bitwise_xor, "__xor__"),
}


def _cmp_body(fn):
    def body(x, y, name=None):
        if not isinstance(y, torch.Tensor):
            y = torch.tensor(y, dtype=x.dtype, device=x.device)
        return fn(x, y)

    return body


def _checked(public, api):
    def f(x, y, name=None):
        check_same_dtype(api, x, y)
        return public(x, y, name=name)

    f.__name__ = f.__qualname__ = api.rpartition(".")[2]
    return f


def _cmp_operator(public):
    def method(self, other):
        x, y = operator_operands(self, other)
        if MODE.static and type(y) in (int, float):
            y = static_scalar_operand(x, y)
        return public(x, y, name=operator_tmp_name(x, y))

    return method


for _type, (_fn, _name, _dunder) in COMPARE.items():
    _pub = op(_type, differentiable=False)(_cmp_body(_fn))
    globals()[_name] = _checked(_pub, f"paddle.{_name}")
    export(globals()[_name], f"paddle.{_name}", f"paddle.Tensor.{_name}")
    export(_cmp_operator(_pub), f"paddle.Tensor.{_dunder}")

def _into(out, result):
    """Paddle's `out=` argument of the logical / bitwise ops: the result is written into `out`."""
    if out is None:
        return result
    from paddle_compat.engine.framework.dispatch import write_result

    return write_result(out, result, "out=", strict=False)


def _with_out(public, name):
    def f(x, y, out=None, name=None):
        return _into(out, public(x, y, name=name))

    f.__name__ = f.__qualname__ = name
    return f


for _type, (_fn, _dunder) in LOGICAL.items():
    _pub = op(_type, differentiable=False)(_cmp_body(_fn))
    globals()[_type] = _with_out(_pub, _type)
    export(globals()[_type], f"paddle.{_type}", f"paddle.Tensor.{_type}")
    if _dunder:
        export(_cmp_operator(_pub), f"paddle.Tensor.{_dunder}")


@op("logical_not", differentiable=False)
def _logical_not(x, name=None):
    return torch.logical_not(x)


@op("bitwise_not", exports=("paddle.Tensor.__invert__",), differentiable=False)
def _bitwise_not(x, name=None):
    return torch.bitwise_not(x)


def logical_not(x, out=None, name=None):
    return _into(out, _logical_not(x, name=name))


def bitwise_not(x, out=None, name=None):
    return _into(out, _bitwise_not(x, name=name))


export(logical_not, "paddle.logical_not", "paddle.Tensor.logical_not")
export(bitwise_not, "paddle.bitwise_not", "paddle.Tensor.bitwise_not")


@op("equal_all", exports=("paddle.equal_all", "paddle.Tensor.equal_all"), differentiable=False)
def equal_all(x, y, name=None):
    same = list(x.shape) == list(y.shape) and bool(torch.equal(x, y.to(x.dtype)))
    return scalar_shape(torch.tensor(same, device=x.device))


def _close(x, y, rtol, atol, equal_nan):
    """Paddle's isclose / allclose kernels elementwise: a == b, or |a - b| <= atol + rtol * |b|, or the two sides
    within 1e-15; NaN only matches NaN under equal_nan. Unlike torch, negative tolerances are accepted (they only
    fail) and inf is close to anything when rtol * |b| is inf (isclose(1, inf) is True in Paddle 2.6.2)."""
    if x.is_complex() or y.is_complex():
        return torch.isclose(x, y, rtol=float(rtol), atol=float(atol), equal_nan=bool(equal_nan))
    rtol, atol = float(rtol), float(atol)
    left = (x - y).abs()
    right = atol + torch.where(y > 0, rtol * y, -rtol * y)
    val = (x == y) | (left <= right) | ((left - right).abs() <= 1e-15)
    xn, yn = torch.isnan(x), torch.isnan(y)
    return torch.where(xn | yn, (xn == yn) & bool(equal_nan), val)


@op("allclose", exports=("paddle.allclose", "paddle.Tensor.allclose"), differentiable=False)
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Paddle registers the CPU kernel `allclose` for float32 / float64 only (1.8.5's op, 2.4, 2.6.2): any other
    dtype is its NotFound error there (PaddleTest paddlebase/test_allclose.py::test_allclose10, float16)."""
    if isinstance(x, torch.Tensor) and runs_on_cpu(x):
        require_kernel_dtype("paddle.allclose", "allclose", x.dtype, ("float32", "float64"), "CPU")
    return scalar_shape(_close(x, y, rtol, atol, equal_nan).all())


@op("is_empty", exports=("paddle.is_empty", "paddle.Tensor.is_empty"), differentiable=False)
def is_empty(x, name=None):
    return scalar_shape(torch.tensor(x.numel() == 0, device=x.device))


@op("isfinite_v2", exports=("paddle.isfinite", "paddle.Tensor.isfinite"), differentiable=False)
def isfinite(x, name=None):
    return torch.isfinite(x)


@op("isinf_v2", exports=("paddle.isinf", "paddle.Tensor.isinf"), differentiable=False)
def isinf(x, name=None):
    return torch.isinf(x)


@op("isnan_v2", exports=("paddle.isnan", "paddle.Tensor.isnan"), differentiable=False)
def isnan(x, name=None):
    return torch.isnan(x)


# in-place variants (`paddle.equal_(x, y)`, `x.logical_not_()`): the result, of the op's dtype, replaces x
def _export_inplace() -> None:
    from paddle_compat.engine.ops.tensor._helpers import make_inplace_api

    for name in [*COMPARE, *LOGICAL, "logical_not", "bitwise_not"]:
        export(make_inplace_api(globals()[name], f"{name}_"), f"paddle.{name}_", f"paddle.Tensor.{name}_")


_export_inplace()


@op("isclose", exports=("paddle.isclose", "paddle.Tensor.isclose"), differentiable=False)
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    for k, v in (("rtol", rtol), ("atol", atol)):
        if not isinstance(v, float):
            raise TypeError(f"paddle.isclose: {k} must be a float, but received {type(v).__name__}")
    if x.dtype != y.dtype:
        raise TypeError(f"paddle.isclose: x ({str(x.dtype)[6:]}) and y ({str(y.dtype)[6:]}) must have the same dtype")
    return _close(x, y, rtol, atol, equal_nan)


def _dtype_test(kinds: tuple, api: str):
    def fn(x):
        from paddle_compat.engine.ops.tensor._helpers import is_tensorlike

        if not is_tensorlike(x):
            raise TypeError(f"{api}: x must be a Tensor, but got {type(x).__name__}")
        t = x.dtype.torch
        return ("f" in kinds and t.is_floating_point) or ("c" in kinds and t.is_complex) or \
            ("i" in kinds and not t.is_floating_point and not t.is_complex and t != torch.bool)

    fn.__name__ = fn.__qualname__ = api.rpartition(".")[2]
    export(fn, api, f"paddle.Tensor.{fn.__name__}")
    return fn


is_floating_point = _dtype_test(("f",), "paddle.is_floating_point")
is_complex = _dtype_test(("c",), "paddle.is_complex")
is_integer = _dtype_test(("i",), "paddle.is_integer")
