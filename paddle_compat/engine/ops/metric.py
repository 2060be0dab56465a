"""Metric ops: accuracy (top-k)."""

from __future__ import annotations

import torch

from paddle_compat.engine.ops.common import scalar_shape
from paddle_compat.engine.framework.registry import op


@op("accuracy", exports=("paddle.metric.accuracy",), differentiable=False)
def accuracy(input, label, k=1, correct=None, total=None, name=None):  # noqa: A002
    """Fraction of rows whose label is among the top-k scores; shape [1], float32."""
    topk = torch.topk(input, int(k), dim=-1).indices
    lab = label.reshape(-1, 1).to(topk.dtype)
    hit = (topk == lab).any(dim=-1)
    return scalar_shape(hit.sum().to(torch.float32) / max(input.shape[0], 1))
