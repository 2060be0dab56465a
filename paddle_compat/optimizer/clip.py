"""Gradient clipping classes (paddle.nn.ClipGrad*, fluid.clip.GradientClip*)."""

from __future__ import annotations


from paddle_compat.optimizer import update_ops
from paddle_compat.ops.registry import export


class ClipGradBase:
    def __call__(self, params_grads: list) -> list:
        clip = [(p, g) for p, g in params_grads if getattr(p, "need_clip", True)]
        keep = {id(p) for p, _ in clip}
        clipped = dict(zip((id(p) for p, _ in clip), self._clip([g for _, g in clip]))) if clip else {}
        return [(p, clipped[id(p)] if id(p) in keep else g) for p, g in params_grads]

    def _clip(self, grads: list) -> list:
        raise NotImplementedError


class ClipGradByGlobalNorm(ClipGradBase):
    def __init__(self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False) -> None:
        self.clip_norm = float(clip_norm)
        self.group_name = group_name

    def _clip(self, grads: list) -> list:
        return list(update_ops.clip_by_global_norm(grads, self.clip_norm))


class ClipGradByNorm(ClipGradBase):
    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(clip_norm)

    def _clip(self, grads: list) -> list:
        return [update_ops.clip_by_norm(g, self.clip_norm) for g in grads]


class ClipGradByValue(ClipGradBase):
    def __init__(self, max: float, min: float | None = None) -> None:  # noqa: A002
        self.max = float(max)
        self.min = -self.max if min is None else float(min)

    def _clip(self, grads: list) -> list:
        return [update_ops.clip_by_value(g, self.min, self.max) for g in grads]



export(ClipGradByGlobalNorm, "paddle.nn.ClipGradByGlobalNorm")
export(ClipGradByNorm, "paddle.nn.ClipGradByNorm")
export(ClipGradByValue, "paddle.nn.ClipGradByValue")
export(ClipGradByGlobalNorm, "paddle.fluid.clip.GradientClipByGlobalNorm")
export(ClipGradByNorm, "paddle.fluid.clip.GradientClipByNorm")
export(ClipGradByValue, "paddle.fluid.clip.GradientClipByValue")
