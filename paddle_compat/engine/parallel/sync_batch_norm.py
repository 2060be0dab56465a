"""sync_batch_norm across the places of one process (Paddle has no CPU kernel; this works on CPU and CUDA).

BuildStrategy.sync_batch_norm makes every `batch_norm` a `sync_batch_norm` (the passes engineer's rewrite;
`rewrite_batch_norm` below does the same on the runner's copy of the graph when that pass is absent). The op
(`paddle_compat.engine.ops.fused.sync_batch_norm`) asks the thread-local callback installed by
`ops.fused.sync_bn_callback` for the global (sum, sum of squares, count) of its input over all places; the
data-parallel runner installs, in each place's thread, `replica_callback(exchange, r)`, whose reduction is an
autograd Function:
- forward: every place contributes its local statistics, waits for the others (a barrier), and gets the
  sum taken in place order, so all places normalise with the same batch mean / variance;
- backward: the same exchange sums the gradients of those statistics, so each place's gradient includes
  the other places' losses (torch.nn.SyncBatchNorm's backward all-reduce).
All places therefore run their forward + backward concurrently (the runner ignores num_threads here). A
failing place aborts the barrier so the others raise instead of waiting forever. Across processes the
same op would reduce through torch.distributed (collective.py) - the multi-process engineer's part.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator

import torch
import torch.fx as fx


class Exchange:
    """Sum lists of tensors over `n` replica threads (in place order, identical on every place)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.barrier = threading.Barrier(n)
        self.slots: list[Any] = [None] * n

    def sum(self, r: int, tensors: list[torch.Tensor]) -> list[torch.Tensor]:
        """Place 0 sums the places' tensors in place order and all-reduces that over the trainer
        processes (the identity in a single process); every place then takes a copy of the result."""
        self.slots[r] = tensors
        self.barrier.wait()
        if r == 0:
            from paddle_compat.engine.parallel.collective import all_reduce_sum_

            dev = tensors[0].device
            res = []
            for j in range(len(tensors)):
                acc = self.slots[0][j].detach().to(dev, copy=True)
                for k in range(1, self.n):
                    acc.add_(self.slots[k][j].detach().to(dev))
                res.append(acc)
            all_reduce_sum_(res)
            self.result = res
        self.barrier.wait()
        out = [t.to(mine.device, copy=True) for t, mine in zip(self.result, tensors)]
        self.barrier.wait()  # nobody overwrites a slot or the result before everyone has read it
        return out

    def abort(self) -> None:
        self.barrier.abort()


class _AllReduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, ex: Exchange, r: int, *ts: torch.Tensor) -> tuple:  # type: ignore[override]
        ctx.ex, ctx.r = ex, r
        return tuple(ex.sum(r, list(ts)))

    @staticmethod
    def backward(ctx: Any, *gs: torch.Tensor) -> tuple:  # type: ignore[override]
        return (None, None, *ctx.ex.sum(ctx.r, list(gs)))


@contextlib.contextmanager
def replica_callback(ex: Exchange, r: int) -> Iterator[None]:
    from paddle_compat.engine.ops.fused import sync_bn_callback

    def cb(s: torch.Tensor, sq: torch.Tensor, count: torch.Tensor) -> tuple:
        gs, gsq = _AllReduce.apply(ex, r, s, sq)
        n = ex.sum(r, [count.detach()])[0]
        return gs, gsq, n

    with sync_bn_callback(cb):
        yield


def rewrite_batch_norm(gm: fx.GraphModule) -> bool:
    """batch_norm -> sync_batch_norm on the runner's graph, unless the graph already has it (the pass ran)."""
    from paddle_compat.engine.framework.registry import OPS

    bn = OPS.get("batch_norm")
    sbn = OPS.get("sync_batch_norm")
    if bn is None or sbn is None:
        return False
    changed = False
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target is bn.impl:
            n.target = sbn.impl
            n.meta["op_type"] = "sync_batch_norm"
            changed = True
    return changed
