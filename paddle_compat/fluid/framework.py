"""The parts of fluid.core / fluid.framework / fluid.layers.math_op_patch that 1.x scripts and Paddle's own tests
touch beyond the classes: the reserved variable-name suffixes, grad_var_name, convert_np_dtype_to_dtype_,
dtype_is_floating, the op-role enum, build flags, core.globals(), and OpProtoHolder (which knows which op types
exist; their C++ OpProto descriptions do not exist here)."""

from __future__ import annotations

import __future__
import contextlib
import functools
from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import EnforceNotMet, UnsupportedAPIError
from paddle_compat.engine.framework import registry
from paddle_compat.engine.framework.registry import export

GRAD_VAR_SUFFIX = "@GRAD"
EMPTY_VAR_NAME = "@EMPTY@"
TEMP_VAR_NAME = "@TEMP@"
ZERO_VAR_SUFFIX = "@ZERO"
CONTROL_DEP_VAR_PREFIX = "__control_var"


def grad_var_name(var_name: str) -> str:
    """The name of a variable's gradient: `x` -> `x@GRAD`."""
    return var_name + GRAD_VAR_SUFFIX


def convert_np_dtype_to_dtype_(np_dtype: Any) -> Any:
    """A numpy dtype (or its name) -> Paddle's VarType dtype."""
    dtype = np.dtype(np_dtype)
    if dtype == np.uint16:  # Paddle stores bfloat16 as uint16
        return _dt.DTYPES["bfloat16"]
    return _dt.to_dtype(dtype)


def dtype_is_floating(dtype: Any) -> bool:
    if not isinstance(dtype, _dt.DType):
        dtype = convert_np_dtype_to_dtype_(dtype)
    return dtype.name in ("float16", "float32", "float64", "bfloat16")


for _fn in (grad_var_name, convert_np_dtype_to_dtype_, dtype_is_floating):
    export(_fn, f"paddle.fluid.framework.{_fn.__name__}")
for _n, _v in (("GRAD_VAR_SUFFIX", GRAD_VAR_SUFFIX), ("EMPTY_VAR_NAME", EMPTY_VAR_NAME),
               ("TEMP_VAR_NAME", TEMP_VAR_NAME), ("ZERO_VAR_SUFFIX", ZERO_VAR_SUFFIX),
               ("CONTROL_DEP_VAR_PREFIX", CONTROL_DEP_VAR_PREFIX)):
    export(_v, f"paddle.fluid.framework.{_n}")


# --- fluid.core -------------------------------------------------------------------------------------------------

def _const(value: str):
    def fn() -> str:
        return value

    return fn


_CORE_CONSTS = {"kGradVarSuffix": GRAD_VAR_SUFFIX, "grad_var_suffix": GRAD_VAR_SUFFIX,
                "kEmptyVarName": EMPTY_VAR_NAME, "kTempVarName": TEMP_VAR_NAME, "kZeroVarSuffix": ZERO_VAR_SUFFIX,
                "kControlDepVarName": CONTROL_DEP_VAR_PREFIX, "kAutoGradientSuffix": GRAD_VAR_SUFFIX}
for _n, _v in _CORE_CONSTS.items():
    _f = _const(_v)
    _f.__name__ = _n
    export(_f, f"paddle.fluid.core.{_n}")


class OpRole:
    """core.op_proto_and_checker_maker.OpRole: the role bits Paddle stores on each op."""

    Forward = 0x0000
    Backward = 0x0001
    Optimize = 0x0002
    RPC = 0x0004
    Dist = 0x0008
    LRSched = 0x0010
    Loss = 0x0100
    NotSpecified = 0x1000


class op_proto_and_checker_maker:  # noqa: N801 - Paddle's module name
    OpRole = OpRole

    @staticmethod
    def kOpRoleAttrName() -> str:  # noqa: N802
        return "op_role"

    @staticmethod
    def kOpRoleVarAttrName() -> str:  # noqa: N802
        return "op_role_var"

    @staticmethod
    def kOpNameScopeAttrName() -> str:  # noqa: N802
        return "op_namescope"

    @staticmethod
    def kOpCreationCallstackAttrName() -> str:  # noqa: N802
        return "op_callstack"


def is_compiled_with_mkldnn() -> bool:
    return bool(torch.backends.mkldnn.is_available())


def is_compiled_with_brpc() -> bool:
    return False


def is_compiled_with_dist() -> bool:
    """torch.distributed is what data parallelism runs on here."""
    return bool(torch.distributed.is_available())


def is_float16_supported(place: Any = None) -> bool:
    return bool(torch.cuda.is_available())


def supports_bfloat16() -> bool:
    return True


def get_cuda_current_device_id() -> int:
    return torch.cuda.current_device() if torch.cuda.is_available() else 0


def globals() -> dict:  # noqa: A001 - core.globals()
    """core.globals(): the FLAGS_* values (paddle.get_flags / set_flags read and write the same table)."""
    from paddle_compat.api import _FLAGS

    return _FLAGS


for _obj in (EnforceNotMet, op_proto_and_checker_maker, globals, is_compiled_with_mkldnn, is_compiled_with_brpc,
             is_compiled_with_dist, is_float16_supported, supports_bfloat16, get_cuda_current_device_id):
    export(_obj, f"paddle.fluid.core.{_obj.__name__}")


# --- fluid.layers.math_op_patch -------------------------------------------------------------------------------

compare_ops = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]


def monkey_patch_variable() -> None:
    """Variables already carry the operator methods (framework/methods.py); patching again changes nothing."""


class OpProtoHolder:
    """framework.OpProtoHolder.instance(): which op types exist (the registry's). Paddle's C++ OpProto
    descriptions (slots, attribute types) do not exist here, so get_op_proto raises."""

    _instance: "OpProtoHolder | None" = None

    @classmethod
    def instance(cls) -> "OpProtoHolder":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    @property
    def op_proto_map(self) -> dict:
        return dict.fromkeys(registry.OPS)

    def get_op_proto(self, type: str) -> Any:  # noqa: A002
        if type not in registry.OPS:
            raise ValueError(f'Operator "{type}" has not been registered.')
        raise UnsupportedAPIError("paddle.fluid.framework.OpProtoHolder.get_op_proto",
                                  f"op {type!r} runs as a torch function here; Paddle's C++ OpProto (input / output "
                                  "slots, attribute types) is not available")

    @staticmethod
    def generated_op_attr_names() -> set:
        return {"op_role", "op_role_var", "op_namescope", "op_callstack", "op_device"}


export(OpProtoHolder, "paddle.fluid.layers.math_op_patch.OpProtoHolder", "paddle.fluid.framework.OpProtoHolder")
registry.partial("paddle.fluid.layers.math_op_patch.OpProtoHolder",
                 "knows which op types exist; get_op_proto raises (no C++ OpProto descriptions)")
export(monkey_patch_variable, "paddle.fluid.layers.math_op_patch.monkey_patch_variable")
export(compare_ops, "paddle.fluid.layers.math_op_patch.compare_ops")


def wrap_decorator(decorator_func):
    """paddle.fluid.wrapped_decorator.wrap_decorator: `decorator_func` applied per call, keeping the signature."""

    def wrapper(func):
        @functools.wraps(func)
        def __impl__(*args, **kwargs):
            return decorator_func(func)(*args, **kwargs)

        return __impl__

    return wrapper


signature_safe_contextmanager = wrap_decorator(contextlib.contextmanager)
export(wrap_decorator, "paddle.fluid.wrapped_decorator.wrap_decorator")
export(signature_safe_contextmanager, "paddle.fluid.wrapped_decorator.signature_safe_contextmanager")

for _m in ("paddle.fluid.layers.math_op_patch", "paddle.fluid.layers.utils"):
    export(__future__.print_function, f"{_m}.print_function")


# --- 2.x: paddle.framework.core / paddle.base.core and its prim switches ----------------------------------------
# Paddle 2.6 decomposes ops into primitive ("prim") ops when these are on; torch's autograd computes the same
# derivatives either way, so the switches are recorded (and read back) and change no number.
_PRIM = {"fwd": False, "bwd": False, "eager": False}


def _prim_setter(*keys: str):
    def fn(enable: bool) -> None:
        for k in keys:
            _PRIM[k] = bool(enable)

    return fn


def _prim_getter(*keys: str):
    def fn() -> bool:
        return all(_PRIM[k] for k in keys)

    return fn


for _n, _f in {"_set_prim_forward_enabled": _prim_setter("fwd"), "_set_prim_backward_enabled": _prim_setter("bwd"),
               "_set_prim_all_enabled": _prim_setter("fwd", "bwd"), "set_prim_eager_enabled": _prim_setter("eager"),
               "_is_fwd_prim_enabled": _prim_getter("fwd"), "_is_bwd_prim_enabled": _prim_getter("bwd"),
               "_is_all_prim_enabled": _prim_getter("fwd", "bwd"), "_is_eager_prim_enabled": _prim_getter("eager")
               }.items():
    _f.__name__ = _n
    export(_f, f"paddle.fluid.core.{_n}")


# Paddle 2.6 renamed fluid to paddle.base; scripts reach these modules of it (the same objects as fluid's).
_BASE_MODULES = ("core", "framework", "dygraph", "layer_helper", "param_attr", "data_feeder", "unique_name",
                 "executor", "initializer", "backward", "io")
_BASE_DYGRAPH_BASE = ("guard", "to_variable", "no_grad", "enabled", "enable_dygraph", "disable_dygraph", "grad")
_BASE_TOP = ("Program", "Executor", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "ParamAttr", "Scope", "program_guard",
             "default_main_program", "default_startup_program", "global_scope", "scope_guard", "name_scope",
             "in_dygraph_mode", "is_compiled_with_cuda", "CompiledProgram", "BuildStrategy", "ExecutionStrategy")


@registry.after_load
def _core_2x_paths() -> None:
    """Paddle 2.6 reaches fluid's core as paddle.framework.core and paddle.base.core (one module there), and
    fluid's other modules as paddle.base.<module>."""
    for name, obj in list(registry.EXPORTS.get("paddle.fluid.core", {}).items()):
        export(obj, f"paddle.framework.core.{name}")
    for mod in _BASE_MODULES:
        for name, obj in list(registry.EXPORTS.get(f"paddle.fluid.{mod}", {}).items()):
            export(obj, f"paddle.base.{mod}.{name}")
    dy = registry.EXPORTS.get("paddle.fluid.dygraph", {})
    for name in _BASE_DYGRAPH_BASE:
        if name in dy:
            export(dy[name], f"paddle.base.dygraph.base.{name}")
    top = registry.EXPORTS.get("paddle.fluid", {})
    for name in _BASE_TOP:
        if name in top:
            export(top[name], f"paddle.base.{name}")
