"""Cross-process collectives used by data parallelism (static replicas and dygraph DataParallel).

With no initialized torch.distributed process group (a single process) every call is the identity, so
in-process data parallelism needs nothing else. Under torchrun the process group does the work (gloo on
CPU, NCCL on CUDA).
"""

from __future__ import annotations

import torch


def is_distributed() -> bool:
    import torch.distributed as dist

    return dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1


def world_size() -> int:
    import torch.distributed as dist

    return dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1


def rank() -> int:
    import torch.distributed as dist

    return dist.get_rank() if dist.is_available() and dist.is_initialized() else 0


def all_reduce_sum_(tensors: list[torch.Tensor]) -> None:
    """Sum each tensor over all processes, in place."""
    if not is_distributed():
        return
    import torch.distributed as dist

    for t in tensors:
        dist.all_reduce(t, op=dist.ReduceOp.SUM)


def broadcast_(tensors: list[torch.Tensor], src: int = 0) -> None:
    if not is_distributed():
        return
    import torch.distributed as dist

    for t in tensors:
        dist.broadcast(t, src=src)
