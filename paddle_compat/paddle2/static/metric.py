"""paddle.static names of Paddle 2.x added in issue 12: ctr_metric_bundle, and the IPU entry points (listed as not
supported: Graphcore IPUs do not exist under torch)."""

from __future__ import annotations

from typing import Any

import torch

from paddle_compat._export import unsupported_stub
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import EXPORTS, export, op


@op("ctr_metric_bundle", differentiable=False,
    infer=lambda input, label, weight, sqrerr, abserr, prob, q, pos, ins: Spec((1,), input.dtype))
def _ctr_update(input, label, weight, sqrerr, abserr, prob, q, pos, ins):  # noqa: A002
    """Adds the batch to the six persistable accumulators in place (Paddle's op sequence) and returns the
    batch's weighted instance count."""
    with torch.no_grad():
        diff = input - label
        w = weight.reshape(-1)[:1]
        sqrerr += torch.square(diff).sum().reshape(1)
        abserr += diff.abs().sum().reshape(1)
        prob += input.sum().reshape(1)
        pos += label.sum().reshape(1)
        batch_ins = torch.ones([input.shape[0], 1], dtype=input.dtype, device=input.device).sum().reshape(1) * w
        ins += batch_ins
        q += torch.sigmoid(input).sum().reshape(1) * w
    return batch_ins


def ctr_metric_bundle(input: Any, label: Any, ins_tag_weight: Any = None) -> tuple:  # noqa: A002
    """-> (local_sqrerr, local_abserr, local_prob, local_q, local_pos_num, local_ins_num): persistable sums over
    every batch run so far of (input - label)^2, |input - label|, input, sigmoid(input) * w, label and
    batch_size * w, w = ins_tag_weight[0] (default 1). Static programs (the accumulators live in the scope)."""
    from paddle_compat.engine.static.param import create_global_var

    if list(input.shape) != list(label.shape):
        raise ValueError(f"paddle.static.ctr_metric_bundle: input {list(input.shape)} and label {list(label.shape)} "
                         "should have the same shape")
    if ins_tag_weight is None:
        ins_tag_weight = EXPORTS["paddle"]["full"]([1, 1], 1.0, "float32")
    with layer_helper("ctr_metric_bundle") as prefix:
        accs = [create_global_var([1], 0.0, "float32", persistable=True, name=f"{prefix}.{kind}")
                for kind in ("sqrerr", "abserr", "prob", "q", "pos_num", "ins_num")]
        _ctr_update(input, label, ins_tag_weight, *accs)
    return tuple(accs)


export(ctr_metric_bundle, "paddle.static.ctr_metric_bundle", "paddle.static.nn.metric.ctr_metric_bundle")
for _name, _kind in (("IpuStrategy", "class"), ("IpuCompiledProgram", "class"), ("ipu_shard_guard", "function"),
                     ("set_ipu_shard", "function")):
    export(unsupported_stub(f"paddle.static.{_name}", _kind, "Graphcore IPU devices do not exist under torch"),
           f"paddle.static.{_name}")
