"""Gradient reduction across in-process replicas: AllReduce / Reduce owners / fused buckets.

- `sum_gradients`: every reduced `param@GRAD` is summed over the places **in place order**
  (g0 + g1 + ... like Paddle's CPU `ReduceBufferData` under FLAGS_cpu_deterministic), then
  `collective.all_reduce_sum_` sums it over processes (the identity without torch.distributed). The scale is
  already in the gradients: GradientScaleStrategy set each replica's loss@GRAD seed (1/nranks, 1, or fed).
- `fuse_all_reduce_ops`: gradients are packed into flat buckets (per dtype and device, backward order,
  `FLAGS_fuse_parameter_groups_size` gradients or `FLAGS_fuse_parameter_memory_size` MB per bucket, Paddle's
  coalesce_grad_tensor_pass) and each bucket is reduced as one tensor: one cross-process call per bucket.
  Numerically identical to per-gradient reduction (a sum is elementwise).
- `reduce_owners`: Reduce mode's owner place of each parameter (`ReduceSSAGraphBuilder`
  `GetAppropriateDeviceID`): in backward order, the place with the smallest element count assigned so far
  (first such place on ties). Not round-robin, although Paddle's docs say "evenly distributed".
"""

from __future__ import annotations

from typing import Any, Sequence

import torch

from paddle_compat.engine.parallel import collective


def reduce_owners(params: Sequence[tuple[str, int]], nplaces: int) -> dict[str, int]:
    """{param: owner place} for (name, numel) pairs given in backward order."""
    load = [0] * nplaces
    owners: dict[str, int] = {}
    for name, numel in params:
        dev = min(range(nplaces), key=lambda i: (load[i], i))
        load[dev] += int(numel)
        owners[name] = dev
    return owners


def _flag(name: str, default: float) -> float:
    import os

    try:
        from paddle_compat.api import _FLAGS

        return float(_FLAGS.get(name, os.environ.get(name, default)))
    except Exception:  # noqa: BLE001 - flags table is optional
        return default


def buckets(grads: Sequence[torch.Tensor]) -> list[list[int]]:
    """Indices of `grads` grouped like Paddle's coalesce_grad_tensor_pass (see the module docstring)."""
    mem_mb = _flag("FLAGS_fuse_parameter_memory_size", -1.0)
    group = int(_flag("FLAGS_fuse_parameter_groups_size", 1.0))
    out: list[list[int]] = []
    open_: dict[tuple, list[int]] = {}
    size: dict[tuple, int] = {}
    for i, g in enumerate(grads):
        k = (g.dtype, g.device)
        cur = open_.setdefault(k, [])
        cur.append(i)
        size[k] = size.get(k, 0) + g.numel() * g.element_size()
        full = (mem_mb > 0 and size[k] >= mem_mb * 1024 * 1024) or (mem_mb <= 0 and group > 0 and len(cur) >= group)
        if full:
            out.append(cur)
            open_[k] = []
            size[k] = 0
    out.extend(v for v in open_.values() if v)
    return out


def bucket_indices(gm: Any, grad_names: list[str]) -> list[list[int]] | None:
    """The fuse_all_reduce_ops grouping of `grad_names` (indices into it): the pass's metadata
    (engine/passes/fuse_all_reduce_ops.py, `gm.meta["allreduce_buckets"]`) when it ran, else None (our own
    grouping by `buckets` is then made from the tensors at run time)."""
    meta = getattr(gm, "meta", {}).get("allreduce_buckets")
    if not meta:
        return None
    pos = {n: i for i, n in enumerate(grad_names)}
    out, seen = [], set()
    for b in meta:
        idx = [pos[g] for g in b.get("grads", []) if g in pos]
        if idx:
            out.append(idx)
            seen.update(idx)
    out.extend([i] for i in range(len(grad_names)) if i not in seen)
    return out


def sum_gradients(per_replica: list[list[torch.Tensor]], fuse: bool | list[list[int]] | None) -> list[torch.Tensor]:
    """Sum gradient j over the replicas (each list holds one replica's gradients in the same order) into a
    tensor on replica 0's device, then the cross-process seam `collective.all_reduce_sum_`. `fuse`: bucket
    index groups (or True for our own grouping): across processes each bucket is flattened and reduced with
    one call. In one process a bucket would only add copies (the sum is elementwise either way), so the
    in-process sum stays per gradient."""
    n = len(per_replica[0])
    sums = [_sum_in_order([r[j] for r in per_replica]) for j in range(n)]
    if not collective.is_distributed():
        return sums
    groups = buckets(sums) if fuse is True else (fuse or [[j] for j in range(n)])
    for idx in groups:
        if len(idx) == 1:
            collective.all_reduce_sum_([sums[idx[0]]])
            continue
        flat = torch.cat([sums[i].reshape(-1) for i in idx])
        collective.all_reduce_sum_([flat])
        off = 0
        for i in idx:
            k = sums[i].numel()
            sums[i].copy_(flat[off:off + k].view_as(sums[i]))
            off += k
    return sums


def _owned(t: torch.Tensor) -> bool:
    """A fresh dense buffer we may overwrite (autograd can return expanded views, e.g. the grad of a sum)."""
    return t.is_contiguous() and not t._is_view() and not t.requires_grad


def _sum_in_order(ts: list[torch.Tensor]) -> torch.Tensor:
    """ts[0] + ts[1] + ... in place order (accumulating into ts[0] itself when it is a fresh buffer)."""
    acc = ts[0].detach()
    if not _owned(acc):
        acc = acc.clone()
    for t in ts[1:]:
        acc.add_(t.detach().to(acc.device, non_blocking=True))
    return acc


def distribute(total: torch.Tensor, mine: torch.Tensor, device: torch.device) -> torch.Tensor:
    """The reduced gradient for another place: written into that place's own gradient buffer when it can
    be, else a copy on its device."""
    if mine.device == device and mine.shape == total.shape and mine.dtype == total.dtype and _owned(mine):
        return mine.copy_(total)
    return total.to(device, copy=True)
