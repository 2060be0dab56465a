"""paddle.nn.functional.rnnt_loss: the RNN-transducer loss of Paddle's warprnnt op.

As in Paddle's kernel, `input` [B, T, U+1, V] holds log-probabilities used as they are (no log_softmax is
applied), the loss is -log of the summed path probabilities, and FastEmit (fastemit_lambda) changes only the
gradient: the gradient of every label emission is scaled by (1 + lambda), the loss value is unchanged.
The forward variables are computed one anti-diagonal (t + u constant) at a time, so a call costs T + U
vectorised steps. Golden: tests/goldens/ops26_functional2x (rows in tests/ops/rows_functional2x.py).
"""

from __future__ import annotations

import torch

from paddle_compat.engine.ops.common import scalar_dims, scalar_shape
from paddle_compat.engine.ops.nn_functional.loss import check_reduction
from paddle_compat.engine.framework.registry import op

_NEG = -1e30  # stands for log(0): finite, so no NaN gradients flow through masked cells


def _infer(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001, reduction="mean",  # noqa: A002
           name=None):
    from paddle_compat.engine.framework.infer import Spec

    return Spec((input.shape[0],) if reduction == "none" else scalar_dims(), input.dtype)


@op("warprnnt", exports=("paddle.nn.functional.rnnt_loss",), infer=_infer)
def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001, reduction="mean",  # noqa: A002
              name=None):
    api = "paddle.nn.functional.rnnt_loss"
    check_reduction(api, reduction)
    if input.dim() != 4:
        raise ValueError(f"{api}: input should be 4-D [batch, max_logit_length, max_label_length + 1, "
                         f"num_classes], but received shape {list(input.shape)}")
    b, t_max, u1, v = input.shape
    if label.dim() != 2 or label.shape[0] != b or label.shape[1] != u1 - 1:
        raise ValueError(f"{api}: label should be [batch, max_label_length] = [{b}, {u1 - 1}], but received "
                         f"{list(label.shape)}")
    if not 0 <= blank < v:
        raise ValueError(f"{api}: blank ({blank}) should be in [0, num_classes = {v})")
    t_len, u_len = input_lengths.long().reshape(b), label_lengths.long().reshape(b)
    if bool((t_len > t_max).any() or (t_len < 1).any() or (u_len > u1 - 1).any() or (u_len < 0).any()):
        raise ValueError(f"{api}: input_lengths should be in [1, {t_max}] and label_lengths in [0, {u1 - 1}], but "
                         f"received {t_len.tolist()} and {u_len.tolist()}")
    lp_blank = input[..., blank]  # [B, T, U+1]
    lab = label.long().clamp(0, v - 1)
    lp_label = torch.gather(input[:, :, : u1 - 1, :], 3, lab[:, None, :, None].expand(b, t_max, u1 - 1, 1))[..., 0]
    if fastemit_lambda:
        # value unchanged, gradient scaled by (1 + lambda): warprnnt's FastEmit regularisation
        lp_label = lp_label * (1 + fastemit_lambda) - lp_label.detach() * fastemit_lambda
    ts = torch.arange(t_max, device=input.device)
    neg = input.new_full([b, t_max], _NEG)
    prev = neg
    alphas = []
    for d in range(t_max + u1 - 1):
        u = d - ts  # the u of each t on this diagonal
        if d == 0:
            cur = torch.where(ts == 0, input.new_zeros([]), neg)
        else:
            ok_top = (ts >= 1) & (u >= 0) & (u < u1)
            u_prev = u - 1  # the u of each t on the previous diagonal
            top_lp = torch.gather(lp_blank, 2, u_prev.clamp(0, u1 - 1).view(1, t_max, 1).expand(b, t_max, 1))[..., 0]
            from_top = torch.cat([neg[:, :1], prev[:, :-1] + top_lp[:, :-1]], 1)
            ok_left = (u >= 1) & (u < u1)
            left_lp = torch.gather(lp_label, 2, u_prev.clamp(0, u1 - 2).view(1, t_max, 1).expand(b, t_max, 1))[..., 0] \
                if u1 > 1 else neg
            from_left = prev + left_lp
            top = torch.where(ok_top, from_top, neg)
            left = torch.where(ok_left, from_left, neg)
            cur = torch.where(ok_top | ok_left, torch.logaddexp(top, left), neg)
        alphas.append(cur)
        prev = cur
    stacked = torch.stack(alphas, 0)  # [D, B, T]
    last_t = t_len - 1
    final = stacked[last_t + u_len, torch.arange(b), last_t]
    final = final + lp_blank[torch.arange(b), last_t, u_len]
    loss = -final
    if reduction == "mean":
        return scalar_shape(loss.sum() / b)
    if reduction == "sum":
        return scalar_shape(loss.sum())
    return loss
