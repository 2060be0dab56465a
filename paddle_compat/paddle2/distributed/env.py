"""The trainer environment: torchrun's variables mapped onto Paddle's, ParallelEnv, init_parallel_env.

Under torchrun each process is one trainer. When this module is imported (at `import paddle`) and torchrun's
RANK / WORLD_SIZE are set, Paddle's launch variables are filled in where absent, so legacy scripts that read
them work unchanged:

    PADDLE_TRAINER_ID        = RANK
    PADDLE_TRAINERS_NUM      = WORLD_SIZE
    PADDLE_TRAINER_ENDPOINTS = MASTER_ADDR:MASTER_PORT+1+i for each trainer i   (informational: the process
    PADDLE_CURRENT_ENDPOINT  = this trainer's entry                              group meets at MASTER_ADDR:PORT)
    PADDLE_RANK_IN_NODE      = LOCAL_RANK
    FLAGS_selected_gpus      = LOCAL_RANK                                        (only when CUDA is usable)

and the default place becomes `cuda:LOCAL_RANK` when CUDA is usable (CPU otherwise). Values already present
are kept; one that contradicts torchrun's (say PADDLE_TRAINER_ID=0 inherited by every rank) is a clear error
at the first distributed call (`check_env`), not a silently wrong shard.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.core import launch_env
from paddle_compat.engine.core.launch_env import check_env, sync_paddle_env
from paddle_compat.engine.parallel import collective
from paddle_compat.paddle2.distributed import auto_parallel
from paddle_compat.paddle2.distributed.collective import _default_group

class ParallelEnv:
    """`paddle.distributed.ParallelEnv` (also `fluid.dygraph.ParallelEnv`): the trainer's view of the job,
    read from Paddle's variables (filled from torchrun's)."""

    def __init__(self) -> None:
        sync_paddle_env()
        self._rank = int(os.getenv("PADDLE_TRAINER_ID", os.getenv("RANK", "0")))
        self._world_size = int(os.getenv("PADDLE_TRAINERS_NUM", os.getenv("WORLD_SIZE", "1")))
        self._device_type = str(os.getenv("PADDLE_XCCL_BACKEND", ""))
        self._pg_timeout = int(os.getenv("PADDLE_PG_TIMEOUT", "1800000"))
        gpus = os.getenv("FLAGS_selected_gpus", os.getenv("LOCAL_RANK", "0")).split(",")
        self._device_id = int(gpus[0]) if gpus[0].strip().isdigit() else 0
        self._trainer_endpoints = os.getenv("PADDLE_TRAINER_ENDPOINTS", "").split(",")
        self._current_endpoint = os.getenv("PADDLE_CURRENT_ENDPOINT", "")
        self._nrings = int(os.getenv("FLAGS_nccl_nrings", "1"))

    rank = property(lambda self: self._rank)
    world_size = property(lambda self: self._world_size)
    device_id = property(lambda self: self._device_id)
    device_type = property(lambda self: self._device_type)
    current_endpoint = property(lambda self: self._current_endpoint)
    trainer_endpoints = property(lambda self: self._trainer_endpoints)
    nrings = property(lambda self: self._nrings)
    pg_timeout = property(lambda self: self._pg_timeout)
    # fluid 1.x names
    local_rank = rank
    nranks = world_size
    dev_id = device_id

    def __repr__(self) -> str:
        return f"ParallelEnv(rank={self._rank}, world_size={self._world_size}, device_id={self._device_id})"


def get_rank(group: Any = None) -> int:
    """`paddle.distributed.get_rank`: this trainer's rank (in `group`, or in the job); needs no process group."""
    if group is not None:
        return group.rank
    return ParallelEnv().rank


def get_world_size(group: Any = None) -> int:
    if group is not None:
        return group.world_size
    return ParallelEnv().world_size


def is_initialized() -> bool:
    # the one-process world auto_parallel.py makes for shard_tensor is not Paddle's parallel environment
    return collective.is_initialized() and not auto_parallel._state.get("own_world", False)


def init_parallel_env() -> Any:
    """`paddle.distributed.init_parallel_env`: create the process group (gloo on CPU, NCCL on CUDA).

    One trainer: warns and does nothing, as Paddle does. Returns the default Group."""
    env = ParallelEnv()
    if env.world_size < 2:
        warnings.warn("Currently not a parallel execution environment, `paddle.distributed.init_parallel_env` "
                      "will not do anything.", stacklevel=2)
        return None
    if env.world_size != launch_env.env_world_size() or env.rank != launch_env.env_rank():
        check_env()
    collective.ensure_initialized()
    return _default_group()


def prepare_context(strategy: Any = None) -> Any:
    """fluid 1.x `fluid.dygraph.prepare_context`: init the group; returns the ParallelStrategy."""
    init_parallel_env()
    return ParallelStrategy()


class ParallelStrategy:
    """fluid 1.x `fluid.dygraph.parallel.ParallelStrategy`, filled from the environment."""

    def __init__(self) -> None:
        env = ParallelEnv()
        self.nranks = env.world_size
        self.local_rank = env.rank
        self.trainer_endpoints = env.trainer_endpoints
        self.current_endpoint = env.current_endpoint


export(ParallelEnv, "paddle.distributed.ParallelEnv", "paddle.fluid.dygraph.ParallelEnv")
export(get_rank, "paddle.distributed.get_rank")
export(get_world_size, "paddle.distributed.get_world_size")
export(is_initialized, "paddle.distributed.is_initialized")
export(init_parallel_env, "paddle.distributed.init_parallel_env")
export(prepare_context, "paddle.fluid.dygraph.prepare_context")
export(ParallelStrategy, "paddle.distributed.ParallelStrategy")
export(ParallelStrategy, "paddle.fluid.core.ParallelStrategy")  # 1.8: core.ParallelStrategy

sync_paddle_env()
