"""Index inputs: embedding (Paddle's lookup_table_v2, weight [vocab, dim], padding_idx rows read 0), one_hot, and the
SelectedRows ops that read an embedding's sparse gradient (engine/framework/selected_rows.py)."""

from __future__ import annotations

import threading

import torch
from torch.utils.weak import WeakIdKeyDictionary

from paddle_compat.engine.core import eager_kernels
from paddle_compat.engine.core.joint_trace import ACTIVE as _JOINT_TRACE
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
    out = _lookup(x.long(), weight)
    if padding_idx is None:
        return out
    pad = padding_idx % vocab
    if sparse:  # reads 0 at padding ids, yet passes their output gradient on to the padding row
        return out - (out * (x == pad).unsqueeze(-1).to(out.dtype)).detach()
    return out * (x != pad).unsqueeze(-1).to(out.dtype)


# a table this large (bytes) has its dense weight gradient written into a buffer kept for it (_TableGrad). Below it a
# fresh gradient mostly comes from glibc's heap already (its mmap threshold rises to 32 MiB as chunks are freed), and
# the autograd.Function's some 30 us a step would be all _TableGrad changes
_KEPT_GRAD_MIN_BYTES = 4 << 20


def _lookup(ids: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """F.embedding; for a large CPU table being trained, through _TableGrad (the same values and gradient bits),
    which the compiler path leaves outside its compiled graphs (engine/core/eager_kernels.py)."""
    if weight.requires_grad and weight.is_cpu and weight.layout is torch.strided and torch.is_grad_enabled() and \
            weight.dim() == 2 and weight.nbytes >= _KEPT_GRAD_MIN_BYTES and not _JOINT_TRACE[0]:
        return eager_kernels.kernel("embedding_kept_grad")(ids, weight)
    return torch.nn.functional.embedding(ids, weight)


class _TableGrad(torch.autograd.Function):
    """An embedding lookup whose weight gradient goes into a buffer kept per table and reused while nothing else
    holds it. The dense gradient of a large table is mostly zeros, and a fresh one is fresh memory every step: a
    BERT's 30522 x 768 word table is 94 MiB of pages the kernel faults in and zeroes, 42 ms a step against 11 ms to
    zero and fill a resident buffer (real Paddle's caching allocator hands its kernels such memory too). The values
    are torch's: its CPU kernel (embedding_dense_backward) is the same zero fill and `index_add_` over the ids in
    order, so the same bits (tests/ops/test_embedding_grad_buffer.py). A buffer whose gradient is still held anywhere (a
    fetched gradient, a dygraph parameter's .grad, a view of either) is left alone and a new one made."""

    @staticmethod
    def forward(ctx, ids, weight):
        ctx.save_for_backward(ids)
        ctx.table = weight
        return torch.nn.functional.embedding(ids, weight)

    @staticmethod
    def backward(ctx, grad):
        (ids,) = ctx.saved_tensors
        weight = ctx.table
        rows, g = ids.reshape(-1), grad.reshape(-1, weight.shape[1])
        if torch.is_grad_enabled():  # create_graph: a differentiable gradient, the same values
            return None, torch.zeros_like(weight, dtype=grad.dtype).index_add(0, rows, g)
        with _KEPT_LOCK:  # replicas of a data-parallel run may differentiate one table on several threads
            buf = _KEPT.get(weight)
            if buf is None or buf.dtype != grad.dtype or buf.shape != weight.shape or _storage_refs(buf) != _ALONE:
                buf = _KEPT[weight] = torch.empty_like(weight, dtype=grad.dtype,
                                                       memory_format=torch.contiguous_format)
            out = buf.detach()  # from here the buffer counts as held
        return None, out.zero_().index_add_(0, rows, g)


# weight -> its gradient buffer, a tensor never handed out (the gradient is an alias of it: another tensor on its
# storage), so any holder of the gradient or of a view of it counts on the storage; the entry dies with the weight
_KEPT: WeakIdKeyDictionary = WeakIdKeyDictionary()
_KEPT_LOCK = threading.Lock()


def _storage_refs(t: torch.Tensor) -> int:
    """How many references t's storage has, counted the same way for every tensor (the count includes the storage
    object made to ask)."""
    return torch._C._storage_Use_Count(t.untyped_storage()._cdata)


_ALONE = _storage_refs(torch.empty(1))  # the count of a storage only its own tensor holds
eager_kernels.keep("embedding_kept_grad", _TableGrad.apply)


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
