"""Batch normalization with Paddle's semantics.

Paddle's `momentum` weighs the *old* running value (running = m * running + (1 - m) * batch), the
opposite of torch, and the running variance is updated with the biased batch variance.
"""

from __future__ import annotations

import torch

from paddle_compat.ops.registry import export, op


@op("batch_norm", is_test_attr="is_test")
def batch_norm_op(x, running_mean, running_var, weight=None, bias=None, is_test=False, momentum=0.9,
                  epsilon=1e-05, data_format="NCHW", use_global_stats=False):
    channel_axis = 1 if data_format in ("NCHW", "NCL", "NC", "NCDHW") else x.dim() - 1
    axes = [i for i in range(x.dim()) if i != channel_axis]
    shape = [1] * x.dim()
    shape[channel_axis] = x.shape[channel_axis]
    if is_test or use_global_stats:
        mean, var = running_mean, running_var
    else:
        mean = x.mean(dim=axes)
        var = x.var(dim=axes, unbiased=False)
        with torch.no_grad():
            running_mean.mul_(momentum).add_(mean.detach() * (1.0 - momentum))
            running_var.mul_(momentum).add_(var.detach() * (1.0 - momentum))
    y = (x - mean.reshape(shape)) * torch.rsqrt(var.reshape(shape) + epsilon)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


def batch_norm(x, running_mean, running_var, weight, bias, training=False, momentum=0.9, epsilon=1e-05,
               data_format="NCHW", use_global_stats=None, name=None):
    """paddle.nn.functional.batch_norm"""
    return batch_norm_op(x, running_mean, running_var, weight, bias, is_test=not training, momentum=momentum,
                         epsilon=epsilon, data_format=data_format, use_global_stats=bool(use_global_stats))


export(batch_norm, "paddle.nn.functional.batch_norm")
