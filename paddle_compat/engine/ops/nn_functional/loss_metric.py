"""Embedding / margin losses and likelihood losses of paddle.nn.functional (Paddle 2.4 reductions: 'mean' and
'sum' give shape [1]): cosine_embedding, hinge_embedding, soft_margin, multi_label_soft_margin, multi_margin,
triplet_margin (and with a distance function), poisson_nll, gaussian_nll."""

from __future__ import annotations

import math

import torch

from paddle_compat.engine.ops.nn_functional.distance import pairwise
from paddle_compat.engine.ops.nn_functional.loss import check_reduction, reduce_loss
from paddle_compat.engine.framework.registry import export, op

F = "paddle.nn.functional."


def _same_shape(api: str, a: torch.Tensor, b: torch.Tensor, what: str = "input's shape must equal to label's shape"):
    if a.shape != b.shape:
        raise ValueError(f"{api}: {what}, but received {list(a.shape)} and {list(b.shape)}")


@op("cosine_embedding_loss", exports=(F + "cosine_embedding_loss",))
def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """1 - cos(x1, x2) where label is 1, max(0, cos - margin) where it is -1."""
    api = F + "cosine_embedding_loss"
    check_reduction(api, reduction)
    if label.dim() != 1:
        raise ValueError(f"{api}: 1D target tensor expected, multi-target not supported (label shape "
                         f"{list(label.shape)})")
    _same_shape(api, input1, input2, "the shape of input tensor 1 should be equal to input tensor 2")
    if input1.dim() > 2:
        raise ValueError(f"{api}: 1D target tensor expects 1D or 2D input tensors, but got {input1.dim()}-D")
    prod = (input1 * input2).sum(-1)
    mag = (input1.square().sum(-1) + 1e-11) * (input2.square().sum(-1) + 1e-11)
    cos = prod / torch.sqrt(mag)
    zero = torch.zeros_like(cos)
    out = torch.where(label == 1, 1 - cos, zero) + torch.where(label == -1, torch.clamp(cos - margin, min=0), zero)
    return reduce_loss(out, reduction)


@op("hinge_embedding_loss", exports=(F + "hinge_embedding_loss",))
def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):  # noqa: A002
    """input where label is 1, max(0, margin - input) where it is -1 (0 for other labels)."""
    check_reduction(F + "hinge_embedding_loss", reduction)
    zero = torch.zeros([1], dtype=input.dtype, device=input.device)
    out = torch.where(label == 1.0, input, zero) + torch.where(label == -1.0, torch.relu(margin - input), zero)
    return reduce_loss(out, reduction)


@op("soft_margin_loss", exports=(F + "soft_margin_loss",))
def soft_margin_loss(input, label, reduction="mean", name=None):  # noqa: A002
    """log(1 + exp(-label * input)) (computed as Paddle does, without the softplus rewrite)."""
    api = F + "soft_margin_loss"
    check_reduction(api, reduction)
    _same_shape(api, input, label)
    return reduce_loss(torch.log(1 + torch.exp(-label.to(input.dtype) * input)), reduction)


@op("multi_label_soft_margin_loss", exports=(F + "multi_label_soft_margin_loss",))
def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):  # noqa: A002
    """Mean over classes of the (weighted) sigmoid cross entropy; 'none' gives one value per sample."""
    api = F + "multi_label_soft_margin_loss"
    check_reduction(api, reduction)
    _same_shape(api, input, label, "The input and label should have same dimension")
    loss = -(label * torch.nn.functional.logsigmoid(input) + (1 - label) * torch.nn.functional.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss.mean(-1), reduction)


@op("multi_margin_loss", exports=(F + "multi_margin_loss",))
def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):  # noqa: A002
    """Paddle's formula: mean_j max(0, w_y (margin - x_y + x_j))^p over all classes j (the j = y term
    included), minus w_y margin^p / C; the weight multiplies inside the power."""
    api = F + "multi_margin_loss"
    check_reduction(api, reduction)
    if input.shape[0] != label.shape[0]:
        raise ValueError(f"{api}: The label's shape[0] should be equal to input's shape[0], but received input's "
                         f"shape[0] {input.shape[0]} and label's shape[0]:{label.shape[0]}. ")
    label = label.reshape(-1, 1).long()
    picked = torch.gather(input, 1, label)
    c = input.shape[1]
    if weight is None:
        loss = torch.clamp(margin - picked + input, min=0).pow(p).mean(1) - margin ** p / c
    else:
        if weight.shape[0] != c:
            raise ValueError(f"{api}: The weight's shape[0] should be equal to input's shape[1]but received weight's "
                             f"shape[0]: {weight.shape[0]} and input's shape[1]: {c}")
        w = weight[label.reshape(-1)].reshape(-1, 1)
        loss = torch.clamp(w * (margin - picked + input), min=0).pow(p).mean(1) - w * (margin ** p / c)
    return reduce_loss(loss, reduction)


def _check_triplet(api: str, reduction, margin, input, positive, negative) -> None:  # noqa: A002
    check_reduction(api, reduction)
    if margin < 0:
        raise ValueError(f"{api}: The margin between positive samples and negative samples should be greater than "
                         f"0, but received {margin}.")
    if not input.shape == positive.shape == negative.shape:
        raise ValueError(f"{api}: input's shape must equal to positive's shape and negative's shape, but received "
                         f"{list(input.shape)}, {list(positive.shape)} and {list(negative.shape)}")


def _triplet(pos_dist, neg_dist, swap_dist, margin, reduction):
    if swap_dist is not None:
        neg_dist = torch.minimum(neg_dist, swap_dist)
    return reduce_loss(torch.clamp(pos_dist - neg_dist + margin, min=0.0), reduction)


@op("triplet_margin_loss", exports=(F + "triplet_margin_loss",))
def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6, swap=False,  # noqa: A002
                        reduction="mean", name=None):
    """max(0, d(a, p) - d(a, n) + margin), d the pairwise p-distance (with swap: d(a, n) -> min(d(a, n),
    d(p, n)))."""
    _check_triplet(F + "triplet_margin_loss", reduction, margin, input, positive, negative)
    swap_dist = pairwise(positive, negative, p, epsilon) if swap else None
    return _triplet(pairwise(input, positive, p, epsilon), pairwise(input, negative, p, epsilon), swap_dist, margin,
                    reduction)


@op("triplet_margin_from_distances")
def triplet_margin_from_distances(positive_dist, negative_dist, swap_dist=None, margin=1.0, reduction="mean"):
    return _triplet(positive_dist, negative_dist, swap_dist, margin, reduction)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None, margin=1.0,  # noqa: A002
                                      swap=False, reduction="mean", name=None):
    """triplet_margin_loss with any distance function of two Tensors (default: pairwise 2-norm distance)."""
    api = F + "triplet_margin_with_distance_loss"
    _check_triplet(api, reduction, margin, input, positive, negative)
    if distance_function is None:
        from paddle_compat.engine.framework.registry import EXPORTS

        dist = EXPORTS["paddle.nn.functional"]["pairwise_distance"]
        distance_function = lambda a, b: dist(a, b, 2.0)  # noqa: E731 - PairwiseDistance(2)
    pos, neg = distance_function(input, positive), distance_function(input, negative)
    swap_dist = distance_function(positive, negative) if swap else None
    from paddle_compat.engine.core.mode import MODE

    if not MODE.static:
        if not bool((pos._t > 0).all()) or not bool((neg._t > 0).all()):
            raise ValueError(f"{api}: The positive distance or negative distance should be greater than 0, The "
                             "distance functions should be checked.")
    return triplet_margin_from_distances(pos, neg, swap_dist, margin, reduction)


export(triplet_margin_with_distance_loss, F + "triplet_margin_with_distance_loss")


@op("poisson_nll_loss", exports=(F + "poisson_nll_loss",))
def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8, reduction="mean",  # noqa: A002
                     name=None):
    """exp(input) - label * input (log_input), else input - label * log(input + epsilon); full adds the
    Stirling term where label > 1."""
    api = F + "poisson_nll_loss"
    if epsilon <= 0:
        raise ValueError(f"{api}: The value of `epsilon` in poisson_nll_loss should be positve, but received "
                         f"{epsilon}, which is not allowed")
    check_reduction(api, reduction)
    _same_shape(api, input, label)
    label = label.to(input.dtype)
    loss = torch.exp(input) - label * input if log_input else input - label * torch.log(input + epsilon)
    if full:
        stirling = label * torch.log(label) - label + 0.5 * torch.log(2 * math.pi * label)
        loss = loss + torch.where(label > 1, stirling, torch.zeros_like(stirling))
    return reduce_loss(loss, reduction)


@op("gaussian_nll_loss", exports=(F + "gaussian_nll_loss",))
def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6, reduction="mean", name=None):  # noqa: A002
    """0.5 (log(var) + (input - label)^2 / var) (+ 0.5 log(2 pi) with full). As in Paddle, the variance is
    clipped to epsilon under no_grad, so no gradient flows back to it."""
    api = F + "gaussian_nll_loss"
    if variance.shape != input.shape:
        if input.shape[:-1] == variance.shape:
            variance = variance.unsqueeze(-1)
        elif not (input.shape[:-1] == variance.shape[:-1] and variance.shape[-1] == 1):
            raise ValueError(f"{api}: variance is of incorrect shape {list(variance.shape)} for input "
                             f"{list(input.shape)}")
    check_reduction(api, reduction)
    var = torch.clamp(variance.detach(), min=epsilon)
    loss = 0.5 * (torch.log(var) + torch.square(input - label) / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce_loss(loss, reduction)
