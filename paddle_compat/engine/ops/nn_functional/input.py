"""Index inputs: embedding (Paddle's lookup_table_v2, weight [vocab, dim], padding_idx rows read 0) and one_hot."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.registry import op


@op("lookup_table_v2", exports=("paddle.nn.functional.embedding",), helper="embedding")
def embedding(x, weight, padding_idx=None, sparse=False, name=None):
    """`sparse` only changes how Paddle stores the gradient; the values are the same."""
    api = "paddle.nn.functional.embedding"
    if x.is_floating_point():
        raise TypeError(f"{api}: x should be an int32 or int64 tensor of ids, but received {x.dtype}")
    vocab = weight.shape[0]
    if padding_idx is not None and not -vocab <= padding_idx < vocab:
        raise ValueError(f"{api}: padding_idx must be within [-{vocab}, {vocab}), but received {padding_idx}")
    out = torch.nn.functional.embedding(x.long(), weight)
    if padding_idx is None:
        return out
    pad = padding_idx % vocab
    return out * (x != pad).unsqueeze(-1).to(out.dtype)


@op("one_hot_v2", exports=("paddle.nn.functional.one_hot",), differentiable=False)
def one_hot(x, num_classes, name=None):
    api = "paddle.nn.functional.one_hot"
    if x.is_floating_point():
        raise TypeError(f"{api}: x should be an int32 or int64 tensor, but received {x.dtype}")
    n = int(num_classes.reshape(-1)[0]) if isinstance(num_classes, torch.Tensor) else int(num_classes)
    if x.device.type != "meta" and x.numel() and (int(x.min()) < 0 or int(x.max()) >= n):
        raise ValueError(f"{api}: the values of x should be in [0, num_classes={n}), but received values in "
                         f"[{int(x.min())}, {int(x.max())}]")
    return torch.nn.functional.one_hot(x.long(), n).to(torch.float32)
