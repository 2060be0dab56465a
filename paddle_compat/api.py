"""Exports of the framework-level names (modes, places, dtypes, programs, executors, scopes, autograd
helpers) into Paddle's namespaces. Op exports live beside each op; this module is only the glue."""

from __future__ import annotations

import contextlib
import functools

from typing import Any, Iterator

import numpy as np
import torch

from paddle_compat.engine.core import autograd_engine
from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core import flags as _flags
from paddle_compat.engine.core import mode as _mode
from paddle_compat.engine.core import place as _place
from paddle_compat.engine.core.place import is_compiled_with_rocm
from paddle_compat.engine.framework import program as _prog
from paddle_compat.engine.framework import scope as _scope
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.lod import LoDTensor, LoDTensorArray
from paddle_compat.engine.framework.tensor import Tensor, autograd_errors, is_tensor, to_tensor
from paddle_compat.engine.parallel.places import cpu_places, cuda_pinned_places, cuda_places, xpu_places
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.engine.static import backward as _bw
from paddle_compat.engine.static import program_desc as _program_desc
from paddle_compat.engine.static.compiler import CompiledProgram
from paddle_compat.engine.static import executor as _executor
from paddle_compat.engine.static.executor import Executor
from paddle_compat.engine.static.strategy import BuildStrategy, ExecutionStrategy

# --- modes, places, dtypes ------------------------------------------------------------------------
export(_mode.enable_static, "paddle.enable_static")
export(_mode.disable_static, "paddle.disable_static")
export(_mode.in_dynamic_mode, "paddle.in_dynamic_mode", "paddle.fluid.in_dygraph_mode",
       "paddle.fluid.framework.in_dygraph_mode", "paddle.framework.in_dynamic_mode")


def use_pir_api() -> bool:
    """paddle.framework.use_pir_api: False. Programs here are the legacy ProgramDesc IR (jit.save writes
    `.pdmodel`), which is Paddle 2.6's default (FLAGS_enable_pir_api off); the PIR programs are not supported."""
    return False


export(use_pir_api, "paddle.framework.use_pir_api")
for _cls in (_place.CPUPlace, _place.CUDAPlace, _place.CUDAPinnedPlace, _place.XPUPlace):
    export(_cls, f"paddle.{_cls.__name__}", f"paddle.fluid.{_cls.__name__}", f"paddle.fluid.core.{_cls.__name__}",
           f"paddle.static.{_cls.__name__}")
export(_place.set_device, "paddle.set_device", "paddle.device.set_device")
export(_place.get_device, "paddle.get_device", "paddle.device.get_device")
for _name, _d in _dt.DTYPES.items():
    export(_d, f"paddle.{_name}")
export(_dt.DTYPES["bool"], "paddle.bool")
export(_dt.get_default_dtype, "paddle.get_default_dtype")
export(_dt.set_default_dtype, "paddle.set_default_dtype")
export(_dt.convert_dtype, "paddle.fluid.data_feeder.convert_dtype")
export(_prog.VarType, "paddle.fluid.core.VarDesc.VarType")
export(_program_desc.ProgramDesc, "paddle.fluid.core.ProgramDesc")
export(_program_desc.AttrType, "paddle.fluid.core.AttrType")


class _VarDesc:
    VarType = _prog.VarType


export(_VarDesc, "paddle.fluid.core.VarDesc")


def is_compiled_with_cuda() -> bool:
    return torch.cuda.is_available()


def is_compiled_with_xpu() -> bool:
    return False


def get_cudnn_version() -> int | None:
    return torch.backends.cudnn.version() if torch.cuda.is_available() else None


export(is_compiled_with_cuda, "paddle.is_compiled_with_cuda", "paddle.fluid.is_compiled_with_cuda",
       "paddle.fluid.core.is_compiled_with_cuda", "paddle.device.is_compiled_with_cuda")
export(is_compiled_with_xpu, "paddle.is_compiled_with_xpu", "paddle.fluid.core.is_compiled_with_xpu",
       "paddle.device.is_compiled_with_xpu")
export(is_compiled_with_rocm, "paddle.is_compiled_with_rocm", "paddle.fluid.core.is_compiled_with_rocm")
export(get_cudnn_version, "paddle.get_cudnn_version", "paddle.device.get_cudnn_version")


def get_cuda_device_count() -> int:
    return torch.cuda.device_count()


export(get_cuda_device_count, "paddle.fluid.core.get_cuda_device_count", "paddle.device.cuda.device_count")

# --- tensors --------------------------------------------------------------------------------------
export(Tensor, "paddle.Tensor")
export(to_tensor, "paddle.to_tensor")
export(is_tensor, "paddle.is_tensor")
export(LoDTensor, "paddle.fluid.LoDTensor", "paddle.fluid.core.LoDTensor", "paddle.fluid.Tensor",
       "paddle.fluid.core.Tensor")
export(LoDTensorArray, "paddle.fluid.LoDTensorArray", "paddle.fluid.core.LoDTensorArray")


def create_lod_tensor(data: Any, recursive_seq_lens: list, place: Any) -> LoDTensor:
    """fluid.create_lod_tensor: numpy array, list of sequences, or LoDTensor + sequence lengths."""
    if isinstance(data, LoDTensor):
        return create_lod_tensor(data.numpy(), recursive_seq_lens, place)
    if isinstance(data, list):
        flat = [np.asarray(x).reshape(-1, 1) if np.asarray(x).ndim <= 1 else np.asarray(x) for x in data]
        arr = np.concatenate(flat, axis=0) if flat else np.zeros((0, 1))
        if arr.dtype == np.int64 or np.issubdtype(arr.dtype, np.integer):
            arr = arr.astype(np.int64)
        data = arr
    t = LoDTensor()
    t.set(np.asarray(data), place)
    t.set_recursive_sequence_lengths(recursive_seq_lens)
    if not t.has_valid_recursive_sequence_lengths():
        raise ValueError(
            f"create_lod_tensor: the sequence lengths {recursive_seq_lens} do not match the data's first "
            f"dimension {np.asarray(data).shape[0]}"
        )
    return t


def create_random_int_lodtensor(recursive_seq_lens: list, base_shape: list, place: Any, low: int,
                                high: int) -> LoDTensor:
    total = int(sum(recursive_seq_lens[-1]))
    data = np.random.randint(low, high + 1, [total] + list(base_shape)).astype("int64")
    return create_lod_tensor(data, recursive_seq_lens, place)


export(create_lod_tensor, "paddle.fluid.create_lod_tensor")
export(create_random_int_lodtensor, "paddle.fluid.create_random_int_lodtensor")

# --- randomness -----------------------------------------------------------------------------------


def seed(seed: int) -> torch.Generator:
    """paddle.seed: seeds torch's CPU and CUDA generators (and numpy/random are left alone, as Paddle), and the
    copy of Paddle's CPU engine (engine/core/paddle_rng.py) the random ops draw from under use_paddle_rng(True)."""
    from paddle_compat.engine.core import paddle_rng

    s = int(seed)
    if not 0 <= s < 2 ** 64:
        raise ValueError(f"paddle.seed: the seed should be in [0, 2**64), but got {seed}")
    paddle_rng.seed(s)
    return torch.manual_seed(s)


def get_cuda_rng_state() -> list:
    return list(torch.cuda.get_rng_state_all()) if torch.cuda.is_available() else []


def set_cuda_rng_state(state_list: list) -> None:
    if torch.cuda.is_available():
        if len(state_list) != torch.cuda.device_count():
            raise ValueError(
                f"paddle.set_cuda_rng_state: got {len(state_list)} states for {torch.cuda.device_count()} devices"
            )
        torch.cuda.set_rng_state_all(state_list)
    elif state_list:
        raise ValueError("paddle.set_cuda_rng_state: no CUDA device is available for a non-empty state list")


export(seed, "paddle.seed", "paddle.framework.seed")
export(get_cuda_rng_state, "paddle.get_cuda_rng_state")
export(set_cuda_rng_state, "paddle.set_cuda_rng_state")


# --- autograd -------------------------------------------------------------------------------------
class no_grad:  # noqa: N801 - Paddle's name
    """paddle.no_grad: a context manager and a decorator."""

    def __enter__(self) -> None:
        self._ctx = torch.no_grad()
        self._ctx.__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._ctx.__exit__(*exc)

    def __call__(self, fn: Any) -> Any:
        @functools.wraps(fn)
        def inner(*a: Any, **k: Any) -> Any:
            with torch.no_grad():
                return fn(*a, **k)

        return inner


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool = False,
         no_grad_vars: Any = None) -> list:
    """paddle.grad (dygraph): gradients of outputs w.r.t. inputs, as a list of Tensors. Integer tensors with
    stop_gradient=False take part through their float64 shadows (engine/framework/tensor.py); their gradients come back in
    their own dtype, as Paddle's."""
    in_tensors = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    outs = [o._diff_t() for o in (outputs if isinstance(outputs, (list, tuple)) else [outputs])]
    ins = [i._diff_t() for i in in_tensors]
    # Paddle seeds each output without a grad_output with ones (any shape, complex included)
    gl = grad_outputs if isinstance(grad_outputs, (list, tuple)) else [grad_outputs] * len(outs)
    gos = [torch.ones_like(o) if g is None else g._t if g._t.is_floating_point() or g._t.is_complex()
           else g._t.to(o.dtype) for o, g in zip(outs, gl)]  # an integer output's seed: for its shadow
    res = autograd_errors("paddle.grad", autograd_engine.grad, outs, ins, gos, retain_graph=retain_graph,
                          create_graph=create_graph, allow_unused=True)
    if not allow_unused and any(r is None for r in res):
        raise ValueError(
            "paddle.grad: some inputs are not used to compute the outputs; set allow_unused=True to get None for them"
        )
    return [None if r is None else Tensor._wrap(r if r.dtype == i._t.dtype else r.to(i._t.dtype))
            for r, i in zip(res, in_tensors)]


export(no_grad, "paddle.no_grad", "paddle.fluid.dygraph.no_grad", "paddle.framework.no_grad")
export(grad, "paddle.grad", "paddle.fluid.dygraph.grad", "paddle.autograd.grad")


@contextlib.contextmanager
def dygraph_guard(place: Any = None) -> Iterator[None]:
    """fluid.dygraph.guard"""
    old_mode, old_place = _mode.MODE.static, _place.get_device_place()
    _mode.MODE.static = False
    _mode.MODE.dygraph_used = True
    if place is not None:
        _place.set_device(place)
    try:
        yield
    finally:
        _mode.MODE.static = old_mode
        _place._current[0] = old_place


def to_variable(value: Any, name: str | None = None, zero_copy: bool | None = None, dtype: Any = None) -> Tensor:
    if isinstance(value, np.ndarray) and np.iscomplexobj(value):  # fluid 1.8: a ComplexVariable
        from paddle_compat.fluid.complex import ComplexVariable

        cv = ComplexVariable(to_tensor(np.ascontiguousarray(value.real)), to_tensor(np.ascontiguousarray(value.imag)))
        if name:
            cv.name = name
        return cv
    try:
        t = to_tensor(value, dtype=dtype)
    except ValueError as e:
        from paddle_compat.engine.framework.tensor import ragged_error

        err = ragged_error(value, "paddle.fluid.dygraph.to_variable", "value")
        if err is None:
            raise
        raise err from e.__cause__
    if name:
        t.name = name
    return t


export(dygraph_guard, "paddle.fluid.dygraph.guard")
export(to_variable, "paddle.fluid.dygraph.to_variable")
export(_mode.enable_static, "paddle.fluid.disable_dygraph", "paddle.fluid.disable_imperative",
       "paddle.fluid.dygraph.disable_dygraph")


def enable_dygraph(place: Any = None) -> None:
    _mode.disable_static(place)


def dygraph_enabled() -> bool:
    """fluid.dygraph.enabled(): whether dygraph mode is on."""
    return not _mode.MODE.static


export(enable_dygraph, "paddle.fluid.enable_dygraph", "paddle.fluid.enable_imperative",
       "paddle.fluid.dygraph.enable_dygraph")
export(dygraph_enabled, "paddle.fluid.dygraph.enabled")

# --- static core ----------------------------------------------------------------------------------
_STATIC_NAMES = {
    "Program": _prog.Program, "Variable": _prog.PublicVariable, "Parameter": _prog.Parameter,
    "Operator": _prog.Operator, "Block": _prog.Block, "program_guard": _prog.program_guard,
    "default_main_program": _prog.default_main_program, "default_startup_program": _prog.default_startup_program,
    "name_scope": _prog.name_scope, "Executor": Executor, "global_scope": _scope.global_scope,
    "scope_guard": _scope.scope_guard, "BuildStrategy": BuildStrategy, "ExecutionStrategy": ExecutionStrategy,
    "append_backward": _bw.append_backward, "gradients": _bw.gradients, "CompiledProgram": CompiledProgram,
}
for _n, _o in _STATIC_NAMES.items():
    export(_o, f"paddle.static.{_n}", f"paddle.fluid.{_n}", f"paddle.fluid.framework.{_n}")
export(_scope.Scope, "paddle.static.Scope", "paddle.fluid.Scope", "paddle.fluid.core.Scope",
       "paddle.fluid.executor.Scope")
export(Executor, "paddle.fluid.executor.Executor")
export(_executor._as_lodtensor, "paddle.fluid.executor._as_lodtensor")
export(_scope.global_scope, "paddle.fluid.executor.global_scope")
export(_scope.global_scope(), "paddle.fluid.executor.g_scope")  # the scope global_scope() gives outside scope_guard
export(_scope.scope_guard, "paddle.fluid.executor.scope_guard")
export(_bw.append_backward, "paddle.fluid.backward.append_backward")
export(_bw.gradients, "paddle.fluid.backward.gradients")
export(_prog.PublicVariable, "paddle.fluid.framework.Variable")
export(_prog.switch_main_program, "paddle.fluid.framework.switch_main_program")
export(_prog.switch_startup_program, "paddle.fluid.framework.switch_startup_program")
for _n in ("generate", "guard", "switch", "generate_with_ignorable_key", "UniqueNameGenerator"):
    export(getattr(unique_name, _n), f"paddle.fluid.unique_name.{_n}", f"paddle.utils.unique_name.{_n}")


export(cpu_places, "paddle.static.cpu_places", "paddle.fluid.cpu_places")
export(cuda_places, "paddle.static.cuda_places", "paddle.fluid.cuda_places")
export(cuda_pinned_places, "paddle.fluid.cuda_pinned_places")
export(xpu_places, "paddle.static.xpu_places")


# --- misc fluid utilities ----------------------------------------------------------------------------
_FLAGS = _flags.SET  # the values given to set_flags; engine/core/flags.py has the table
set_flags, get_flags = _flags.set_flags, _flags.get_flags


export(set_flags, "paddle.fluid.set_flags", "paddle.set_flags")
for _p in ("paddle.fluid.set_flags", "paddle.set_flags"):
    partial(_p, "the flags torch has no counterpart for (allocator, oneDNN, benchmark, ...) are accepted and warn "
                "once that they have no effect (engine/core/flags.py lists which act)")
export(get_flags, "paddle.fluid.get_flags", "paddle.get_flags")


def memory_optimize(input_program: Any, skip_opt_set: Any = None, print_log: bool = False, level: int = 0,
                    skip_grads: bool = True) -> None:
    """Deprecated in Paddle since 1.6: only warns (BuildStrategy.memory_optimize replaces it)."""
    import warnings

    warnings.warn("paddle.fluid.memory_optimize is deprecated and does nothing; use "
                  "BuildStrategy.memory_optimize / enable_inplace instead", stacklevel=2)


def release_memory(input_program: Any, skip_opt_set: Any = None) -> None:
    import warnings

    warnings.warn("paddle.fluid.release_memory is deprecated and does nothing", stacklevel=2)


export(memory_optimize, "paddle.fluid.memory_optimize")
export(release_memory, "paddle.fluid.release_memory")


def require_version(min_version: str, max_version: str | None = None) -> None:
    """We present ourselves as the Paddle release of the API level (engine/core/api_level.py): 2.4.2, the last 2.x with
    fluid and with_data_parallel, by default; 2.6.2 at level 2.6."""
    if not isinstance(min_version, str):
        raise TypeError(f"require_version: min_version must be str, but received {type(min_version)}")

    def parse(v: str) -> tuple:
        return tuple(int(x) for x in (v.split(".") + ["0"] * 4)[:4])

    from paddle_compat.engine.core.api_level import version

    cur = parse(version())
    if cur < parse(min_version) or (max_version is not None and cur > parse(max_version)):
        raise Exception(
            f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] required, "
            f"but {version()} installed."
        )


export(require_version, "paddle.fluid.require_version", "paddle.utils.require_version")




def _manual_program_seed(seed: int) -> None:
    """paddle.framework.random._manual_program_seed (Paddle's unittests use it): the random_seed of the default
    main and startup programs."""
    from paddle_compat.engine.framework.program import Program, default_main_program, default_startup_program

    default_main_program().random_seed = seed
    default_startup_program().random_seed = seed
    Program().global_seed(seed)


export(_manual_program_seed, "paddle.framework.random._manual_program_seed")
