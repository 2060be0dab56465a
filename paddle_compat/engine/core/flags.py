"""Paddle's global flags (`paddle.set_flags` / `fluid.set_flags` / `get_flags`, and `FLAGS_*` environment
variables): which exist, their types and defaults, and what each one does here.

The table is real Paddle's: every public flag of 1.8.5 and 2.6.2 (`data/flags_<version>.json`, recorded by
tools/oracle/rec_flags.py from CPU builds) plus the ones only CUDA builds define (`GPU_FLAGS` below). As in
Paddle, `set_flags` refuses a name outside the table (ValueError "Flag X cannot set its value through this
function.") and a value of the wrong type; `get_flags` refuses unknown names.

What a flag does is one of:
- it acts (`watch(name, fn)`: the module that implements it registers a function that gets every new value):
  FLAGS_check_nan_inf (engine/framework/nan_inf.py), the cuDNN / TF32 switches, FLAGS_paddle_num_threads,
  FLAGS_selected_gpus, FLAGS_gpu_memory_limit_mb, and the FLAGS_fuse_parameter_* sizes read by the gradient
  buckets (`value(name)`);
- torch already behaves as the flag asks whatever its value (`SAME`, with the reason);
- it is accepted but has no effect here: setting it to anything but its default warns once
  (IgnoredFlagWarning), naming the flag and why.

Environment variables are read when paddle is imported, as Paddle does (an action or a warning then); a
value set later in the environment is still seen by `value()` / `get_flags` (the tests and some launchers set
them late), `set_flags` wins over the environment.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Callable

from paddle_compat.engine.core.errors import InvalidArgumentError, InvalidValueError

_DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")

# Flags only a CUDA build of Paddle defines (so the CPU-recorded tables lack them), with their defaults.
GPU_FLAGS: dict[str, Any] = {
    "FLAGS_cudnn_deterministic": False, "FLAGS_cudnn_exhaustive_search": False,
    "FLAGS_cudnn_batchnorm_spatial_persistent": False, "FLAGS_conv_workspace_size_limit": 512,
    "FLAGS_enable_cublas_tensor_op_math": False, "FLAGS_selected_gpus": "", "FLAGS_sync_nccl_allreduce": True,
    "FLAGS_embedding_deterministic": 0,
}
# Flags Paddle 1.8 reads from the environment without making them public (set_flags refuses them there too).
ENV_ONLY_FLAGS: dict[str, Any] = {"FLAGS_fast_check_nan_inf": False, "FLAGS_dygraph_debug": 0,
                                  "FLAGS_free_idle_chunk": False, "FLAGS_free_when_no_cache_hit": False}

# Flags whose request torch already fulfils, whatever the value: no action, no warning.
SAME: dict[str, str] = {
    "FLAGS_cpu_deterministic": "CPU reductions and the data-parallel gradient sums always run in a fixed order",
    "FLAGS_fast_check_nan_inf": "it only changes how fast FLAGS_check_nan_inf checks",
}

_MEMORY = "memory is managed by torch's caching allocator, which allocates on demand and frees eagerly"
# Why an accepted flag has no effect (the warning says it); flags not listed get a generic reason.
REASONS: dict[str, str] = {
    "FLAGS_eager_delete_tensor_gb": "torch frees every tensor as soon as it is unused (Paddle's 0.0)",
    "FLAGS_fraction_of_gpu_memory_to_use": _MEMORY + " (FLAGS_gpu_memory_limit_mb caps it)",
    "FLAGS_use_mkldnn": "torch chooses its oneDNN CPU kernels itself",
    "FLAGS_benchmark": "torch runs ops without Paddle's per-op synchronisation",
    "FLAGS_conv_workspace_size_limit": "torch sizes cuDNN workspaces itself",
    "FLAGS_check_nan_inf_level": "only level 0 (raise at the first NaN or Inf) is implemented",
}
for _n in ("FLAGS_allocator_strategy", "FLAGS_fraction_of_cpu_memory_to_use", "FLAGS_initial_cpu_memory_in_mb",
           "FLAGS_initial_gpu_memory_in_mb", "FLAGS_reallocate_gpu_memory_in_mb", "FLAGS_use_pinned_memory",
           "FLAGS_memory_fraction_of_eager_deletion", "FLAGS_fast_eager_deletion_mode", "FLAGS_eager_delete_scope",
           "FLAGS_use_system_allocator", "FLAGS_init_allocated_mem", "FLAGS_fraction_of_cuda_pinned_memory_to_use",
           "FLAGS_auto_growth_chunk_size_in_mb", "FLAGS_use_stream_safe_cuda_allocator", "FLAGS_free_idle_chunk",
           "FLAGS_free_when_no_cache_hit"):
    REASONS[_n] = _MEMORY


class IgnoredFlagWarning(UserWarning):
    """A flag that paddle_compat accepts but does not implement was set to a value other than its default."""




def _load_defaults() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for version in ("1.8.5", "2.6.2"):
        with open(os.path.join(_DATA, f"flags_{version}.json"), encoding="utf-8") as f:
            out.update(json.load(f)["flags"])
    out.update(GPU_FLAGS)
    return out


DEFAULTS: dict[str, Any] = _load_defaults()
KNOWN: dict[str, Any] = {**DEFAULTS, **ENV_ONLY_FLAGS}  # every name read from the environment
SET: dict[str, Any] = {}  # values given to set_flags (they win over the environment)
_WATCHERS: dict[str, list[Callable[[Any], None]]] = {}
_WARNED: set[str] = set()

_TRUE, _FALSE = {"1", "true", "t", "yes", "y", "on"}, {"0", "false", "f", "no", "n", "off", ""}


def _type_name(default: Any) -> str:
    return {bool: "bool", int: "int", float: "float", str: "str"}[type(default)]


def coerce(name: str, value: Any, api: str) -> Any:
    """`value` as the flag's type, with Paddle's casting rules (bool accepts 0 / 1, float accepts int)."""
    default = KNOWN[name]
    kind = type(default)
    ok = (kind is bool and (isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)))) or \
         (kind is int and isinstance(value, int)) or \
         (kind is float and isinstance(value, (int, float)) and not isinstance(value, bool)) or \
         (kind is str and isinstance(value, str))
    if not ok:
        raise InvalidValueError(f"{api}: {name} is a {_type_name(default)} flag, but received {type(value).__name__} "
                             f"{value!r}")
    return kind(value)


def parse_env(name: str, text: str) -> Any:
    """A FLAGS_* environment value as the flag's type (gflags' spelling of booleans)."""
    kind = type(KNOWN[name])
    if kind is bool:
        t = text.strip().lower()
        if t in _TRUE or t in _FALSE:
            return t in _TRUE
        raise ValueError(text)
    return kind(text)


def _env_value(name: str) -> Any:
    text = os.environ.get(name)
    if text is None:
        return KNOWN[name]
    try:
        return parse_env(name, text)
    except ValueError:
        return KNOWN[name]


def value(name: str, default: Any = None) -> Any:
    """The current value of a flag: set_flags, else the environment, else Paddle's default (`default` for a
    name outside the table)."""
    if name in SET:
        return SET[name]
    if name in KNOWN:
        return _env_value(name)
    return default


def watch(name: str, fn: Callable[[Any], None]) -> None:
    """Call `fn(value)` now and whenever the flag is set: how a module implements a flag."""
    _WATCHERS.setdefault(name, []).append(fn)
    fn(value(name))


def _is_default(name: str, v: Any) -> bool:
    d = KNOWN[name]
    if isinstance(d, float):  # the recorded defaults went through float32 (0.9200000166893005)
        return abs(v - d) <= 1e-6 * max(1.0, abs(d))
    return v == d


def _apply(name: str, v: Any, source: str) -> None:
    fns = _WATCHERS.get(name)
    if fns:
        for fn in fns:
            fn(v)
    elif name not in SAME and not _is_default(name, v) and name not in _WARNED:
        _WARNED.add(name)
        why = REASONS.get(name, "paddle_compat does not implement it")
        warnings.warn(f"{name}={v!r} ({source}) is accepted but has no effect under paddle_compat: {why}",
                      IgnoredFlagWarning, stacklevel=4)


def set_flags(flags: Any) -> None:
    """paddle.set_flags / fluid.set_flags."""
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    typed = {}
    for k, v in flags.items():
        if k not in DEFAULTS:
            raise ValueError(f"Flag {k} cannot set its value through this function.")
        typed[k] = coerce(k, v, "set_flags")
    for k, v in typed.items():
        SET[k] = v
        _apply(k, v, "set_flags")


def get_flags(flags: Any) -> dict:
    """paddle.get_flags / fluid.get_flags."""
    if isinstance(flags, str):
        flags = [flags]
    elif not isinstance(flags, (list, tuple)):
        raise TypeError("Flags in get_flags should be a list, tuple or string.")
    out = {}
    for k in flags:
        if k not in DEFAULTS:
            raise ValueError(f"Flag {k} cannot get its value through this function.")
        out[k] = value(k)
    return out


def read_environment() -> None:
    """Apply the FLAGS_* environment variables (once, at `import paddle`)."""
    for name in KNOWN:
        text = os.environ.get(name)
        if text is None:
            continue
        try:
            v = parse_env(name, text)
        except ValueError:
            warnings.warn(f"environment variable {name}={text!r} is not a valid {_type_name(KNOWN[name])}; "
                          f"{name} keeps its default {KNOWN[name]!r}", IgnoredFlagWarning, stacklevel=2)
            continue
        _apply(name, v, "environment")


# --- the flags that act through torch (called only when the flag is set: set_flags or the environment) ------
def _cudnn_deterministic(v: bool) -> None:
    import torch

    torch.backends.cudnn.deterministic = bool(v)
    if v:
        torch.backends.cudnn.benchmark = False


def _cudnn_exhaustive_search(v: bool) -> None:
    import torch

    torch.backends.cudnn.benchmark = bool(v)


def _tensor_op_math(v: bool) -> None:
    import torch

    torch.backends.cuda.matmul.allow_tf32 = bool(v)


def _num_threads(v: int) -> None:
    import torch

    if v < 1:
        raise InvalidArgumentError(f"FLAGS_paddle_num_threads must be at least 1, but received {v}")
    torch.set_num_threads(v)


def _selected_gpus(v: str) -> None:
    os.environ["FLAGS_selected_gpus"] = v  # the places read it from the environment (engine/core/place.py)


def _gpu_memory_limit(v: int) -> None:
    import torch

    if v > 0 and torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            total = torch.cuda.get_device_properties(i).total_memory
            torch.cuda.set_per_process_memory_fraction(min(1.0, v * 1024 * 1024 / total), i)


def _read_where_used(v: Any) -> None:
    """Read through `value()` by the code that uses it (engine/parallel/reduce.py, engine/passes/fuse_all_reduce_ops.py;
    FLAGS_call_stack_level by engine/core/errors.py, at every Paddle error)."""


_WATCHERS.update({name: [fn] for name, fn in {
    "FLAGS_cudnn_deterministic": _cudnn_deterministic, "FLAGS_cudnn_exhaustive_search": _cudnn_exhaustive_search,
    "FLAGS_enable_cublas_tensor_op_math": _tensor_op_math, "FLAGS_paddle_num_threads": _num_threads,
    "FLAGS_selected_gpus": _selected_gpus, "FLAGS_gpu_memory_limit_mb": _gpu_memory_limit,
    "FLAGS_fuse_parameter_groups_size": _read_where_used, "FLAGS_fuse_parameter_memory_size": _read_where_used,
    "FLAGS_call_stack_level": _read_where_used,
}.items()})
