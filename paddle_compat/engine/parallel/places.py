"""Places of a data-parallel run: what `with_data_parallel(places=...)` / `ParallelExecutor` resolve to.

Paddle 1.8.5 / 2.4 (`compiler.py _compile`, strategy_semantics.md 2.8):
- `places=None`: the Executor's place type decides. CPU -> `cpu_places()` = `CPU_NUM` copies of CPUPlace
  (unset: Paddle's banner, `os.environ['CPU_NUM'] = '1'`, one place); CUDA -> `cuda_places()`
  (`FLAGS_selected_gpus`, else every visible GPU, i.e. `CUDA_VISIBLE_DEVICES`).
- a list / tuple of CPUPlace / CUDAPlace or of strings `cpu` / `gpu:x`; a single place is a list of one.
- every place must have the Executor's place type ("Place type not match").
The list is resolved once, when the CompiledProgram is first run (Paddle compiles lazily), so a script that
sets `CPU_NUM` after `with_data_parallel` but before the first `exe.run` gets that many places.
"""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.engine.core.errors import UnavailableError
from paddle_compat.engine.core.place import CPUPlace, CUDAPlace, Place, to_place


def default_places(use_cuda: bool) -> list[Place]:
    from paddle_compat import api

    return api.cuda_places() if use_cuda else api.cpu_places()


def no_places_error(use_cuda: bool, api: str) -> Exception:
    """The error for an empty default place list: no visible GPU, or CPU_NUM of 0 or less (Paddle's
    AssertionError "No places for execution.")."""
    if use_cuda:
        return UnavailableError(
            f"{api}: no CUDA device is visible (FLAGS_selected_gpus / CUDA_VISIBLE_DEVICES, "
            "torch.cuda.device_count() == 0); run on fluid.CPUPlace() (use_cuda=False) with CPU_NUM places, or pass "
            "places explicitly")
    return AssertionError(f"No places for execution. ({api}: CPU_NUM={os.environ.get('CPU_NUM')!r} gives no "
                          "CPUPlace; set CPU_NUM to the number of CPU places, a positive integer)")


def resolve_places(places: Any, exe_place: Place) -> list[Place]:
    """The list of places one data-parallel program runs on (see the module docstring)."""
    use_cuda = isinstance(exe_place, CUDAPlace)
    if places is None:
        out = default_places(use_cuda)
        if not out:
            raise no_places_error(use_cuda, "with_data_parallel")
        return out
    if not isinstance(places, (list, tuple)):
        places = [places]
    if len(places) == 0:
        raise ValueError("with_data_parallel: places must not be empty; pass e.g. [fluid.CPUPlace()] * 2")
    out = [to_place(p) for p in places]
    for p in out:
        if not isinstance(p, (CPUPlace, CUDAPlace)):
            raise TypeError(f"with_data_parallel: places must be CPUPlace or CUDAPlace (or 'cpu' / 'gpu:x'), got {p!r}")
        if type(p) is not type(exe_place):
            raise AssertionError("Place type not match. You may set wrong type of places.")
    return out


def device_kind(places: list[Place]) -> str:
    """'CPU' or 'GPU', the word Paddle's feed errors use."""
    return "GPU" if isinstance(places[0], CUDAPlace) else "CPU"
