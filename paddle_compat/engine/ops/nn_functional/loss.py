"""Loss ops: cross entropy in its fluid and 2.x forms, softmax_with_cross_entropy."""

from __future__ import annotations

from typing import Any

import torch

from paddle_compat.engine.core import eigen_reduce
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core.joint_trace import ACTIVE as _JOINT_TRACE
from paddle_compat.engine.framework.lookup import P
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.common import scalar_shape, values_readable
from paddle_compat.engine.ops.nn_functional.activation import SOFTMAX_CLIP
from paddle_compat.engine.framework.registry import export, op

APPRO_INF = 1e20  # Paddle's TolerableValue: -log(0) in cross_entropy is 1e20, not inf


def paddle_log_softmax(logits: torch.Tensor, axis: int) -> torch.Tensor:
    """log of Paddle's softmax probabilities (its kernels clip shifted logits at -64, so a loss is at most about
    64 above the best class's), with log_softmax's gradient: Paddle's grad kernel is softmax - label.
    The clipped value is the result, plus (logp - logp.detach()) for the gradient, which is exactly 0: not
    logp + (clipped - logp), which rounds the clip away once |logp| passes 2**30 (the float32 spacing there exceeds
    64), so that a sample wrong by 1e12 cost 0 instead of 64 (VGG19 of the 1.8 zoo after two Momentum steps,
    tests/zoo18 case sce_huge_logits)."""
    logp = torch.log_softmax(logits, dim=axis)
    if values_readable(logp) and logp.numel():
        # a row's floor is its largest log-probability (at most 0) + SOFTMAX_CLIP: with no value below SOFTMAX_CLIP
        # at all, nothing is clipped (one reduction; NaN fails the test and takes the exact check below)
        if (logp.detach() if logp.requires_grad else logp).min().item() >= SOFTMAX_CLIP:
            return logp
    floor = logp.detach().amax(axis, keepdim=True) + SOFTMAX_CLIP
    if values_readable(logp) and not bool((logp.detach().amin(axis, keepdim=True) < floor).any()):
        return logp  # nothing to clip: no row's smallest is below its floor
    return torch.maximum(logp.detach(), floor) + (logp - logp.detach())


def _tolerable(x: torch.Tensor) -> torch.Tensor:
    """Paddle's TolerableValue: +-inf become +-APPRO_INF (x itself when it holds no infinity, on CPU)."""
    if values_readable(x) and not bool(torch.isinf(x).any()):
        return x
    return torch.where(torch.isinf(x), torch.sign(x) * APPRO_INF, x)


def _drop_ignored(loss: torch.Tensor, idx: torch.Tensor, ignore_index: int) -> torch.Tensor:
    """loss with the rows whose label is ignore_index set to 0 (loss itself when no row is, on CPU)."""
    ignored = idx == ignore_index
    if values_readable(loss) and not bool(ignored.any()):
        return loss
    return torch.where(ignored, torch.zeros_like(loss), loss)


def _label_index(label: torch.Tensor, axis: int, ndim: int) -> torch.Tensor:
    """Hard labels: [N, 1] (or [N]) int64 -> index tensor with the class axis kept as size 1."""
    if label.dim() == ndim:
        return label.long()
    return label.long().unsqueeze(axis)


@op("cross_entropy2")
def cross_entropy_probs(input, label, soft_label=False, ignore_index=-100):  # noqa: A002
    """fluid.layers.cross_entropy: `input` holds probabilities; result [N, 1]."""
    if soft_label:
        return -(label * _tolerable(torch.log(input))).sum(dim=-1, keepdim=True)
    idx = _label_index(label, -1, input.dim())
    p = torch.gather(input, -1, idx.clamp(min=0))
    return _drop_ignored(-_tolerable(torch.log(p)), idx, ignore_index)


@op("softmax_with_cross_entropy",
    helper=lambda a: ("softmax_with_cross_entropy", 2, (1, 0) if a.get("return_softmax") else (1,)))  # softmax, loss
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100, numeric_stable_mode=True,
                               return_softmax=False, axis=-1):
    logp = paddle_log_softmax(logits, axis)
    if soft_label:
        loss = -(label * logp).sum(dim=axis, keepdim=True)
    else:
        idx = _label_index(label, axis, logits.dim())
        safe = idx.clamp(min=0)
        if ignore_index >= logits.shape[axis]:  # an ignored label past the classes (F.cross_entropy's ignore_index=7)
            safe = safe.masked_fill(idx == ignore_index, 0)
        loss = _drop_ignored(-torch.gather(logp, axis, safe), idx, ignore_index)
    if return_softmax:
        return loss, torch.exp(logp)
    return loss


export(softmax_with_cross_entropy, "paddle.fluid.layers.softmax_with_cross_entropy",
       "paddle.nn.functional.softmax_with_cross_entropy")


def _fluid_cross_entropy(input, label, soft_label=False, ignore_index=-100):  # noqa: A002
    return cross_entropy_probs(input, label, soft_label=soft_label, ignore_index=ignore_index)


export(_fluid_cross_entropy, "paddle.fluid.layers.cross_entropy")


_REDUCTIONS = ("sum", "mean", "none")


def check_reduction(api: str, reduction, allowed=_REDUCTIONS) -> None:
    if reduction not in allowed:
        opts = ", ".join(repr(r) for r in allowed)
        raise ValueError(f"{api}: The value of 'reduction' should be one of {opts}, but received {reduction}, "
                         "which is not allowed.")


def reduce_loss(loss: torch.Tensor, reduction: str) -> torch.Tensor:
    """Paddle 2.4 reductions (paddle.mean / paddle.sum of the loss): 'mean' / 'sum' give shape [1]."""
    if reduction in ("mean", "sum"):
        return scalar_shape(eigen_reduce.reduce_full(loss, reduction))
    return loss


def _nonzero_div(num: torch.Tensor, den: torch.Tensor) -> torch.Tensor:
    return num / (den + (den == 0).to(den.dtype))


def _reduced_loss(none_helper: Any):
    """OpDef.helper of a 2.x loss: Paddle ends 'mean' / 'sum' with paddle.mean / paddle.sum (`mean_0.tmp_0`), and
    'none' with the op that computes the per-sample loss (`none_helper`)."""

    def helper(a: dict) -> Any:
        return {"mean": "mean", "sum": "sum"}.get(a.get("reduction", "mean"), none_helper)

    return helper


def _ce_helper(a: dict) -> Any:
    if a.get("weight") is not None or not a.get("use_softmax", True):
        return None  # other op sequences in Paddle: the op's own name
    return _reduced_loss(("softmax_with_cross_entropy", 2, (1,)))(a)


def _reduce_as_paddle(out, reduction: str):
    """A 2.x loss's last step in a Program, as Paddle records it: paddle.mean / paddle.sum of the per-sample loss."""
    return P("mean")(out) if reduction == "mean" else P("sum")(out) if reduction == "sum" else out


def _ce_compose(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False,  # noqa: A002
                axis=-1, use_softmax=True):
    """F.cross_entropy in a Program as Paddle 2.4 / 2.6 record it without weight: (unsqueeze2 of a label without the
    class axis,) softmax_with_cross_entropy, then reduce_mean, or reduce_sum, or for 'mean' with an ignore_index >= 0
    the sum over the non-ignored count (not_equal, cast, reduce_sum, equal, ...), or for 'none' squeeze2. With a weight
    or use_softmax=False it is our one op (Paddle records gathers / no softmax there)."""
    check_reduction("paddle.nn.functional.cross_entropy", reduction)
    nd, ld = len(input.shape), len(label.shape)
    if weight is not None or not use_softmax or nd == 0 or nd - 1 not in (ld, ld - 1) or \
            (not soft_label and label.dtype.name.startswith(("float", "bfloat"))):
        return NotImplemented  # our op: its body raises the errors
    if nd - 1 == ld:
        label = P("unsqueeze")(label, axis=axis)
    out = softmax_with_cross_entropy(input, label, soft_label=soft_label, ignore_index=ignore_index,
                                     numeric_stable_mode=True, axis=axis)
    if reduction == "mean" and ignore_index >= 0:
        out_sum = P("sum")(out)
        mask = P("cast")(label != ignore_index, out_sum.dtype)
        count = P("sum")(mask)
        zero = P("full")([] if LEVEL.zero_d else [1], 0.0, count.dtype)  # paddle.equal's fill_constant of 0.0
        return out_sum / (count + P("equal")(count, zero))
    if reduction == "none" and nd - 1 == ld:
        return P("squeeze")(out, axis=axis)
    if reduction == "mean" and not soft_label:
        return _ce_mean(out, label, ignore_index)
    return _reduce_as_paddle(out, reduction)


@op("cross_entropy_mean", helper="mean", paddle_type="reduce_mean")
def _ce_mean(loss, label, ignore_index=-100):
    """The paddle.mean that ends F.cross_entropy (hard labels, ignore_index < 0) in a Program: the mean over the
    samples whose label is not ignore_index.
    NOTE: there Paddle 2.6.2's static program divides by every sample and its dygraph by the non-ignored ones (label
    [[1], [-100], [3]]: 1.547 vs 2.321); we give the dygraph value in both modes, as before this op recorded
    Paddle's reduce_mean (tests/ops rows_functional cross_entropy, static == dygraph)."""
    return _reduce_ce(loss, "mean", label.long() != ignore_index, None)  # the value and bits of the dygraph branch


@op("cross_entropy_2x", helper=_ce_helper, compose=_ce_compose)
def _cross_entropy_body(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                        soft_label=False, axis=-1, use_softmax=True):
    """Paddle 2.4 F.cross_entropy. Hard labels [N] / [N, 1] (or with the class axis anywhere via `axis`);
    ignored samples give 0; weight scales each sample by weight[label] (soft: label @ weight); 'mean'
    divides by the number of non-ignored samples, or by the sum of their weights."""
    api = "paddle.nn.functional.cross_entropy"
    check_reduction(api, reduction)
    nd, ld = input.dim(), label.dim()
    if nd == 0:
        raise ValueError(f"{api}: The dimention of input should be larger than zero!")
    squeeze_back = nd - 1 == ld
    if squeeze_back:
        label = label.unsqueeze(axis)
    elif nd != ld:
        raise ValueError(f"{api}: Expected input_dims - 1 = label_dims or input_dims == label_dims "
                         f"(got input_dims {nd}, label_dims {ld})")
    axis = axis % nd
    if use_softmax and not soft_label and nd >= 2 and not label.is_floating_point() and label.shape[axis] == 1:
        return _hard_label_ce(input, label, weight, ignore_index, reduction, axis, squeeze_back)
    logp = paddle_log_softmax(input, axis) if use_softmax else torch.log(input)
    if soft_label:
        if label.shape != input.shape:
            raise ValueError(f"{api}: with soft_label=True the label shape {list(label.shape)} should equal the "
                             f"input shape {list(input.shape)}")
        loss = -(label.to(logp.dtype) * logp).sum(dim=axis, keepdim=True)
        valid = None
    else:
        if label.is_floating_point():
            raise TypeError(f"{api}: label should be an integer tensor when soft_label=False, "
                            f"but received {label.dtype}")
        if label.shape[axis] != 1:
            raise ValueError(f"{api}: the label's class axis {axis} should have size 1 for hard labels, but "
                             f"label shape is {list(label.shape)}")
        idx = label.long()
        valid = idx != ignore_index
        safe = torch.where(valid, idx, torch.zeros_like(idx))
        loss = -torch.gather(logp, axis, safe)
        loss = torch.where(valid, loss, torch.zeros_like(loss))
    w = None
    if weight is not None:
        if soft_label:
            shape = [1] * nd
            shape[axis] = -1
            w = (label.to(weight.dtype) * weight.reshape(shape)).sum(dim=axis, keepdim=True)
        else:
            if input.shape[axis] != weight.shape[-1]:
                raise ValueError(f"{api}: input's class_dimension({input.shape[axis]}) must equal to weight's "
                                 f"class_dimension({weight.shape[-1]}) when weight is provided")
            w = weight[safe] * valid.to(weight.dtype)
        loss = loss * w
    if reduction == "none":
        return loss.squeeze(axis) if squeeze_back else loss
    return _reduce_ce(loss, reduction, valid, w)


def _reduce_ce(loss: torch.Tensor, reduction: str, valid, w) -> torch.Tensor:
    """F.cross_entropy's 'sum' / 'mean' as Paddle's dygraph branch computes them, with its full sums and means in
    Paddle's order (eigen_reduce): 'mean' is the mean of the losses when no label is ignored and no weight is
    given, else their sum over the count of kept samples (or over the sum of their weights), 0 when that is 0.
    valid: which samples are kept (None: all); w: each sample's weight, 0 where ignored (None: no weight)."""
    if reduction == "sum":
        return scalar_shape(eigen_reduce.reduce_full(loss, "sum"))
    # a joint-graph trace (engine/static/joint.py) or torch.compile (the compiler path) has no values to branch on
    traced = _JOINT_TRACE[0] or torch.compiler.is_compiling()
    if w is None and (valid is None or (not traced and bool(valid.all()))):  # no label ignored
        return scalar_shape(eigen_reduce.reduce_full(loss, "mean"))
    den = w if w is not None else valid.to(loss.dtype)
    ratio = _nonzero_div(eigen_reduce.reduce_full(loss, "sum"), eigen_reduce.reduce_full(den, "sum"))
    if w is None and traced:  # both forms, then the one Paddle's branch takes (the same bits; the other's
        # gradient is zero)
        ratio = torch.where(valid.all(), eigen_reduce.reduce_full(loss, "mean"), ratio)
    return scalar_shape(ratio)


def _hard_label_ce(input, label, weight, ignore_index, reduction, axis, squeeze_back):  # noqa: A002
    """The common case through torch's nll_loss: same per-sample values (0 where ignored, weight[label]
    scaling); 'mean' divides by the non-ignored count or weight sum, 0 when that is 0 (torch would give nan)."""
    api = "paddle.nn.functional.cross_entropy"
    if weight is not None and input.shape[axis] != weight.shape[-1]:
        raise ValueError(f"{api}: input's class_dimension({input.shape[axis]}) must equal to weight's "
                         f"class_dimension({weight.shape[-1]}) when weight is provided")
    lab = label.squeeze(axis).long()
    x = input if axis == 1 else input.movedim(axis, 1)
    if weight is not None:
        weight = weight.to(input.dtype)
    loss = torch.nn.functional.nll_loss(paddle_log_softmax(x, 1), lab, weight=weight, ignore_index=ignore_index,
                                        reduction="none")
    if reduction == "none":
        return loss if squeeze_back else loss.unsqueeze(axis)
    if reduction == "sum":
        return _reduce_ce(loss, reduction, None, None)
    valid = lab != ignore_index
    w = None if weight is None else weight[torch.where(valid, lab, torch.zeros_like(lab))] * valid.to(weight.dtype)
    return _reduce_ce(loss, reduction, valid, w)


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False,  # noqa: A002
                  axis=-1, use_softmax=True, name=None):
    return _cross_entropy_body(input, label, weight=weight, ignore_index=ignore_index, reduction=reduction,
                               soft_label=soft_label, axis=axis, use_softmax=use_softmax)


export(cross_entropy, "paddle.nn.functional.cross_entropy")


def _loss_api(name: str) -> str:
    return f"paddle.nn.functional.{name}"


@op("nll_loss", exports=(_loss_api("nll_loss"),))
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):  # noqa: A002
    """input [N, C, d...] of log-probabilities, label [N, d...]; 'mean' divides by the summed weights of the
    non-ignored samples."""
    api = _loss_api("nll_loss")
    check_reduction(api, reduction)
    if input.dim() < 2:
        raise ValueError(f"{api}: Expected 2 or more dimensions (got {input.dim()})")
    if input.dim() == 2 and label.dim() == 2 and label.shape[0] == input.shape[0]:
        # NOTE: Paddle 2.6.2's 2-D kernel reads the first N values of the label's buffer ([N, 1] is the usual
        # case; PaddleTest also feeds [N, K])
        label = label.reshape(-1)[: input.shape[0]]
    if label.dim() != input.dim() - 1 or label.shape[0] != input.shape[0]:
        raise ValueError(f"{api}: label should have shape [N, d1, ...] = {[input.shape[0]] + list(input.shape[2:])}"
                         f", but received {list(label.shape)}")
    valid = label != ignore_index
    lab = torch.where(valid, label.long(), torch.zeros_like(label.long()))
    w = (weight.to(input.dtype)[lab] if weight is not None else torch.ones(lab.shape, dtype=input.dtype,
                                                                           device=input.device))
    w = w * valid.to(input.dtype)
    # a gather, not torch's nll_loss: its 2-D-target kernel rejects the expanded gradients reductions hand back
    out = -input.gather(1, lab.unsqueeze(1)).squeeze(1) * w
    if reduction == "none":
        return out
    if reduction == "sum":
        return scalar_shape(out.sum())
    return scalar_shape(_nonzero_div(out.sum(), w.sum()))


@op("bce_loss", exports=(_loss_api("binary_cross_entropy"),))
def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):  # noqa: A002
    api = _loss_api("binary_cross_entropy")
    check_reduction(api, reduction)
    if input.shape != label.shape:
        raise ValueError(f"{api}: input shape {list(input.shape)} and label shape {list(label.shape)} should be "
                         "equal")
    out = -(label * torch.clamp(torch.log(input), min=-100.0) + (1 - label) * torch.clamp(torch.log(1 - input),
                                                                                             min=-100.0))
    if weight is not None:
        out = out * weight
    return reduce_loss(out, reduction)


def _bce_logits_compose(logit, label, weight=None, reduction="mean", pos_weight=None, name=None):
    """F.binary_cross_entropy_with_logits in a Program as Paddle records it: the constant 1 (fill_constant; after the
    op in 2.4, before it in 2.6), sigmoid_cross_entropy_with_logits, elementwise_mul by a weight, reduce_mean /
    reduce_sum. With a pos_weight it is our one op (Paddle's ops there compute the per-label weight first)."""
    check_reduction(_loss_api("binary_cross_entropy_with_logits"), reduction)
    if pos_weight is not None:
        return NotImplemented
    from paddle_compat.engine.framework.dispatch import record_op

    one_first = LEVEL.zero_d  # API level 2.6 (and not inside a paddle.fluid call)
    if one_first:
        P("full")([1], 1.0, logit.dtype)
    own = name if reduction == "none" and weight is None else None
    out = record_op(binary_cross_entropy_with_logits.__paddle_op__, (logit, label), {"reduction": "none", "name": own})
    if not one_first:
        P("full")([1], 1.0, logit.dtype)
    if weight is not None:
        out = P("multiply")(out, weight, name=name if reduction == "none" else None)
    return _reduce_as_paddle(out, reduction)


@op("sigmoid_cross_entropy_with_logits", exports=(_loss_api("binary_cross_entropy_with_logits"),),
    helper=_reduced_loss(None), compose=_bce_logits_compose)
def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean", pos_weight=None, name=None):
    api = _loss_api("binary_cross_entropy_with_logits")
    check_reduction(api, reduction)
    label = label.to(logit.dtype)
    if pos_weight is None:
        out = torch.clamp(logit, min=0) - logit * label + torch.log1p(torch.exp(-torch.abs(logit)))
    else:
        # NOTE: Paddle's kernel with w = 1 + (pos_weight - 1) * label computes
        #   (1 - label) * x + w * log1p(exp(-|x|)) + max(-x, 0)
        # (not w * softplus(-x): the two differ by relu(x) * (1 - w)), and its gradient is w * sigmoid(x) - label,
        # the derivative of -label * x + w * softplus(x), for every x. We give both: that smooth expression plus
        # the (detached) difference. tests/nn/cases26_numbers.py: bce_with_logits_pos_weight.
        w = 1 + (pos_weight - 1) * label
        out = w * torch.nn.functional.softplus(logit) - label * logit + (torch.relu(logit) * (1 - w)).detach()
    if weight is not None:
        out = out * weight
    return reduce_loss(out, reduction)


def _elementwise_loss(type_: str, name: str, fn, doc: str, none_helper: str):
    api = _loss_api(name)

    def body(input, label, reduction="mean", name=None):  # noqa: A002
        check_reduction(api, reduction)
        return reduce_loss(fn(input, label), reduction)

    def compose(input, label, reduction="mean", name=None):  # noqa: A002
        """In a Program as Paddle 2.4 / 2.6 record it: elementwise_sub, then square / abs, then reduce_mean /
        reduce_sum."""
        check_reduction(api, reduction)
        diff = P("subtract")(input, label)
        return _reduce_as_paddle(P(none_helper)(diff, name=name if reduction == "none" else None), reduction)

    body.__doc__ = doc
    return op(type_, exports=(api,), helper=_reduced_loss(none_helper), compose=compose)(body)


mse_loss = _elementwise_loss("mse_loss", "mse_loss", lambda x, y: torch.square(x - y), "mean of (input-label)^2",
                             "square")
l1_loss = _elementwise_loss("l1_loss", "l1_loss", lambda x, y: torch.abs(x - y), "mean of |input-label|",
                            "abs")


@op("huber_loss", exports=(_loss_api("smooth_l1_loss"),))
def smooth_l1_loss(input, label, reduction="mean", delta=1.0, name=None):  # noqa: A002
    """Paddle's smooth_l1_loss is the huber loss: 0.5 r^2 for |r| <= delta, else delta (|r| - delta / 2)."""
    check_reduction(_loss_api("smooth_l1_loss"), reduction)
    r = torch.abs(label - input)
    out = torch.where(r <= delta, 0.5 * r * r, delta * (r - 0.5 * delta))
    return reduce_loss(out, reduction)


@op("kldiv_loss", exports=(_loss_api("kl_div"),))
def kl_div(input, label, reduction="mean", name=None):  # noqa: A002
    """label * (log(label) - input) where label > 0, else 0; 'batchmean' divides the sum by the batch size."""
    check_reduction(_loss_api("kl_div"), reduction, ("mean", "sum", "none", "batchmean"))
    if input.dtype != label.dtype:
        input, label = input.double(), label.double()
    out = torch.where(label > 0, label * (torch.log(torch.where(label > 0, label, torch.ones_like(label))) - input),
                      torch.zeros_like(input))
    if reduction == "batchmean":
        return scalar_shape(out.sum() / (input.shape[0] if input.dim() > 0 else 1))
    return reduce_loss(out, reduction)


@op("margin_rank_loss", exports=(_loss_api("margin_ranking_loss"),))
def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):  # noqa: A002
    check_reduction(_loss_api("margin_ranking_loss"), reduction)
    return reduce_loss(torch.relu(-label * (input - other) + margin), reduction)


@op("log_loss", exports=(_loss_api("log_loss"),))
def log_loss(input, label, epsilon=1e-4, name=None):  # noqa: A002
    """Paddle's LogLossInferMeta (the same in 1.8.5, 2.4 and 2.6.2): input and label of equal shape [N, 1]."""
    api = _loss_api("log_loss")
    if list(input.shape) != list(label.shape):
        raise InvalidArgumentError(f"{api}: The dimensions of Input(Predicted) must be equal to the dimensions of "
                                   f"Input(Labels), but received dimensions of Input(Predicted) is "
                                   f"{list(input.shape)}, received dimensions of Input(Labels) is {list(label.shape)}.")
    if input.dim() != 2:
        raise InvalidArgumentError(f"{api}: The dimensions of Input(Predicted) must be 2, But received dimensions of "
                                   f"Input(Predicted) is [{input.dim()}]")
    if input.shape[1] != 1:
        raise InvalidArgumentError(f"{api}: Each row of Input(Predicted) contains a real value, so the 2nd "
                                   f"dimension of Input(X) must be 1, But got [{input.shape[1]}]")
    return -label * torch.log(input + epsilon) - (1 - label) * torch.log(1 - input + epsilon)


@op("sigmoid_focal_loss", exports=(_loss_api("sigmoid_focal_loss"),))
def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum", name=None):
    api = _loss_api("sigmoid_focal_loss")
    check_reduction(api, reduction)
    if normalizer is not None and normalizer.dim() > 1:
        raise ValueError(f"{api}: Expected zero or one dimension of normalizer in sigmoid_focal_loss but got "
                         f"{normalizer.dim()}.")
    label = label.to(logit.dtype)
    loss = torch.nn.functional.binary_cross_entropy_with_logits(logit, label, reduction="none")
    pred = torch.sigmoid(logit)
    p_t = pred * label + (1 - pred) * (1 - label)
    alpha_t = alpha * label + (1 - alpha) * (1 - label)
    loss = alpha_t * loss * torch.pow(1 - p_t, gamma)
    if normalizer is not None:
        loss = loss / normalizer
    return reduce_loss(loss, reduction)


@op("dice_loss", exports=(_loss_api("dice_loss"),))
def dice_loss(input, label, epsilon=0.00001, name=None):  # noqa: A002
    """1 - 2|X∩Y| / (|X|+|Y|) per sample, averaged; label [..., 1] holds class ids."""
    api = _loss_api("dice_loss")
    if input.dim() < 2 or input.dim() != label.dim() or label.shape[-1] != 1 or input.shape[:-1] != label.shape[:-1]:
        raise ValueError(f"{api}: input [N, ..., C] and label [N, ..., 1] should have the same rank and leading "
                         f"dims, but received input {list(input.shape)} and label {list(label.shape)}")
    if label.is_floating_point():
        raise TypeError(f"{api}: label should be int32 or int64, but received {label.dtype}")
    onehot = torch.nn.functional.one_hot(label.squeeze(-1).long(), input.shape[-1]).to(input.dtype)
    dims = list(range(1, input.dim()))
    inse = (input * onehot).sum(dim=dims)
    den = input.sum(dim=dims) + onehot.sum(dim=dims)
    return scalar_shape((1 - inse * 2 / (den + epsilon)).mean())


@op("npair_loss", exports=(_loss_api("npair_loss"),))
def npair_loss(anchor, positive, labels, l2_reg=0.002):
    if anchor.numel() == 0 or positive.numel() == 0:
        raise ValueError(f"{_loss_api('npair_loss')}: The dims of anchor and positive should be greater than 0.")
    n = labels.shape[0]
    lab = labels.reshape(n, 1)
    same = (lab == lab.reshape(1, n)).to(anchor.dtype)
    same = same / same.sum(dim=1, keepdim=True)
    l2 = (anchor.square().sum(1).mean() + positive.square().sum(1).mean()) * 0.25 * l2_reg
    sim = anchor @ positive.t()
    ce = -(same * torch.log_softmax(sim, dim=-1)).sum(dim=-1, keepdim=True)
    return scalar_shape(l2 + (same * ce).sum(0).mean())


@op("hierarchical_sigmoid", exports=(_loss_api("hsigmoid_loss"),))
def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None, path_code=None,  # noqa: A002
                  is_sparse=False, name=None):
    """Hierarchical sigmoid over the default complete binary tree (or a custom path_table / path_code).
    Like Paddle's kernel, each row sums softplus over all code_length columns (log 2 for columns outside
    the sample's path) minus sum(bit * pre)."""
    api = _loss_api("hsigmoid_loss")
    if num_classes < 2:
        raise ValueError(f"{api}: Expected num_classes >= 2 (got {num_classes})")
    n = input.shape[0]
    lab = label.reshape(-1).long()
    if path_table is None:
        code_len = int(num_classes - 1).bit_length()
        c = (lab + num_classes).unsqueeze(1)
        j = torch.arange(code_len, device=input.device).unsqueeze(0)
        idx = (c >> (j + 1)) - 1
        bits = ((c >> j) & 1).to(input.dtype)
        length = torch.floor(torch.log2(c.to(torch.float64))).long()
        valid = j < length
    else:
        idx = path_table.long()
        code_len = idx.shape[1]
        valid = torch.cumprod((idx >= 0).long(), dim=1).bool()
        bits = path_code.to(input.dtype)
    safe = torch.where(valid, idx, torch.zeros_like(idx))
    pre = torch.einsum("nd,nkd->nk", input, weight[safe])
    if bias is not None:
        pre = pre + bias.reshape(-1)[safe]
    pre = torch.where(valid, pre, torch.zeros_like(pre)).clamp(-40.0, 40.0)
    out = torch.log1p(torch.exp(pre)).sum(1, keepdim=True) - (bits * pre * valid).sum(1, keepdim=True)
    return out.reshape(n, 1)


@op("warpctc", exports=(_loss_api("ctc_loss"),))
def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean", norm_by_times=False):
    """log_probs [T, B, C] are unnormalized logits (Paddle's warpctc applies softmax); 'mean' averages
    loss / label_length. norm_by_times only scales the gradients (by 1 / input_length), as in Paddle."""
    api = _loss_api("ctc_loss")
    check_reduction(api, reduction)
    logp = torch.log_softmax(log_probs, dim=-1)
    out = torch.nn.functional.ctc_loss(logp, labels.long(), input_lengths.long(), label_lengths.long(),
                                       blank=blank, reduction="none", zero_infinity=False)
    if norm_by_times:  # same loss; the gradient of each sequence is divided by its number of time steps
        scale = 1.0 / input_lengths.to(out.dtype)
        out = out.detach() + (out - out.detach()) * scale
    if reduction == "mean":
        return scalar_shape((out / label_lengths.to(out.dtype)).mean())
    if reduction == "sum":
        return scalar_shape(out.sum())
    return out


def square_error_cost(input, label):  # noqa: A002
    """(input - label)^2, recorded as Paddle does: elementwise_sub then square."""
    from paddle_compat.engine.framework.dispatch import layer_helper
    from paddle_compat.engine.ops.tensor import math as m

    with layer_helper("square_error_cost"):
        return m.square(m.elementwise_sub(input, label))


export(square_error_cost, "paddle.nn.functional.square_error_cost", "paddle.fluid.layers.square_error_cost")
