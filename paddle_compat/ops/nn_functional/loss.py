"""Loss ops: cross entropy in its fluid and 2.x forms, softmax_with_cross_entropy."""

from __future__ import annotations

import torch

from paddle_compat.ops.registry import export, op


def _label_index(label: torch.Tensor, axis: int, ndim: int) -> torch.Tensor:
    """Hard labels: [N, 1] (or [N]) int64 -> index tensor with the class axis kept as size 1."""
    if label.dim() == ndim:
        return label.long()
    return label.long().unsqueeze(axis)


@op("cross_entropy2")
def cross_entropy_probs(input, label, soft_label=False, ignore_index=-100):  # noqa: A002
    """fluid.layers.cross_entropy: `input` holds probabilities; result [N, 1]."""
    if soft_label:
        return -(label * torch.log(input)).sum(dim=-1, keepdim=True)
    idx = _label_index(label, -1, input.dim())
    p = torch.gather(input, -1, idx.clamp(min=0))
    out = -torch.log(p)
    return torch.where(idx == ignore_index, torch.zeros_like(out), out)


@op("softmax_with_cross_entropy")
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                               return_softmax=False, axis=-1):
    logp = torch.log_softmax(logits, dim=axis)
    if soft_label:
        loss = -(label * logp).sum(dim=axis, keepdim=True)
    else:
        idx = _label_index(label, axis, logits.dim())
        loss = -torch.gather(logp, axis, idx.clamp(min=0))
        loss = torch.where(idx == ignore_index, torch.zeros_like(loss), loss)
    if return_softmax:
        return loss, torch.exp(logp)
    return loss


export(softmax_with_cross_entropy, "paddle.fluid.layers.softmax_with_cross_entropy",
       "paddle.nn.functional.softmax_with_cross_entropy")


def _fluid_cross_entropy(input, label, soft_label=False, ignore_index=-100):  # noqa: A002
    return cross_entropy_probs(input, label, soft_label=soft_label, ignore_index=ignore_index)


export(_fluid_cross_entropy, "paddle.fluid.layers.cross_entropy")


@op("cross_entropy_2x")
def _cross_entropy_body(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                        soft_label=False, axis=-1, use_softmax=True):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(
            f"paddle.nn.functional.cross_entropy: reduction should be 'sum', 'mean' or 'none', but got {reduction!r}"
        )
    logp = torch.log_softmax(input, dim=axis) if use_softmax else torch.log(input)
    if soft_label:
        loss = -(label * logp).sum(dim=axis, keepdim=True)
        if weight is not None:
            loss = loss * (label * weight).sum(dim=axis, keepdim=True)
        if reduction == "none":
            return loss
        return loss.sum().reshape(1) if reduction == "sum" else loss.mean().reshape(1)
    idx = _label_index(label, axis, input.dim())
    valid = idx != ignore_index
    loss = -torch.gather(logp, axis, idx.clamp(min=0))
    w = None
    if weight is not None:
        w = weight[idx.clamp(min=0)] * valid
        loss = loss * w
    loss = torch.where(valid, loss, torch.zeros_like(loss))
    if label.dim() != input.dim():
        pass  # keep the class axis as size 1, as Paddle does for [N, 1] labels
    if reduction == "none":
        return loss if label.dim() == input.dim() else loss.squeeze(axis)
    if reduction == "sum":
        return loss.sum().reshape(1)
    denom = w.sum() if w is not None else valid.sum()
    return (loss.sum() / denom.to(loss.dtype)).reshape(1)


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False,  # noqa: A002
                  axis=-1, use_softmax=True, name=None):
    return _cross_entropy_body(input, label, weight=weight, ignore_index=ignore_index, reduction=reduction,
                               soft_label=soft_label, axis=axis, use_softmax=use_softmax)


export(cross_entropy, "paddle.nn.functional.cross_entropy")


def square_error_cost(input, label):  # noqa: A002
    """(input - label)^2, recorded as Paddle does: elementwise_sub then square."""
    from paddle_compat.framework.dispatch import layer_helper
    from paddle_compat.ops.tensor import math as m

    with layer_helper("square_error_cost"):
        return m.square(m.elementwise_sub(input, label))


export(square_error_cost, "paddle.nn.functional.square_error_cost", "paddle.fluid.layers.square_error_cost")
