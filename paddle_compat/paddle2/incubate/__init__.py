"""paddle.incubate: segment pooling, graph message passing and sampling (Paddle's graph learning ops),
identity_loss and the fused masked softmaxes. (LookAhead / ModelAverage live with the fluid optimizers.)

Segment and send/recv pools: rows of one segment / destination are reduced; empty ones are 0; max / min send
the gradient to every element equal to the result (Paddle's kernels). Graph sampling works on a CSC graph
(row, colptr); neighbor lists keep the CSC order, a node with more than sample_size neighbors gets a uniform
sample without replacement (paddle.seed makes it reproducible)."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.ops.common import scalar_shape
from paddle_compat.engine.framework.registry import op

_I = "paddle.incubate."


class _PoolMax(torch.autograd.Function):
    """Scatter max / min whose gradient goes to every element equal to its segment's result."""

    @staticmethod
    def forward(ctx, x, index, rows, reduce):  # noqa: ANN001
        out = x.new_zeros([rows] + list(x.shape[1:]))
        idx = index.view(-1, *([1] * (x.dim() - 1))).expand_as(x)
        out = out.scatter_reduce(0, idx, x, reduce, include_self=False)
        ctx.save_for_backward(x, idx, out)
        return out

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001
        x, idx, out = ctx.saved_tensors
        hit = (torch.gather(out, 0, idx) == x).to(g.dtype)
        return torch.gather(g, 0, idx) * hit, None, None, None


def _pool(x: torch.Tensor, index: torch.Tensor, rows: int, pool: str) -> torch.Tensor:
    """Reduce the rows of x that share an index into `rows` output rows (empty rows: 0)."""
    index = index.reshape(-1).long()
    if pool in ("max", "min"):
        return _PoolMax.apply(x, index, rows, "amax" if pool == "max" else "amin")
    out = x.new_zeros([rows] + list(x.shape[1:])).index_add(0, index, x)
    if pool == "mean":
        count = torch.zeros(rows, dtype=x.dtype, device=x.device).index_add(0, index, torch.ones_like(index,
                                                                                                     dtype=x.dtype))
        out = out / count.clamp_min(1).view(-1, *([1] * (x.dim() - 1)))
    return out


def _segment_infer(data, segment_ids, name=None):
    return Spec((-1,) + tuple(data.shape[1:]), data.dtype)


def _segment(pool: str):
    api = f"{_I}segment_{pool}"

    def body(data, segment_ids, name=None):
        if segment_ids.dim() != 1 or segment_ids.shape[0] != data.shape[0]:
            raise ValueError(f"{api}: segment_ids should be 1-D with one id per row of data ({data.shape[0]}), but "
                             f"received shape {list(segment_ids.shape)}")
        if segment_ids.numel() and bool((segment_ids[1:] < segment_ids[:-1]).any()):
            raise ValueError(f"{api}: segment_ids should be sorted in ascending order")
        rows = int(segment_ids.max()) + 1 if segment_ids.numel() else 0
        return _pool(data, segment_ids, rows, pool)

    body.__doc__ = f"The {pool} of the rows of data sharing a segment id (sorted ids; [max id + 1, ...])."
    return op(f"segment_pool_{pool}", exports=(api,), infer=_segment_infer)(body)


segment_sum, segment_mean, segment_max, segment_min = (_segment(p) for p in ("sum", "mean", "max", "min"))


def _send_recv_infer(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    rows = x.shape[0] if out_size is None or out_size <= 0 else int(out_size)
    return Spec((rows,) + tuple(x.shape[1:]), x.dtype)


@op("graph_send_recv", exports=(_I + "graph_send_recv",), infer=_send_recv_infer)
def graph_send_recv(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    """out[dst_index[i]] = pool over i of x[src_index[i]]; out has out_size rows (x's row count if None or <= 0)."""
    api = _I + "graph_send_recv"
    pool = str(pool_type).lower()
    if pool not in ("sum", "mean", "max", "min"):
        raise ValueError(f"{api}: pool_type should be `sum`, `mean`, `max` or `min`, but received {pool_type}")
    if src_index.numel() != dst_index.numel():
        raise ValueError(f"{api}: src_index and dst_index should have the same length, but received "
                         f"{src_index.numel()} and {dst_index.numel()}")
    rows = x.shape[0] if out_size is None or int(out_size) <= 0 else int(out_size)
    return _pool(x[src_index.reshape(-1).long()], dst_index, rows, pool)


# ------------------------------------------------------------------------------------------------ sampling
def _first_seen(ids: torch.Tensor, known: list, seen: dict) -> None:
    for v in ids.tolist():
        if v not in seen:
            seen[v] = len(known)
            known.append(v)


def _reindex(x: torch.Tensor, neighbors: torch.Tensor, count: torch.Tensor):
    known: list = []
    seen: dict = {}
    _first_seen(x, known, seen)
    _first_seen(neighbors, known, seen)
    src = torch.tensor([seen[v] for v in neighbors.tolist()], dtype=x.dtype, device=x.device)
    dst = torch.repeat_interleave(torch.arange(x.numel(), dtype=x.dtype, device=x.device),
                                  count.reshape(-1).long())
    return src, dst, torch.tensor(known, dtype=x.dtype, device=x.device)


def _reindex_infer(x, neighbors, count, value_buffer=None, index_buffer=None, flag_buffer_hashtable=False, name=None):
    return [Spec((-1,), x.dtype), Spec((-1,), x.dtype), Spec((-1,), x.dtype)]


@op("graph_reindex", exports=(_I + "graph_reindex",), differentiable=False, infer=_reindex_infer)
def graph_reindex(x, neighbors, count, value_buffer=None, index_buffer=None, flag_buffer_hashtable=False,
                  name=None):
    """(reindex_src, reindex_dst, out_nodes): the nodes x then the new neighbors in order of appearance are
    numbered from 0; each neighbor becomes an edge (its number -> the number of the node it belongs to)."""
    if int(count.sum()) != neighbors.numel():
        raise ValueError(f"{_I}graph_reindex: the counts sum to {int(count.sum())}, but there are "
                         f"{neighbors.numel()} neighbors")
    return list(_reindex(x.reshape(-1), neighbors.reshape(-1), count))


def _sample(row: torch.Tensor, colptr: torch.Tensor, nodes: torch.Tensor, size: int, eids=None):
    """Per node: its CSC neighbors (all, or a uniform sample of `size` without replacement)."""
    from paddle_compat.engine.ops.tensor.creation import _gen

    outs, counts, out_eids = [], [], []
    for n in nodes.tolist():
        lo, hi = int(colptr[n]), int(colptr[n + 1])
        pos = torch.arange(lo, hi, device=row.device)
        if 0 <= size < hi - lo:
            pos = pos[torch.randperm(hi - lo, generator=_gen()).to(row.device)[:size]]
        outs.append(row[pos])
        counts.append(pos.numel())
        if eids is not None:
            out_eids.append(eids[pos])
    cat = lambda ts, like: torch.cat(ts) if ts else like.new_zeros([0])  # noqa: E731
    count = torch.tensor(counts, dtype=torch.int32, device=row.device)
    return cat(outs, row), count, (cat(out_eids, row) if eids is not None else None)


def _sample_infer(row, colptr, input_nodes, eids=None, perm_buffer=None, sample_size=-1, return_eids=False,
                  flag_perm_buffer=False, name=None):
    from paddle_compat.engine.core import dtype as _dt

    out = [Spec((-1,), row.dtype), Spec((input_nodes.shape[0],), _dt.to_dtype("int32"))]
    return out + [Spec((-1,), row.dtype)] if return_eids else out


@op("graph_sample_neighbors", exports=(_I + "graph_sample_neighbors",), differentiable=False, random=True,
    infer=_sample_infer)
def graph_sample_neighbors(row, colptr, input_nodes, eids=None, perm_buffer=None, sample_size=-1,
                           return_eids=False, flag_perm_buffer=False, name=None):
    """(out_neighbors, out_count[, out_eids]) for each input node: all its neighbors (sample_size -1) or a
    uniform sample of sample_size of them."""
    if return_eids and eids is None:
        raise ValueError(f"{_I}graph_sample_neighbors: `eids` should not be None if `return_eids` is True.")
    nb, count, e = _sample(row.reshape(-1), colptr.reshape(-1), input_nodes.reshape(-1), int(sample_size),
                           eids.reshape(-1) if return_eids else None)
    return [nb, count, e] if return_eids else [nb, count]


def _khop_infer(row, colptr, input_nodes, sample_sizes, sorted_eids=None, return_eids=False, name=None):
    out = [Spec((-1, 1), row.dtype), Spec((-1, 1), row.dtype), Spec((-1,), row.dtype),
           Spec((input_nodes.shape[0],), row.dtype)]
    return out + [Spec((-1,), row.dtype)] if return_eids else out


@op("graph_khop_sampler", exports=(_I + "graph_khop_sampler",), differentiable=False, random=True,
    infer=_khop_infer)
def graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None, return_eids=False, name=None):
    """(edge_src, edge_dst, sample_index, reindex_nodes[, edge_eids]): hop k samples sample_sizes[k] neighbors
    of the nodes first reached at hop k - 1; all nodes are renumbered in order of appearance (sample_index
    lists them), edges are (neighbor number, node number) as [E, 1]; edge_eids is [E]."""
    if return_eids and sorted_eids is None:
        raise ValueError(f"{_I}graph_khop_sampler: `sorted_eid` should not be None if return_eids is True.")
    row, colptr, nodes = row.reshape(-1), colptr.reshape(-1), input_nodes.reshape(-1)
    known: list = []
    seen: dict = {}
    _first_seen(nodes, known, seen)
    frontier, srcs, dsts, es = nodes, [], [], []
    for size in sample_sizes:
        nb, count, e = _sample(row, colptr, frontier, int(size), sorted_eids.reshape(-1) if return_eids else None)
        before = len(known)
        _first_seen(nb, known, seen)
        srcs.append(nb)
        dsts.append(torch.repeat_interleave(frontier, count.long()))
        if e is not None:
            es.append(e)
        frontier = torch.tensor(known[before:], dtype=row.dtype, device=row.device)
    renum = lambda t: torch.tensor([seen[v] for v in t.tolist()], dtype=row.dtype, device=row.device)  # noqa: E731
    src, dst = renum(torch.cat(srcs)), renum(torch.cat(dsts))
    out = [src.reshape(-1, 1), dst.reshape(-1, 1), torch.tensor(known, dtype=row.dtype, device=row.device),
           renum(nodes)]
    return out + [torch.cat(es)] if return_eids else out


# ------------------------------------------------------------------------------------------------ the rest
_REDUCTIONS = {0: "sum", 1: "mean", 2: "none", "sum": "sum", "mean": "mean", "none": "none"}


@op("identity_loss", exports=(_I + "identity_loss",))
def identity_loss(x, reduction="none"):
    """Marks the loss for IPU backends in Paddle; computes x reduced by 'sum' (0), 'mean' (1) or 'none' (2)."""
    red = _REDUCTIONS.get(reduction)
    if red is None:
        raise ValueError(f"{_I}identity_loss: reduction should be 'sum', 'mean', 'none' or 0, 1, 2, but received "
                         f"{reduction!r}")
    if red == "none":
        return x
    return scalar_shape(x.sum() if red == "sum" else x.mean())


@op("fused_softmax_mask", exports=(_I + "softmax_mask_fuse",))
def softmax_mask_fuse(x, mask, name=None):
    """softmax(x + mask) over the last axis (x [b, h, s, s], mask broadcast from [b, 1, s, s])."""
    if x.dim() != 4 or mask.dim() != 4:
        raise ValueError(f"{_I}softmax_mask_fuse: x and mask should be 4-D, but received {list(x.shape)} and "
                         f"{list(mask.shape)}")
    return torch.softmax(x + mask.to(x.dtype), dim=-1)


@op("fused_softmax_mask_upper_triangle", exports=(_I + "softmax_mask_fuse_upper_triangle",))
def softmax_mask_fuse_upper_triangle(x):
    """softmax over the last axis with the strictly upper triangle masked out (causal attention)."""
    if x.dim() != 4:
        raise ValueError(f"{_I}softmax_mask_fuse_upper_triangle: x should be 4-D, but received {list(x.shape)}")
    keep = torch.ones(x.shape[-2:], dtype=torch.bool, device=x.device).tril()
    return torch.softmax(x.masked_fill(~keep, float("-inf")), dim=-1)
