"""Elementwise, reduction and matrix ops (Paddle's python/paddle/tensor/math.py family).

The binary elementwise ops are one table: each row is a Paddle op type, its torch function and its
2.x export; the body (with fluid's `axis` alignment) is shared. Unary ops likewise.
"""

from __future__ import annotations

import torch

from paddle_compat.engine.core import eigen_reduce
from paddle_compat.engine.core.gemm import dense
from paddle_compat.engine.core.errors import InvalidArgumentError, PreconditionNotMetError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.tensor import INT_GRAD, Tensor
from paddle_compat.engine.ops.common import (broadcast_align, check_clip_bounds, norm_axes, reduce_result,
                                      require_kernel_dtype, runs_on_cpu, scalar_shape, tdtype, unary_body)
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.ops.tensor._helpers import check_same_dtype, make_inplace_api, operator_operands
from paddle_compat.engine.ops.common import apply_act


def _floor_divide(x, y):
    return torch.div(x, y, rounding_mode="floor")


def _mod(x, y):
    return torch.remainder(x, y)


def _true_div(x, y):
    return torch.true_divide(x, y) if (x.is_floating_point() or not isinstance(y, torch.Tensor)
                                       or y.is_floating_point()) else torch.div(x, y, rounding_mode="trunc")


# Paddle op type -> (torch function, 2.x name, Tensor operator names)
BINARY = {
    "elementwise_add": (torch.add, "add", ("__add__", "__radd__")),
    "elementwise_sub": (torch.sub, "subtract", ("__sub__",)),
    "elementwise_mul": (torch.mul, "multiply", ("__mul__", "__rmul__")),
    "elementwise_div": (_true_div, "divide", ()),
    "elementwise_max": (torch.maximum, "maximum", ()),
    "elementwise_min": (torch.minimum, "minimum", ()),
    "elementwise_pow": (torch.pow, None, ()),
    "elementwise_mod": (_mod, "mod", ("__mod__",)),
    "elementwise_floordiv": (_floor_divide, "floor_divide", ("__floordiv__",)),
}


def _binary_body(fn):
    def body(x, y, axis=-1, name=None):
        if axis != -1 and axis is not None and isinstance(y, torch.Tensor) and isinstance(x, torch.Tensor):
            y = broadcast_align(x, y, axis)
        return fn(x, y)

    return body


for _type, (_fn, _name2x, _dunders) in BINARY.items():
    _public = op(_type)(_binary_body(_fn))
    globals()[_type] = _public


def _make_2x(op_public, name2x):
    """The 2.x API of a BINARY op (`paddle.add(x, y)`): mixed dtypes raise as in Paddle 2.4. Two same-dtype
    dygraph Tensors call the row's torch function directly (one frame); anything else, or a torch error, takes
    the op, whose body is the semantics and raises Paddle's error."""
    api_name = f"paddle.{name2x}"
    op_type = op_public.__paddle_op__.type
    fn = BINARY[op_type][0]
    new, mode, int_grad = object.__new__, MODE, INT_GRAD

    def api(x, y, name=None):
        if type(x) is Tensor and type(y) is Tensor and not mode.static and not int_grad[0]:
            xt, yt = x._t, y._t
            if xt.dtype == yt.dtype:
                try:
                    r = fn(xt, yt)
                except Exception:  # noqa: BLE001
                    r = None
                if r is not None:
                    out = new(Tensor)
                    out._t, out.name, out.persistable = r, None, False
                    return out
        check_same_dtype(api_name, x, y)
        if name is None and mode.static:
            # Paddle 2.x's LayerHelper(op_type, **locals()) puts a generated name into its kwargs, which
            # _elementwise_op then gives the output: `elementwise_add_0`, no `.tmp_0` (2.4 and 2.6 alike)
            name = unique_name.generate(op_type)
        return op_public(x, y, name=name)

    api.__name__ = name2x
    api.__qualname__ = name2x
    return api


for _type, (_fn, _name2x, _dunders) in BINARY.items():
    if _name2x:
        _api = _make_2x(globals()[_type], _name2x)
        globals()[_name2x] = _api
        export(_api, f"paddle.{_name2x}", f"paddle.Tensor.{_name2x}")

export(globals()["mod"], "paddle.remainder", "paddle.Tensor.remainder")
for _n in ("add", "subtract"):
    export(make_inplace_api(globals()[_n], f"{_n}_"), f"paddle.Tensor.{_n}_")


def _operator(fn, reverse=False, divide=False, commutative=False):
    """A Tensor operator (`x + y`, `2 - x`, `x < y`) with Paddle 2.4's dtype rule (see _helpers)."""
    tfn = BINARY[fn.__paddle_op__.type][0]
    new, mode, int_grad = object.__new__, MODE, INT_GRAD

    def method(self, other):
        if not reverse and type(self) is Tensor and not mode.static and not int_grad[0]:  # fast: nothing to cast
            tt, st = type(other), self._t
            if tt is Tensor:
                ot = other._t
                fast = ot.dtype == st.dtype and not (divide and not st.is_floating_point())
            else:
                ot = other
                fast = (tt is float or tt is int) and st.is_floating_point()
            if fast:
                try:
                    r = tfn(st, ot)
                except Exception:  # noqa: BLE001 - the op path raises Paddle's error
                    r = None
                if r is not None:
                    out = new(Tensor)
                    out._t, out.name, out.persistable = r, None, False
                    return out
        x, y = operator_operands(self, other, divide=divide)
        if mode.static:
            return _static_operator(fn, x, y, reverse, commutative)
        if reverse:
            if commutative:
                return fn(x, y)
            from paddle_compat.engine.ops.tensor.creation import full_like_scalar

            return fn(full_like_scalar(x, y), x)
        return fn(x, y)

    return method


# Paddle's math_op_patch records `x + 2`, `x - 2`, `2 - x`, `x * 2`, `2 * x`, `x / 2` on a Variable as one `scale`
# op (scale, bias) instead of an elementwise op with a filled constant (1.8, 2.4 and 2.6 agree): (op type,
# reverse) -> (scale, bias) of the scalar v
_SCALE_OPERATORS = {
    ("elementwise_add", False): lambda v: (1.0, v), ("elementwise_add", True): lambda v: (1.0, v),
    ("elementwise_sub", False): lambda v: (1.0, -v), ("elementwise_sub", True): lambda v: (-1.0, v),
    ("elementwise_mul", False): lambda v: (v, 0.0), ("elementwise_mul", True): lambda v: (v, 0.0),
    ("elementwise_div", False): lambda v: (1.0 / v, 0.0),
}


def _static_operator(fn, x, y, reverse, commutative):
    """A Tensor operator recorded in a Program, with Paddle's op and its `tmp_N` output names."""
    from paddle_compat.engine.ops.tensor._helpers import operator_tmp_name, static_scalar_operand

    rule = _SCALE_OPERATORS.get((fn.__paddle_op__.type, reverse))
    if rule is not None and type(y) in (int, float):
        s, b = rule(float(y))
        return scale(x, s, b, name=operator_tmp_name(x))
    if type(y) in (int, float):
        y = static_scalar_operand(x, y, reverse)
    if reverse and not commutative:
        x, y = y, x
    return fn(x, y, name=operator_tmp_name(x, y))


# Tensor operator -> (op public, reverse, divide)
OPERATORS = {
    "__add__": ("elementwise_add", False), "__radd__": ("elementwise_add", True),
    "__sub__": ("elementwise_sub", False), "__rsub__": ("elementwise_sub", True),
    "__mul__": ("elementwise_mul", False), "__rmul__": ("elementwise_mul", True),
    "__truediv__": ("elementwise_div", False), "__div__": ("elementwise_div", False),
    "__rtruediv__": ("elementwise_div", True), "__rdiv__": ("elementwise_div", True),
    "__pow__": ("elementwise_pow", False), "__rpow__": ("elementwise_pow", True),
    "__floordiv__": ("elementwise_floordiv", False), "__rfloordiv__": ("elementwise_floordiv", True),
    "__mod__": ("elementwise_mod", False), "__rmod__": ("elementwise_mod", True),
}
# numpy must defer to our reflected operators (`np_array + x` -> x.__radd__), as Paddle sets it
export(None, "paddle.Tensor.__array_ufunc__")
for _d, (_type, _rev) in OPERATORS.items():
    export(_operator(globals()[_type], _rev, divide=_type == "elementwise_div",
                     commutative=_type in ("elementwise_add", "elementwise_mul")), f"paddle.Tensor.{_d}")


def _pow_type(a: dict) -> str | None:
    from paddle_compat.engine.framework.dispatch import _is_var

    return "elementwise_pow" if _is_var(a.get("y")) else None


@op("pow", exports=("paddle.pow", "paddle.Tensor.pow"), paddle_type=_pow_type)
def pow(x, y, name=None):  # noqa: A001 - Paddle's name
    """x ** y; a scalar y records Paddle's `pow` op, a tensor y `elementwise_pow`."""
    if isinstance(y, torch.Tensor):
        return torch.pow(x, y)
    if not x.is_floating_point() and isinstance(y, float):
        x = x.to(torch.get_default_dtype())
    return torch.pow(x, y)


@op("scale", exports=("paddle.scale", "paddle.Tensor.scale", "paddle.fluid.layers.scale"), inplace="scale_")
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    s = scale.reshape(()) if isinstance(scale, torch.Tensor) else scale
    if type(s) is float and s == 1.0 and x.is_floating_point():
        out = x + bias  # x * 1.0 is x, bit for bit: one pass (save_inference_model's scale 1.0 on every fetch target)
    else:
        out = x * s + bias if bias_after_scale else (x + bias) * s
    if out.dtype != x.dtype:
        out = out.to(x.dtype)
    if act:
        out = apply_act(out, act)
    return out


# --- unary ------------------------------------------------------------------------------------
UNARY = {
    "abs": torch.abs, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt,
    "square": torch.square, "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "asin": torch.asin,
    "acos": torch.acos, "atan": torch.atan, "sinh": torch.sinh, "cosh": torch.cosh, "ceil": torch.ceil,
    "floor": torch.floor, "round": torch.round, "reciprocal": torch.reciprocal, "sign": torch.sign,
    "log2": torch.log2, "log10": torch.log10, "log1p": torch.log1p, "erf": torch.erf,
}


# Paddle's CPU kernels narrower than torch's, by op: any other dtype raises Paddle's NotFound on CPU (sin: float and
# double in 1.8.5 and 2.4, plus complex in 2.6.2; PaddleTest paddlebase/test_sin.py::test_sin6 expects the error for
# int32; tests/api_level/test_level_errors.py)
UNARY_CPU_DTYPES = {"sin": ("float32", "float64", "complex64", "complex128")}


def _cpu_kernel_checked(name, fn, supported):
    api = f"paddle.{name}"

    def run(x):
        if isinstance(x, torch.Tensor) and runs_on_cpu(x):  # a non-tensor meets fn's own error (test_sin7)
            require_kernel_dtype(api, name, x.dtype, supported, "CPU")
        return fn(x)

    return run


for _type, _fn in UNARY.items():
    if _type in UNARY_CPU_DTYPES:
        _fn = _cpu_kernel_checked(_type, _fn, UNARY_CPU_DTYPES[_type])
    globals()[_type] = op(_type, exports=(f"paddle.{_type}", f"paddle.Tensor.{_type}"),
                          inplace=f"{_type}_")(unary_body(_fn))


neg = op("neg", exports=("paddle.neg", "paddle.Tensor.neg", "paddle.Tensor.__neg__"))(unary_body(torch.neg))


export(globals()["abs"], "paddle.Tensor.__abs__")


# --- reductions -------------------------------------------------------------------------------
def _reduce(fn, x, axis, keepdim, **kw):
    axes = norm_axes(axis, x.dim())
    if x.dim() == 0:
        return reduce_result(fn(x, **kw) if not kw.get("dtype") else fn(x, **kw), axes, keepdim)
    out = fn(x, dim=axes if axes is not None else list(range(x.dim())), keepdim=keepdim, **kw)
    return reduce_result(out, axes, keepdim)


def _sum_fast(x, axis=None, dtype=None, keepdim=False, name=None):
    t = x._t
    if type(axis) is int and dtype is None and t.is_floating_point() and t.dim() > 1:  # a float sum over one axis
        return torch.sum(t, axis, keepdim)
    return _body["sum"](t, axis, dtype, keepdim) if axis is None or type(axis) is int else None


def _mean_fast(x, axis=None, keepdim=False, name=None):
    return _body["mean"](x._t, axis, keepdim) if axis is None or type(axis) is int else None


def _matmul_fast(x, y, transpose_x=False, transpose_y=False, name=None):
    a, b = x._t, y._t
    if transpose_x or a.dim() < 2 or b.dim() < 2:
        return _body["matmul"](a, b, transpose_x, transpose_y)
    return dense(a, b.mT if transpose_y else b)


_body: dict = {}  # the torch bodies the shortcuts above call (the names themselves are the public wrappers)


@op("reduce_sum", exports=("paddle.sum", "paddle.Tensor.sum"), fast=_sum_fast, helper="sum")
def sum(x, axis=None, dtype=None, keepdim=False, name=None):  # noqa: A001
    d = None if dtype is None else tdtype(dtype)
    if d is None and x.dtype in (torch.bool, torch.int32):
        d = torch.int64  # Paddle sums bool / int32 into int64
    if axis is None and not keepdim:  # full reduction, cheaply: shape [1] (0-D at API level 2.6)
        return scalar_shape(eigen_reduce.reduce_full(x, "sum") if d is None else
                            eigen_reduce.settle(torch.sum(x, dtype=d), x, "sum"))
    if type(axis) is int and d is None and -x.dim() <= axis < x.dim():  # the common call, cheaply
        return scalar_shape(torch.sum(x, axis, keepdim))
    return _reduce(torch.sum, x, axis, keepdim, dtype=d)


@op("reduce_mean", exports=("paddle.mean", "paddle.Tensor.mean"), fast=_mean_fast, helper="mean")
def mean(x, axis=None, keepdim=False, name=None):
    if axis is None and not keepdim and x.is_floating_point():  # the common call, cheaply: shape [1] (or 0-D)
        return scalar_shape(eigen_reduce.reduce_full(x, "mean"))
    return _reduce(torch.mean, x, axis, keepdim)


class _Extremum(torch.autograd.Function):
    """amax / amin with Paddle's gradient (reduce_max_grad / reduce_min_grad: dx = dy * (x == y)): every element
    equal to the result gets the whole gradient, where torch splits it among ties."""

    @staticmethod
    def forward(ctx, x, fn, dim, keepdim):
        out = fn(x, dim=dim, keepdim=keepdim)
        ctx.save_for_backward(x, out)
        ctx.dim, ctx.keepdim = dim, keepdim
        return out

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        if not ctx.keepdim:
            for d in sorted(d % x.dim() for d in ctx.dim) if x.dim() else ():
                out, g = out.unsqueeze(d), g.unsqueeze(d)
        return g * (x == out).to(g.dtype), None, None, None


def _extremum(fn, x, dim, keepdim):
    if x.requires_grad and torch.is_grad_enabled():
        return _Extremum.apply(x, fn, list(dim), keepdim)
    return fn(x, dim=dim, keepdim=keepdim)


def _amax(x, dim, keepdim):
    return _extremum(torch.amax, x, dim, keepdim)


def _amin(x, dim, keepdim):
    return _extremum(torch.amin, x, dim, keepdim)


@op("reduce_max", exports=("paddle.max", "paddle.Tensor.max"), helper="max")
def max(x, axis=None, keepdim=False, name=None):  # noqa: A001
    if axis is None and not keepdim and x.numel():  # full reduction, cheaply: shape [1] (or 0-D)
        return scalar_shape(_amax(x, list(range(x.dim())), False))
    return _reduce(_amax, x, axis, keepdim)


@op("reduce_min", exports=("paddle.min", "paddle.Tensor.min"), helper="min")
def min(x, axis=None, keepdim=False, name=None):  # noqa: A001
    if axis is None and not keepdim and x.numel():  # full reduction, cheaply: shape [1] (or 0-D)
        return scalar_shape(_amin(x, list(range(x.dim())), False))
    return _reduce(_amin, x, axis, keepdim)


def _prod(x, dim, keepdim, dtype=None):
    out = x.to(dtype) if dtype is not None else x
    for d in sorted(dim, reverse=True):
        out = torch.prod(out, dim=d, keepdim=keepdim)
    return out


@op("reduce_prod", exports=("paddle.prod", "paddle.Tensor.prod"))
def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    return _reduce(_prod, x, axis, keepdim, dtype=tdtype(dtype))


def _all(x, dim, keepdim):
    return torch.all(x.bool(), dim=dim, keepdim=keepdim) if dim else x.bool()


def _any(x, dim, keepdim):
    return torch.any(x.bool(), dim=dim, keepdim=keepdim) if dim else x.bool()


@op("reduce_all", exports=("paddle.all", "paddle.Tensor.all"), differentiable=False, helper="all")
def all(x, axis=None, keepdim=False, name=None):  # noqa: A001
    return _reduce(_all, x, axis, keepdim)


@op("reduce_any", exports=("paddle.any", "paddle.Tensor.any"), differentiable=False, helper="any")
def any(x, axis=None, keepdim=False, name=None):  # noqa: A001
    return _reduce(_any, x, axis, keepdim)


@op("mean", exports=("paddle.fluid.layers.mean",))
def mean_all(x, name=None):
    """fluid.layers.mean: the mean of all elements, shape [1]."""
    return eigen_reduce.reduce_full(x, "mean").reshape(1)


# --- matrix -----------------------------------------------------------------------------------
@op("matmul_v2", exports=("paddle.matmul", "paddle.Tensor.matmul"), fast=_matmul_fast)
def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    if transpose_x:
        x = x.unsqueeze(0) if x.dim() == 1 else x.transpose(-1, -2)
    if transpose_y:
        y = y.unsqueeze(1) if y.dim() == 1 else y.transpose(-1, -2)
    return dense(x, y)


_body.update(sum=sum.__wrapped__, mean=mean.__wrapped__, matmul=matmul.__wrapped__)


def _matmul_operator(self, other):
    return matmul(self, other)


export(_matmul_operator, "paddle.Tensor.__matmul__")


@op("mul", exports=("paddle.fluid.layers.mul",))
def mul(x, y, x_num_col_dims=1, y_num_col_dims=1, name=None):
    """fluid's `mul`: flatten x to 2-D at x_num_col_dims and y at y_num_col_dims, then matmul."""
    if x.dim() == 2 and y.dim() == 2 and x_num_col_dims == 1 and y_num_col_dims == 1:
        return dense(x, y)  # the common fc case: no flattening needed
    xs, ys = list(x.shape), list(y.shape)
    x2 = x.reshape(_prod_list(xs[:x_num_col_dims]), _prod_list(xs[x_num_col_dims:]))
    y2 = y.reshape(_prod_list(ys[:y_num_col_dims]), _prod_list(ys[y_num_col_dims:]))
    if x2.shape[1] != y2.shape[0]:
        raise ValueError(
            f"mul: the flattened x has {x2.shape[1]} columns (x shape {xs}, x_num_col_dims={x_num_col_dims}) "
            f"but the flattened y has {y2.shape[0]} rows (y shape {ys}, y_num_col_dims={y_num_col_dims})"
        )
    return dense(x2, y2).reshape(xs[:x_num_col_dims] + ys[y_num_col_dims:])


def _prod_list(v: list[int]) -> int:
    n = 1
    for d in v:
        n *= d
    return n


@op("sum", exports=("paddle.add_n",))
def add_n(inputs, name=None):
    if isinstance(inputs, torch.Tensor):
        return inputs
    out = inputs[0]
    for t in inputs[1:]:
        out = out + t
    return out


# --- more of python/paddle/tensor/math.py ---------------------------------------------------------
@op("cumsum", exports=("paddle.cumsum", "paddle.Tensor.cumsum"))
def cumsum(x, axis=None, dtype=None, name=None):
    """Cumulative sum; axis=None works on the flattened input."""
    if axis is None:
        x, axis = x.flatten(), 0
    return torch.cumsum(x, dim=int(axis), dtype=tdtype(dtype))


@op("addmm", exports=("paddle.addmm", "paddle.Tensor.addmm"))
def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):  # noqa: A002
    if x.dim() != 2 or y.dim() != 2:
        raise ValueError(f"paddle.addmm: x and y must be 2-D, got shapes {list(x.shape)} and {list(y.shape)}")
    if x.shape[1] != y.shape[0]:
        raise ValueError(f"paddle.addmm: x's width {x.shape[1]} must equal y's height {y.shape[0]} "
                         f"(x shape {list(x.shape)}, y shape {list(y.shape)})")
    # Paddle broadcasts input only from 1 to [x.shape[0], y.shape[1]]; any other shape is an error
    rows, cols, ishape = x.shape[0], y.shape[1], list(input.shape)
    if input.dim() == 2:
        if ishape[0] not in (rows, 1):
            raise ValueError(f"paddle.addmm: input's dimension[0] must be x's dimension[0] {rows} or 1, but got "
                             f"input shape {ishape}")
        if ishape[1] not in (cols, 1):
            raise ValueError(f"paddle.addmm: input's dimension[1] must be y's dimension[1] {cols} or 1, but got "
                             f"input shape {ishape}")
    elif input.dim() == 1:
        if ishape[0] not in (cols, 1):
            raise ValueError(f"paddle.addmm: input's shape {ishape} is not broadcastable with [x.shape[0], "
                             f"y.shape[1]]: [{rows}, {cols}]")
    else:
        raise ValueError(f"paddle.addmm: input must be 1-D or 2-D, but got input shape {ishape}")
    return beta * input + alpha * torch.mm(x, y)


@op("kron", exports=("paddle.kron", "paddle.Tensor.kron"))
def kron(x, y, name=None):
    return torch.kron(x, y)


@op("logsumexp", exports=("paddle.logsumexp", "paddle.Tensor.logsumexp"))
def logsumexp(x, axis=None, keepdim=False, name=None):
    return _reduce(torch.logsumexp, x, axis, keepdim)


@op("stanh", exports=("paddle.stanh", "paddle.Tensor.stanh"))
def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    return scale_b * torch.tanh(scale_a * x)


@op("increment", differentiable=False)
def _increment(x, value=1.0, name=None):
    if x.numel() != 1:
        raise ValueError(f"paddle.increment: x must have exactly one element, got shape {list(x.shape)}")
    return x + torch.tensor(value, dtype=x.dtype, device=x.device)


def increment(x, value=1.0, name=None):
    """paddle.increment adds in place (x is returned, holding the new value), as Paddle's op does."""
    return make_inplace_api(_increment, "increment")(x, value)


export(increment, "paddle.increment", "paddle.Tensor.increment")


@op("multiplex", exports=("paddle.multiplex",))
def multiplex(inputs, index, name=None):
    """Row i of the result is row i of inputs[index[i]]; index may have fewer rows than the inputs (the result has
    index's rows), not more (Paddle's infermeta)."""
    stacked = torch.stack(list(inputs), 0)
    idx = index.reshape(-1).long()
    if idx.numel() > stacked.shape[1]:
        raise InvalidArgumentError(f"paddle.multiplex: index has {idx.numel()} rows but the inputs have only "
                                   f"{stacked.shape[1]}")
    if idx.numel() and (int(idx.min()) < 0 or int(idx.max()) >= stacked.shape[0]):
        raise PreconditionNotMetError(f"paddle.multiplex: index exceeds the number of candidate tensors: values "
                                      f"must be in [0, {stacked.shape[0]}), but got {idx.tolist()}")
    return stacked[idx, torch.arange(idx.numel(), device=stacked.device)]


@op("trace", exports=("paddle.trace", "paddle.Tensor.trace"))
def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Paddle's trace kernel takes the diagonal of (min(axis1, axis2), max(axis1, axis2)): the offset counts along
    the axes in increasing order, whichever order they are given in (paddle.diagonal, numpy and torch keep the
    given order)."""
    nd = x.dim()
    a1, a2 = int(axis1), int(axis2)
    if not (-nd <= a1 < nd and -nd <= a2 < nd) or a1 % nd == a2 % nd:
        raise ValueError(f"paddle.trace: axis1 ({axis1}) and axis2 ({axis2}) must be two different axes of a "
                         f"{nd}-D input")
    a1, a2 = sorted((a1 % nd, a2 % nd))
    out = torch.diagonal(x, offset=int(offset), dim1=a1, dim2=a2).sum(-1)
    return scalar_shape(out)


@op("clip_v2", exports=("paddle.clip", "paddle.Tensor.clip"), inplace="clip_", helper="clip", paddle_type="clip")
def clip(x, min=None, max=None, name=None):  # noqa: A002
    """paddle.clip (Paddle's op type is `clip`; that name is taken by the optimizer's gradient clip op)."""
    lo = min.reshape(()).item() if isinstance(min, torch.Tensor) else min
    hi = max.reshape(()).item() if isinstance(max, torch.Tensor) else max
    if not isinstance(min, torch.Tensor) and not isinstance(max, torch.Tensor):  # attributes only: a tensor's
        check_clip_bounds("paddle.clip", lo, hi)  # value is a placeholder while a static program's shapes are inferred
    if x.is_floating_point():
        lo = torch.finfo(x.dtype).min if lo is None else lo
        hi = torch.finfo(x.dtype).max if hi is None else hi
    return torch.clamp(x, min=lo, max=hi)


# --- more reductions (2.x): amax / amin split the gradient among ties, as torch does -------------------
@op("reduce_amax", exports=("paddle.amax", "paddle.Tensor.amax"), helper="amax")
def amax(x, axis=None, keepdim=False, name=None):
    return _reduce(torch.amax, x, axis, keepdim)


@op("reduce_amin", exports=("paddle.amin", "paddle.Tensor.amin"), helper="amin")
def amin(x, axis=None, keepdim=False, name=None):
    return _reduce(torch.amin, x, axis, keepdim)


@op("nansum", exports=("paddle.nansum", "paddle.Tensor.nansum"))
def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    return _body["sum"](torch.where(torch.isnan(x), torch.zeros_like(x), x), axis, dtype, keepdim)


@op("nanmean", exports=("paddle.nanmean", "paddle.Tensor.nanmean"))
def nanmean(x, axis=None, keepdim=False, name=None):
    return _reduce(torch.nanmean, x, axis, keepdim)


@op("count_nonzero", exports=("paddle.count_nonzero", "paddle.Tensor.count_nonzero"), differentiable=False)
def count_nonzero(x, axis=None, keepdim=False, name=None):
    return _body["sum"]((x != 0).to(torch.int64), axis, None, keepdim)


# --- cumulative ----------------------------------------------------------------------------------------
def _flat_axis(x, axis):
    """Paddle's cumulative ops work on the flattened input when axis is None."""
    return (x.flatten(), 0) if axis is None else (x, int(axis))


@op("cumprod", exports=("paddle.cumprod", "paddle.Tensor.cumprod"), inplace="cumprod_")
def cumprod(x, dim=None, dtype=None, name=None):
    x, dim = _flat_axis(x, dim)
    return torch.cumprod(x.to(tdtype(dtype)) if dtype is not None else x, dim)


def _cum_extremum(fn, api):
    def body(x, axis=None, dtype="int64", name=None):
        from paddle_compat.engine.core import dtype as _dt

        d = _dt.to_dtype(dtype)
        if d.name not in ("int32", "int64"):
            raise ValueError(f"{api}: dtype must be int32 or int64, got {d.name}")
        x, axis = _flat_axis(x, axis)
        values, indices = fn(x, axis)
        return values, indices.to(d.torch)

    return body


cummax = op("cummax", exports=("paddle.cummax", "paddle.Tensor.cummax"))(_cum_extremum(torch.cummax, "paddle.cummax"))
cummin = op("cummin", exports=("paddle.cummin", "paddle.Tensor.cummin"))(_cum_extremum(torch.cummin, "paddle.cummin"))


@op("logcumsumexp", exports=("paddle.logcumsumexp", "paddle.Tensor.logcumsumexp"))
def logcumsumexp(x, axis=None, dtype=None, name=None):
    x, axis = _flat_axis(x.to(tdtype(dtype)) if dtype is not None else x, axis)
    return torch.logcumsumexp(x, axis)


@op("diff", exports=("paddle.diff", "paddle.Tensor.diff"))
def diff(x, n=1, axis=-1, prepend=None, append=None, name=None):
    """Paddle concatenates prepend / append again before each of the n differences."""
    if n < 1:
        raise ValueError(f"paddle.diff: n must be at least 1, but got {n}")
    axis = axis % x.dim()
    for _ in range(n):
        x = torch.cat([t for t in (prepend, x, append) if t is not None], axis)
        front, back = x.narrow(axis, 0, x.shape[axis] - 1), x.narrow(axis, 1, x.shape[axis] - 1)
        x = torch.logical_xor(back, front) if x.dtype == torch.bool else back - front
    return x


def _trapezoid(y, x, dx, axis, cumulative, api):
    if x is not None and dx is not None:
        raise ValueError(f"{api}: x and dx cannot both be given")
    if not y.is_floating_point():
        raise TypeError(f"{api}: y must be float16, float32 or float64, but got {str(y.dtype)[6:]}")
    if x is None:
        fn = torch.cumulative_trapezoid if cumulative else torch.trapezoid
        return fn(y, dx=1.0 if dx is None else float(dx), dim=axis)
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[axis] = x.shape[0]
        x = x.reshape(shape)
    fn = torch.cumulative_trapezoid if cumulative else torch.trapezoid
    return fn(y, x, dim=axis)


@op("trapezoid", exports=("paddle.trapezoid", "paddle.Tensor.trapezoid"))
def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    return scalar_shape(_trapezoid(y, x, dx, axis, False, "paddle.trapezoid"))


@op("cumulative_trapezoid", exports=("paddle.cumulative_trapezoid", "paddle.Tensor.cumulative_trapezoid"))
def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    return _trapezoid(y, x, dx, axis, True, "paddle.cumulative_trapezoid")
