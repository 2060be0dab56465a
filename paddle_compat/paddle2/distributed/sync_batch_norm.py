"""`paddle.nn.SyncBatchNorm` and `SyncBatchNorm.convert_sync_batchnorm` (dygraph).

Training across trainer processes: the batch mean / variance are computed over the union of every
trainer's batch, by the registry op `sync_batch_norm` (engine/ops/fused.py) with its statistics callback set to a
differentiable all-reduce (collective.sync_bn_stats), so the backward is exact too. Works with gloo on CPU
as well as NCCL on CUDA (Paddle has no CPU kernel; torch's SyncBatchNorm refuses CPU). One process, or
eval mode: plain BatchNorm. Parameters and state_dict keys are those of BatchNorm (`weight`, `bias`,
`_mean`, `_variance`; names `sync_batch_norm_0.w_0` ...), and running statistics follow Paddle's momentum
rule (running = momentum * running + (1 - momentum) * batch).
"""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core.mode import MODE
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.paddle2.nn.norm import _BatchNormBase
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.parallel import collective


class SyncBatchNorm(_BatchNormBase):
    """paddle.nn.SyncBatchNorm(num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
    data_format='NCHW', name=None); weight_attr / bias_attr=False give a constant, non-trainable parameter that
    stays in the state dict (BatchNorm1D/2D/3D have none)."""

    _fixed_when_false = True

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> None:
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"paddle.nn.SyncBatchNorm: data_format should be one of NC, NCL, NCHW, NCDHW, NLC, "
                             f"NHWC, NDHWC, but received {data_format!r}")
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, None, name)
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name

    def forward(self, x: Any) -> Any:
        if len(x.shape) < 2:
            raise ValueError(f"paddle.nn.SyncBatchNorm: expected an input of at least 2 dims, got {list(x.shape)}")
        from paddle_compat.engine.ops.fused import sync_batch_norm, sync_bn_callback

        fmt = "NHWC" if self._data_format in ("NLC", "NHWC", "NDHWC") else "NCHW"
        if MODE.static:  # records a sync_batch_norm op, as Paddle does; it syncs when run by several trainers
            return sync_batch_norm(x, self._mean, self._variance, self.weight, self.bias, is_test=not self.training,
                                   momentum=self._momentum, epsilon=self._epsilon, data_format=fmt)
        if not self.training or not collective.is_distributed():
            return super().forward(x)
        with sync_bn_callback(collective.sync_bn_stats):
            return sync_batch_norm(x, self._mean, self._variance, self.weight, self.bias, is_test=False,
                                   momentum=self._momentum, epsilon=self._epsilon, data_format=fmt)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """Replace every BatchNorm1D/2D/3D in `layer` (itself included) with a SyncBatchNorm sharing its
        parameters and running statistics (Paddle's behaviour; fluid-style paddle.nn.BatchNorm is kept)."""
        out = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm):
            wattr = getattr(layer, "_weight_attr", None)
            battr = getattr(layer, "_bias_attr", None)
            out = SyncBatchNorm(layer._num_features, layer._momentum, layer._epsilon, wattr, battr,
                                layer._data_format, getattr(layer, "_name", None))
            if layer.weight is not None:  # BatchNorm*D(weight_attr=False) has none: keep the constant one
                out.weight = layer.weight
            if layer.bias is not None:
                out.bias = layer.bias
            out._mean = layer._mean
            out._variance = layer._variance
            out.training = layer.training
        for name, sub in list(layer.named_children()):
            out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out


export(SyncBatchNorm, "paddle.nn.SyncBatchNorm")
