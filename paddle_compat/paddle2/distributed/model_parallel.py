"""`paddle.distributed.split` (model-parallel linear / embedding), `paddle.distributed.io` and the `launch`
function, as Paddle 2.6.2 has them.

- `split`: Paddle's argument checks; in dygraph mode Paddle 2.6.2 raises (use fleet's ParallelEmbedding /
  RowParallelLinear / ColumnParallelLinear); in static mode, after `fleet.init()`, what Paddle runs on one
  process (see split's docstring).
- `paddle.distributed.io`: save_persistables / load_persistables / is_persistable /
  load_inference_model_distributed over the static io functions (the parameter-server "distributed program"
  branch, `main_program._is_distributed`, never applies: parameter-server programs are not provided).
- `paddle.distributed.launch()`: the launcher's entry point, reading sys.argv as `python -m
  paddle.distributed.launch` does (launch.py).
"""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.registry import export, partial


def split(x: Any, size: Any, operation: str, axis: int = 0, num_partitions: int = 1, gather_out: bool = True,
          weight_attr: Any = None, bias_attr: Any = None, name: str | None = None) -> Any:
    """Paddle's model-parallel split of a linear or embedding weight over `num_partitions` devices (static mode,
    after fleet.init()).

    What runs here is what Paddle 2.6.2 runs on one process: the embedding with one partition (a
    `_parallel_embedding_N.w_0` parameter and a lookup). Paddle's linear always goes through its model-parallel
    collective ops (c_split / c_concat refuse one rank, mp_allreduce_sum needs a communicator), and more than
    one partition needs those ops in the static program: those raise naming what is missing."""
    assert isinstance(size, (list, tuple)), "The type of size for paddle.distributed.split must be list or tuple."
    assert len(size) == 2, "Number of elements in size of paddle.distributed.split must be two."
    assert isinstance(operation, str), "The type of operation for paddle.distributed.split must be str."
    supported = ["linear", "embedding"]
    assert operation in supported, f"The operation for paddle.distributed.split must be one of {supported}."
    if not MODE.static:
        raise ValueError("paddle.distributed.split cannot be used in dynamic graph mode, plese use "
                         "ParallelEmbedding, ParallelRowLinear, ParallelColumnLinear instead.")
    from paddle_compat.paddle2.distributed.fleet import fleet

    assert fleet._role_maker, "To use paddle.distributed.split, you must call fleet.init() firstly."
    api = "paddle.distributed.split"
    if operation == "embedding":
        assert axis == 0, "We only support to split the weight of embedding along the first axis now."
        assert size[0] % num_partitions == 0, ("The length of the vocabulary must be divisible by num_partitions "
                                               f"but received vocabulary={size[0]} num_partitions={num_partitions}")
        if num_partitions != 1:
            raise UnsupportedAPIError(api, f"embedding over {num_partitions} partitions needs Paddle's static "
                                      "model-parallel ops (c_lookup_table, mp_allreduce_sum), which are not provided")
        from paddle_compat.engine.core import dtype as _dt
        from paddle_compat.engine.static.layer_helper import LayerHelper
        from paddle_compat.engine.framework.registry import EXPORTS

        embedding = EXPORTS["paddle.nn.functional"]["embedding"]

        helper = LayerHelper("_parallel_embedding", name=None)
        weight = helper.create_parameter(attr=weight_attr, shape=[size[0], size[1]],
                                         dtype=_dt.default_float().name, is_bias=False)
        return embedding(x, weight=weight, padding_idx=None, sparse=False, name=name)
    if axis == 0:
        assert size[0] % num_partitions == 0, (f"Number of rows of the weight for linear ({size[0]}) must be "
                                               f"divisible by num_partitions ({num_partitions})")
        op = "c_split" if x.shape[-1] == size[0] else "mp_allreduce_sum"
    elif axis == 1:
        assert size[1] % num_partitions == 0, (f"Number of column of the weight for linear ({size[1]}) must be "
                                               f"divisible by num_partitions ({num_partitions})")
        op = "c_concat" if gather_out else "c_identity"
    else:
        raise ValueError(f"The value of axis must be 0 or 1, but the value given is {axis}.")
    if num_partitions == 1 and op in ("c_split", "c_concat"):
        raise ValueError(f"(InvalidArgument) The number of ranks (1) for {op} must be greater than 1.")
    raise UnsupportedAPIError(api, f"the parallel linear needs Paddle's static model-parallel collective op {op}, "
                              "which is not provided (in dygraph, use fleet's ColumnParallelLinear / "
                              "RowParallelLinear, or paddle.distributed.shard_tensor)")


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
    from paddle_compat.engine.static import io as sio

    if getattr(var, "is_data", False) and not var.persistable:
        return False
    return sio._is_persistable(var) if hasattr(var, "is_data") else bool(var.persistable)


def save_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> Any:
    """Save every persistable variable of `main_program` (default: the default main program) to `dirname`, one file
    per variable, or all in `filename`."""
    _not_dygraph("save_persistables")
    from paddle_compat.engine.static import io as sio

    return sio.save_vars(executor, dirname, main_program, None, is_persistable, filename)


def load_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> None:
    """Load what save_persistables wrote into the scope."""
    from paddle_compat.engine.static import io as sio

    sio._load_vars(dirname, main_program, None, is_persistable, filename,
                   "paddle.distributed.io.load_persistables")


def load_inference_model_distributed(dirname: str, executor: Any, model_filename: str | None = None,
                                     params_filename: str | None = None, pserver_endpoints: Any = None) -> list:
    """[program, feed_target_names, fetch_targets] of a fluid-style inference model directory (`__model__` or
    `model_filename`, parameters one file each or in `params_filename`); dirname None: the two are the bytes."""
    _static_only("load_inference_model_distributed")
    from paddle_compat.engine.static import io as sio

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
    from paddle_compat.paddle2.distributed.launch import main

    main()


export(split, "paddle.distributed.split")
partial("paddle.distributed.split", "Paddle's argument checks, its dygraph ValueError and the one-partition embedding; "
        "the parallel linear and several partitions need Paddle's static model-parallel collective ops (c_split, "
        "c_concat, mp_allreduce_sum, c_lookup_table), not provided: they raise naming the op")
export(launch, "paddle.distributed.launch")
for _f in (save_persistables, load_persistables, load_inference_model_distributed, is_persistable):
    export(_f, f"paddle.distributed.io.{_f.__name__}")
export(is_persistable, "paddle.fluid.io.is_persistable")  # one function in Paddle's fluid.io and 2.x static
