"""fluid.layers.utils and fluid.data_feeder helpers (Paddle 1.8): nested-structure utilities (flatten,
pack_sequence_as, map_structure, assert_same_structure; dicts are walked in sorted key order, namedtuples are
rebuilt by field), argument checks with Paddle's messages (check_type / check_dtype /
check_variable_and_dtype skip dygraph, as Paddle does) and convert_to_list."""

from __future__ import annotations

import collections.abc
import copy
import warnings
from typing import Any

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.registry import alias, export

# ------------------------------------------------------------------------------------------------ nest


def is_sequence(seq: Any) -> bool:
    """A dict, or a sequence that is not a string."""
    return isinstance(seq, dict) or (isinstance(seq, collections.abc.Sequence) and not isinstance(seq, str))


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError as e:
        raise TypeError("nest only supports dicts with sortable keys.") from e


def _children(s: Any) -> list:
    return [s[k] for k in _sorted_keys(s)] if isinstance(s, dict) else list(s)


def flatten(nest: Any) -> list:
    """The leaves of `nest`, depth first (dict values in sorted key order); a leaf gives [leaf]."""
    if not is_sequence(nest):
        return [nest]
    out: list = []
    for c in _children(nest):
        out.extend(flatten(c))
    return out


def _like(instance: Any, items: list) -> Any:
    if isinstance(instance, dict):
        by_key = dict(zip(_sorted_keys(instance), items))
        return type(instance)((k, by_key[k]) for k in instance)
    if isinstance(instance, tuple) and isinstance(getattr(instance, "_fields", None), collections.abc.Sequence):
        return type(instance)(*items)  # a namedtuple
    return type(instance)(items)


def _pack(structure: Any, flat: list, index: int) -> tuple[int, list]:
    packed = []
    for s in _children(structure):
        if is_sequence(s):
            index, child = _pack(s, flat, index)
            packed.append(_like(s, child))
        else:
            packed.append(flat[index])
            index += 1
    return index, packed


def pack_sequence_as(structure: Any, flat_sequence: Any) -> Any:
    """`flat_sequence` rebuilt in the shape of `structure` (the inverse of flatten)."""
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {n} elements, but flat_sequence had "
                         f"{len(flat_sequence)} elements.  Structure: {structure}, flat_sequence: {flat_sequence}.")
    return _like(structure, _pack(structure, list(flat_sequence), 0)[1])


def map_structure(func: Any, *structure: Any) -> Any:
    """func applied leaf-wise over structures of the same shape, packed like the first."""
    leaves = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*leaves)])


def hold_mutable_vars(structure: Any) -> bool:
    """True when some item of `structure` is itself a sequence."""
    return any(is_sequence(s) for s in structure)


def copy_mutable_vars(structure: Any) -> Any:
    """A copy of the containers of `structure` holding the same leaves."""
    return pack_sequence_as(structure, copy.copy(flatten(structure)))


def _assert_same(n1: Any, n2: Any, check_types: bool) -> None:
    seq1 = is_sequence(n1)
    if seq1 != is_sequence(n2):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {n1}\n\nSecond structure: {n2}.")
    if not seq1:
        return
    if check_types:
        if type(n1) is not type(n2):
            raise TypeError("The two structures don't have the same sequence type. First structure has type "
                            f"{type(n1)}, while second structure has type {type(n2)}.")
        if isinstance(n1, dict) and set(n1) != set(n2):
            raise ValueError("The two dictionaries don't have the same set of keys. First structure has keys "
                             f"{set(n1)}, while second structure has keys {set(n2)}.")
    for c1, c2 in zip(_children(n1), _children(n2)):
        _assert_same(c1, c2, check_types)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True) -> None:
    """ValueError / TypeError unless the two structures nest alike (and, with check_types, by the same types)."""
    len1 = len(flatten(nest1)) if is_sequence(nest1) else 1
    len2 = len(flatten(nest2)) if is_sequence(nest2) else 1
    if len1 != len2:
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({len1} elements): {nest1}\n\n"
                         f"Second structure ({len2} elements): {nest2}")
    _assert_same(nest1, nest2, check_types)


def convert_to_list(value: Any, n: int, name: str, dtype: Any = int) -> list:
    """[value] * n for a scalar of `dtype`, else `value` as a list of n items convertible to `dtype`."""
    if isinstance(value, dtype):
        return [value] * n
    try:
        items = list(value)
    except TypeError as e:
        raise ValueError(f"The {name}'s type must be list or tuple. Received: {value}") from e
    if len(items) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {value}")
    for v in items:
        try:
            dtype(v)
        except (ValueError, TypeError) as e:
            raise ValueError(f"The {name}'s type must be a list or tuple of {n} {dtype} . Received: {value} "
                             f"including element {v} of type {type(v)}") from e
    return items


# ------------------------------------------------------------------------------------------------ checks


def check_type(input: Any, input_name: str, expected_type: Any, op_name: str, extra_message: str = "") -> None:  # noqa: A002
    """TypeError naming the API and the argument when `input` is not an `expected_type` (static mode only)."""
    if not MODE.static:
        return
    if not isinstance(input, expected_type):
        raise TypeError(f"The type of '{input_name}' in {op_name} must be {expected_type}, but received "
                        f"{type(input)}. {extra_message}")


def check_dtype(input_dtype: Any, input_name: str, expected_dtype: Any, op_name: str, extra_message: str = "") -> None:
    """TypeError naming the API and the argument when the dtype is not one of `expected_dtype` (static mode)."""
    if not MODE.static:
        return
    name = _dt.convert_dtype(input_dtype)
    if name == "float16":
        warnings.warn(f"The data type of '{input_name}' in {op_name} only support float16 in GPU now. "
                      f"{extra_message}", stacklevel=2)
    if name not in expected_dtype:
        raise TypeError(f"The data type of '{input_name}' in {op_name} must be {expected_dtype}, but received "
                        f"{name}. {extra_message}")


def check_variable_and_dtype(input: Any, input_name: str, expected_dtype: Any, op_name: str,  # noqa: A002
                             extra_message: str = "") -> None:
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    check_type(input, input_name, (Variable, Tensor), op_name, extra_message)
    check_dtype(input.dtype, input_name, expected_dtype, op_name, extra_message)


for _fn in (is_sequence, flatten, pack_sequence_as, map_structure, hold_mutable_vars, copy_mutable_vars,
            assert_same_structure, convert_to_list):
    export(_fn, f"paddle.fluid.layers.utils.{_fn.__name__}")
for _fn in (check_type, check_dtype, check_variable_and_dtype):
    export(_fn, f"paddle.fluid.layers.utils.{_fn.__name__}", f"paddle.fluid.data_feeder.{_fn.__name__}")
alias("paddle.fluid.data_feeder.convert_dtype", "paddle.fluid.layers.utils.convert_dtype")
