"""What the launcher (torchrun, paddle.distributed.launch / spawn) says about this process, read from the
environment: no process group needed, so every layer may ask (BuildStrategy.num_trainers reads it)."""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.engine.core.errors import InvalidArgumentError


def _int_env(*names: str) -> int | None:
    for n in names:
        v = os.environ.get(n)
        if v not in (None, ""):
            try:
                return int(v)
            except ValueError:
                raise InvalidArgumentError(f"environment variable {n}={v!r} should be an integer") from None
    return None


def env_world_size() -> int:
    """The number of trainer processes the launcher started: torchrun's WORLD_SIZE, else PADDLE_TRAINERS_NUM."""
    n = _int_env("WORLD_SIZE", "PADDLE_TRAINERS_NUM")
    return n if n and n > 0 else 1


def env_rank() -> int:
    r = _int_env("RANK", "PADDLE_TRAINER_ID")
    return r or 0


def env_local_rank() -> int:
    r = _int_env("LOCAL_RANK")
    if r is None:
        gpus = os.environ.get("FLAGS_selected_gpus", "")
        r = int(gpus.split(",")[0]) if gpus.split(",")[0].strip().isdigit() else 0
    return r


def launched() -> bool:
    """True when a launcher (torchrun, paddle.distributed.launch/spawn) started several trainers."""
    return env_world_size() > 1


def resolve_trainers(num_trainers: int | None = 1, trainer_id: int | None = 0,
                     api: str = "BuildStrategy") -> tuple[int, int]:
    """(num_trainers, trainer_id) for this process.

    Under torchrun each process is one trainer: num_trainers defaults to WORLD_SIZE and trainer_id to RANK.
    A value the script set explicitly (num_trainers > 1, trainer_id > 0) must agree with the launcher;
    a mismatch is an InvalidArgumentError, because it would silently train with the wrong gradient scale or
    feed shard. Without a launcher a script may still ask for num_trainers > 1: that is an error too, since
    no other trainer exists to reduce with."""
    ws, rk = env_world_size(), env_rank()
    n = int(num_trainers or 1)
    t = int(trainer_id or 0)
    if n > 1 and n != ws:
        raise InvalidArgumentError(
            f"{api}.num_trainers is {n}, but the launcher started {ws} trainer process(es) (WORLD_SIZE / "
            f"PADDLE_TRAINERS_NUM = {ws}); launch with torchrun --nproc_per_node (x nnodes) = {n}, or leave "
            "num_trainers unset so it follows WORLD_SIZE"
        )
    n = ws if n <= 1 else n
    if t != 0 and t != rk:
        raise InvalidArgumentError(
            f"{api}.trainer_id is {t}, but this process is trainer {rk} (RANK / PADDLE_TRAINER_ID = {rk}); "
            "leave trainer_id unset so it follows RANK"
        )
    if t >= n and n > 1:
        raise InvalidArgumentError(f"{api}.trainer_id {t} must be smaller than num_trainers {n}")
    return n, rk if n > 1 else 0


# ---- torchrun's variables mapped onto Paddle's (PADDLE_TRAINER_ID, ...), and the default place of a trainer

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
