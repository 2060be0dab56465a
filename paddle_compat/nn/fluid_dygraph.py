"""fluid 1.8 dygraph layers (`fluid.dygraph.Linear`, `Conv2D`, `Pool2D`, `Embedding`, `Dropout`, `LayerNorm`,
`PRelu`, `Flatten`): 1.x argument names and defaults (`act=`, `num_channels`, `pool_type`, `size=[V, D]`),
built on the same Layer base and registry ops as the 2.x layers."""

from __future__ import annotations

import math
from typing import Any

from paddle_compat.nn._api import F, P, api
from paddle_compat.nn.layer import Layer
from paddle_compat.ops.registry import export
from paddle_compat.static import initializer as I


def _act(x: Any, act: str | None) -> Any:
    from paddle_compat.ops.nn_functional.activation import act_layer

    return act_layer(x, act)


class Linear(Layer):
    def __init__(self, input_dim: int, output_dim: int, param_attr: Any = None, bias_attr: Any = None,
                 act: str | None = None, dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        self._act = act
        self.weight = self.create_parameter([input_dim, output_dim], param_attr)
        self.bias = self.create_parameter([output_dim], bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return _act(F("linear")(input, self.weight, self.bias), self._act)


class Conv2D(Layer):
    def __init__(self, num_channels: int, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int | None = None, param_attr: Any = None, bias_attr: Any = None,
                 use_cudnn: bool = True, act: str | None = None, dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        groups = groups or 1
        if num_channels % groups:
            raise ValueError(f"fluid.dygraph.Conv2D: num_channels ({num_channels}) must be divisible by groups "
                             f"({groups})")
        k = [filter_size] * 2 if isinstance(filter_size, int) else list(filter_size)
        self._stride, self._padding, self._dilation, self._groups, self._act = stride, padding, dilation, groups, act
        std = (2.0 / (k[0] * k[1] * num_channels)) ** 0.5
        self.weight = self.create_parameter([num_filters, num_channels // groups] + k, param_attr,
                                            default_initializer=I.Normal(0.0, std))
        self.bias = self.create_parameter([num_filters], bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        out = F("conv2d")(input, self.weight, bias=self.bias, stride=self._stride, padding=self._padding,
                          dilation=self._dilation, groups=self._groups)
        return _act(out, self._act)


class Pool2D(Layer):
    def __init__(self, pool_size: Any = -1, pool_type: str = "max", pool_stride: Any = 1, pool_padding: Any = 0,
                 global_pooling: bool = False, use_cudnn: bool = True, ceil_mode: bool = False,
                 exclusive: bool = True, data_format: str = "NCHW") -> None:
        super().__init__()
        if pool_type not in ("max", "avg"):
            raise ValueError(f"fluid.dygraph.Pool2D: pool_type must be 'max' or 'avg', but received {pool_type!r}")
        self._kw = dict(pool_size=pool_size, pool_type=pool_type, pool_stride=pool_stride, pool_padding=pool_padding,
                        global_pooling=global_pooling, ceil_mode=ceil_mode, exclusive=exclusive,
                        data_format=data_format)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return api("paddle.fluid.layers.pool2d", "fluid.dygraph.Pool2D")(input, **self._kw)


class Embedding(Layer):
    def __init__(self, size: Any, is_sparse: bool = False, is_distributed: bool = False, padding_idx: int | None = None,
                 param_attr: Any = None, dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        v, d = int(size[0]), int(size[1])
        self._padding_idx = None if padding_idx is None else (padding_idx if padding_idx >= 0 else v + padding_idx)
        self.weight = self.create_parameter([v, d], param_attr)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F("embedding")(input, self.weight, padding_idx=self._padding_idx)


class Dropout(Layer):
    def __init__(self, p: float = 0.5, seed: int | None = None, dropout_implementation: str = "downgrade_in_infer",
                 is_test: bool = False) -> None:
        super().__init__()
        self._p, self._impl, self._is_test = p, dropout_implementation, is_test

    def forward(self, input: Any) -> Any:  # noqa: A002
        return api("paddle.fluid.layers.dropout", "fluid.dygraph.Dropout")(
            input, self._p, is_test=self._is_test or not self.training, dropout_implementation=self._impl)


class LayerNorm(Layer):
    def __init__(self, normalized_shape: Any, scale: bool = True, shift: bool = True, epsilon: float = 1e-05,
                 param_attr: Any = None, bias_attr: Any = None, act: str | None = None, dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        self._shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
        n = [math.prod(self._shape)]
        self.weight = self.create_parameter(n, param_attr, default_initializer=I.Constant(1.0)) if scale else None
        self.bias = self.create_parameter(n, bias_attr, is_bias=True) if shift else None
        self._epsilon, self._act = epsilon, act

    def forward(self, input: Any) -> Any:  # noqa: A002
        out = F("layer_norm")(input, self._shape, weight=self.weight, bias=self.bias, epsilon=self._epsilon)
        return _act(out, self._act)


class PRelu(Layer):
    def __init__(self, mode: str, channel: int | None = None, input_shape: Any = None, param_attr: Any = None,
                 dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        if mode == "all":
            shape = [1]
        elif mode == "channel":
            shape = [int(channel)]
        elif mode == "element":
            shape = list(input_shape[1:])
        else:
            raise ValueError(f"fluid.dygraph.PRelu: mode should be one of all, channel, element, got {mode!r}")
        self._mode = mode
        self.weight = self.create_parameter(shape, param_attr, default_initializer=I.Constant(0.25))

    def forward(self, input: Any) -> Any:  # noqa: A002
        if self._mode == "element":
            alpha = P("unsqueeze")(self.weight, [0])
            return P("add")(F("relu")(input), P("multiply")(alpha, P("scale")(F("relu")(P("scale")(input, -1.0)),
                                                                              -1.0)))
        return F("prelu")(input, self.weight)


class Flatten(Layer):
    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self._start, self._stop = start_axis, stop_axis

    def forward(self, input: Any) -> Any:  # noqa: A002
        return P("flatten")(input, self._start, self._stop)


for _cls in (Linear, Conv2D, Pool2D, Embedding, Dropout, LayerNorm, PRelu, Flatten):
    export(_cls, f"paddle.fluid.dygraph.{_cls.__name__}", f"paddle.fluid.dygraph.nn.{_cls.__name__}")
