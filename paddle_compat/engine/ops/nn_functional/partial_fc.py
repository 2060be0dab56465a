"""Large-scale classification (PartialFC / ArcFace) functions: margin_cross_entropy and class_center_sample.

On one process (group None with a world size of 1, or group=False) they compute the whole softmax; the
model-parallel form Paddle runs across ranks (each rank holding a slice of the classes) needs a collective
softmax and is not supported. Paddle has no CPU kernel for margin_cross_entropy: here it runs on any device.
"""

from __future__ import annotations

import torch

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.ops.nn_functional.loss import check_reduction
from paddle_compat.engine.framework.registry import EXPORTS, export, op


def _single_process(api: str, group) -> None:
    if group is False:
        return
    if group is not None and not hasattr(group, "is_member"):
        raise ValueError(f"{api}: Expected group is False, None or instance of paddle.distributed.collective.Group "
                         f"(got group: {group})")
    world = getattr(group, "nranks", None)
    if world is None:
        import torch.distributed as dist

        world = dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1
    if world > 1:
        raise UnsupportedAPIError(api, "the model-parallel form (classes split across ranks) is not supported; "
                                       "pass group=False to compute on this rank's classes only")


@op("margin_cross_entropy")
def margin_cross_entropy_op(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0):
    """Returns (softmax, loss [N, 1]). The target logit cos(theta) becomes cos(m1 * theta + m2) - m3, then
    all logits are multiplied by scale."""
    lab = label.reshape(-1).long()
    target = torch.gather(logits, 1, lab[:, None])
    theta = torch.acos(target.clamp(-1.0, 1.0))
    margined = torch.cos(margin1 * theta + margin2) - margin3
    logits = logits.scatter(1, lab[:, None], margined) * scale
    logp = torch.log_softmax(logits, dim=1)
    return torch.exp(logp), -torch.gather(logp, 1, lab[:, None])


def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0, group=None,
                         return_softmax=False, reduction="mean"):
    api = "paddle.nn.functional.margin_cross_entropy"
    if reduction is not None:
        check_reduction(api, reduction)
    _single_process(api, group)
    nd, ld = len(logits.shape), len(label.shape)
    if nd - 1 != ld and nd != ld:
        raise ValueError(f"{api}: Expected input_dims - 1 = label_dims or input_dims == label_dims (got "
                         f"input_dims{nd}, label_dims{ld})")
    softmax, loss = margin_cross_entropy_op(logits, label, margin1, margin2, margin3, scale)
    if reduction == "mean":
        loss = EXPORTS["paddle"]["mean"](loss)
    elif reduction == "sum":
        loss = EXPORTS["paddle"]["sum"](loss)
    return (loss, softmax) if return_softmax else loss


def _ccs_infer(label, num_classes, num_samples):
    from paddle_compat.engine.framework.infer import Spec

    return [Spec(tuple(label.shape), label.dtype), Spec((-1,), label.dtype)]


@op("class_center_sample", random=True, differentiable=False, infer=_ccs_infer)
def class_center_sample_op(label, num_classes, num_samples):
    """(remapped label, sampled class centers): every positive class (sorted), then negatives drawn uniformly
    without replacement up to num_samples; the remapped label indexes the sampled centers."""
    from paddle_compat.engine.ops.tensor.creation import _gen

    pos, remapped = torch.unique(label.long(), sorted=True, return_inverse=True)
    need = num_samples - pos.numel()
    if need > 0:
        is_pos = torch.zeros(num_classes, dtype=torch.bool, device=label.device)
        is_pos[pos] = True
        neg = torch.nonzero(~is_pos).reshape(-1)
        perm = torch.randperm(neg.numel(), generator=_gen(), device="cpu").to(label.device)
        pos = torch.cat([pos, neg[perm[:need]]])
    return remapped.to(label.dtype), pos.to(label.dtype)


def class_center_sample(label, num_classes, num_samples, group=None):
    api = "paddle.nn.functional.class_center_sample"
    _single_process(api, group)
    if num_samples > num_classes:
        raise ValueError(f"{api}: Expected num_samples less than or equal to {num_classes}, got num_samples "
                         f"{num_samples}")
    if len(label.shape) != 1:
        raise ValueError(f"{api}: Expected label_dims == 1 (got label_dims: {len(label.shape)})")
    return class_center_sample_op(label, num_classes, num_samples)


export(margin_cross_entropy, "paddle.nn.functional.margin_cross_entropy")
export(class_center_sample, "paddle.nn.functional.class_center_sample")
