"""paddle.compat (Paddle 1.8's Python 2/3 helpers): to_text / to_bytes over str, bytes, lists, sets and dicts
(optionally in place), round half away from zero, floor_division, get_exception_message."""

from __future__ import annotations

import math
from typing import Any, Callable

from paddle_compat.engine.framework.registry import after_load, export

long_type = int
int_type = int


def _text(obj: Any, encoding: str) -> Any:
    if isinstance(obj, bytes):
        return obj.decode(encoding)
    return obj  # str, bool, float, None: unchanged (six.u is the identity on Python 3)


def _bytes(obj: Any, encoding: str) -> Any:
    if obj is None or isinstance(obj, bytes):
        return obj
    if isinstance(obj, str):
        return obj.encode(encoding)
    return obj.encode("latin-1")  # six.b: anything else is an error, as in Paddle


def _convert(obj: Any, encoding: str, inplace: bool, one: Callable[[Any, str], Any], with_dict: bool) -> Any:
    if obj is None:
        return None
    if isinstance(obj, list):
        items = [one(v, encoding) for v in obj]
        if inplace:
            obj[:] = items
            return obj
        return items
    if isinstance(obj, set):
        items = {one(v, encoding) for v in obj}
        if inplace:
            obj.clear()
            obj.update(items)
            return obj
        return items
    if with_dict and isinstance(obj, dict):
        items = {one(k, encoding): one(v, encoding) for k, v in obj.items()}
        if inplace:
            obj.update(items)  # Paddle's in-place form adds the converted keys next to the old ones
            return obj
        return items
    return one(obj, encoding)


def to_text(obj: Any, encoding: str = "utf-8", inplace: bool = False) -> Any:
    """bytes -> str (decoded with `encoding`), also inside a list, set or dict."""
    return _convert(obj, encoding, inplace, _text, True)


def to_bytes(obj: Any, encoding: str = "utf-8", inplace: bool = False) -> Any:
    """str -> bytes (encoded with `encoding`), also inside a list or set."""
    return _convert(obj, encoding, inplace, _bytes, False)


def round(x: float, d: int = 0) -> float:  # noqa: A001 - Paddle's name
    """Round half away from zero to d decimals (Python 2's round), e.g. round(2.5) == 3.0, round(-0.5) == -1.0."""
    if x == 0.0:
        return math.copysign(0.0, x)
    p = 10 ** d
    r = (math.floor if x > 0 else math.ceil)(x * p + math.copysign(0.5, x))
    return float(r) / p


def floor_division(x: Any, y: Any) -> Any:
    return x // y


def get_exception_message(exc: BaseException) -> str:
    assert exc is not None
    return str(exc)


for _fn in (to_text, to_bytes, round, floor_division, get_exception_message):
    export(_fn, f"paddle.compat.{_fn.__name__}")
export(long_type, "paddle.compat.long_type")
export(int_type, "paddle.compat.int_type")


def check_import_scipy(OsName: str) -> None:  # noqa: N803 - Paddle's parameter name
    """paddle.check_import_scipy (1.8): on Windows ('nt'), a scipy that fails to load its DLLs raises ImportError
    with the redistributable to install; elsewhere nothing to check."""
    if OsName != "nt":
        return
    try:
        import scipy.io  # noqa: F401
    except ImportError as e:
        if "DLL load failed" in str(e):
            raise ImportError(f"{e}\nplease download visual C++ Redistributable for vs 2015, "
                              "https://www.microsoft.com/en-us/download/details.aspx?id=48145") from e


export(check_import_scipy, "paddle.check_import_scipy", "paddle.check_import_scipy.check_import_scipy")

# paddle.common_ops_import (1.8): the fluid names Paddle's own op modules import from one place.
_COMMON_OPS_IMPORT = {
    "paddle.fluid.layer_helper": ("LayerHelper",), "paddle.fluid.param_attr": ("ParamAttr",),
    "paddle.fluid.framework": ("convert_np_dtype_to_dtype_", "in_dygraph_mode", "device_guard",
                               "default_main_program", "OpProtoHolder", "Variable"),
    "paddle.fluid.initializer": ("Constant",), "paddle.fluid.core": ("VarDesc",),
    "paddle.fluid.data_feeder": ("check_type", "check_dtype", "check_variable_and_dtype", "convert_dtype"),
    "paddle.fluid.layers": ("fill_constant", "scale"),
}


@after_load
def _common_ops_import() -> None:
    from paddle_compat.engine.framework.registry import EXPORTS

    for module, names in _COMMON_OPS_IMPORT.items():
        for name in names:  # registered at the module itself, or at fluid's top level (one object in Paddle)
            obj = next((EXPORTS[m][name] for m in (module, "paddle.fluid", "paddle.static", "paddle")
                        if name in EXPORTS.get(m, {})), None)
            if obj is None:
                raise RuntimeError(f"paddle_compat: paddle.common_ops_import.{name}: {module}.{name} is not exported")
            export(obj, f"paddle.common_ops_import.{name}")
