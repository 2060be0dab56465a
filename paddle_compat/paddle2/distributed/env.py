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

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.parallel import collective

_conflicts: list[str] = []
_no_gpu: list[str] = []  # set when this trainer's GPU (LOCAL_RANK) is not visible


def _launched_by_torch(env: Any = None) -> bool:
    env = os.environ if env is None else env
    return bool(env.get("RANK")) and bool(env.get("WORLD_SIZE"))


def paddle_env_from_torchrun(env: dict) -> tuple[dict, list[str]]:
    """(variables to set, conflicts) for a torchrun environment `env`; pure, so it is unit-tested directly."""
    rank, world = int(env["RANK"]), int(env["WORLD_SIZE"])
    local = env.get("LOCAL_RANK", "0")
    host = env.get("MASTER_ADDR", "127.0.0.1")
    port = int(env.get("MASTER_PORT", "29500") or 29500)
    eps = [f"{host}:{port + 1 + i}" for i in range(world)]
    want = {"PADDLE_TRAINER_ID": str(rank), "PADDLE_TRAINERS_NUM": str(world),
            "PADDLE_TRAINER_ENDPOINTS": ",".join(eps), "PADDLE_CURRENT_ENDPOINT": eps[rank] if 0 <= rank < world else "",
            "PADDLE_RANK_IN_NODE": str(local)}
    out, conflicts = {}, []
    for k, v in want.items():
        have = env.get(k)
        if have in (None, ""):
            out[k] = v
        elif k in ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM") and have != v:
            src = "RANK" if k == "PADDLE_TRAINER_ID" else "WORLD_SIZE"
            conflicts.append(f"{k}={have} but torchrun set {src}={env[src]}")
        elif k == "PADDLE_TRAINER_ENDPOINTS" and len(have.split(",")) != world:
            conflicts.append(f"PADDLE_TRAINER_ENDPOINTS lists {len(have.split(','))} trainer(s) but torchrun "
                             f"set WORLD_SIZE={world}")
    return out, conflicts


def sync_paddle_env() -> None:
    """Fill Paddle's launch variables (and the default place) from torchrun's; idempotent."""
    if not _launched_by_torch():
        return
    values, conflicts = paddle_env_from_torchrun(dict(os.environ))
    for k, v in values.items():
        os.environ[k] = v
    _conflicts[:] = conflicts
    _no_gpu.clear()
    import torch

    from paddle_compat.engine.core import place as _place

    if os.environ.get("PADDLE_COMPAT_DIST_DEVICE", "").lower() == "cpu":
        _place._current[0] = _place.CPUPlace()
    elif torch.cuda.is_available():
        os.environ.setdefault("FLAGS_selected_gpus", os.environ.get("LOCAL_RANK", "0"))
        dev, count = _place._selected_gpu(), torch.cuda.device_count()
        if dev < count:
            _place._current[0] = _place.CUDAPlace(dev)
            torch.cuda.set_device(dev)
        else:  # two trainers would share one GPU, which NCCL refuses: say so when the group is made
            rank, local = os.environ.get("RANK", "?"), os.environ.get("LOCAL_RANK", "?")
            _no_gpu.append(
                f"paddle.distributed: trainer {rank} (LOCAL_RANK {local}) selects gpu:{dev} but only {count} CUDA "
                f"device(s) are visible; start at most {count} trainer(s) per machine, or train on CPU with gloo "
                "(PADDLE_COMPAT_DIST_DEVICE=cpu or CUDA_VISIBLE_DEVICES='')")


def check_env() -> None:
    """Raise when Paddle's variables contradict torchrun's, or when this trainer has no GPU of its own."""
    if _conflicts:
        raise InvalidArgumentError(
            "paddle.distributed: Paddle's launch variables disagree with torchrun's: " + "; ".join(_conflicts)
            + ". Unset the PADDLE_* variables (they are filled in from torchrun's) or make them agree"
        )
    if _no_gpu:
        raise InvalidArgumentError(_no_gpu[0])


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
    from paddle_compat.paddle2.distributed import auto_parallel

    return collective.is_initialized() and not auto_parallel._state.get("own_world", False)


def init_parallel_env() -> Any:
    """`paddle.distributed.init_parallel_env`: create the process group (gloo on CPU, NCCL on CUDA).

    One trainer: warns and does nothing, as Paddle does. Returns the default Group."""
    env = ParallelEnv()
    if env.world_size < 2:
        warnings.warn("Currently not a parallel execution environment, `paddle.distributed.init_parallel_env` "
                      "will not do anything.", stacklevel=2)
        return None
    if env.world_size != collective.env_world_size() or env.rank != collective.env_rank():
        check_env()
    collective.ensure_initialized()
    from paddle_compat.paddle2.distributed.collective import _default_group

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
