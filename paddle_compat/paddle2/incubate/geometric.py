"""paddle.geometric (Paddle 2.6): message passing (send_u_recv, send_ue_recv, send_uv), segment pooling,
reindexing and neighbor sampling of graphs. The pools and samplers are incubate's (one definition each):
send_u_recv is graph_send_recv, reindex_graph is graph_reindex, sample_neighbors is graph_sample_neighbors;
send_ue_recv / send_uv combine node and edge features with Paddle's message ops (add, sub, mul, div; y
broadcasts against the gathered x)."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.infer import Spec
from paddle_compat.paddle2.incubate import _pool, _reindex, _sample, graph_reindex, graph_send_recv, \
    graph_sample_neighbors, segment_max, segment_mean, segment_min, segment_sum
from paddle_compat.engine.framework.registry import export, op

_G = "paddle.geometric."
_MESSAGE = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}
_REDUCE = ("sum", "mean", "max", "min")


def _check(api: str, message_op: str, reduce_op: str | None = None) -> None:
    if message_op not in _MESSAGE:
        raise ValueError(f"{api}: message_op should be `add`, `sub`, `mul` or `div`, but received {message_op}")
    if reduce_op is not None and reduce_op not in _REDUCE:
        raise ValueError(f"{api}: reduce_op should be `sum`, `mean`, `max` or `min`, but received {reduce_op}")


def send_u_recv(x, src_index, dst_index, reduce_op="sum", out_size=None, name=None):
    """out[dst] = reduce over edges of x[src]; out_size rows (x's row count when None or <= 0)."""
    _check(_G + "send_u_recv", "add", str(reduce_op).lower())
    return graph_send_recv(x, src_index, dst_index, pool_type=str(reduce_op).lower(), out_size=out_size)


def _ue_infer(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None, name=None):
    rows = x.shape[0] if out_size is None or int(out_size) <= 0 else int(out_size)
    return Spec((rows,) + tuple(x.shape[1:]), x.dtype)


@op("send_ue_recv", exports=(_G + "send_ue_recv",), infer=_ue_infer)
def send_ue_recv(x, y, src_index, dst_index, message_op="add", reduce_op="sum", out_size=None, name=None):
    """out[dst] = reduce over edges e of message_op(x[src_e], y_e); y holds one row per edge (broadcast)."""
    message_op, reduce_op = str(message_op).lower(), str(reduce_op).lower()
    _check(_G + "send_ue_recv", message_op, reduce_op)
    msg = _MESSAGE[message_op](x[src_index.reshape(-1).long()], y)
    rows = x.shape[0] if out_size is None or int(out_size) <= 0 else int(out_size)
    return _pool(msg, dst_index, rows, reduce_op)


@op("send_uv", exports=(_G + "send_uv",),
    infer=lambda x, y, src_index, dst_index, message_op="add", name=None: Spec((-1,) + tuple(x.shape[1:]), x.dtype))
def send_uv(x, y, src_index, dst_index, message_op="add", name=None):
    """One row per edge: message_op(x[src_e], y[dst_e])."""
    message_op = str(message_op).lower()
    _check(_G + "send_uv", message_op)
    return _MESSAGE[message_op](x[src_index.reshape(-1).long()], y[dst_index.reshape(-1).long()])


def reindex_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """(reindex_src, reindex_dst, out_nodes): incubate.graph_reindex."""
    return graph_reindex(x, neighbors, count, value_buffer, index_buffer)


@op("reindex_heter_graph", exports=(_G + "reindex_heter_graph",), differentiable=False,
    infer=lambda x, neighbors, count, value_buffer=None, index_buffer=None, name=None: [
        Spec((-1,), x.dtype), Spec((-1,), x.dtype), Spec((-1,), x.dtype)])
def reindex_heter_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """reindex_graph over several edge types: the neighbor lists are numbered together (x first, then new
    nodes in order of appearance across the lists); each list's edges point at its own nodes of x."""
    x = x.reshape(-1)
    nbs = [n.reshape(-1) for n in neighbors]
    src, _, nodes = _reindex(x, torch.cat(nbs), torch.tensor([sum(n.numel() for n in nbs)]))
    ar = torch.arange(x.numel(), dtype=x.dtype, device=x.device)
    dst = torch.cat([torch.repeat_interleave(ar, c.reshape(-1).long()) for c in count])
    return [src, dst, nodes]


def sample_neighbors(row, colptr, input_nodes, sample_size=-1, eids=None, return_eids=False, perm_buffer=None,
                     name=None):
    """incubate.graph_sample_neighbors: all neighbors (sample_size -1) or a uniform sample of sample_size."""
    return graph_sample_neighbors(row, colptr, input_nodes, eids=eids, perm_buffer=perm_buffer,
                                  sample_size=sample_size, return_eids=return_eids)


def _weighted_infer(row, colptr, edge_weight, input_nodes, sample_size=-1, eids=None, return_eids=False, name=None):
    from paddle_compat.engine.core import dtype as _dt

    out = [Spec((-1,), row.dtype), Spec((input_nodes.shape[0],), _dt.to_dtype("int32"))]
    return out + [Spec((-1,), row.dtype)] if return_eids else out


@op("weighted_sample_neighbors", exports=(_G + "weighted_sample_neighbors",), differentiable=False, random=True,
    infer=_weighted_infer)
def weighted_sample_neighbors(row, colptr, edge_weight, input_nodes, sample_size=-1, eids=None, return_eids=False,
                              name=None):
    """Like sample_neighbors, each node's sample drawn without replacement with probability proportional to its
    edges' weights (all neighbors when it has at most sample_size)."""
    from paddle_compat.engine.ops.tensor.creation import _gen

    if return_eids and eids is None:
        raise ValueError(f"{_G}weighted_sample_neighbors: `eids` should not be None if `return_eids` is True.")
    row, colptr, w = row.reshape(-1), colptr.reshape(-1), edge_weight.reshape(-1)
    size = int(sample_size)
    if size < 0:
        nb, count, e = _sample(row, colptr, input_nodes.reshape(-1), -1, eids.reshape(-1) if return_eids else None)
        return [nb, count, e] if return_eids else [nb, count]
    outs, counts, out_eids = [], [], []
    for n in input_nodes.reshape(-1).tolist():
        lo, hi = int(colptr[n]), int(colptr[n + 1])
        pos = torch.arange(lo, hi, device=row.device)
        if size < hi - lo:
            pick = torch.multinomial(w[lo:hi].double().cpu(), size, replacement=False, generator=_gen())
            pos = pos[pick.to(row.device)]
        outs.append(row[pos])
        counts.append(pos.numel())
        if return_eids:
            out_eids.append(eids.reshape(-1)[pos])
    cat = lambda ts: torch.cat(ts) if ts else row.new_zeros([0])  # noqa: E731
    out = [cat(outs), torch.tensor(counts, dtype=torch.int32, device=row.device)]
    return out + [cat(out_eids)] if return_eids else out


for _fn in (send_u_recv, reindex_graph, sample_neighbors):
    export(_fn, _G + _fn.__name__)
for _name, _fn in (("segment_sum", segment_sum), ("segment_mean", segment_mean), ("segment_max", segment_max),
                   ("segment_min", segment_min)):
    export(_fn, _G + _name, f"{_G}math.{_name}")
