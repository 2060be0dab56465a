"""paddle.incubate.nn's fused layers and functions, as the unfused computations they fuse.

Paddle 2.6 runs these on GPU only (CUDA kernels: fused_gemm_epilogue, fused_feedforward, rms_norm, ...); here each
is its documented pseudo-code over the public paddle functions, so it runs on CPU and CUDA, in dygraph and in
static programs, with the same parameters (names, shapes, initializers) as Paddle's layers:
- fused_matmul_bias / fused_linear / fused_linear_activation (gelu, relu), FusedLinear;
- fused_dropout_add, FusedDropout, FusedDropoutAdd;
- fused_bias_dropout_residual_layer_norm: layer_norm(residual + dropout(x + bias)), and its layer;
- fused_feedforward: [layer_norm1] -> linear1 -> act -> dropout1 -> linear2 -> [residual +] dropout2
  [-> layer_norm2], and FusedFeedForward;
- fused_rms_norm / fused_layer_norm of x + bias + residual (returning (out, residual_out) with a residual);
- fused_rotary_position_embedding with given sin / cos (pairs of adjacent elements with
  use_neox_rotary_style=True, as Paddle documents, else the two halves).
The attention / transformer / MoE / decoding kernels (fused_multi_head_attention, fused_multi_transformer,
masked_multihead_attention, block_multihead_attention, variable_length_memory_efficient_attention,
fused_ec_moe, fused_gate_attention) raise UnsupportedAPIError: they are inference kernels with their own cache
layouts."""

from __future__ import annotations

from typing import Any

from paddle_compat._export import unsupported_stub
from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export

_F = "paddle.incubate.nn.functional"
_N = "paddle.incubate.nn"
_ACTS = {"relu": "paddle.nn.functional.relu", "gelu": "paddle.nn.functional.gelu"}


def _act(x: Any, activation: Any, api: str) -> Any:
    if activation in (None, "none", "identity"):
        return x
    if activation not in _ACTS:
        raise ValueError(f"{api}: activation should be 'gelu', 'relu' or None, but received {activation!r}")
    return P(_ACTS[activation])(x)


def fused_matmul_bias(x, y, bias=None, transpose_x=False, transpose_y=False, name=None):
    out = P("paddle.matmul")(x, y, transpose_x=transpose_x, transpose_y=transpose_y)
    return out if bias is None else out + bias


def fused_linear(x, weight, bias=None, transpose_weight=False, name=None):
    return fused_matmul_bias(x, weight, bias, False, transpose_weight)


def fused_linear_activation(x, y, bias, trans_x=False, trans_y=False, activation=None):
    return _act(fused_matmul_bias(x, y, bias, trans_x, trans_y), activation, f"{_F}.fused_linear_activation")


def _dropout(x: Any, p: float, training: bool, mode: str) -> Any:
    return P("paddle.nn.functional.dropout")(x, p=p, training=training, mode=mode) if p else x


def fused_dropout_add(x, y, p=0.5, training=True, mode="upscale_in_train", name=None):
    """dropout(x) + y."""
    return _dropout(x, p, training, mode) + y


def _layer_norm(x: Any, scale: Any, bias: Any, eps: float, begin_axis: int = -1) -> Any:
    shape = list(x.shape)[begin_axis:] if begin_axis != -1 else [x.shape[-1]]
    return P("paddle.nn.functional.layer_norm")(x, shape, weight=scale, bias=bias, epsilon=eps)


def fused_bias_dropout_residual_layer_norm(x, residual, bias=None, ln_scale=None, ln_bias=None, dropout_rate=0.5,
                                           ln_epsilon=1e-5, training=True, mode="upscale_in_train", name=None):
    """layer_norm(residual + dropout(x + bias))."""
    h = x if bias is None else x + bias
    return _layer_norm(residual + _dropout(h, dropout_rate, training, mode), ln_scale, ln_bias, ln_epsilon)


def fused_feedforward(x, linear1_weight, linear2_weight, linear1_bias=None, linear2_bias=None, ln1_scale=None,
                      ln1_bias=None, ln2_scale=None, ln2_bias=None, dropout1_rate=0.5, dropout2_rate=0.5,
                      activation="relu", ln1_epsilon=1e-5, ln2_epsilon=1e-5, pre_layer_norm=False, training=True,
                      mode="upscale_in_train", ring_id=-1, add_residual=True, name=None):
    """Paddle's documented pseudo-code: [ln1] -> linear1 -> act -> dropout1 -> linear2 -> [x +] dropout2 -> [ln2]."""
    api = f"{_F}.fused_feedforward"
    if ring_id != -1:
        raise UnsupportedAPIError(f"{api}(ring_id={ring_id})", "the tensor-parallel feed-forward is not provided")
    out = _layer_norm(x, ln1_scale, ln1_bias, ln1_epsilon) if pre_layer_norm else x
    out = _act(fused_matmul_bias(out, linear1_weight, linear1_bias), activation, api)
    out = fused_matmul_bias(_dropout(out, dropout1_rate, training, mode), linear2_weight, linear2_bias)
    out = _dropout(out, dropout2_rate, training, mode)
    out = x + out if add_residual else out
    return out if pre_layer_norm else _layer_norm(out, ln2_scale, ln2_bias, ln2_epsilon)


def _pre_norm_sum(x: Any, bias: Any, residual: Any) -> Any:
    h = x if bias is None else x + bias
    return h if residual is None else h + residual


def _no_quant(api: str, quant_scale: float) -> None:
    if quant_scale > 0:
        raise UnsupportedAPIError(f"{api}(quant_scale={quant_scale})", "int8 quantised output is not provided")


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis, bias=None, residual=None, quant_scale=-1,
                   quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """RMSNorm of h = x + bias + residual over the axes from begin_norm_axis: h / sqrt(mean(h^2) + eps) * weight
    + norm_bias; (out, h) when a residual is given."""
    _no_quant(f"{_F}.fused_rms_norm", quant_scale)
    h = _pre_norm_sum(x, bias, residual)
    axes = list(range(begin_norm_axis % len(h.shape), len(h.shape)))
    out = h * P("paddle.rsqrt")(P("paddle.mean")(h * h, axis=axes, keepdim=True) + epsilon) * norm_weight
    out = out if norm_bias is None else out + norm_bias
    return (out, h) if residual is not None else out


def fused_layer_norm(x, norm_weight, norm_bias, epsilon, residual_alpha=1.0, begin_norm_axis=1, bias=None,
                     residual=None, quant_scale=-1, quant_round_type=0, quant_max_bound=0, quant_min_bound=0):
    """LayerNorm of h = x + bias + residual_alpha * residual over the axes from begin_norm_axis; (out, h) when a
    residual is given."""
    _no_quant(f"{_F}.fused_layer_norm", quant_scale)
    h = _pre_norm_sum(x, bias, None if residual is None else residual * residual_alpha)
    out = _layer_norm(h, norm_weight, norm_bias, epsilon, begin_norm_axis % len(h.shape))
    return (out, h) if residual is not None else out


def _rotate(x: Any, sin: Any, cos: Any, neox: bool) -> Any:
    if neox:  # adjacent pairs (2i, 2i + 1)
        even, odd = x[..., 0::2], x[..., 1::2]
        rot = P("paddle.stack")([-odd, even], axis=-1).reshape(x.shape)
    else:  # the two halves
        half = x.shape[-1] // 2
        rot = P("paddle.concat")([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rot * sin


def fused_rotary_position_embedding(q, k=None, v=None, sin=None, cos=None, position_ids=None,
                                    use_neox_rotary_style=True):
    """(out_q, out_k, out_v): x * cos + rotate(x) * sin for each given input [batch, seq, heads, head_dim];
    sin / cos are [seq, head_dim] or [1, seq, 1, head_dim], gathered by position_ids [batch, seq] when given."""
    api = f"{_F}.fused_rotary_position_embedding"
    if sin is None or cos is None:
        raise UnsupportedAPIError(f"{api} without sin / cos", "pass the sin and cos tables")
    seq, dim = q.shape[1], q.shape[-1]
    sin, cos = (t.reshape([-1, dim]) for t in (sin, cos))
    if position_ids is not None:
        sin, cos = (P("paddle.gather")(t, position_ids.reshape([-1])).reshape([-1, seq, 1, dim]) for t in (sin, cos))
    else:
        sin, cos = (t[:seq].reshape([1, seq, 1, dim]) for t in (sin, cos))
    return tuple(None if t is None else _rotate(t, sin, cos, use_neox_rotary_style) for t in (q, k, v))


_FUNCS = (fused_matmul_bias, fused_linear, fused_linear_activation, fused_dropout_add,
          fused_bias_dropout_residual_layer_norm, fused_feedforward, fused_rms_norm, fused_layer_norm,
          fused_rotary_position_embedding)
for _fn in _FUNCS:
    export(_fn, f"{_F}.{_fn.__name__}")


# ------------------------------------------------------------------------------------------------ layers
class FusedLinear(Layer):
    """Linear with weight [in_features, out_features] ([out, in] with transpose_weight)."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, transpose_weight=False,
                 name=None):
        super().__init__()
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self.weight = self.create_parameter(shape=shape, attr=weight_attr, is_bias=False)
        self.bias = self.create_parameter(shape=[out_features], attr=bias_attr, is_bias=True)
        self.transpose_weight, self.name = transpose_weight, name

    def forward(self, input):  # noqa: A002 - Paddle's name
        return fused_linear(input, self.weight, self.bias, self.transpose_weight, self.name)


class FusedDropout(Layer):
    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.axis, self.mode, self.name = p, axis, mode, name

    def forward(self, input):  # noqa: A002 - Paddle's name
        return P("paddle.nn.functional.dropout")(input, p=self.p, axis=self.axis, training=self.training,
                                                 mode=self.mode)


class FusedDropoutAdd(Layer):
    def __init__(self, p=0.5, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.mode, self.name = p, mode, name

    def forward(self, x, y):
        return fused_dropout_add(x, y, self.p, self.training, self.mode)


def _ones(layer: Layer, shape: list, attr: Any) -> Any:
    return layer.create_parameter(shape=shape, attr=attr, is_bias=False,
                                  default_initializer=P("paddle.nn.initializer.Constant")(1.0))


class FusedBiasDropoutResidualLayerNorm(Layer):
    """Parameters linear_bias (zeros), ln_scale (ones), ln_bias (zeros), all [embed_dim]."""

    def __init__(self, embed_dim, dropout_rate=0.5, weight_attr=None, bias_attr=None, epsilon=1e-5, name=None):
        super().__init__()
        assert embed_dim > 0, f"Expected embed_dim to be greater than 0, but received {embed_dim}"
        self.embed_dim = embed_dim
        self.linear_bias = self.create_parameter(shape=[embed_dim], attr=bias_attr, is_bias=True)
        self.ln_scale = _ones(self, [embed_dim], weight_attr)
        self.ln_bias = self.create_parameter(shape=[embed_dim], attr=bias_attr, is_bias=True)
        self.dropout_rate, self._epsilon, self.name = dropout_rate, epsilon, name

    def forward(self, x, residual):
        return fused_bias_dropout_residual_layer_norm(x, residual, self.linear_bias, self.ln_scale, self.ln_bias,
                                                      self.dropout_rate, self._epsilon, self.training)


class FusedFeedForward(Layer):
    """Parameters _linear1_weight [d_model, dim_feedforward], _linear1_bias, _linear2_weight, _linear2_bias, and
    _ln1_* (normalize_before) or _ln2_* (after), as Paddle's layer."""

    def __init__(self, d_model, dim_feedforward, dropout_rate=0.1, epsilon=1e-05, activation="relu",
                 act_dropout_rate=None, normalize_before=False, linear1_weight_attr=None, linear1_bias_attr=None,
                 linear2_weight_attr=None, linear2_bias_attr=None, ln1_scale_attr=None, ln1_bias_attr=None,
                 ln2_scale_attr=None, ln2_bias_attr=None, nranks=1, ring_id=-1, name=None):
        super().__init__()
        assert d_model > 0, f"Expected d_model to be greater than 0, but received {d_model}"
        assert dim_feedforward > 0, f"Expected dim_feedforward to be greater than 0, but received {dim_feedforward}"
        if nranks > 1:
            raise UnsupportedAPIError(f"{_N}.FusedFeedForward(nranks={nranks})",
                                      "the tensor-parallel feed-forward is not provided")
        self._d_model, self._dim_feedforward = d_model, dim_feedforward
        self._dropout_rate = dropout_rate
        self._act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self._act_method, self._normalize_before, self._epsilon, self.name = activation, normalize_before, epsilon, name
        cp = self.create_parameter
        self._linear1_weight = cp(shape=[d_model, dim_feedforward], attr=linear1_weight_attr, is_bias=False)
        self._linear1_bias = cp(shape=[dim_feedforward], attr=linear1_bias_attr, is_bias=True)
        self._linear2_weight = cp(shape=[dim_feedforward, d_model], attr=linear2_weight_attr, is_bias=False)
        self._linear2_bias = cp(shape=[d_model], attr=linear2_bias_attr, is_bias=True)
        if normalize_before:
            self._ln1_scale = _ones(self, [d_model], ln1_scale_attr)
            self._ln1_bias = cp(shape=[d_model], attr=ln1_bias_attr, is_bias=True)
            self._ln2_scale = self._ln2_bias = None
        else:
            self._ln1_scale = self._ln1_bias = None
            self._ln2_scale = _ones(self, [d_model], ln2_scale_attr)
            self._ln2_bias = cp(shape=[d_model], attr=ln2_bias_attr, is_bias=True)

    def forward(self, src, cache=None):
        return fused_feedforward(src, self._linear1_weight, self._linear2_weight, self._linear1_bias,
                                 self._linear2_bias, self._ln1_scale, self._ln1_bias, self._ln2_scale, self._ln2_bias,
                                 dropout1_rate=self._act_dropout_rate, dropout2_rate=self._dropout_rate,
                                 activation=self._act_method, ln1_epsilon=self._epsilon, ln2_epsilon=self._epsilon,
                                 pre_layer_norm=self._normalize_before, training=self.training)


for _cls in (FusedLinear, FusedDropout, FusedDropoutAdd, FusedBiasDropoutResidualLayerNorm, FusedFeedForward):
    export(_cls, f"{_N}.{_cls.__name__}")


_KERNEL_ONLY = ("a fused GPU inference kernel with its own cache layout; compose it from paddle.nn layers "
                "(paddle.nn.MultiHeadAttention, TransformerEncoderLayer)")
for _path in [f"{_F}.{n}" for n in ("fused_multi_head_attention", "fused_multi_transformer", "fused_ec_moe",
                                     "fused_gate_attention", "masked_multihead_attention", "block_multihead_attention",
                                     "variable_length_memory_efficient_attention")] + \
             [f"{_N}.{n}" for n in ("FusedMultiHeadAttention", "FusedTransformerEncoderLayer", "FusedMultiTransformer",
                                    "FusedEcMoe")]:
    export(unsupported_stub(_path, "class" if _path.rpartition(".")[2][:1].isupper() else "function", _KERNEL_ONLY),
           _path)
