"""Gradient clipping classes (paddle.nn.ClipGrad*, fluid.clip.GradientClip*), fluid's error clipping
(ErrorClipByValue + error_clip_callback) and set_gradient_clip."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import torch

from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.program import Parameter, Variable, default_main_program
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.ops import update_ops


class ClipGradBase:
    _need_clip_func = None  # fluid 1.8's need_clip(param) -> bool filter

    def __call__(self, params_grads: list) -> list:
        need = self._need_clip_func
        clip = [(p, g) for p, g in params_grads if getattr(p, "need_clip", True) and (need is None or need(p))]
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
        if min is None:  # Paddle: `assert max > 0.0` (a str max raises TypeError there), then min = -max
            if not max > 0.0:
                raise AssertionError(f"paddle.nn.ClipGradByValue: max should be greater than 0 when min is not "
                                     f"given (min = -max), but received max = {max}")
            min = -max  # noqa: A001
        self.max = float(max)
        self.min = float(min)

    def _clip(self, grads: list) -> list:
        return [update_ops.clip_by_value(g, self.min, self.max) for g in grads]

export(ClipGradByGlobalNorm, "paddle.nn.ClipGradByGlobalNorm")
export(ClipGradByNorm, "paddle.nn.ClipGradByNorm")
export(ClipGradByValue, "paddle.nn.ClipGradByValue")
export(ClipGradBase, "paddle.fluid.clip.GradientClipBase")  # 1.8's name of the base class


def _need_clip(need_clip) -> None:
    if need_clip is not None and not callable(need_clip):
        raise TypeError("The type of need_clip must be funciton, and it can filter out parameter that does't need "
                        "gradient clip. This function must return True or False, and True means that clipping is "
                        "required. Please refer to API documention of GradientClipByGlobalNorm / "
                        "GradientClipByNorm /GradientClipByValue.")
    return need_clip


class GradientClipByValue(ClipGradByValue):
    """fluid.clip.GradientClipByValue(max, min=None, need_clip=None)."""

    def __init__(self, max, min=None, need_clip=None):  # noqa: A002
        super().__init__(max, min)
        self._need_clip_func = _need_clip(need_clip)


class GradientClipByNorm(ClipGradByNorm):
    """fluid.clip.GradientClipByNorm(clip_norm, need_clip=None)."""

    def __init__(self, clip_norm, need_clip=None):
        super().__init__(clip_norm)
        self._need_clip_func = _need_clip(need_clip)


class GradientClipByGlobalNorm(ClipGradByGlobalNorm):
    """fluid.clip.GradientClipByGlobalNorm(clip_norm, group_name='default_group', need_clip=None)."""

    def __init__(self, clip_norm, group_name="default_group", need_clip=None):
        super().__init__(clip_norm, group_name)
        self._need_clip_func = _need_clip(need_clip)


for _cls in (GradientClipByValue, GradientClipByNorm, GradientClipByGlobalNorm):
    export(_cls, f"paddle.fluid.clip.{_cls.__name__}")


def clip_by_param_attrs(params_grads: list) -> list:
    """fluid 1.8's append_gradient_clip_ops, for optimizers without grad_clip: when every parameter carries a
    gradient_clip_attr (set_gradient_clip), the gradients are clipped together by the last one's rule (as Paddle
    does); otherwise they are returned unchanged."""
    attrs = [getattr(p, "gradient_clip_attr", None) for p, _ in params_grads]
    if not attrs or any(a is None for a in attrs):
        return params_grads
    clipped = attrs[-1]._clip([g for _, g in params_grads])
    return [(p, g) for (p, _), g in zip(params_grads, clipped)]

def append_gradient_clip_ops(param_grads: list) -> list:
    """fluid.clip.append_gradient_clip_ops (1.8.5, outside its __all__; test_gradient_clip calls it): the
    gradients clipped by the parameters' set_gradient_clip rule, as [param, new_grad] pairs; unchanged when a
    parameter has no rule. Pairs without a gradient are left out."""
    pairs = [(p, g) for p, g in param_grads if g is not None]
    if not pairs or any(getattr(p, "gradient_clip_attr", None) is None for p, _ in pairs):
        return param_grads
    return [[p, g] for p, g in clip_by_param_attrs(pairs)]


export(append_gradient_clip_ops, "paddle.fluid.clip.append_gradient_clip_ops")


# --- fluid 1.8 error clipping and set_gradient_clip ------------------------------------------------------------
# Error clipping clips the gradient flowing back through a forward variable: `var.error_clip =
# ErrorClipByValue(max, min)` (or `var._set_error_clip(...)`), then `append_backward(loss,
# callbacks=[error_clip_callback])`, or an optimizer's minimize, whose backward passes that callback by default
# as Paddle's does. Paddle appends a clip op after the grad op that writes `var@GRAD`; here the callback inserts,
# right after the variable, an identity op whose gradient is clipped, before the backward is built
# (engine/static/backward.py calls a callback's `before_backward(loss)`). set_gradient_clip gives parameters a
# gradient_clip_attr that optimizers without grad_clip apply (clip_by_param_attrs).


class _ClipGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.bounds = (lo, hi)
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g.clamp(*ctx.bounds), None, None


@op("error_clip")
def error_clip_op(x, min, max):  # noqa: A002
    """Identity forward; the gradient is clipped to [min, max]."""
    return _ClipGrad.apply(x, float(min), float(max))


class BaseErrorClipAttr:
    def __str__(self) -> str:
        raise NotImplementedError()


class ErrorClipByValue(BaseErrorClipAttr):
    """Clip a variable's gradient to [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):  # noqa: A002
        max = float(max)
        self.max = max
        self.min = -max if min is None else float(min)

    def __str__(self) -> str:
        return "ByValue, min=%f, max=%f" % (self.min, self.max)


class _ErrorClipCallback:
    """fluid.clip.error_clip_callback: pass it in append_backward's callbacks."""

    def before_backward(self, loss: Variable) -> None:
        block = loss.block
        g = block.graph
        for v in list(block.vars.values()):
            clip = getattr(v, "error_clip", None)
            if clip is None:
                continue
            if not isinstance(clip, BaseErrorClipAttr):
                raise TypeError("Variable's error_clip should be an instance of BaseErrorClipAttr or None.")
            if v.node is None or getattr(v.node, "graph", None) is not g or v.node.meta.get("error_clipped"):
                continue
            with layer_helper("error_clip"):
                out = error_clip_op(v, clip.min, clip.max)
            src, new = v.node, out.node
            src.append(new)  # right after the variable, so every later op reads through it
            src.replace_all_uses_with(new, delete_user_cb=lambda u, new=new: u is not new)
            src.meta["error_clipped"] = True
            block.vars.pop(out.name, None)
        block.program._bump()

    def __call__(self, block: Any, context: Any) -> None:
        """Paddle calls callbacks after each grad op; the clipping here is set up by before_backward."""


error_clip_callback = _ErrorClipCallback()


def set_gradient_clip(clip, param_list=None, program=None):
    """Clip the gradients of `param_list` (default: every parameter of `program`) with `clip` in optimizers that
    have no grad_clip of their own (deprecated in Paddle 1.8 for the optimizer's grad_clip)."""
    warnings.warn("Caution! 'set_gradient_clip' is not recommended and may be deprecated in future! We recommend a "
                  "new strategy: set 'grad_clip' when initializing the 'optimizer'. This method can reduce the "
                  "mistakes, please refer to documention of 'optimizer'.", stacklevel=2)
    if not isinstance(clip, ClipGradBase):
        raise TypeError("'clip' should be an instance of GradientClipBase's derived class")
    program = program if program is not None else default_main_program()
    block = program.global_block()
    params = block.all_parameters() if param_list is None else list(param_list)
    if all(isinstance(p, str) for p in params):
        params = [block.var(p) for p in params]
    if not all(isinstance(p, Parameter) for p in params):
        raise TypeError("'param_list' should be a list of Parameter or basestring(parameter's name).")
    for p in params:
        p.gradient_clip_attr = copy.deepcopy(clip)


export(ErrorClipByValue, "paddle.fluid.clip.ErrorClipByValue")
export(BaseErrorClipAttr, "paddle.fluid.clip.BaseErrorClipAttr")
export(error_clip_callback, "paddle.fluid.clip.error_clip_callback")
export(set_gradient_clip, "paddle.fluid.clip.set_gradient_clip")
