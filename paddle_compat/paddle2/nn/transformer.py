"""MultiHeadAttention and the Transformer family, as Paddle 2.x builds them (sublayer names q_proj / k_proj /
v_proj / out_proj, linear1 / linear2, norm1..3, post-norm by default, `normalize_before` for pre-norm).
Masks: a bool or int mask becomes (mask - 1) * 1e9 added to the attention logits; a float mask is added as is."""

from __future__ import annotations

import collections
import copy
from typing import Any

import torch

from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.ops.nn_functional.activation import paddle_softmax
from paddle_compat.engine.ops.nn_functional.common import attention_heads, linear_many, linear_op
from paddle_compat.engine.ops.nn_functional.norm import layer_norm
from paddle_compat.engine.framework.lookup import F, P
from paddle_compat.paddle2.nn.common import Dropout, Linear
from paddle_compat.paddle2.nn.container import LayerList
from paddle_compat.paddle2.nn.layer import Layer, add_into, scratch
from paddle_compat.paddle2.nn.norm import LayerNorm
from paddle_compat.engine.framework.registry import export


def _param_attrs(attr: Any, n: int) -> list:
    if isinstance(attr, (list, tuple)):
        if len(attr) == 1:
            return [attr[0]] * n
        if len(attr) != n:
            raise ValueError(f"length of param attr should be 1 or {n}, but received {len(attr)}")
        return list(attr)
    if isinstance(attr, bool):
        return [attr] * n
    return [copy.copy(attr) if attr is not None else None for _ in range(n)]


def _convert_attention_mask(attn_mask: Any, dtype: Any) -> Any:
    if attn_mask is None:
        return None
    name = attn_mask.dtype.name if hasattr(attn_mask.dtype, "name") else str(attn_mask.dtype)
    if attn_mask.dtype == dtype:
        return attn_mask
    if name == "bool" or "int" in name:
        return P("scale")(P("cast")(attn_mask, dtype), scale=1e9, bias=-1.0, bias_after_scale=False)
    return P("cast")(attn_mask, dtype)


_PLAIN = (torch.Tensor, torch.nn.Parameter)


def _raw(p: Any) -> Any:
    return None if p is None else p._t

# activations computed into their input's buffer: torch's in-place form of the body's own kernel (same bits)
_ACT_INTO = {"relu": torch.relu_, "gelu": torch._C._nn.gelu_}


def _act_into(name: str, h: Any, scratch: bool) -> Any:
    """F.<name>(h), into h's own buffer when `scratch` (h a fresh intermediate nobody else holds)."""
    fn = _ACT_INTO.get(name) if scratch else None
    if fn is None or type(h._t) is not torch.Tensor or not h._t.is_floating_point():
        return F(name)(h)
    fn(h._t)
    return h


def _residual_add(residual: Any, x: Any, scratch: bool) -> Any:
    """paddle.add(residual, x), into x's buffer when `scratch` (x a fresh intermediate) and nothing broadcasts
    (layer.add_into)."""
    return x if scratch and add_into(x, residual) else P("add")(residual, x)


class MultiHeadAttention(Layer):
    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, kdim: int | None = None,
                 vdim: int | None = None, need_weights: bool = False, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"paddle.nn.MultiHeadAttention: embed_dim ({embed_dim}) and num_heads ({num_heads}) "
                             "must be positive")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.kdim, self.vdim = kdim or embed_dim, vdim or embed_dim
        self.dropout, self.need_weights = dropout, need_weights
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("paddle.nn.MultiHeadAttention: embed_dim must be divisible by num_heads")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x: Any) -> Any:
        x = P("reshape")(x, [0, 0, self.num_heads, self.head_dim])
        return P("transpose")(x, [0, 2, 1, 3])

    def compute_kv(self, key: Any, value: Any) -> tuple:
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key: Any, value: Any = None, type: Any = Cache) -> Any:  # noqa: A002
        if type == MultiHeadAttention.StaticCache:
            k, v = self.compute_kv(key, value if value is not None else key)
            return self.StaticCache(k, v)
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(P("full")(shape, 0.0, key.dtype), P("full")(shape, 0.0, key.dtype))
        return self.Cache(key, value)

    def _projection_tensors(self, x: torch.Tensor) -> tuple | None:
        """(weights, biases): the q / k / v projections' torch tensors, when all have a bias, are plain tensors and
        share x's dtype and device (what one GEMM of them needs); else None."""
        projs = (self.q_proj, self.k_proj, self.v_proj)
        ws = [p.weight._t for p in projs]
        bs = [p.bias._t if p.bias is not None else None for p in projs]
        if any(b is None for b in bs) or any(type(t) not in _PLAIN for t in (x, *ws, *bs)) or \
                len({(t.dtype, t.device) for t in (x, *ws, *bs)}) != 1:
            return None
        return ws, bs

    def _self_projections(self, query: Any) -> tuple | None:
        """Self-attention's q / k / v projections in inference as one GEMM (nn_functional.common.linear_many, which
        keeps each projection's bits), or None where the three sublayers must be called."""
        if not scratch(query, self.q_proj, self.k_proj, self.v_proj):
            return None
        wb = self._projection_tensors(query._t)
        if wb is None:
            return None
        q, k, v = linear_many(query._t, *wb, self.__dict__.setdefault("_qkv_concat", {}))
        return tuple(self._heads(Tensor._wrap(t)) for t in (q, k, v))

    def _attention_heads(self, x: torch.Tensor) -> tuple | None:
        """Self-attention's scaled q, k transposed and v of x in inference, from one GEMM in the layouts the
        attention's batched matmuls read (nn_functional.common.attention_heads: bit for bit the op-by-op values), as
        torch tensors; None where the projections' tensors do not allow it or the one GEMM would give other bits."""
        wb = self._projection_tensors(x)
        if wb is None:
            return None
        return attention_heads(x, *wb, self.__dict__.setdefault("_qkv_concat", {}), self.num_heads, self.head_dim,
                               self.head_dim ** -0.5)

    def _self_attention_heads(self, query: Any) -> tuple | None:
        """_attention_heads of a plain dygraph query whose projections have no hook, as paddle Tensors."""
        if not scratch(query, self.q_proj, self.k_proj, self.v_proj):
            return None
        heads = self._attention_heads(query._t)
        return None if heads is None else tuple(Tensor._wrap(t) for t in heads)

    def forward(self, query: Any, key: Any = None, value: Any = None, attn_mask: Any = None, cache: Any = None) -> Any:
        key = query if key is None else key
        value = query if value is None else value
        self_attention = cache is None and key is query and value is query
        heads = self._self_attention_heads(query) if self_attention else None
        if heads is not None:
            q, kt, v = heads
            product = P("matmul")(q, kt)
        else:
            qkv = self._self_projections(query) if self_attention else None
            if qkv is not None:
                q, k, v = qkv
            else:
                q = self._heads(self.q_proj(query))
                k, v = (cache.k, cache.v) if isinstance(cache, self.StaticCache) else self.compute_kv(key, value)
            if isinstance(cache, self.Cache):
                k = P("concat")([cache.k, k], 2)
                v = P("concat")([cache.v, v], 2)
                cache = self.Cache(k, v)
            product = P("matmul")(P("scale")(q, scale=self.head_dim ** -0.5), k, transpose_y=True)
        if attn_mask is not None:
            product = P("add")(product, _convert_attention_mask(attn_mask, product.dtype))
        weights = F("softmax")(product)
        if self.dropout:
            weights = F("dropout")(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = P("transpose")(P("matmul")(weights, v), [0, 2, 1, 3])
        out = self.out_proj(P("reshape")(out, [0, 0, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)


class TransformerEncoderLayer(Layer):
    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None, act_dropout: float | None = None,
                 normalize_before: bool = False, weight_attr: Any = None, bias_attr: Any = None,
                 layer_norm_eps: float = 1e-5) -> None:
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                            activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                            normalize_before=normalize_before, weight_attr=weight_attr, bias_attr=bias_attr,
                            layer_norm_eps=layer_norm_eps)
        super().__init__()
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        w, b = _param_attrs(weight_attr, 2), _param_attrs(bias_attr, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[0], bias_attr=b[0])
        self.linear1 = Linear(d_model, dim_feedforward, w[1], bias_attr=b[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[1], bias_attr=b[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self._act = activation

    def _direct(self, src: Any, src_mask: Any) -> Any:
        """The layer in inference with its sublayers' bodies called directly: what each sublayer's plain dygraph call
        computes (dispatch.body_shortcut's op bodies; Dropout in eval with upscale_in_train, the input itself), in the
        same order, through the same kernels, so the same bits; only the Layer calls and op dispatch around them are
        gone. The attention's q / k / v come from attention_heads, as MultiHeadAttention's own inference call does.
        None where that does not hold: a gradient, a hook on any sublayer, a sublayer of another type or in training
        mode, need_weights, another activation, or an error (the sublayers are then called, and raise Paddle's)."""
        layers = self.__dict__["_sub_layers"]  # the sublayers by dict lookups: Layer.__getattr__ costs ~1 us a name
        attn, act = layers.get("self_attn"), _ACT_INTO.get(self._act)
        if act is None or type(attn) is not MultiHeadAttention or attn.need_weights or attn.training or \
                not (type(attn.dropout) in (int, float) and 0 <= attn.dropout <= 1):
            return None
        projs = [attn.__dict__["_sub_layers"].get(n) for n in ("q_proj", "k_proj", "v_proj", "out_proj")]
        norms, linears, dropouts = ([layers.get(n) for n in names] for names in (
            ("norm1", "norm2"), ("linear1", "linear2"), ("dropout", "dropout1", "dropout2")))
        if any(type(ly) is not Linear for ly in (projs[3], *linears)) or \
                any(type(ly) is not LayerNorm for ly in norms) or \
                any(type(ly) is not Dropout or ly.training or ly.mode != "upscale_in_train" for ly in dropouts) or \
                not all(isinstance(ly, Layer) for ly in projs[:3]) or \
                not scratch(src, attn, *projs, *norms, *linears, *dropouts):
            return None
        try:
            return self._direct_run(src, src_mask, attn, act, projs[3], *norms, *linears)
        except Exception:  # noqa: BLE001 - the sublayers' calls raise Paddle's error
            return None

    def _direct_run(self, src: Any, src_mask: Any, attn: "MultiHeadAttention", act: Any, out_proj: Linear,
                    norm1: LayerNorm, norm2: LayerNorm, linear1: Linear, linear2: Linear) -> Any:
        def norm(ly: LayerNorm, t: torch.Tensor) -> torch.Tensor:
            p = ly.__dict__["_parameters"]
            return layer_norm.__paddle_op__.impl(t, ly._normalized_shape, _raw(p.get("weight")), _raw(p.get("bias")),
                                                 ly._epsilon)

        def linear(ly: Linear, t: torch.Tensor) -> torch.Tensor:
            p = ly.__dict__["_parameters"]
            return linear_op.__paddle_op__.impl(t, p["weight"]._t, _raw(p.get("bias")))

        x = src._t
        h = norm(norm1, x) if self.normalize_before else x
        heads = attn._attention_heads(h)
        if heads is None:
            return None
        q, kt, v = heads
        product = torch.matmul(q, kt)
        if src_mask is not None:  # MultiHeadAttention's own op for the mask
            p = Tensor._wrap(product)
            product = P("add")(p, _convert_attention_mask(src_mask, p.dtype))._t
        out = torch.matmul(paddle_softmax(product, -1), v)
        out = linear(out_proj, out.permute(0, 2, 1, 3).reshape(out.shape[0], out.shape[2], attn.embed_dim))
        if out.shape != x.shape or out.dtype != x.dtype:
            return None
        out.add_(x)  # the residual add into the attention's fresh result (_residual_add)
        if not self.normalize_before:
            out = norm(norm1, out)
        h = norm(norm2, out) if self.normalize_before else out
        f = linear(linear1, h)
        act(f)
        f = linear(linear2, f)
        f.add_(out)
        if not self.normalize_before:
            f = norm(norm2, f)
        return Tensor._wrap(f)

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        if cache is None:
            out = self._direct(src, src_mask)
            if out is not None:
                return out
        # inference: the attention's and the feed-forward's fresh results take the residual adds and the
        # activation into their own buffers (scratch: no gradient, no hooks that could keep them)
        into = scratch(src, self.self_attn, self.dropout1, self.linear1, self.dropout, self.linear2, self.dropout2)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, cache = self.self_attn(src, src, src, src_mask, cache)
        src = _residual_add(residual, self.dropout1(src), into)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(_act_into(self._act, self.linear1(src), into)))
        src = _residual_add(residual, self.dropout2(src), into)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src: Any) -> Any:
        return self.self_attn.gen_cache(src, type=MultiHeadAttention.Cache)


class TransformerEncoder(Layer):
    def __init__(self, encoder_layer: Layer, num_layers: int, norm: Any = None) -> None:
        super().__init__()
        self.layers = LayerList([encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        output, new_caches = src, []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, src_mask=src_mask)
            else:
                output, c = mod(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src: Any) -> list:
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None, act_dropout: float | None = None,
                 normalize_before: bool = False, weight_attr: Any = None, bias_attr: Any = None,
                 layer_norm_eps: float = 1e-5) -> None:
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                            activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                            normalize_before=normalize_before, weight_attr=weight_attr, bias_attr=bias_attr,
                            layer_norm_eps=layer_norm_eps)
        super().__init__()
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        w, b = _param_attrs(weight_attr, 3), _param_attrs(bias_attr, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[0], bias_attr=b[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[1], bias_attr=b[1])
        self.linear1 = Linear(d_model, dim_feedforward, w[2], bias_attr=b[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[2], bias_attr=b[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self._act = activation

    def forward(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None, cache: Any = None) -> Any:
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, inc = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = P("add")(residual, self.dropout1(tgt))
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = P("add")(residual, self.dropout2(tgt))
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(F(self._act)(self.linear1(tgt))))
        tgt = P("add")(residual, self.dropout3(tgt))
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (inc, static))

    def gen_cache(self, memory: Any) -> tuple:
        return (self.self_attn.gen_cache(memory, type=MultiHeadAttention.Cache),
                self.cross_attn.gen_cache(memory, memory, type=MultiHeadAttention.StaticCache))


class TransformerDecoder(Layer):
    def __init__(self, decoder_layer: Layer, num_layers: int, norm: Any = None) -> None:
        super().__init__()
        self.layers = LayerList([decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None, cache: Any = None) -> Any:
        output, new_caches = tgt, []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=None)
            else:
                output, c = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory: Any, do_zip: bool = False) -> list:
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


class Transformer(Layer):
    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1, activation: str = "relu",
                 attn_dropout: float | None = None, act_dropout: float | None = None, normalize_before: bool = False,
                 weight_attr: Any = None, bias_attr: Any = None, custom_encoder: Any = None,
                 custom_decoder: Any = None) -> None:
        super().__init__()
        if isinstance(bias_attr, (list, tuple)) and len(bias_attr) not in (1, 2, 3):
            raise ValueError("paddle.nn.Transformer: length of bias_attr should be 1, 2 or 3")
        ew = weight_attr[:2] if isinstance(weight_attr, (list, tuple)) and len(weight_attr) == 3 else weight_attr
        eb = bias_attr[:2] if isinstance(bias_attr, (list, tuple)) and len(bias_attr) == 3 else bias_attr
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, ew, eb)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, weight_attr, bias_attr)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src: Any, tgt: Any, src_mask: Any = None, tgt_mask: Any = None, memory_mask: Any = None) -> Any:
        memory = self.encoder(src, src_mask=src_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length: int) -> Any:
        return P("triu")(P("full")([int(length), int(length)], float("-inf"), "float32"), 1)


for _cls in (MultiHeadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer,
             TransformerDecoder, Transformer):
    export(_cls, f"paddle.nn.{_cls.__name__}")
