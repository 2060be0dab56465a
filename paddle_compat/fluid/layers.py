"""fluid.layers adapters with Paddle 1.8 names and defaults. They only compose registry ops (never
torch), so each records in static mode and runs in dygraph for free."""

from __future__ import annotations

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE, legacy_creation
from paddle_compat.engine.framework.argcheck import require_tensor
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.ops.tensor import creation, manipulation
from paddle_compat.engine.ops.tensor import math as m


def _is_int(x) -> bool:
    from paddle_compat.engine.core.dtype import to_dtype

    dt = getattr(x, "dtype", None)
    try:
        return dt is not None and to_dtype(dt).name in ("int8", "int16", "int32", "int64", "uint8")
    except TypeError:
        return False


def _elementwise(op_type: str):
    op_public = getattr(m, op_type)
    trunc = op_type in ("elementwise_mod", "elementwise_floordiv")

    def adapter(x, y, axis=-1, act=None, name=None):
        if trunc and _is_int(x):
            # NOTE: Paddle 1.8's integer kernels are C's `a / b` and `a % b` (rounded toward zero, the remainder
            # takes the dividend's sign); paddle.floor_divide / paddle.mod (2.x) floor. Composed from the
            # integer elementwise_div, which truncates (tests/fluid/cases_layers18.py elementwise_mod).
            q = m.elementwise_div(x, y, axis=axis)
            out = q if op_type == "elementwise_floordiv" else m.elementwise_sub(x, m.elementwise_mul(q, y, axis=axis))
            return act_layer(out, act)
        return act_layer(op_public(x, y, axis=axis, name=name if not act else None), act)

    adapter.__name__ = op_type
    adapter.__qualname__ = op_type
    adapter.__doc__ = f"fluid.layers.{op_type}: 1.x `axis` broadcasting, then the optional activation."
    return adapter


for _t in m.BINARY:
    export(_elementwise(_t), f"paddle.fluid.layers.{_t}")


_REDUCE = {"reduce_sum": m.sum, "reduce_mean": m.mean, "reduce_max": m.max, "reduce_min": m.min,
           "reduce_prod": m.prod, "reduce_all": m.all, "reduce_any": m.any}


def _reduce(op_type: str):
    fn = _REDUCE[op_type]

    def adapter(input, dim=None, keep_dim=False, name=None):  # noqa: A002
        if not MODE.static:
            return fn(input, axis=dim, keepdim=keep_dim, name=name)
        with layer_helper(op_type):  # 1.x names the output after the op (reduce_mean_0.tmp_0; paddle.mean: mean_0)
            return fn(input, axis=dim, keepdim=keep_dim, name=name)

    adapter.__name__ = op_type
    adapter.__qualname__ = op_type
    return adapter


for _t in _REDUCE:
    export(_reduce(_t), f"paddle.fluid.layers.{_t}")


@legacy_creation
def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    res = creation.fill_constant(shape, dtype, value, name=name if out is None else None)
    return res if out is None else creation.assign(res, out)


def sums(input, out=None):  # noqa: A002
    """fluid.layers.sums: the elementwise sum of a list of variables (paddle.add_n), written into `out` when
    given (1.8's in-place output)."""
    require_tensor(input, "paddle.fluid.layers.sums", "input", 0, many=True)
    res = m.add_n(input)
    return res if out is None else creation.assign(res, out)


def get_places(device_count=None, device_type=None):
    """fluid.layers.device.get_places: importable as in 1.8.5 (the book chapters import it), deprecated since 0.15
    in favour of ParallelExecutor; its place-list op has no kernel here, so calling it raises."""
    raise UnsupportedAPIError(
        "paddle.fluid.layers.device.get_places",
        "deprecated since 0.15; use fluid.CompiledProgram(...).with_data_parallel(places=...) instead")


export(get_places, "paddle.fluid.layers.device.get_places")


def softmax(input, use_cudnn=False, name=None, axis=-1):  # noqa: A002
    from paddle_compat.engine.ops.nn_functional.activation import softmax as sm

    return sm(input, axis=axis, name=name)


def flatten(x, axis=1, name=None):
    return manipulation.flatten2(x, axis=axis, name=name)


def reshape(x, shape, actual_shape=None, act=None, inplace=False, name=None):
    return act_layer(manipulation.reshape(x, shape, name=name if not act else None), act)


def concat(input, axis=0, name=None):  # noqa: A002
    return manipulation.concat(input, axis=axis, name=name)


def transpose(x, perm, name=None):
    return manipulation.transpose(x, perm, name=name)


def cast(x, dtype):
    return creation.cast(x, dtype)


def accuracy(input, label, k=1, correct=None, total=None):  # noqa: A002
    from paddle_compat.engine.ops.metric import accuracy as acc

    return acc(input, label, k=k)


for _fn in (fill_constant, sums, softmax, flatten, reshape, concat, transpose, cast, accuracy):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
export(accuracy, "paddle.static.accuracy")
