"""diag_embed and gather_tree (beam-search backtrace)."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.registry import op


@op("diag_embed", exports=("paddle.nn.functional.diag_embed",))
def diag_embed(input, offset=0, dim1=-2, dim2=-1):  # noqa: A002 - Paddle's name
    api = "paddle.nn.functional.diag_embed"
    nd = input.dim() + 1
    d1, d2 = dim1 % nd if -nd <= dim1 < nd else None, dim2 % nd if -nd <= dim2 < nd else None
    if d1 is None or d2 is None:
        raise ValueError(f"{api}: dim1 and dim2 should be in [{-nd}, {nd - 1}], but received {dim1} and {dim2}")
    if d1 == d2:
        raise ValueError(f"{api}: dim1 and dim2 cannot be the same dimension, but received {dim1} and {dim2}")
    return torch.diag_embed(input, offset=offset, dim1=dim1, dim2=dim2)


@op("gather_tree", exports=("paddle.nn.functional.gather_tree",), differentiable=False)
def gather_tree(ids, parents):
    """ids / parents [T, B, beam]: out[T-1] = ids[T-1]; going back, follow each beam's parent pointer."""
    api = "paddle.nn.functional.gather_tree"
    if ids.dim() != 3 or ids.shape != parents.shape:
        raise ValueError(f"{api}: ids and parents should both be 3-D [max_time, batch_size, beam_size] with the "
                         f"same shape, but received {list(ids.shape)} and {list(parents.shape)}")
    t = ids.shape[0]
    if t == 0:
        return ids.clone()
    steps = [ids[t - 1]]
    parent = parents[t - 1].long()
    for step in range(t - 2, -1, -1):
        steps.append(torch.gather(ids[step], 1, parent))
        parent = torch.gather(parents[step].long(), 1, parent)
    return torch.stack(steps[::-1], dim=0)
