"""Normalization layers.

BatchNorm*: Paddle's momentum weighs the old running value (`running = m * running + (1 - m) * batch`) and
the running variance takes the biased batch variance (engine/ops/nn_functional/norm.py). The running statistics are
non-trainable *Parameters* (`_mean` = `<name>.w_1`, `_variance` = `<name>.w_2`), not buffers: they appear in
`parameters()` and in state_dict as `1._mean` / `1._variance` (tests/goldens/README.md, case E).
"""

from __future__ import annotations

import math
from typing import Any

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.lookup import F
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.dispatch import body_shortcut
from paddle_compat.engine.ops.nn_functional.norm import batch_norm_shortcut, layer_norm
from paddle_compat.paddle2.nn.layer import FRESH_OUTPUTS, Layer
from paddle_compat.engine.framework import registry
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.static import initializer as I
from paddle_compat.engine.static.param import ParamAttr

# --- ops no other module defines (paddle.nn.functional has no group_norm / spectral_norm in 2.4) -------
if "group_norm" not in registry.OPS:
    @op("group_norm")
    def group_norm(x, groups, scale=None, bias=None, epsilon=1e-05, data_layout="NCHW"):
        """Normalize over (C/groups, spatial) per sample and group; population variance."""
        if data_layout != "NCHW":
            x = x.movedim(-1, 1)
        n, c = x.shape[0], x.shape[1]
        if not 1 <= groups <= c:
            raise InvalidArgumentError(f"group_norm: The Attr(groups) of Op(group_norm) must be greater than or "
                                       f"equal to 1 and less than or equal to the number of channels. But received: "
                                       f"groups is [{groups}], channels is [{c}]")
        def standardize(xg):  # over the last dim: one group per row
            mean = xg.mean(dim=-1, keepdim=True)
            return (xg - mean) / torch.sqrt(xg.var(dim=-1, unbiased=False, keepdim=True) + epsilon)

        if c % groups == 0:
            y = standardize(x.reshape(n, groups, -1)).reshape(x.shape)
        else:  # Paddle's kernel (1.8 to 2.5): groups of ceil(C / groups) channels, the last one smaller or none
            y = torch.cat([standardize(xc.reshape(n, -1)).reshape(xc.shape)
                           for xc in torch.split(x, (c - 1) // groups + 1, dim=1)], dim=1)
        shape = [1, c] + [1] * (x.dim() - 2)
        if scale is not None:
            y = y * scale.reshape(shape)
        if bias is not None:
            y = y + bias.reshape(shape)
        return y.movedim(1, -1) if data_layout != "NCHW" else y

# spectral_norm's op (forward and Paddle's gradient): paddle_compat/engine/static/nn_more.py


def _norm_params(layer: Layer, shape: list[int], weight_attr: Any, bias_attr: Any, fixed: bool = False) -> None:
    """weight (init 1) and bias (init 0). attr=False, as Paddle 2.6 does per layer: no parameter at all (None:
    BatchNorm, BatchNorm1D/2D/3D, so a checkpoint without them loads), or with `fixed` a constant, non-trainable
    one that stays in the state dict (GroupNorm, SyncBatchNorm). tests/nn/test_attr_false26.py."""
    for attr_name, attr, init, is_bias in (("weight", weight_attr, I.Constant(1.0), False),
                                           ("bias", bias_attr, I.Constant(0.0), True)):
        if attr is False and not fixed:
            param = None
        elif attr is False:
            param = layer.create_parameter(shape, ParamAttr(initializer=init), is_bias=is_bias)
            param.stop_gradient = True
        else:
            param = layer.create_parameter(shape, attr, default_initializer=None if is_bias else init,
                                           is_bias=is_bias)
        setattr(layer, attr_name, param)


def _running_stats(layer: Layer, shape: list[int], mean_name: str | None = None, var_name: str | None = None,
                   do_model_average: bool = True) -> None:
    layer._mean = layer.create_parameter(shape, ParamAttr(name=mean_name, initializer=I.Constant(0.0),
                                                          trainable=False, do_model_average=do_model_average))
    layer._mean.stop_gradient = True
    layer._variance = layer.create_parameter(shape, ParamAttr(name=var_name, initializer=I.Constant(1.0),
                                                              trainable=False, do_model_average=do_model_average))
    layer._variance.stop_gradient = True


class _BatchNormBase(Layer):
    _ndims: tuple = ()
    _default_format = "NCHW"
    _fixed_when_false = False  # SyncBatchNorm: weight_attr=False keeps a constant weight (Paddle 2.6)

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str | None = None, use_global_stats: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._num_features, self._momentum, self._epsilon = num_features, momentum, epsilon
        self._data_format = data_format or self._default_format
        self._use_global_stats = use_global_stats
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        _norm_params(self, [num_features], weight_attr, bias_attr, self._fixed_when_false)
        _running_stats(self, [num_features])

    def _check(self, x: Any) -> None:
        if self._ndims and (x._t.dim() if type(x) is Tensor else len(x.shape)) not in self._ndims:
            raise ValueError(f"paddle.nn.{type(self).__name__}: expected a {' or '.join(map(str, self._ndims))}-D "
                             f"input, but got input of shape {list(x.shape)}")

    def forward(self, x: Any) -> Any:
        self._check(x)
        fmt = self._data_format
        if fmt in ("NLC",):
            fmt = "NHWC"
        p = self.__dict__["_parameters"]  # dict lookups: Layer.__getattr__ costs ~1 us a name, 4 names a call
        mean, var = p.get("_mean"), p.get("_variance")
        if mean is None or var is None:  # put elsewhere than Layer keeps its parameters
            mean, var = self._mean, self._variance
        out = batch_norm_shortcut(x, mean, var, p.get("weight"), p.get("bias"), self.training, self._momentum,
                                  self._epsilon, fmt, self._use_global_stats)
        if out is not None:
            return out
        return F("batch_norm")(x, self._mean, self._variance, self.weight, self.bias, training=self.training,
                               momentum=self._momentum, epsilon=self._epsilon, data_format=fmt,
                               use_global_stats=self._use_global_stats)

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"


class BatchNorm1D(_BatchNormBase):
    """paddle.nn.BatchNorm1D(num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
    data_format='NCL', use_global_stats=None, name=None): 2-D or 3-D input."""

    _ndims, _default_format = (2, 3), "NCL"


class BatchNorm2D(_BatchNormBase):
    """paddle.nn.BatchNorm2D(..., data_format='NCHW'): 4-D input."""

    _ndims = (4,)


class BatchNorm3D(_BatchNormBase):
    """paddle.nn.BatchNorm3D(..., data_format='NCDHW'): 5-D input."""

    _ndims, _default_format = (5,), "NCDHW"


class BatchNorm(Layer):
    """paddle.nn.BatchNorm / fluid.dygraph.BatchNorm (the 1.x-style layer: act, is_test, data_layout)."""

    def __init__(self, num_channels: int, act: str | None = None, is_test: bool = False, momentum: float = 0.9,
                 epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None, dtype: Any = "float32",
                 data_layout: str = "NCHW", in_place: bool = False, moving_mean_name: str | None = None,
                 moving_variance_name: str | None = None, do_model_average_for_mean_and_var: bool = True,
                 use_global_stats: bool = False, trainable_statistics: bool = False) -> None:
        super().__init__(None, dtype)
        self._act, self._is_test, self._momentum, self._epsilon = act, is_test, momentum, epsilon
        self._data_layout, self._use_global_stats = data_layout, use_global_stats
        self._trainable_statistics = trainable_statistics
        _norm_params(self, [num_channels], param_attr, bias_attr)
        _running_stats(self, [num_channels], moving_mean_name, moving_variance_name,
                       do_model_average_for_mean_and_var)

    def forward(self, input: Any) -> Any:  # noqa: A002
        training = self.training and not self._is_test
        if self._trainable_statistics and not training:
            training = True
        out = F("batch_norm")(input, self._mean, self._variance, self.weight, self.bias, training=training,
                              momentum=self._momentum, epsilon=self._epsilon, data_format=self._data_layout,
                              use_global_stats=self._use_global_stats)
        if self._act:
            from paddle_compat.engine.ops.nn_functional.activation import act_layer

            out = act_layer(out, self._act)
        return out


class LayerNorm(Layer):
    """weight / bias of shape [prod(normalized_shape)] (flattened, as Paddle stores them)."""

    def __init__(self, normalized_shape: Any, epsilon: float = 1e-05, weight_attr: Any = None, bias_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
        self._epsilon = epsilon
        shape = [math.prod(self._normalized_shape)]
        self.weight = None if weight_attr is False else \
            self.create_parameter(shape, weight_attr, default_initializer=I.Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(shape, bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        out = body_shortcut(layer_norm, input, self._normalized_shape, self.weight, self.bias, self._epsilon)
        return out if out is not None else F("layer_norm")(input, self._normalized_shape, weight=self.weight,
                                                           bias=self.bias, epsilon=self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        if data_format not in ("NCHW", "NHWC", "NCL", "NCDHW", "NLC", "NDHWC"):
            raise ValueError(f"paddle.nn.GroupNorm: unsupported data_format {data_format!r}")
        self._num_groups, self._epsilon = num_groups, epsilon
        self._data_format = "NCHW" if data_format.startswith("NC") else "NHWC"
        _norm_params(self, [num_channels], weight_attr, bias_attr, fixed=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        c = input.shape[1 if self._data_format == "NCHW" else -1]
        if c > 0 and c % self._num_groups:  # Paddle 2.6's GroupNormInferMeta (1.8 to 2.5 ran uneven groups)
            raise InvalidArgumentError(f"paddle.nn.GroupNorm: Expected number of channels in input to be divisible "
                                       f"by num_groups, but got input channel is {c} and num_groups is "
                                       f"{self._num_groups}")
        return registry.OPS["group_norm"].public(input, self._num_groups, scale=self.weight, bias=self.bias,
                                                 epsilon=self._epsilon, data_layout=self._data_format)

    def extra_repr(self) -> str:
        return f"num_groups={self._num_groups}, num_channels={self.weight.shape[0] if self.weight is not None else '?'}"


class _InstanceNormBase(Layer):
    _default_format = "NCHW"

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str | None = None, name: str | None = None) -> None:
        super().__init__()
        self._epsilon, self._momentum = epsilon, momentum
        self._data_format = data_format or self._default_format
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(f"paddle.nn.{type(self).__name__}: weight_attr and bias_attr must be set to False at "
                             f"the same time in InstanceNorm, but received weight_attr={weight_attr!r}, "
                             f"bias_attr={bias_attr!r}")
        if weight_attr is False:
            self.scale = self.bias = None
        else:
            self.scale = self.create_parameter([num_features], weight_attr, default_initializer=I.Constant(1.0))
            self.bias = self.create_parameter([num_features], bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F("instance_norm")(input, weight=self.scale, bias=self.bias, eps=self._epsilon,
                                  data_format=self._data_format)


class InstanceNorm1D(_InstanceNormBase):
    _default_format = "NCL"


class InstanceNorm2D(_InstanceNormBase):
    pass


class InstanceNorm3D(_InstanceNormBase):
    _default_format = "NCDHW"


class LocalResponseNorm(Layer):
    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k, self.data_format = size, alpha, beta, k, data_format

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F("local_response_norm")(input, self.size, self.alpha, self.beta, self.k, self.data_format)


class SpectralNorm(Layer):
    """forward(weight) = weight / sigma_max; u [h], v [w] are non-trainable Normal(0, 1) parameters."""

    def __init__(self, weight_shape: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12,
                 dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        self._dim, self._power_iters, self._eps = dim, power_iters, eps
        shape = list(weight_shape)
        h = shape[dim]
        w = math.prod(shape) // h
        self.weight_u = self.create_parameter([h], ParamAttr(initializer=I.Normal(0.0, 1.0), trainable=False))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], ParamAttr(initializer=I.Normal(0.0, 1.0), trainable=False))
        self.weight_v.stop_gradient = True

    def forward(self, weight: Any) -> Any:
        return registry.OPS["spectral_norm"].public(weight, self.weight_u, self.weight_v, dim=self._dim,
                                                    power_iters=self._power_iters, eps=self._eps)


for _cls in (BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, LayerNorm, GroupNorm, InstanceNorm1D,
             InstanceNorm2D, InstanceNorm3D, LocalResponseNorm, SpectralNorm):
    export(_cls, f"paddle.nn.{_cls.__name__}")
export(BatchNorm, "paddle.fluid.dygraph.BatchNorm")
export(Layer, "paddle.fluid.dygraph.Layer")
# a normalization's output is a new tensor (layer.activate_in_place)
FRESH_OUTPUTS.update((BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, LayerNorm, GroupNorm))
