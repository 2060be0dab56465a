"""`fuse_all_reduce_ops`: gradient buckets for the data-parallel all-reduce (DDP-style bucketing).

Flag: BuildStrategy.fuse_all_reduce_ops (default True; only meaningful in AllReduce mode, forced off in
Reduce mode: BuildStrategy.resolved). Paddle: coalesce_grad_tensor_pass packs gradients into contiguous
buffers, then fuse_all_reduce_op_pass issues one all-reduce per group.

The graph itself is not changed: the pass writes the grouping as metadata, which the data-parallel
runner (paddle_compat/parallel) consumes. Interface:

  gm.meta["allreduce_buckets"]: list of dicts, in gradient production order (the order the backward
      node yields them), each {"grads": [grad var names], "params": [param var names], "dtype": str,
      "numel": total elements or -1 when a shape is unknown}.
  node.meta["allreduce_bucket"] = bucket index, on every gradient node (the getitem outputs of
      `autograd_grad`) that belongs to a bucket.
  grad_buckets(gm) -> the list above ([] when the pass did not run).
  coalesced_all_reduce_(tensors, reduce_fn): flattens one bucket's gradients into a single contiguous
      buffer, calls reduce_fn(buffer) once (it must reduce in place, e.g. a SUM all-reduce or an
      in-process sum over replicas), and copies the result back into each gradient.

Grouping: one bucket per dtype; `FLAGS_fuse_parameter_memory_size` (MB, > 0) caps a bucket's bytes and
`FLAGS_fuse_parameter_groups_size` (> 1) caps its number of gradients, as Paddle's flags do (their
defaults, -1 and 1, mean one group). Gradients of unknown shape get a bucket of their own.

Sound: metadata only; the reduction of a flattened buffer is element-wise the same as per-tensor ones.

Before:  p0@GRAD = autograd_grad[0]; p1@GRAD = autograd_grad[1]
After:   same nodes; meta allreduce_bucket=0 on both; gm.meta["allreduce_buckets"] = [{grads: [...]}]
"""

from __future__ import annotations

import os
from typing import Callable

import torch
import torch.fx as fx

from paddle_compat.engine.passes import PassContext, PassResult, register
from paddle_compat.engine.passes._util import op_nodes, var_shape


def _flag(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _numel(shape) -> int:
    if shape is None or any(d < 0 for d in shape):
        return -1
    n = 1
    for d in shape:
        n *= d
    return n


def grad_nodes(gm: fx.GraphModule) -> list[tuple[fx.Node, str]]:
    """(gradient node, parameter name) pairs in production order."""
    out = []
    for bw in op_nodes(gm, ["autograd_grad"]):
        inputs = bw.args[1]
        by_index = {u.args[1]: u for u in bw.users if len(u.args) > 1 and isinstance(u.args[1], int)}
        for i, p in enumerate(inputs):
            if i in by_index and isinstance(p, fx.Node) and p.op == "placeholder":
                out.append((by_index[i], p.meta.get("var_name", p.name)))
    return out


@register("fuse_all_reduce_ops")
def fuse_all_reduce_ops(gm: fx.GraphModule, ctx: PassContext) -> PassResult:
    cap_bytes = _flag("FLAGS_fuse_parameter_memory_size", -1.0) * 1024 * 1024
    cap_count = int(_flag("FLAGS_fuse_parameter_groups_size", 1))
    buckets: list[dict] = []
    open_by_dtype: dict[str, dict] = {}
    for gnode, pname in grad_nodes(gm):
        shape = var_shape(gnode, ctx.program)
        dtype = "float32"
        if ctx.program is not None:
            v = ctx.program.global_block().vars.get(gnode.meta.get("var_name"))
            if v is not None:
                dtype = v.dtype.name
        numel = _numel(shape) if ctx.program is not None else -1
        b = open_by_dtype.get(dtype)
        itemsize = torch.empty((), dtype=getattr(torch, dtype, torch.float32)).element_size()
        full = b is not None and (
            (cap_count > 1 and len(b["grads"]) >= cap_count)
            or (cap_bytes > 0 and b["numel"] >= 0 and numel >= 0 and (b["numel"] + numel) * itemsize > cap_bytes)
        )
        if b is None or full or numel < 0 or b["numel"] < 0:
            b = {"grads": [], "params": [], "dtype": dtype, "numel": 0}
            buckets.append(b)
            open_by_dtype[dtype] = b
        b["grads"].append(gnode.meta.get("var_name"))
        b["params"].append(pname)
        b["numel"] = -1 if numel < 0 or b["numel"] < 0 else b["numel"] + numel
        gnode.meta["allreduce_bucket"] = next(i for i, x in enumerate(buckets) if x is b)
    gm.meta["allreduce_buckets"] = buckets
    return PassResult(gm, bool(buckets), {"buckets": len(buckets), "grads": sum(len(b["grads"]) for b in buckets)})


def grad_buckets(gm: fx.GraphModule) -> list[dict]:
    return list(getattr(gm, "meta", {}).get("allreduce_buckets", []))


def coalesced_all_reduce_(tensors: list[torch.Tensor], reduce_fn: Callable[[torch.Tensor], object]) -> None:
    """Reduce a bucket with one call: flatten into one buffer, reduce_fn(buffer) in place, copy back."""
    if not tensors:
        return
    flat = torch.cat([t.reshape(-1) for t in tensors])
    reduce_fn(flat)
    off = 0
    with torch.no_grad():
        for t in tensors:
            n = t.numel()
            t.copy_(flat[off:off + n].view_as(t))
            off += n
