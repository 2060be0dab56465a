"""Paddle data types and their torch / numpy counterparts.

Paddle exposes dtypes as `VarType` enum members (`paddle.float32` prints as `paddle.float32`, and
`Variable.dtype` returns the same object). We model each as one `DType` instance so identity comparison
works, and convert from any spelling a user may pass (string, numpy dtype, torch dtype, DType).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch


class DType:
    """One Paddle dtype: `paddle.float32`, `paddle.int64`, ..."""

    __slots__ = ("name", "torch", "numpy", "code")

    def __init__(self, name: str, tdtype: torch.dtype, npdtype: Any, code: int) -> None:
        self.name = name
        self.torch = tdtype
        self.numpy = np.dtype(npdtype) if npdtype is not None else None
        self.code = code  # Paddle's VarType enum value, used by the serialized formats

    def __repr__(self) -> str:
        from paddle_compat.engine.core.mode import MODE

        # NOTE: a fluid 1.x script (static mode entered implicitly, never by paddle.enable_static) sees Paddle 1.8's
        # enum spelling `VarType.FP32`; 2.x prints the same objects as `paddle.float32`
        # (tests/fluid/test_layers18.py dtype_repr). Internal code reads `.name`, never this text.
        if MODE.static and not MODE.explicit:
            return f"VarType.{VARTYPE_NAMES[self.name]}"
        return f"paddle.{self.name}"

    __str__ = __repr__

    def __reduce__(self):
        return (to_dtype, (self.name,))


_TABLE = [
    # name, torch, numpy, VarType code (framework.proto)
    ("bool", torch.bool, np.bool_, 0),
    ("int16", torch.int16, np.int16, 1),
    ("int32", torch.int32, np.int32, 2),
    ("int64", torch.int64, np.int64, 3),
    ("float16", torch.float16, np.float16, 4),
    ("float32", torch.float32, np.float32, 5),
    ("float64", torch.float64, np.float64, 6),
    ("uint8", torch.uint8, np.uint8, 20),
    ("int8", torch.int8, np.int8, 21),
    ("bfloat16", torch.bfloat16, None, 22),
    ("complex64", torch.complex64, np.complex64, 23),
    ("complex128", torch.complex128, np.complex128, 24),
]

DTYPES: dict[str, DType] = {n: DType(n, t, d, c) for n, t, d, c in _TABLE}
VARTYPE_NAMES = {"bool": "BOOL", "int16": "INT16", "int32": "INT32", "int64": "INT64", "float16": "FP16",
                 "float32": "FP32", "float64": "FP64", "uint8": "UINT8", "int8": "INT8", "bfloat16": "BF16",
                 "complex64": "COMPLEX64", "complex128": "COMPLEX128"}
_FROM_VARTYPE = {v: k for k, v in VARTYPE_NAMES.items()}
_BY_TORCH = {d.torch: d for d in DTYPES.values()}
_BY_NUMPY = {d.numpy: d for d in DTYPES.values() if d.numpy is not None}
_BY_CODE = {d.code: d for d in DTYPES.values()}
_ALIASES = {"float": "float32", "double": "float64", "int": "int64", "half": "float16", "bool_": "bool",
            "fp16": "float16", "fp32": "float32", "fp64": "float64", "bf16": "bfloat16",
            "uint16": "bfloat16"}  # Paddle 2.x names bfloat16 by its storage type uint16 (to_tensor(1, "uint16"))

float32 = DTYPES["float32"]
float64 = DTYPES["float64"]
int64 = DTYPES["int64"]
int32 = DTYPES["int32"]
bool_ = DTYPES["bool"]


def to_dtype(value: Any) -> DType:
    """Any dtype spelling Paddle accepts -> DType. Raises TypeError naming the value otherwise."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        key = value.replace("paddle.", "")
        if key.startswith("VarType."):
            key = _FROM_VARTYPE.get(key[8:], key)
        key = _ALIASES.get(key, key)
        if key in DTYPES:
            return DTYPES[key]
    elif isinstance(value, torch.dtype):
        if value in _BY_TORCH:
            return _BY_TORCH[value]
    elif isinstance(value, int) and not isinstance(value, bool) and value in _BY_CODE:
        return _BY_CODE[value]
    else:
        try:
            npd = np.dtype(value)
        except TypeError:
            npd = None
        if npd is not None and npd in _BY_NUMPY:
            return _BY_NUMPY[npd]
    raise TypeError(f"paddle dtype: unsupported data type {value!r}; expected one of {sorted(DTYPES)}")


def dtype_name(value: Any) -> str:
    """The plain name ('float32') of any dtype spelling; an unknown one as its text after the last dot."""
    try:
        return to_dtype(value).name
    except TypeError:
        return str(value).split(".")[-1]


def to_torch_dtype(value: Any) -> torch.dtype | None:
    """None stays None (meaning: keep the input's dtype)."""
    return None if value is None else to_dtype(value).torch


def from_torch(tdtype: torch.dtype) -> DType:
    return _BY_TORCH[tdtype]


def convert_dtype(value: Any) -> str:
    """Paddle's `convert_dtype`: the dtype's string name."""
    return to_dtype(value).name


def is_floating(d: DType) -> bool:
    return d.torch.is_floating_point


_default_dtype = [float32]


def get_default_dtype() -> str:
    return _default_dtype[0].name


def set_default_dtype(d: Any) -> None:
    dt = to_dtype(d)
    if dt.name not in ("float16", "float32", "float64", "bfloat16"):
        raise TypeError(
            f"paddle.set_default_dtype only supports [float16, float32, float64], but received {dt.name}"
        )
    _default_dtype[0] = dt
    torch.set_default_dtype(dt.torch if dt.name != "float16" else torch.float32)


def default_float() -> DType:
    return _default_dtype[0]
