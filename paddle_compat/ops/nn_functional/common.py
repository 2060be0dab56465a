"""dropout and linear."""

from __future__ import annotations

import torch

from paddle_compat.ops.registry import export, op


@op("dropout", random=True, is_test_attr="is_test")
def dropout_op(x, dropout_prob=0.5, is_test=False, mode="downgrade_in_infer", axis=None, seed=None):
    """Paddle's two modes: `upscale_in_train` (x*mask/(1-p) in training, x at inference) and
    `downgrade_in_infer` (x*mask in training, x*(1-p) at inference)."""
    p = float(dropout_prob)
    if mode not in ("upscale_in_train", "downgrade_in_infer"):
        raise ValueError(f"dropout: mode should be 'upscale_in_train' or 'downgrade_in_infer', got {mode!r}")
    if is_test:
        return x if mode == "upscale_in_train" else x * (1.0 - p)
    if p == 0.0:
        return x.clone()
    if axis is None:
        mask_shape = x.shape
    else:
        axes = [axis] if isinstance(axis, int) else list(axis)
        mask_shape = [d if i in axes else 1 for i, d in enumerate(x.shape)]
    if p == 1.0:
        return x * 0.0
    mask = (torch.rand(mask_shape, device=x.device, dtype=x.dtype) >= p).to(x.dtype)
    return x * mask / (1.0 - p) if mode == "upscale_in_train" else x * mask


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """paddle.nn.functional.dropout"""
    if not 0 <= float(p) <= 1:
        raise ValueError(f"paddle.nn.functional.dropout: p argument should between 0 and 1, but got {p}")
    return dropout_op(x, dropout_prob=p, is_test=not training, mode=mode, axis=axis)


def fluid_dropout(x, dropout_prob, is_test=False, seed=None, name=None,
                  dropout_implementation="downgrade_in_infer"):
    """fluid.layers.dropout (1.8 default: downgrade_in_infer)."""
    return dropout_op(x, dropout_prob=dropout_prob, is_test=is_test, mode=dropout_implementation, seed=seed)


export(dropout, "paddle.nn.functional.dropout")
export(fluid_dropout, "paddle.fluid.layers.dropout")


@op("linear", exports=("paddle.nn.functional.linear",))
def linear(x, weight, bias=None, name=None):
    """y = x @ W + b with Paddle's [in, out] weight layout."""
    out = torch.matmul(x, weight)
    return out + bias if bias is not None else out
