"""paddle.nn.functional.pairwise_distance (python/paddle/nn/functional/distance.py)."""

from __future__ import annotations

import torch

from paddle_compat.engine.framework.registry import OPS, op


def pairwise(x: torch.Tensor, y: torch.Tensor, p=2.0, epsilon=1e-6, keepdim=False) -> torch.Tensor:
    """||x - y + epsilon||_p over the last axis (Paddle adds epsilon to the difference, then takes p_norm)."""
    sub = x - y
    if epsilon != 0.0:
        sub = sub + epsilon
    return OPS["p_norm"].impl(sub, p=float(p), axis=-1, keepdim=keepdim)


@op("pairwise_distance", exports=("paddle.nn.functional.pairwise_distance",))
def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    if x.dim() < 1 or x.shape[-1] != y.shape[-1]:
        raise ValueError(f"paddle.nn.functional.pairwise_distance: x {list(x.shape)} and y {list(y.shape)} should "
                         "have the same last dimension")
    return pairwise(x, y, p, epsilon, keepdim)
