"""Static layers that create parameters: fc, conv2d, batch_norm (fluid.layers.* and paddle.static.nn.*).

Each composes registry ops inside a `layer_helper` so outputs are named like Paddle's (`fc_0.tmp_0`)
and parameters `fc_0.w_0` / `fc_0.b_0`; the op list matches Paddle's (`mul`, `elementwise_add`, act).
"""

from __future__ import annotations

import math
from typing import Any

from paddle_compat.engine.core.mode import static_entry_point
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.ops.tensor import math as m
from paddle_compat.engine.static import initializer as init_mod
from paddle_compat.engine.static.param import ParamAttr, create_parameter_impl


def _prod(v) -> int:
    n = 1
    for d in v:
        n *= d
    return n


def _fc(inputs: Any, size: int, num_flatten_dims: int, weight_attr: Any, bias_attr: Any, act: str | None,
        name: str | None, api: str):
    static_entry_point()
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    wattrs = ParamAttr._to_attr(weight_attr)
    if not isinstance(wattrs, list):
        wattrs = [wattrs] * len(inputs)
    with layer_helper("fc", name) as prefix:
        outs = []
        for x, wattr in zip(inputs, wattrs):
            in_dims = list(x.shape)[num_flatten_dims:]
            if any(d < 0 for d in in_dims):
                raise ValueError(
                    f"{api}: the dims of input {x.name!r} after num_flatten_dims={num_flatten_dims} must be "
                    f"known, but its shape is {list(x.shape)}"
                )
            w = create_parameter_impl([_prod(in_dims), size], x.dtype, wattr, False, prefix=prefix)
            outs.append(m.mul(x, w, x_num_col_dims=num_flatten_dims, y_num_col_dims=1))
        pre_bias = outs[0] if len(outs) == 1 else m.add_n(outs)
        b = create_parameter_impl([size], pre_bias.dtype, bias_attr, True, prefix=prefix)
        pre_act = pre_bias if b is None else m.elementwise_add(pre_bias, b, axis=num_flatten_dims)
        return act_layer(pre_act, act)


def fluid_fc(input, size, num_flatten_dims=1, param_attr=None, bias_attr=None, act=None, name=None):  # noqa: A002
    return _fc(input, size, num_flatten_dims, param_attr, bias_attr, act, name, "fluid.layers.fc")


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None, name=None):
    return _fc(x, size, num_flatten_dims, weight_attr, bias_attr, activation, name, "paddle.static.nn.fc")


export(fluid_fc, "paddle.fluid.layers.fc")
export(fc, "paddle.static.nn.fc")


def conv_filter(channels: int, num_filters: int, k: list[int], groups: int, transposed: bool = False) -> tuple:
    """(shape, default initializer) of a fluid 1.8 convolution filter, static or dygraph: [num_filters,
    channels / groups, k...] with Normal(0, sqrt(2 / (prod(k) * channels))); transposed [channels,
    num_filters / groups, k...] with the parameter default (None: Xavier)."""
    if transposed:
        return [channels, num_filters // groups] + list(k), None
    std = math.sqrt(2.0 / (math.prod(k) * channels))
    return [num_filters, channels // groups] + list(k), init_mod.NormalInitializer(0.0, std)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,  # noqa: A002
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """fluid.layers.conv2d / paddle.static.nn.conv2d: weight [num_filters, C/groups, kh, kw],
    default init Normal(0, sqrt(2 / (kh*kw*C)))."""
    from paddle_compat.engine.ops.nn_functional.conv import conv2d_op

    static_entry_point()
    if len(input.shape) != 4:
        raise ValueError(f"conv2d: the input should be 4-D, but received shape {list(input.shape)}")
    channels = input.shape[1] if data_format == "NCHW" else input.shape[3]
    groups = groups or 1
    if channels < 0 or channels % groups:
        raise ValueError(f"conv2d: the channel dim {channels} of input {input.name!r} must be known and "
                         f"divisible by groups={groups}")
    k = [filter_size] * 2 if isinstance(filter_size, int) else list(filter_size)
    shape, init = conv_filter(channels, num_filters, k, groups)
    # Paddle (1.8 and 2.x) makes a depthwise conv without cuDNN a `depthwise_conv2d` layer, so its unnamed
    # parameters are depthwise_conv2d_N.w_0 / .b_0 (checkpoints of DARTS, MobileNets with use_cudnn=False).
    l_type = "depthwise_conv2d" if channels == groups and num_filters % channels == 0 and not use_cudnn else "conv2d"
    with layer_helper(l_type, name) as prefix:
        w = create_parameter_impl(shape, input.dtype, param_attr, False, default_initializer=init, prefix=prefix)
        out = conv2d_op(input, w, stride=stride, padding=padding, dilation=dilation, groups=groups,
                        data_format=data_format)
        spatial = list(out.shape[2:] if data_format == "NCHW" else out.shape[1:3])
        if 0 in spatial:  # Paddle 1.8's InferShape refuses an empty output (2.6's dygraph op returns it)
            raise ValueError(f"conv2d: the output's size is expected to be greater than 0, but it is {spatial} for "
                             f"input {input.name!r} of shape {list(input.shape)}, filter_size {k}, stride {stride}, "
                             f"padding {padding}, dilation {dilation}")
        b = create_parameter_impl([num_filters], input.dtype, bias_attr, True, prefix=prefix)
        if b is not None:
            out = m.elementwise_add(out, b, axis=1 if data_format == "NCHW" else 3)
        return act_layer(out, act)


export(conv2d, "paddle.fluid.layers.conv2d", "paddle.static.nn.conv2d")


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,  # noqa: A002
               bias_attr=None, data_layout="NCHW", in_place=False, name=None, moving_mean_name=None,
               moving_variance_name=None, do_model_average_for_mean_and_var=True, use_global_stats=False):
    """fluid.layers.batch_norm / paddle.static.nn.batch_norm: scale w_0, bias b_0, moving mean w_1 and
    moving variance w_2 (persistable, not trainable)."""
    from paddle_compat.engine.ops.nn_functional.norm import batch_norm_op

    static_entry_point()
    c = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    with layer_helper("batch_norm", name) as prefix:
        scale = create_parameter_impl([c], input.dtype, param_attr, False,
                                      default_initializer=init_mod.ConstantInitializer(1.0), prefix=prefix)
        bias = create_parameter_impl([c], input.dtype, bias_attr, True, prefix=prefix)
        mean = create_parameter_impl([c], input.dtype, ParamAttr(name=moving_mean_name, trainable=False,
                                                                 initializer=init_mod.ConstantInitializer(0.0)),
                                     False, prefix=prefix)
        var = create_parameter_impl([c], input.dtype, ParamAttr(name=moving_variance_name, trainable=False,
                                                                initializer=init_mod.ConstantInitializer(1.0)),
                                    False, prefix=prefix)
        out = batch_norm_op(input, mean, var, scale, bias, is_test=is_test, momentum=momentum, epsilon=epsilon,
                            data_format=data_layout, use_global_stats=use_global_stats)
        return act_layer(out, act)


export(batch_norm, "paddle.fluid.layers.batch_norm", "paddle.static.nn.batch_norm")
