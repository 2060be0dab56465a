"""fluid.contrib LoD text-matching layers of 1.8.5 (contrib/layers/nn.py): match_matrix_tensor, sequence_topk_avg_pooling, var_conv_2d. Op
bodies live
in paddle_compat/engine/ops/text_matching.py."""

from __future__ import annotations

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.ops.text_matching import (match_matrix_tensor_lod_op, match_matrix_tensor_op,
                                              sequence_topk_avg_pooling_op, var_conv_2d_lod_op, var_conv_2d_op)
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.ops.sequence import _attach, _static_only, lod_of
from paddle_compat.engine.static.param import create_parameter_impl

C = "paddle.fluid.contrib."


def match_matrix_tensor(x, y, channel_num, act=None, param_attr=None, dtype="float32", name=None):
    """Semantic matching matrix of two LoD sequences x [Nx, d], y [Ny, d] through a learned W [d, channel_num, d]:
    returns (out [sum_b channel_num*len_x_b*len_y_b, 1] with that LoD, tmp = x @ W flattened to a column)."""
    api = "fluid.contrib.match_matrix_tensor"
    _static_only("match_matrix_tensor", x)
    xs, ys = list(x.shape), list(y.shape)
    if len(xs) != 2 or len(ys) != 2 or xs[-1] != ys[-1]:
        raise InvalidArgumentError(f"{api}: x and y must be 2-D LoD tensors with the same last dimension, got "
                                   f"x {xs} and y {ys}")
    x_offs, y_offs = lod_of(x, api), lod_of(y, api)
    with layer_helper("match_matrix_tensor", name) as prefix:
        w = create_parameter_impl([xs[-1], channel_num, ys[-1]], dtype, param_attr, False, prefix=prefix)
        out = match_matrix_tensor_op(x, y, w, x_offs, y_offs, int(channel_num))
        offs = match_matrix_tensor_lod_op(x_offs, y_offs, int(channel_num))
        tmp = P("paddle.reshape")(P("paddle.matmul")(x, P("paddle.reshape")(w, [xs[-1], -1])), [-1, 1])
        tmp.stop_gradient = True
        return _attach(act_layer(_attach(out, offs), act), offs), tmp


export(match_matrix_tensor, C + "match_matrix_tensor", C + "layers.match_matrix_tensor",
       C + "layers.nn.match_matrix_tensor")


def sequence_topk_avg_pooling(input, row, col, topks, channel_num):  # noqa: A002
    """Top-k average pooling over the columns of a LoD [channel_num, rows, cols] matrix per sequence (as
    match_matrix_tensor gives): -> [sum rows, channel_num * len(topks)] with row's LoD."""
    api = "fluid.contrib.sequence_topk_avg_pooling"
    _static_only("sequence_topk_avg_pooling", input)
    topks = [int(k) for k in topks]
    if not topks or min(topks) < 1 or topks != sorted(topks):
        raise InvalidArgumentError(f"{api}: topks must be positive and ascending (the last is the largest k), got "
                                   f"{topks}")
    row_offs = lod_of(row, api)
    with layer_helper("sequence_topk_avg_pooling"):
        out = sequence_topk_avg_pooling_op(input, lod_of(input, api), row_offs, lod_of(col, api), topks,
                                           int(channel_num))
    return _attach(out, row_offs)


export(sequence_topk_avg_pooling, C + "sequence_topk_avg_pooling", C + "layers.sequence_topk_avg_pooling",
       C + "layers.nn.sequence_topk_avg_pooling")


def var_conv_2d(input, row, col, input_channel, output_channel, filter_size, stride=1, param_attr=None,  # noqa: A002
                act=None, dtype="float32", name=None):
    """2-D convolution over variable-size LoD images (sequence b of input: [input_channel, rows_b, cols_b], the
    sizes from row's and col's LoD), filter [output_channel, input_channel * fh * fw]: -> a LoD column of
    output_channel * ceil(rows/sh) * ceil(cols/sw) values per sequence."""
    api = "fluid.contrib.var_conv_2d"
    _static_only("var_conv_2d", input)
    fh, fw = _pair(filter_size, "filter_size", api)
    sh, sw = _pair(stride, "stride", api)
    row_offs, col_offs = lod_of(row, api), lod_of(col, api)
    with layer_helper("var_conv_2d", name) as prefix:
        w = create_parameter_impl([int(output_channel), int(input_channel) * fh * fw], dtype, param_attr, False,
                                  prefix=prefix)
        out = var_conv_2d_op(input, w, lod_of(input, api), row_offs, col_offs, int(input_channel), fh, fw, sh, sw)
        offs = var_conv_2d_lod_op(row_offs, col_offs, int(output_channel), sh, sw)
        return _attach(act_layer(_attach(out, offs), act), offs)


def _pair(v, what: str, api: str) -> tuple[int, int]:
    vals = [int(i) for i in v] if isinstance(v, (list, tuple)) else [int(v)] * 2
    if len(vals) != 2 or min(vals) < 1:
        raise InvalidArgumentError(f"{api}: {what} must be a positive int or a pair of them, got {v!r}")
    return vals[0], vals[1]


export(var_conv_2d, C + "var_conv_2d", C + "layers.var_conv_2d", C + "layers.nn.var_conv_2d")
