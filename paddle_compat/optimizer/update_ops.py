"""Optimizer update ops and gradient clipping ops: one body each, shared by dygraph `step()` and static
`minimize()`. Update ops change the parameter and accumulators in place (Paddle's `ParamOut = Param`)."""

from __future__ import annotations

import torch

from paddle_compat.framework.program import ROLE_OPTIMIZE
from paddle_compat.ops.registry import op


def _lr(learning_rate):
    return learning_rate.reshape(()) if isinstance(learning_rate, torch.Tensor) else learning_rate


@op("sgd", role=ROLE_OPTIMIZE, differentiable=False)
def sgd(param, grad, learning_rate):
    with torch.no_grad():
        if isinstance(learning_rate, torch.Tensor):
            param.addcmul_(grad, learning_rate, value=-1.0)
        else:
            param.add_(grad, alpha=-learning_rate)
    return param


@op("momentum", role=ROLE_OPTIMIZE, differentiable=False)
def momentum(param, grad, velocity, learning_rate, mu=0.9, use_nesterov=False, regularization_method="",
             regularization_coeff=0.0, rescale_grad=1.0):
    lr = _lr(learning_rate)
    with torch.no_grad():
        g = grad * rescale_grad if rescale_grad != 1.0 else grad
        if regularization_method == "l2_decay":
            g = g + regularization_coeff * param
        velocity.mul_(mu).add_(g)
        if use_nesterov:
            param.sub_((g + mu * velocity) * lr)
        else:
            param.sub_(velocity * lr)
    return param


@op("adam", role=ROLE_OPTIMIZE, differentiable=False)
def adam(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1=0.9, beta2=0.999,
         epsilon=1e-08, lazy_mode=False, scaled_epsilon=True):
    """Paddle's adam kernel: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t);
    p -= lr_t * m1 / (sqrt(m2) + eps * sqrt(1 - b2^t)); the pow accumulators start at b1 and b2.
    Paddle 1.8 (fluid) adds the plain eps instead: `scaled_epsilon=False`."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        b1 = float(beta1) if not isinstance(beta1, torch.Tensor) else beta1
        b2 = float(beta2) if not isinstance(beta2, torch.Tensor) else beta2
        moment1.mul_(b1).add_(grad * (1 - b1))
        moment2.mul_(b2).add_(grad * grad * (1 - b2))
        corr2 = torch.sqrt(1 - beta2_pow)
        lr_t = lr * corr2 / (1 - beta1_pow)
        eps = epsilon * corr2 if scaled_epsilon else epsilon
        param.sub_(lr_t * (moment1 / (torch.sqrt(moment2) + eps)))
        beta1_pow.mul_(b1)
        beta2_pow.mul_(b2)
    return param


@op("clip_by_global_norm", role=ROLE_OPTIMIZE, differentiable=False)
def clip_by_global_norm(grads, clip_norm):
    """Scale every gradient by clip_norm / max(global_norm, clip_norm)."""
    grads = list(grads)
    if not grads:
        return []
    sq = torch.stack([g.float().pow(2).sum() for g in grads]).sum()
    global_norm = torch.sqrt(sq)
    scale = clip_norm / torch.clamp(global_norm, min=clip_norm)
    return [g * scale.to(g.dtype) for g in grads]


@op("clip_by_norm", role=ROLE_OPTIMIZE, differentiable=False)
def clip_by_norm(x, max_norm, name=None):
    norm = torch.sqrt((x * x).sum())
    return x * (max_norm / torch.clamp(norm, min=max_norm))


@op("clip", role=ROLE_OPTIMIZE, differentiable=False)
def clip_by_value(x, min=None, max=None, name=None):  # noqa: A002
    return torch.clamp(x, min=min, max=max)
