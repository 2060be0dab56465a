"""fluid 1.8 dygraph layers (`fluid.dygraph.Linear`, `Conv2D`, `Pool2D`, `Embedding`, `Dropout`, `LayerNorm`,
`PRelu`, `Flatten`, `Conv3D`, `Conv2DTranspose`, `Conv3DTranspose`, `GroupNorm`, `InstanceNorm`, `GRUUnit`,
`BilinearTensorProduct`): 1.x argument names and defaults (`act=`, `num_channels`, `pool_type`, `size=[V, D]`),
built on the same Layer base and registry ops as the 2.x layers."""

from __future__ import annotations

import math
from typing import Any

from paddle_compat.engine.framework.lookup import F, P, api
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static import initializer as I
from paddle_compat.engine.static.nn import conv_filter


def _act(x: Any, act: str | None) -> Any:
    from paddle_compat.engine.ops.nn_functional.activation import act_layer

    return act_layer(x, act)


def _no_false_filter(layer: str, param_attr: Any) -> None:
    """1.8's convolutions assert a filter: param_attr=False is an error (bias_attr=False leaves out the bias)."""
    if param_attr is False:
        raise ValueError(f"fluid.dygraph.{layer}: param_attr should not be False: a convolution needs its filter "
                         "(bias_attr=False leaves out the bias)")


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
        _no_false_filter("Conv2D", param_attr)
        shape, init = conv_filter(num_channels, num_filters, k, groups)
        self.weight = self.create_parameter(shape, param_attr, default_initializer=init)
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
        if is_sparse:  # its gradient is a SelectedRows in Paddle (Optimizer._selected_rows)
            self.weight._selected_rows_grad = True

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
        if shift and bias_attr is False:  # 1.8 asserts it: shift=False is the way to leave out the bias
            raise ValueError("fluid.dygraph.LayerNorm: bias_attr should not be False with shift=True (pass "
                             "shift=False for no bias)")
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


def _ntuple(v: Any, n: int) -> list[int]:
    return [int(v)] * n if isinstance(v, int) else [int(x) for x in v]


class _ConvND(Layer):
    """1.8's Conv3D and the transposed convolutions: filters laid out as Paddle's (transposed: [in, out / groups,
    k...]); Conv3D's default initializer is Normal(0, sqrt(2 / (k... x in))) as Conv2D's, the transposed ones use
    the default (Xavier)."""

    _nd, _fn, _transposed = 3, "conv3d", False

    def __init__(self, num_channels: int, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int | None = None, param_attr: Any = None, bias_attr: Any = None,
                 use_cudnn: bool = True, act: str | None = None, dtype: Any = "float32",
                 output_size: Any = None) -> None:
        super().__init__(None, dtype)
        groups = groups or 1
        name = type(self).__name__
        if num_channels % groups or (self._transposed and num_filters % groups):
            raise ValueError(f"fluid.dygraph.{name}: num_channels ({num_channels}) and, transposed, num_filters "
                             f"({num_filters}) must be divisible by groups ({groups})")
        k = _ntuple(filter_size, self._nd)
        self._kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
        if output_size is not None:
            self._kw["output_size"] = output_size
        self._act = act
        _no_false_filter(name, param_attr)
        shape, init = conv_filter(num_channels, num_filters, k, groups, self._transposed)
        self.weight = self.create_parameter(shape, param_attr, default_initializer=init)
        self.bias = self.create_parameter([num_filters], bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return _act(F(self._fn)(input, self.weight, bias=self.bias, **self._kw), self._act)


class Conv3D(_ConvND):
    pass


class Conv2DTranspose(_ConvND):
    _nd, _fn, _transposed = 2, "conv2d_transpose", True

    def __init__(self, num_channels: int, num_filters: int, filter_size: Any, output_size: Any = None,
                 padding: Any = 0, stride: Any = 1, dilation: Any = 1, groups: int | None = None,
                 param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True, act: str | None = None,
                 dtype: Any = "float32") -> None:
        super().__init__(num_channels, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                         bias_attr, use_cudnn, act, dtype, output_size=output_size)


class Conv3DTranspose(_ConvND):
    _nd, _fn, _transposed = 3, "conv3d_transpose", True

    def __init__(self, num_channels: int, num_filters: int, filter_size: Any, padding: Any = 0, stride: Any = 1,
                 dilation: Any = 1, groups: int | None = None, param_attr: Any = None, bias_attr: Any = None,
                 use_cudnn: bool = True, act: str | None = None, dtype: Any = "float32") -> None:
        super().__init__(num_channels, num_filters, filter_size, stride, padding, dilation, groups, param_attr,
                         bias_attr, use_cudnn, act, dtype)


class GroupNorm(Layer):
    def __init__(self, channels: int, groups: int, epsilon: float = 1e-05, param_attr: Any = None,
                 bias_attr: Any = None, act: str | None = None, data_layout: str = "NCHW",
                 dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        if data_layout not in ("NCHW", "NHWC"):
            raise ValueError(f"fluid.dygraph.GroupNorm: unsupported data_layout {data_layout!r}")
        self._groups, self._epsilon, self._act, self._layout = groups, epsilon, act, data_layout
        # NOTE: 1.8.5 passes `param_attr or False` / `bias_attr or False`: with the default None the layer has no
        # scale and no bias at all (its state dict is empty); only a ParamAttr (or a name) creates them
        self.weight = self.create_parameter([channels], param_attr, default_initializer=I.Constant(1.0)) \
            if param_attr else None
        self.bias = self.create_parameter([channels], bias_attr, is_bias=True) if bias_attr else None

    def forward(self, input: Any) -> Any:  # noqa: A002
        from paddle_compat.engine.framework import registry

        out = registry.OPS["group_norm"].public(input, self._groups, scale=self.weight, bias=self.bias,
                                                epsilon=self._epsilon, data_layout=self._layout)
        return _act(out, self._act)


class InstanceNorm(Layer):
    def __init__(self, num_channels: int, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
                 dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        if bias_attr is False:  # 1.8 asserts it (param_attr=False alone is allowed: no scale)
            raise ValueError("fluid.dygraph.InstanceNorm: bias_attr should not be False in InstanceNorm.")
        self._epsilon = epsilon
        self.scale = None if param_attr is False else \
            self.create_parameter([num_channels], param_attr, default_initializer=I.Constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter([num_channels], bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        return F("instance_norm")(input, weight=self.scale, bias=self.bias, eps=self._epsilon)


class GRUUnit(Layer):
    """size = 3 x hidden; forward(input [B, 3H], hidden [B, H]) -> (updated_hidden, reset_hidden_prev, gate)."""

    def __init__(self, size: int, param_attr: Any = None, bias_attr: Any = None, activation: str = "tanh",
                 gate_activation: str = "sigmoid", origin_mode: bool = False, dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        hid = size // 3
        self._acts, self._origin_mode = (activation, gate_activation), origin_mode
        self.weight = self.create_parameter([hid, 3 * hid], param_attr)
        self.bias = self.create_parameter([1, 3 * hid], bias_attr, is_bias=True)

    def forward(self, input: Any, hidden: Any) -> Any:  # noqa: A002
        from paddle_compat.engine.ops.fluid_only import gru_unit_op

        return gru_unit_op(input, hidden, self.weight, self.bias, self._acts[0], self._acts[1], self._origin_mode)


class BilinearTensorProduct(Layer):
    def __init__(self, input1_dim: int, input2_dim: int, output_dim: int, name: str | None = None,
                 act: str | None = None, param_attr: Any = None, bias_attr: Any = None, dtype: Any = "float32") -> None:
        super().__init__(None, dtype)
        self._act = act
        self.weight = self.create_parameter([output_dim, input1_dim, input2_dim], param_attr)
        self.bias = self.create_parameter([1, output_dim], bias_attr, is_bias=True)

    def forward(self, x: Any, y: Any) -> Any:
        return _act(F("bilinear")(x, y, self.weight, self.bias), self._act)


for _cls in (Linear, Conv2D, Pool2D, Embedding, Dropout, LayerNorm, PRelu, Flatten, Conv3D, Conv2DTranspose,
             Conv3DTranspose, GroupNorm, InstanceNorm, GRUUnit, BilinearTensorProduct):
    export(_cls, f"paddle.fluid.dygraph.{_cls.__name__}", f"paddle.fluid.dygraph.nn.{_cls.__name__}")
