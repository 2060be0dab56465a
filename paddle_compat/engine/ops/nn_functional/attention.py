"""Attention functions: scaled_dot_product_attention (Paddle's layout [batch, seq_len, num_heads, head_dim])
and sparse_attention (a CSR layout of the allowed query/key pairs; Paddle runs it on CUDA 11.3+ only, here it
runs anywhere as masked dense attention)."""

from __future__ import annotations

import contextlib
import math

import torch

from paddle_compat.engine.framework.registry import export, op


@op("flash_attn", exports=("paddle.nn.functional.scaled_dot_product_attention",
                           "paddle.nn.functional.flash_attention.scaled_dot_product_attention"))
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, training=True,
                                 name=None):
    """softmax(Q K^T / sqrt(d) + mask) V over [batch, seq_len, num_heads, head_dim] inputs; a float mask is
    added to the scores, a bool mask keeps the True positions."""
    api = "paddle.nn.functional.scaled_dot_product_attention"
    for what, t in (("query", query), ("key", key), ("value", value)):
        if t.dim() != 4:
            raise ValueError(f"{api}: {what} should be 4-D [batch_size, seq_len, num_heads, head_dim], but received "
                             f"shape {list(t.shape)}")
    q, k, v = (t.transpose(1, 2) for t in (query, key, value))
    mask = attn_mask
    if mask is not None and mask.dtype != torch.bool:
        mask = mask.to(q.dtype)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                                           dropout_p=float(dropout_p) if training else 0.0,
                                                           is_causal=bool(is_causal) and mask is None)
    return out.transpose(1, 2)


@op("flash_attn_with_softmax", random=True)
def _attention_with_weights(query, key, value, dropout=0.0, causal=False, training=True):
    """[out, weights]: softmax(Q K^T / sqrt(d)) (upper triangle masked when causal), dropped out
    (upscale_in_train), times V; [batch, seq_len, num_heads, head_dim] in and out, weights [b, heads, sq, sk]."""
    q, k, v = (t.transpose(1, 2) for t in (query, key, value))
    scores = torch.matmul(q * (q.shape[-1] ** -0.5), k.transpose(-1, -2))
    if causal:
        sq, sk = scores.shape[-2:]
        scores = scores.masked_fill(torch.ones(sq, sk, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if dropout > 0.0 and training:
        weights = torch.nn.functional.dropout(weights, float(dropout))
    return [torch.matmul(weights, v).transpose(1, 2), weights]


def flash_attention(query, key, value, dropout=0.0, causal=False, return_softmax=False, *, fixed_seed_offset=None,
                    rng_name="", training=True, name=None):
    """(out, softmax or None) over [batch, seq_len, num_heads, head_dim]. NOTE: Paddle 2.6.2 runs its math
    fallback on CPU and has no CPU kernel for causal=True there; here causal works on every device."""
    if return_softmax:
        out, weights = _attention_with_weights(query, key, value, dropout, causal, training)
        return out, weights
    return scaled_dot_product_attention(query, key, value, None, dropout, causal, training), None


_SDP_FLAGS = {"math": True, "flash": True, "mem_efficient": True}


@contextlib.contextmanager
def sdp_kernel(enable_math=False, enable_flash=True, enable_mem_efficient=True):
    """Paddle's choice among its attention kernels (the same numbers); torch picks its own kernel here."""
    old = dict(_SDP_FLAGS)
    _SDP_FLAGS.update(math=enable_math, flash=enable_flash, mem_efficient=enable_mem_efficient)
    try:
        yield
    finally:
        _SDP_FLAGS.update(old)


export(flash_attention, "paddle.nn.functional.flash_attention.flash_attention")
export(sdp_kernel, "paddle.nn.functional.flash_attention.sdp_kernel")


@op("sparse_attention", exports=("paddle.nn.functional.sparse_attention",))
def sparse_attention(query, key, value, sparse_csr_offset, sparse_csr_columns, key_padding_mask=None,
                     attn_mask=None, name=None):
    """softmax(Q K^T / sqrt(d)) V over the (row, column) pairs the CSR layout lists, per batch and head;
    key_padding_mask [batch, seq_len] and attn_mask [seq_len, seq_len] mask the positions where they are 0.
    A row with no allowed position gives zeros."""
    api = "paddle.nn.functional.sparse_attention"
    if query.dim() != 4 or key.shape != query.shape or value.shape != query.shape:
        raise ValueError(f"{api}: query, key and value should be 4-D [batch_size, num_heads, seq_len, head_dim] of "
                         f"one shape, but received {list(query.shape)}, {list(key.shape)}, {list(value.shape)}")
    b, h, s, d = query.shape
    if list(sparse_csr_offset.shape) != [b, h, s + 1]:
        raise ValueError(f"{api}: sparse_csr_offset should have shape [{b}, {h}, {s + 1}], but received "
                         f"{list(sparse_csr_offset.shape)}")
    offs = sparse_csr_offset.long()
    counts = offs[..., 1:] - offs[..., :-1]  # [b, h, s]
    rows = torch.repeat_interleave(torch.arange(s, device=query.device).expand(b, h, s).reshape(-1),
                                   counts.reshape(-1))
    bh = torch.repeat_interleave(torch.arange(b * h, device=query.device), counts.reshape(b * h, s).sum(1))
    cols = torch.cat([sparse_csr_columns.reshape(b * h, -1)[i, :int(n)]
                      for i, n in enumerate(counts.reshape(b * h, s).sum(1).tolist())]).long()
    allowed = torch.zeros(b * h, s, s, dtype=torch.bool, device=query.device)
    allowed[bh, rows, cols] = True
    allowed = allowed.reshape(b, h, s, s)
    if key_padding_mask is not None:
        allowed = allowed & (key_padding_mask.reshape(b, 1, 1, s) != 0)
    if attn_mask is not None:
        allowed = allowed & (attn_mask.reshape(1, 1, s, s) != 0)
    scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(d)
    scores = scores.masked_fill(~allowed, float("-inf"))
    probs = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    return torch.matmul(probs, value)
