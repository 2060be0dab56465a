"""Index inputs: embedding (Paddle's lookup_table_v2, weight [vocab, dim], padding_idx rows read 0), one_hot, and the
SelectedRows ops that read an embedding's sparse gradient (engine/framework/selected_rows.py)."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.selected_rows import SelectedRowsValue, merge_add
from paddle_compat.engine.framework.registry import op


@op("lookup_table_v2", exports=("paddle.nn.functional.embedding",), helper="embedding")
def embedding(x, weight, padding_idx=None, sparse=False, name=None):
    """`sparse` makes Paddle's weight gradient a SelectedRows (engine/static/backward.py marks it): the same values, except
    that the sparse gradient kernel copies the output gradient of every lookup, padding_idx ones included (its
    dense kernel skips them), so an optimizer step moves the padding row too (tests/fluid/cases_sr18.py
    train_sgd_padding)."""
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
    if sparse:  # reads 0 at padding ids, yet passes their output gradient on to the padding row
        return out - (out * (x == pad).unsqueeze(-1).to(out.dtype)).detach()
    return out * (x != pad).unsqueeze(-1).to(out.dtype)


def _rows_spec(x, name=None):
    """Paddle's compile-time shape of a SelectedRows and of its value tensor is the dense [height, width]."""
    return Spec(tuple(x.shape), x.dtype)


@op("merge_selected_rows", differentiable=False, infer=_rows_spec)
def merge_selected_rows(x: SelectedRowsValue, name=None):
    """One row per distinct id, ascending, the values of equal ids summed (Paddle's MergeAdd)."""
    return merge_add(x)


@op("get_tensor_from_selected_rows", differentiable=False, infer=_rows_spec)
def get_tensor_from_selected_rows(x: SelectedRowsValue, name=None):
    """The value tensor [len(rows), width] of a SelectedRows."""
    return x.value


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
