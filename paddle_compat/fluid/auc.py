"""fluid.layers.auc (Paddle 1.8): the global AUC and the AUC of a sliding window of the last `slide_steps`
batches, accumulated in persistable int64 histograms of the positive-class probability that every run updates.

Layout of the window histograms (Paddle's): `slide_steps` buckets of `num_thresholds + 1` bins, one per batch in
turn, then their sum, then the batch counter; the global ones are [1, num_thresholds + 1]."""

from __future__ import annotations

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.argcheck import require_tensor
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import export, op


def _area(pos: torch.Tensor, neg: torch.Tensor) -> torch.Tensor:
    """Paddle's calcAuc: trapezoids from the highest threshold down, normalised by the totals."""
    p = torch.flip(pos.double(), [0]).cumsum(0)
    n = torch.flip(neg.double(), [0]).cumsum(0)
    p_prev = torch.cat([p.new_zeros(1), p[:-1]])
    n_prev = torch.cat([n.new_zeros(1), n[:-1]])
    auc = ((n - n_prev).abs() * (p + p_prev) / 2.0).sum()
    tp, tn = p[-1], n[-1]
    return torch.where((tp > 0) & (tn > 0), auc / tp.clamp(min=1) / tn.clamp(min=1), auc).reshape(1)


@op("auc", differentiable=False,
    infer=lambda predict, label, stat_pos, stat_neg, num_thresholds, slide_steps: Spec((1,), _dt.to_dtype("float64")))
def _auc(predict, label, stat_pos, stat_neg, num_thresholds, slide_steps):
    """Adds the batch to the histograms in place (StatPosOut = StatPos) and returns its AUC [1] float64."""
    n = num_thresholds + 1
    bins = (predict[:, -1].detach() * num_thresholds).to(torch.int64).clamp(0, num_thresholds)
    is_pos = label.reshape(-1) != 0
    batch_pos = torch.bincount(bins[is_pos], minlength=n)[:n]
    batch_neg = torch.bincount(bins[~is_pos], minlength=n)[:n]
    pos, neg = stat_pos.view(-1), stat_neg.view(-1)
    with torch.no_grad():
        if slide_steps == 0:  # the first n bins (a window histogram keeps its unused counter after them)
            pos[:n] += batch_pos
            neg[:n] += batch_neg
            return _area(pos[:n], neg[:n])
        cur = int(pos[(slide_steps + 1) * n]) % slide_steps * n
        total = slide_steps * n
        for s, b in ((pos, batch_pos), (neg, batch_neg)):
            s[total:total + n] += b - s[cur:cur + n]
            s[cur:cur + n] = b
            s[(slide_steps + 1) * n] += 1
        return _area(pos[total:total + n], neg[total:total + n])


def auc(input, label, curve="ROC", num_thresholds=2 ** 12 - 1, topk=1, slide_steps=1, ins_tag_weight=None):  # noqa: A002
    """-> (auc_out, batch_auc_out, [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg]); also paddle.static.auc
    (ins_tag_weight, a 2.x addition, is not supported)."""
    from paddle_compat.engine.static.param import create_global_var

    require_tensor(input, "paddle.fluid.layers.auc", "input", 0)
    if curve != "ROC":
        raise InvalidArgumentError(f"fluid.layers.auc: curve {curve!r} is not supported; Paddle 1.8's kernel "
                                   "computes 'ROC'")
    if ins_tag_weight is not None:
        raise InvalidArgumentError("paddle.static.auc: ins_tag_weight is not supported")
    if slide_steps < 0:
        raise InvalidArgumentError(f"fluid.layers.auc: slide_steps must be >= 0, got {slide_steps}")
    nt = int(num_thresholds)
    with layer_helper("auc") as prefix:
        window = [(1 + slide_steps) * (nt + 1) + 1]
        stats = [create_global_var(shape, 0, "int64", persistable=True, name=f"{prefix}.{kind}")
                 for shape, kind in ((window, "batch_stat_pos"), (window, "batch_stat_neg"),
                                     ([1, nt + 1], "stat_pos"), ([1, nt + 1], "stat_neg"))]
        batch_auc = _auc(input, label, stats[0], stats[1], nt, int(slide_steps))
        global_auc = _auc(input, label, stats[2], stats[3], nt, 0)
    return global_auc, batch_auc, stats


export(auc, "paddle.fluid.layers.auc", "paddle.static.auc")
