"""Static shape / dtype inference by running the op body on `meta` tensors.

A Variable's unknown dims (-1) are substituted by two different sizes and the body is run twice; output
dims that differ between the two runs are unknown (-1). Bodies that need real data (`nonzero`,
`unique`, anything calling `.item()`) fall back to small zero-filled CPU tensors; an op with a truly
data-dependent output shape declares `infer=` in its registry entry. A body that raises on the
substitutes tells the user their shapes do not fit, naming the op and the input shapes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.errors import InvalidArgumentError, NotFoundError

# Sizes substituted for unknown dims; both divisible by 2, 3, 4 and 6 so reshapes like [-1, 2, k] work.
SUBSTITUTES = (12, 24)


class Spec(NamedTuple):
    shape: tuple
    dtype: _dt.DType


# Inputs of at most this many elements in all (unknown dims substituted) are inferred on small zero-filled CPU
# tensors first: torch's meta kernels mostly run Python reference decompositions, tens to hundreds of times
# slower than a CPU kernel on a few thousand elements, and recording a program was most of the cost of
# building one (issue 15 item 1, bench/bench_first_run.py). Larger inputs keep the meta path (no memory).
SMALL_NUMEL = 1 << 15


def _constant(a: Any) -> int | None:
    """The value of a one-element integer Variable that a fill_constant op made, or None: the literal entries of a
    shape list a program spells with tensors (Paddle's ShapeTensor / expand_shapes_tensor inputs, as a 2.6.2
    jit.save model of `x.reshape([B, -1, 4])` holds them) are known while recording."""
    meta = getattr(getattr(a, "node", None), "meta", None)
    if not meta or meta.get("op_type") != "fill_constant":
        return None
    v = meta.get("attrs", {}).get("value")
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v == int(v) else None


def _is_shape_entry(a: Any) -> bool:
    """An integer Variable of one element: inside a list argument it is a runtime size (`full([B, 3])`,
    `tile(x, [B, 1, 1])` with `B = paddle.shape(x)[0]`), whose value is unknown while recording (unless a
    fill_constant made it: _constant)."""
    from paddle_compat.engine.framework.program import Variable

    return (isinstance(a, Variable) and a.dtype.name in ("int32", "int64") and len(a.shape) <= 1
            and all(d == 1 for d in a.shape) and _constant(a) is None)


def _is_size_tensor(a: Any) -> bool:
    """A short 1-D integer Variable given as an argument itself: a runtime size list whose values are unknown while
    recording (`F.interpolate(x, paddle.shape(y)[2:])`, `paddle.reshape(x, shape_var)`). Where an op only indexes
    with it, both substitutes give the same dims (or fail, and the plain inference decides)."""
    from paddle_compat.engine.framework.program import Variable

    return (isinstance(a, Variable) and a.dtype.name in ("int32", "int64") and len(a.shape) == 1
            and 1 <= a.shape[0] <= 8 and not a.persistable and _constant(a) is None)


def _has_shape_entries(args: Any) -> bool:
    return any(_is_size_tensor(a) or (type(a) in (list, tuple) and (any(_is_shape_entry(x) for x in a)
                                                                      or _has_shape_entries(a)))
               for a in args)


def _materialize(a: Any, fill: int, device: str, grad: bool = False, entries: bool = False) -> Any:
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    if isinstance(a, Variable):
        shape = [fill if d < 0 else d for d in a.shape]
        if (entries and _is_shape_entry(a)) or (_ENTRIES[0] and _is_size_tensor(a)):  # a runtime size:
            # substituted like an unknown dim
            return torch.full(shape, fill, dtype=a.dtype.torch, device=device)
        if shape in ([1], []) and a.dtype.name in ("int32", "int64"):
            c = _constant(a)
            if c is not None:  # a literal shape entry: its value
                return torch.full(shape, c, dtype=a.dtype.torch, device=device)
        t = torch.zeros(shape, dtype=a.dtype.torch, device=device)
        if (device == "meta" or grad) and not a.stop_gradient and t.is_floating_point():
            t.requires_grad_(True)
        return t
    if isinstance(a, Tensor):
        return a._t.detach().to(device, copy=True) if grad else a._t.to(device)  # grad: never the constant itself
    if type(a) in (list, tuple):
        return type(a)(_materialize(x, fill, device, grad, entries or _ENTRIES[0]) for x in a)
    return a


# set while inferring with runtime sizes substituted (_infer): Variables inside list arguments take the fill value
_ENTRIES = [False]


def _numel(args: Any, fill: int) -> int:
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    total = 0
    for a in args:
        if isinstance(a, Variable):
            n = 1
            for d in a.shape:
                n *= fill if d < 0 else d
            total += n
        elif isinstance(a, Tensor):
            total += a._t.numel()
        elif type(a) in (list, tuple):
            total += _numel(a, fill)
    return total


def _call(opdef, args: tuple, kwargs: dict, fill: int, device: str, grad: bool = False) -> Any:
    with torch.no_grad():
        return opdef.impl(*[_materialize(a, fill, device, grad) for a in args],
                          **{k: _materialize(v, fill, device, grad) for k, v in kwargs.items()})


def _run(opdef, args: tuple, kwargs: dict, fill: int) -> Any:
    from paddle_compat.engine.core import paddle_rng

    if paddle_rng.ON:  # nor the draws of Paddle's stream (use_paddle_rng)
        with paddle_rng.kept():
            return _run_inner(opdef, args, kwargs, fill)
    return _run_inner(opdef, args, kwargs, fill)


def _run_inner(opdef, args: tuple, kwargs: dict, fill: int) -> Any:
    errors = (NotImplementedError, RuntimeError, ValueError, TypeError, IndexError)
    if _numel(list(args) + list(kwargs.values()), fill) <= SMALL_NUMEL:
        # small: real zeros on CPU, inputs marked as the meta path marks them; the global RNG is put back
        # (a random op's inference must not move the draws of the program's initializers)
        state = torch.get_rng_state()
        try:
            return _call(opdef, args, kwargs, fill, "cpu", grad=True)
        except errors:
            pass  # as a meta kernel that needs data: the paths below
        finally:
            torch.set_rng_state(state)
    last: Exception | None = None
    for device in ("meta", "cpu"):
        try:
            return _call(opdef, args, kwargs, fill, device)
        except errors as e:
            last = e
            # meta kernels may be missing or need data: try again on real zeros
            continue
    assert last is not None
    raise last


def _specs(r: Any) -> Any:
    if isinstance(r, torch.Tensor):
        return Spec(tuple(r.shape), _dt.from_torch(r.dtype))
    if isinstance(r, (list, tuple)):
        return type(r)(_specs(x) for x in r) if not isinstance(r, Spec) else r
    raise TypeError(f"op output is not a tensor: {type(r).__name__}")


def _merge(a: Any, b: Any) -> Any:
    if isinstance(a, Spec):
        if len(a.shape) != len(b.shape):
            return Spec(tuple(-1 for _ in a.shape), a.dtype)
        return Spec(tuple(x if x == y else -1 for x, y in zip(a.shape, b.shape)), a.dtype)
    return type(a)(_merge(x, y) for x, y in zip(a, b))


def _unknown_ones(spec: Any) -> Any:
    """Output dims that came out as 1 when unknown dims were 1 are unknown too."""
    if isinstance(spec, Spec):
        return Spec(tuple(-1 if d == 1 else d for d in spec.shape), spec.dtype)
    return type(spec)(_unknown_ones(x) for x in spec)


def _has_unknown(args: Any) -> bool:
    from paddle_compat.engine.framework.program import Variable

    for a in args:
        if isinstance(a, Variable) and any(d < 0 for d in a.shape):
            return True
        if type(a) in (list, tuple) and _has_unknown(a):
            return True
    return False


def _describe(args: tuple, kwargs: dict) -> str:
    from paddle_compat.engine.framework.program import Variable

    parts = []
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Variable):
            parts.append(f"{a.name}: shape={list(a.shape)}, dtype={a.dtype.name}")
    return "; ".join(parts)


class _Uncacheable(Exception):
    pass


# Plain values an op body can only read (they are hashed by value into the inference cache's key).
_PLAIN = (int, float, bool, str, bytes, type(None), type(Ellipsis), complex, torch.dtype, _dt.DType)

# (op body, input specs and attributes, default dtypes) -> output specs. Recording runs the op body on substitutes
# that carry nothing but each Variable's shape, dtype and stop_gradient (`_materialize`) plus the plain
# attributes, so the same key gives the same specs: a script (Paddle's unittests) that builds the same small
# program again and again infers each op once (issue 15 item 1). Constants (Tensors), containers other than
# list / tuple and any other object make a call uncacheable; failures are never cached.
_CACHE: dict = {}
_CACHE_MAX = 8192


def _key_of(a: Any) -> Any:
    from paddle_compat.engine.framework.program import Variable

    t = type(a)
    if t in _PLAIN:
        return (t, a)
    if isinstance(a, Variable):
        return (Variable, tuple(a.shape), a.dtype, bool(a.stop_gradient))
    if t in (list, tuple):
        return (t, tuple(_key_of(x) for x in a))
    raise _Uncacheable


def _cache_key(opdef, args: tuple, kwargs: dict) -> Any:
    try:
        key = (opdef.impl, LEVEL.zero_d, _dt._default_dtype[0], torch.get_default_dtype(), tuple(_key_of(a) for a in args),
               tuple((k, _key_of(v)) for k, v in kwargs.items()))
        hash(key)
    except (_Uncacheable, TypeError):  # TypeError: an unhashable value inside a plain one
        return None
    return key


def infer_outputs(opdef, args: tuple, kwargs: dict) -> Any:
    if opdef.infer is not None:
        return opdef.infer(*args, **kwargs)
    key = _cache_key(opdef, args, kwargs)
    hit = _CACHE.get(key) if key is not None else None
    if hit is not None:
        return hit
    out = _infer(opdef, args, kwargs)
    if key is not None:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = out
    return out


def _infer(opdef, args: tuple, kwargs: dict) -> Any:
    if _has_shape_entries(list(args) + list(kwargs.values())):
        # runtime sizes in a shape list: infer with them substituted by two different values, so the output
        # dims they set come out unknown (-1) as in Paddle, not 0; ops that cannot take the substitutes (an
        # index out of range) fall back to zeros below
        _ENTRIES[0] = True
        try:
            first = _specs(_run(opdef, args, kwargs, SUBSTITUTES[0]))
            second = _specs(_run(opdef, args, kwargs, SUBSTITUTES[1]))
            return _merge(first, second)
        except Exception:  # noqa: BLE001 - the plain inference below decides
            pass
        finally:
            _ENTRIES[0] = False
    unknown = _has_unknown(list(args) + list(kwargs.values()))
    try:
        try:
            first = _specs(_run(opdef, args, kwargs, SUBSTITUTES[0]))
        except (RuntimeError, ValueError, IndexError):
            if not unknown:
                raise
            # an unknown dim meeting a known one (x[-1, 4] + y[3, 4]): 1 broadcasts against anything
            return _unknown_ones(_specs(_run(opdef, args, kwargs, 1)))
        if not unknown:
            return first
        try:
            second = _specs(_run(opdef, args, kwargs, SUBSTITUTES[1]))
        except Exception:  # noqa: BLE001 - shapes only valid for one substitute: keep them
            return first
        return _merge(first, second)
    except (RuntimeError, ValueError, IndexError) as e:
        if isinstance(e, (TypeError, NotFoundError)):  # an argument's type (a float in a shape), a dtype with no
            raise  # kernel (require_kernel_dtype): as is
        api = opdef.exports[0] if opdef.exports else opdef.type
        raise InvalidArgumentError(
            f"{api} (op {opdef.type}): the input shapes do not fit: {e}. Inputs: {_describe(args, kwargs)}"
        ) from e
