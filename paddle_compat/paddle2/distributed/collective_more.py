"""The rest of Paddle 2.6's `paddle.distributed` collectives in dygraph, on torch.distributed: scatter, gather,
alltoall, alltoall_single, reduce_scatter, send / recv / isend / irecv, the object collectives
(all_gather_object, broadcast_object_list, scatter_object_list), get_backend, is_available and
destroy_process_group. Ranks (`src`, `dst`) are global ranks, as in Paddle. Output lists follow Paddle 2.6: an
empty `gather_list` / `out_tensor_list` is filled with one tensor per trainer, `object_list` is cleared and
refilled. With one trainer (no launcher) every collective is the identity of its definition; point-to-point
calls need a peer and raise.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError, PreconditionNotMetError
from paddle_compat.paddle2.distributed.collective import _OP_NAMES, Group, ReduceOp, _done, _pg, _tensor
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.parallel import collective

_API = "paddle.distributed."


class _Work:
    """The task an async call returns (Paddle's `task.wait()` / `task.is_completed()`), over torch's Work."""

    def __init__(self, work: Any) -> None:
        self._work = work

    def wait(self) -> bool:
        if self._work is not None:
            self._work.wait()
        return True

    def is_completed(self) -> bool:
        return self._work is None or self._work.is_completed()


def _nranks(group: Group | None) -> int:
    return group.nranks if group is not None else collective.world_size()


def _my_rank(group: Group | None) -> int:
    return group.rank if group is not None else collective.rank()


def _run(name: str, group: Group | None, fn: Callable[[Any], Any]) -> Any:
    """Run `fn(torch.distributed)` as the named collective (a failure names the API and the trainer)."""
    import torch.distributed as dist

    with torch.no_grad():
        return collective._guard(name, lambda: fn(dist))


def _tensors(xs: Any, api: str, arg: str) -> list[torch.Tensor]:
    if not isinstance(xs, (list, tuple)):
        raise TypeError(f"{api}: {arg} should be a list of paddle.Tensor, but received {type(xs).__name__}")
    return [_tensor(x, api, arg) for x in xs]


def _check_len(xs: list, n: int, api: str, arg: str) -> None:
    if len(xs) != n:
        raise InvalidArgumentError(f"{api}: {arg} should hold one tensor per trainer ({n}), but holds {len(xs)}")


def scatter(tensor: Any, tensor_list: Any = None, src: int = 0, group: Group | None = None,
            sync_op: bool = True) -> Any:
    """`tensor` receives `tensor_list[i]` of trainer `src`, i its rank in the group."""
    api = _API + "scatter"
    t = _tensor(tensor, api)
    n, me = _nranks(group), _my_rank(group)
    if group is not None and not group.is_member():
        return _done(sync_op)
    parts = _tensors(tensor_list, api, "tensor_list") if tensor_list is not None and me == _group_rank(group, src) \
        else None
    if parts is not None:
        _check_len(parts, n, api, "tensor_list")
    if not collective.is_distributed():
        if parts is None:
            raise InvalidArgumentError(f"{api}: tensor_list is required on the source trainer {src}")
        with torch.no_grad():
            t.copy_(parts[0])
        return _done(sync_op)
    _run(api, group, lambda d: d.scatter(t, [p.contiguous() for p in parts] if parts is not None else None,
                                         src=int(src), group=_pg(group)))
    return _done(sync_op)


def gather(tensor: Any, gather_list: Any = None, dst: int = 0, group: Group | None = None,
           sync_op: bool = True) -> Any:
    """Trainer `dst` gets every trainer's `tensor` in `gather_list` (filled when empty), in rank order."""
    api = _API + "gather"
    t = _tensor(tensor, api)
    if group is not None and not group.is_member():
        return _done(sync_op)
    n, me = _nranks(group), _my_rank(group)
    on_dst = me == _group_rank(group, dst)
    if on_dst:
        if gather_list is None or not isinstance(gather_list, list):
            raise TypeError(f"{api}: gather_list should be a list on the destination trainer {dst}")
        if not gather_list:
            gather_list.extend(Tensor._wrap(torch.empty_like(t)) for _ in range(n))
        outs = _tensors(gather_list, api, "gather_list")
        _check_len(outs, n, api, "gather_list")
    if not collective.is_distributed():
        with torch.no_grad():
            outs[0].copy_(t)
        return _done(sync_op)
    _run(api, group, lambda d: d.gather(t.contiguous(), outs if on_dst else None, dst=int(dst), group=_pg(group)))
    return _done(sync_op)


def alltoall(in_tensor_list: Any, out_tensor_list: Any, group: Group | None = None, sync_op: bool = True) -> Any:
    """Trainer j's `out_tensor_list[i]` is trainer i's `in_tensor_list[j]` (an empty output list is filled)."""
    api = _API + "alltoall"
    ins = _tensors(in_tensor_list, api, "in_tensor_list")
    if group is not None and not group.is_member():
        return _done(sync_op)
    n = _nranks(group)
    _check_len(ins, n, api, "in_tensor_list")
    if not isinstance(out_tensor_list, list):
        raise TypeError(f"{api}: out_tensor_list should be a list")
    if not out_tensor_list:
        out_tensor_list.extend(Tensor._wrap(torch.empty_like(x)) for x in ins)
    outs = _tensors(out_tensor_list, api, "out_tensor_list")
    _check_len(outs, n, api, "out_tensor_list")
    if not collective.is_distributed():
        with torch.no_grad():
            outs[0].copy_(ins[0])
        return _done(sync_op)
    _run(api, group, lambda d: d.all_to_all(outs, [x.contiguous() for x in ins], group=_pg(group)))
    return _done(sync_op)


def alltoall_single(in_tensor: Any, out_tensor: Any, in_split_sizes: Any = None, out_split_sizes: Any = None,
                    group: Group | None = None, sync_op: bool = True) -> Any:
    """alltoall over the first dimension of one tensor, split evenly or by the given sizes."""
    api = _API + "alltoall_single"
    x, out = _tensor(in_tensor, api, "in_tensor"), _tensor(out_tensor, api, "out_tensor")
    if group is not None and not group.is_member():
        return _done(sync_op)
    if not collective.is_distributed():
        with torch.no_grad():
            out.copy_(x)
        return _done(sync_op)
    _run(api, group, lambda d: d.all_to_all_single(
        out, x.contiguous(), output_split_sizes=list(out_split_sizes) if out_split_sizes else None,
        input_split_sizes=list(in_split_sizes) if in_split_sizes else None, group=_pg(group)))
    return _done(sync_op)


def reduce_scatter(tensor: Any, tensor_list: Any, op: int = ReduceOp.SUM, group: Group | None = None,
                   sync_op: bool = True) -> Any:
    """`tensor` on trainer i becomes the reduction over trainers of their `tensor_list[i]`."""
    api = _API + "reduce_scatter"
    t = _tensor(tensor, api)
    parts = _tensors(tensor_list, api, "tensor_list")
    if op not in _OP_NAMES:
        raise InvalidArgumentError(f"{api}: op should be a paddle.distributed.ReduceOp value, but received {op!r}")
    if group is not None and not group.is_member():
        return _done(sync_op)
    n = _nranks(group)
    _check_len(parts, n, api, "tensor_list")
    if not collective.is_distributed():
        with torch.no_grad():
            t.copy_(parts[0])
        return _done(sync_op)
    name = _OP_NAMES[op]

    def run(d: Any) -> None:
        if d.get_backend(_pg(group)) == "gloo":  # gloo has no reduce_scatter: reduce each part to its owner
            for i, p in enumerate(parts):
                buf = p.detach().clone()
                d.reduce(buf, dst=_global_rank(group, i), op=collective._reduce_op(name), group=_pg(group))
                if i == _my_rank(group):
                    t.copy_(buf)
        else:
            d.reduce_scatter(t, [p.contiguous() for p in parts], op=collective._reduce_op(name), group=_pg(group))

    _run(api, group, run)
    if name == "avg":
        with torch.no_grad():
            t.div_(n)
    return _done(sync_op)


def _group_rank(group: Group | None, rank: int) -> int:
    return int(rank) if group is None else group.get_group_rank(int(rank))


def _global_rank(group: Group | None, rank_in_group: int) -> int:
    return rank_in_group if group is None else group.ranks[rank_in_group]


def _p2p(api: str, tensor: Any, peer: Any, group: Group | None, sync_op: bool, send: bool) -> Any:
    t = _tensor(tensor, api)
    if group is not None and not group.is_member():
        return _done(sync_op)
    if not collective.is_distributed():
        raise PreconditionNotMetError(f"{api} needs a peer trainer: start the script with several trainers "
                                      "(python -m paddle.distributed.launch / torchrun --nproc_per_node=N)")
    if peer is None:
        raise InvalidArgumentError(f"{api}: the peer rank ({'dst' if send else 'src'}) is required here")
    peer = int(peer)

    def run(d: Any) -> Any:
        if sync_op:
            (d.send if send else d.recv)(t.contiguous() if send else t, peer, group=_pg(group))
            return None
        return (d.isend if send else d.irecv)(t.contiguous() if send else t, peer, group=_pg(group))

    work = _run(api, group, run)
    return None if sync_op else _Work(work)


def send(tensor: Any, dst: int = 0, group: Group | None = None, sync_op: bool = True) -> Any:
    return _p2p(_API + "send", tensor, dst, group, sync_op, send=True)


def recv(tensor: Any, src: int = 0, group: Group | None = None, sync_op: bool = True) -> Any:
    return _p2p(_API + "recv", tensor, src, group, sync_op, send=False)


def isend(tensor: Any, dst: int, group: Group | None = None) -> Any:
    return _p2p(_API + "isend", tensor, dst, group, False, send=True)


def irecv(tensor: Any, src: int | None = None, group: Group | None = None) -> Any:
    return _p2p(_API + "irecv", tensor, src, group, False, send=False)


def all_gather_object(object_list: list, obj: Any, group: Group | None = None) -> None:
    """`object_list` is cleared and gets every trainer's picklable `obj`, in rank order."""
    api = _API + "all_gather_object"
    if not isinstance(object_list, list):
        raise TypeError(f"{api}: object_list should be a list")
    if group is not None and not group.is_member():
        return
    if not collective.is_distributed():
        got = [obj]
    else:
        got = [None] * _nranks(group)
        _run(api, group, lambda d: d.all_gather_object(got, obj, group=_pg(group)))
    object_list.clear()
    object_list.extend(got)


def broadcast_object_list(object_list: list, src: int, group: Group | None = None) -> None:
    """Every trainer's `object_list` becomes trainer `src`'s (same length on every trainer), in place."""
    api = _API + "broadcast_object_list"
    if not isinstance(object_list, list):
        raise TypeError(f"{api}: object_list should be a list")
    if (group is not None and not group.is_member()) or not collective.is_distributed():
        return
    _run(api, group, lambda d: d.broadcast_object_list(object_list, src=int(src), group=_pg(group)))


def scatter_object_list(out_object_list: list, in_object_list: list | None = None, src: int = 0,
                        group: Group | None = None) -> None:
    """`out_object_list` is cleared and gets `in_object_list[i]` of trainer `src`, i this trainer's rank."""
    api = _API + "scatter_object_list"
    if not isinstance(out_object_list, list):
        raise TypeError(f"{api}: out_object_list should be a list")
    if group is not None and not group.is_member():
        return
    n, me = _nranks(group), _my_rank(group)
    on_src = me == _group_rank(group, src)
    if on_src:
        if not isinstance(in_object_list, (list, tuple)) or len(in_object_list) != n:
            raise InvalidArgumentError(f"{api}: in_object_list should hold one object per trainer ({n}) on the "
                                       f"source trainer {src}")
    if not collective.is_distributed():
        got = [in_object_list[0]]
    else:
        got = [None]
        _run(api, group, lambda d: d.scatter_object_list(got, list(in_object_list) if on_src else None,
                                                         src=int(src), group=_pg(group)))
    out_object_list.clear()
    out_object_list.append(got[0])


def get_backend(group: Group | None = None) -> str:
    """The group's backend in Paddle's spelling ('NCCL', 'GLOO')."""
    if group is not None and not group.is_member():
        raise RuntimeError("Invalid group specified")
    if not collective.is_initialized():
        raise PreconditionNotMetError("paddle.distributed.get_backend: the parallel environment is not initialized; "
                                      "call paddle.distributed.init_parallel_env() first")
    import torch.distributed as dist

    return str(dist.get_backend(_pg(group))).upper()


def is_available() -> bool:
    """Whether this build can run distributed collectives (torch.distributed is compiled in)."""
    import torch.distributed as dist

    return bool(dist.is_available())


def destroy_process_group(group: Group | None = None) -> None:
    """Release a group's communicator; with no group, every group and the parallel environment."""
    if group is not None:
        if group.process_group is not None:
            import torch.distributed as dist

            dist.destroy_process_group(group.process_group)
        from paddle_compat.paddle2.distributed import collective as comm

        comm._groups.pop(group.id, None)
        return
    from paddle_compat.paddle2.distributed import collective as comm

    comm._groups.clear()
    collective.destroy()


for _fn in (scatter, gather, alltoall, alltoall_single, reduce_scatter, send, recv, isend, irecv,
            all_gather_object, broadcast_object_list, scatter_object_list, get_backend, is_available,
            destroy_process_group):
    export(_fn, _API + _fn.__name__)
