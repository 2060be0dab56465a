"""`paddle.distributed.split` (model-parallel linear / embedding), `paddle.distributed.io` and the `launch`
function, as Paddle 2.6.2 has them.

- `split`: Paddle's argument checks; in dygraph mode Paddle 2.6.2 raises (use fleet's ParallelEmbedding /
  RowParallelLinear / ColumnParallelLinear); in static mode it needs `fleet.init()` first, and fleet is not
  provided here, so the static call raises naming that.
- `paddle.distributed.io`: save_persistables / load_persistables / is_persistable /
  load_inference_model_distributed over the static io functions (the parameter-server "distributed program"
  branch, `main_program._is_distributed`, never applies: parameter-server programs are not provided).
- `paddle.distributed.launch()`: the launcher's entry point, reading sys.argv as `python -m
  paddle.distributed.launch` does (launch.py).
"""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.core.errors import UnsupportedAPIError
from paddle_compat.core.mode import MODE
from paddle_compat.ops.registry import export, partial


def split(x: Any, size: Any, operation: str, axis: int = 0, num_partitions: int = 1, gather_out: bool = True,
          weight_attr: Any = None, bias_attr: Any = None, name: str | None = None) -> Any:
    """Paddle's model-parallel split of a linear or embedding weight over `num_partitions` devices."""
    assert isinstance(size, (list, tuple)), "The type of size for paddle.distributed.split must be list or tuple."
    assert len(size) == 2, "Number of elements in size of paddle.distributed.split must be two."
    assert isinstance(operation, str), "The type of operation for paddle.distributed.split must be str."
    supported = ["linear", "embedding"]
    assert operation in supported, f"The operation for paddle.distributed.split must be one of {supported}."
    if not MODE.static:
        raise ValueError("paddle.distributed.split cannot be used in dynamic graph mode, plese use "
                         "ParallelEmbedding, ParallelRowLinear, ParallelColumnLinear instead.")
    raise UnsupportedAPIError("paddle.distributed.split", "in static graph mode Paddle requires fleet.init() first "
                              "(To use paddle.distributed.split, you must call fleet.init() firstly), and "
                              "paddle.distributed.fleet is not provided")


# --- paddle.distributed.io


def _not_dygraph(fn_name: str) -> None:
    if not MODE.static:
        raise AssertionError(f"We don't support {fn_name} in dynamic graph mode")


def _static_only(fn_name: str) -> None:
    if not MODE.static:
        raise AssertionError(
            f"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and '{fn_name}()' is only supported in "
            "static graph mode. So if you want to use this api, please call 'paddle.enable_static()' before this "
            "api to enter static graph mode.")


def is_persistable(var: Any) -> bool:
    """True for a persistable variable that is not a feed / fetch list or a reader."""
    from paddle_compat.static import io as sio

    if getattr(var, "is_data", False) and not var.persistable:
        return False
    return sio._is_persistable(var) if hasattr(var, "is_data") else bool(var.persistable)


def save_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> Any:
    """Save every persistable variable of `main_program` (default: the default main program) to `dirname`, one file
    per variable, or all in `filename`."""
    _not_dygraph("save_persistables")
    from paddle_compat.static import io as sio

    return sio.save_vars(executor, dirname, main_program, None, is_persistable, filename)


def load_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> None:
    """Load what save_persistables wrote into the scope."""
    from paddle_compat.static import io as sio

    sio._load_vars(dirname, main_program, None, is_persistable, filename,
                   "paddle.distributed.io.load_persistables")


def load_inference_model_distributed(dirname: str, executor: Any, model_filename: str | None = None,
                                     params_filename: str | None = None, pserver_endpoints: Any = None) -> list:
    """[program, feed_target_names, fetch_targets] of a fluid-style inference model directory (`__model__` or
    `model_filename`, parameters one file each or in `params_filename`); dirname None: the two are the bytes."""
    _static_only("load_inference_model_distributed")
    from paddle_compat.static import io as sio

    if dirname is not None:
        if not os.path.isdir(os.path.normpath(dirname)):
            raise ValueError(f"There is no directory named '{dirname}'")
        if model_filename is not None:
            model_filename = os.path.basename(model_filename)
        if params_filename is not None:
            params_filename = os.path.basename(params_filename)
    elif params_filename is None:
        raise ValueError("The path of params cannot be None when the directory path is None.")
    return sio.fluid_load_inference_model(dirname, executor, model_filename, params_filename, pserver_endpoints)


def launch() -> None:
    """`paddle.distributed.launch()`: run the launcher with this process's command line (sys.argv[1:])."""
    from paddle_compat.distributed.launch import main

    main()


export(split, "paddle.distributed.split")
partial("paddle.distributed.split", "Paddle's argument checks and its dygraph ValueError; in static mode Paddle needs "
        "fleet.init() (paddle.distributed.fleet is not provided), so the static call raises naming that")
export(launch, "paddle.distributed.launch")
for _f in (save_persistables, load_persistables, load_inference_model_distributed, is_persistable):
    export(_f, f"paddle.distributed.io.{_f.__name__}")
