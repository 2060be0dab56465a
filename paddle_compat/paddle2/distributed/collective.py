"""`paddle.distributed` collectives in dygraph: all_reduce, broadcast, reduce, all_gather, barrier, new_group.

Each works in place on a `paddle.Tensor` (its torch tensor), with Paddle 2.4's signatures; `src` / `dst` are
global ranks as in Paddle. With one trainer they are the identity (Paddle needs a launcher even for that;
we let single-process runs of a multi-process script work). The process group is created on first use
(collective.ensure_initialized). In static mode Paddle records c_allreduce_* ops; we do not.
"""

from __future__ import annotations

from typing import Any

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.parallel import collective


class ReduceOp:
    """`paddle.distributed.ReduceOp`: the values Paddle uses."""

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


_OP_NAMES = {ReduceOp.SUM: "sum", ReduceOp.MAX: "max", ReduceOp.MIN: "min", ReduceOp.PROD: "prod",
             ReduceOp.AVG: "avg"}


class Group:
    """`paddle.distributed.collective.Group`: ranks (global), this trainer's rank in it, its torch group."""

    def __init__(self, rank_in_group: int, id: int, ranks: list[int], pg: Any = None,  # noqa: A002
                 name: str | None = None) -> None:
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks)
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name

    rank = property(lambda self: self._rank_in_group)
    ranks = property(lambda self: self._ranks)
    nranks = property(lambda self: self._world_size)
    world_size = property(lambda self: self._world_size)
    id = property(lambda self: self._id)
    name = property(lambda self: self._name)
    process_group = property(lambda self: self._pg)

    def is_member(self) -> bool:
        return self._rank_in_group >= 0

    def get_group_rank(self, rank: int) -> int:
        return self._ranks.index(rank) if rank in self._ranks else -1

    def __repr__(self) -> str:
        return f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: {', '.join(map(str, self.ranks))}"


_groups: dict[int, Group] = {}


def _default_group() -> Group:
    g = _groups.get(0)
    if g is None:
        n, r = collective.world_size(), collective.rank()
        g = _groups[0] = Group(r, 0, list(range(n)), None, "_default_pg")
    return g


def new_group(ranks: Any = None, backend: str | None = None, timeout: Any = None) -> Group:
    """`paddle.distributed.new_group`: every trainer must call it (as in Paddle and torch)."""
    collective.ensure_initialized()
    n, me = collective.world_size(), collective.rank()
    ranks = sorted(int(r) for r in (ranks if ranks is not None else range(n)))
    bad = [r for r in ranks if not 0 <= r < n]
    if bad:
        raise InvalidArgumentError(f"paddle.distributed.new_group: ranks {bad} are outside [0, {n})")
    pg = None
    if collective.is_distributed():
        import torch.distributed as dist

        pg = dist.new_group(ranks=ranks, backend=backend)
    gid = max(_groups, default=0) + 1
    g = Group(ranks.index(me) if me in ranks else -1, gid, ranks, pg)
    _groups[gid] = g
    return g


def get_group(id: int = 0) -> Group | None:  # noqa: A002
    return _default_group() if id == 0 else _groups.get(id)


def _tensor(x: Any, api: str, arg: str = "tensor") -> torch.Tensor:
    if MODE.static:
        raise UnsupportedAPIError(api, "static-graph collectives (c_allreduce_* ops) are not recorded; use "
                                       "CompiledProgram.with_data_parallel or dygraph")
    if isinstance(x, Tensor):
        return x._t
    raise TypeError(f"{api}: {arg} should be a paddle.Tensor, but received {type(x).__name__}")


def _pg(group: Group | None) -> Any:
    return None if group is None else group.process_group


class _Task:
    """What an async (sync_op=False) collective returns; we run collectives synchronously."""

    def wait(self) -> bool:
        return True

    def is_completed(self) -> bool:
        return True


def _done(sync_op: bool) -> Any:
    return None if sync_op else _Task()


def all_reduce(tensor: Any, op: int = ReduceOp.SUM, group: Group | None = None, sync_op: bool = True) -> Any:
    t = _tensor(tensor, "paddle.distributed.all_reduce")
    if op not in _OP_NAMES:
        raise InvalidArgumentError(f"paddle.distributed.all_reduce: op should be a paddle.distributed.ReduceOp "
                                   f"value, but received {op!r}")
    if group is not None and not group.is_member():
        return _done(sync_op)
    with torch.no_grad():
        collective.all_reduce_([t], _OP_NAMES[op], group=_pg(group))
    return _done(sync_op)


def broadcast(tensor: Any, src: int, group: Group | None = None, sync_op: bool = True) -> Any:
    t = _tensor(tensor, "paddle.distributed.broadcast")
    if group is not None and not group.is_member():
        return _done(sync_op)
    with torch.no_grad():
        collective.broadcast_([t], src=int(src), group=_pg(group))
    return _done(sync_op)


def reduce(tensor: Any, dst: int, op: int = ReduceOp.SUM, group: Group | None = None, sync_op: bool = True) -> Any:
    t = _tensor(tensor, "paddle.distributed.reduce")
    if not collective.is_distributed() or (group is not None and not group.is_member()):
        return _done(sync_op)
    import torch.distributed as dist

    name = _OP_NAMES[op]
    with torch.no_grad():
        collective._guard(f"reduce(dst={dst})",
                          lambda: dist.reduce(t, dst=int(dst), op=collective._reduce_op(name), group=_pg(group)))
        if name == "avg" and collective.rank() == int(dst):
            t.div_(group.nranks if group is not None else collective.world_size())
    return _done(sync_op)


def all_gather(tensor_list: list, tensor: Any, group: Group | None = None, sync_op: bool = True) -> Any:
    """Paddle 2.4: `tensor_list` is cleared and refilled with one tensor per trainer, in rank order."""
    t = _tensor(tensor, "paddle.distributed.all_gather")
    if not isinstance(tensor_list, list):
        raise TypeError("paddle.distributed.all_gather: tensor_list should be a list")
    if not collective.is_distributed():
        parts = [t.detach().clone()]
    else:
        import torch.distributed as dist

        n = group.nranks if group is not None else collective.world_size()
        parts = [torch.empty_like(t) for _ in range(n)]
        collective._guard("all_gather", lambda: dist.all_gather(parts, t.detach().contiguous(), group=_pg(group)))
    tensor_list.clear()
    tensor_list.extend(Tensor._wrap(p) for p in parts)
    return _done(sync_op)


def barrier(group: Group | None = None) -> None:
    if not collective.is_distributed():
        return
    import torch.distributed as dist

    collective._guard("barrier", lambda: dist.barrier(group=_pg(group)))


def wait(tensor: Any, group: Group | None = None, use_calc_stream: bool = True) -> None:
    """`paddle.distributed.wait`: our collectives are synchronous, so there is nothing to wait for."""
    _tensor(tensor, "paddle.distributed.wait")


export(ReduceOp, "paddle.distributed.ReduceOp")
export(Group, "paddle.distributed.collective.Group")
export(new_group, "paddle.distributed.new_group")
export(get_group, "paddle.distributed.get_group")
export(all_reduce, "paddle.distributed.all_reduce")
export(broadcast, "paddle.distributed.broadcast")
export(reduce, "paddle.distributed.reduce")
export(all_gather, "paddle.distributed.all_gather")
export(barrier, "paddle.distributed.barrier")
export(wait, "paddle.distributed.wait")
