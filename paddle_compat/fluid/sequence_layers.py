"""fluid 1.x sequence layers that create parameters: sequence_conv, dynamic_lstm, dynamic_gru, linear_chain_crf,
crf_decoding (which reads linear_chain_crf's transition parameter) and row_conv. Each creates its parameters with
Paddle's names and calls the registry op (engine/ops/sequence.py), which carries the LoD offsets."""

from __future__ import annotations

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.program import default_main_program
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.ops.sequence import (_api, _attach, _static_only, crf_decoding_op, crf_decoding_padded_op,
                                        dynamic_gru_op, dynamic_lstm_op, linear_chain_crf_op,
                                        linear_chain_crf_padded_op, lod_of, row_conv_op, sequence_conv_op)
from paddle_compat.engine.static.param import ParamAttr, create_parameter_impl


def sequence_conv(input, num_filters, filter_size=3, filter_stride=1, padding=True, padding_start=None,  # noqa: A002
                  bias_attr=None, param_attr=None, act=None, name=None):
    _static_only("sequence_conv", input)
    offs = lod_of(input, _api("sequence_conv"))
    start = -int(filter_size // 2) if padding_start is None else int(padding_start)
    with layer_helper("sequence_conv", name) as prefix:
        w = create_parameter_impl([filter_size * input.shape[1], num_filters], input.dtype, param_attr, False,
                                  prefix=prefix)
        out = sequence_conv_op(input, offs, w, filter_size, start, filter_stride)
        b = create_parameter_impl([num_filters], input.dtype, bias_attr, True, prefix=prefix)
        if b is not None:
            out = P("paddle.fluid.layers.elementwise_add")(out, b, axis=1)
        return _attach(act_layer(out, act), offs)

def dynamic_lstm(input, size, h_0=None, c_0=None, param_attr=None, bias_attr=None, use_peepholes=True,  # noqa: A002
                 is_reverse=False, gate_activation="sigmoid", cell_activation="tanh", candidate_activation="tanh",
                 dtype="float32", name=None):
    """input [N, 4H] (already projected, e.g. by fc); size = 4H; returns (hidden, cell), both [N, H]."""
    _static_only("dynamic_lstm", input)
    if size % 4:
        raise ValueError(f"fluid.layers.dynamic_lstm: size must be 4 * hidden size, got {size}")
    hid = size // 4
    offs = lod_of(input, _api("dynamic_lstm"))
    with layer_helper("lstm", name) as prefix:
        w = create_parameter_impl([hid, 4 * hid], dtype, param_attr, False, prefix=prefix)
        b = create_parameter_impl([1, 7 * hid if use_peepholes else 4 * hid], dtype, bias_attr, True, prefix=prefix)
        if b is None:
            b = P("paddle.zeros")([1, 7 * hid if use_peepholes else 4 * hid], dtype)
        h, c = dynamic_lstm_op(input, offs, w, b, h_0, c_0, use_peepholes, is_reverse, gate_activation,
                               cell_activation, candidate_activation)
    return _attach(h, offs), _attach(c, offs)


def dynamic_gru(input, size, param_attr=None, bias_attr=None, is_reverse=False, gate_activation="sigmoid",  # noqa: A002
                candidate_activation="tanh", h_0=None, origin_mode=False):
    """input [N, 3H] (already projected); size = H; returns hidden [N, H]."""
    _static_only("dynamic_gru", input)
    offs = lod_of(input, _api("dynamic_gru"))
    with layer_helper("gru") as prefix:
        w = create_parameter_impl([size, 3 * size], input.dtype, param_attr, False, prefix=prefix)
        b = create_parameter_impl([1, 3 * size], input.dtype, bias_attr, True, prefix=prefix)
        h = dynamic_gru_op(input, offs, w, b, h_0, is_reverse, gate_activation, candidate_activation, origin_mode)
    return _attach(h, offs)

def linear_chain_crf(input, label, param_attr=None, length=None):  # noqa: A002
    """Creates the transition parameter [D + 2, D] and returns the negative log-likelihood [B, 1]. LoD input
    [N, D] and label [N, 1], or (length given) padded input [B, T, D], label [B, T, 1], length [B, 1]."""
    if length is None:
        _static_only("linear_chain_crf", input)
        offs = lod_of(input, _api("linear_chain_crf"))
    elif len(input.shape) != 3:
        raise InvalidArgumentError(f"{_api('linear_chain_crf')}: with length, input must be [batch, max_len, "
                                   f"num_tags], got shape {list(input.shape)}")
    d = input.shape[-1]
    with layer_helper("linear_chain_crf") as prefix:
        tr = create_parameter_impl([d + 2, d], input.dtype, param_attr, False, prefix=prefix)
        if length is not None:
            return linear_chain_crf_padded_op(input, length, tr, label)
        return linear_chain_crf_op(input, offs, tr, label)


def crf_decoding(input, param_attr, label=None, length=None):  # noqa: A002
    """Viterbi decoding with the transition parameter named by param_attr (shared with linear_chain_crf)."""
    if length is None:
        _static_only("crf_decoding", input)
    attr = ParamAttr._to_attr(param_attr)
    block = default_main_program().global_block()
    if not attr or attr.name not in block.vars:
        raise InvalidArgumentError("fluid.layers.crf_decoding: param_attr must name the transition parameter "
                                   "created by linear_chain_crf")
    if length is not None:
        return crf_decoding_padded_op(input, length, block.vars[attr.name], label)
    offs = lod_of(input, _api("crf_decoding"))
    return _attach(crf_decoding_op(input, offs, block.vars[attr.name], label), offs)

def row_conv(input, future_context_size, param_attr=None, act=None):  # noqa: A002
    """fluid.layers.row_conv: filter [future_context_size + 1, D] (`row_conv_N.w_0`); LoD input [T, D] (static
    mode) or a padded [B, T, D] input."""
    offs = None
    if len(input.shape) == 2:
        _static_only("row_conv", input)
        offs = lod_of(input, _api("row_conv"))
    elif len(input.shape) != 3:
        raise InvalidArgumentError(f"{_api('row_conv')}: input must be a LoD [T, D] or a padded [B, T, D] tensor, got "
                                   f"shape {list(input.shape)}")
    with layer_helper("row_conv") as prefix:
        w = create_parameter_impl([int(future_context_size) + 1, input.shape[-1]], input.dtype, param_attr, False,
                                  prefix=prefix)
        out = row_conv_op(input, offs, w)
    out = act_layer(out, act)
    return _attach(out, offs) if offs is not None else out


for _fn in (sequence_conv, dynamic_lstm, dynamic_gru, linear_chain_crf, crf_decoding):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
export(row_conv, "paddle.fluid.layers.row_conv", "paddle.static.nn.row_conv")
