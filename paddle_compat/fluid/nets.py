"""fluid.nets (Paddle 1.8): small networks composed of fluid.layers, so they record in static mode, run in
dygraph, and name their parameters as the layers they call do (conv2d_0.w_0, batch_norm_0.w_0, ...)."""

from __future__ import annotations

from typing import Any

from paddle_compat.paddle2.utils.nest import check_variable_and_dtype
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export


def _l(name: str):
    return P(f"paddle.fluid.layers.{name}")


def simple_img_conv_pool(input, num_filters, filter_size, pool_size, pool_stride, pool_padding=0,  # noqa: A002
                         pool_type="max", global_pooling=False, conv_stride=1, conv_padding=0, conv_dilation=1,
                         conv_groups=1, param_attr=None, bias_attr=None, act=None, use_cudnn=True):
    """conv2d (with act) then pool2d."""
    conv = _l("conv2d")(input=input, num_filters=num_filters, filter_size=filter_size, stride=conv_stride,
                        padding=conv_padding, dilation=conv_dilation, groups=conv_groups, param_attr=param_attr,
                        bias_attr=bias_attr, act=act, use_cudnn=use_cudnn)
    return _l("pool2d")(input=conv, pool_size=pool_size, pool_type=pool_type, pool_stride=pool_stride,
                        pool_padding=pool_padding, global_pooling=global_pooling, use_cudnn=use_cudnn)


def img_conv_group(input, conv_num_filter, pool_size, conv_padding=1, conv_filter_size=3, conv_act=None,  # noqa: A002
                   param_attr=None, conv_with_batchnorm=False, conv_batchnorm_drop_rate=0.0, pool_stride=1,
                   pool_type="max", use_cudnn=True):
    """len(conv_num_filter) conv2d layers (each optionally followed by batch_norm with conv_act and dropout),
    then pool2d; per-conv options are a scalar for all or a list with one entry per conv."""
    if not isinstance(conv_num_filter, (list, tuple)):
        raise TypeError(f"fluid.nets.img_conv_group: conv_num_filter must be a list or tuple, got "
                        f"{type(conv_num_filter).__name__}")
    n = len(conv_num_filter)

    def per_conv(name: str, v: Any) -> list:
        if not hasattr(v, "__len__"):
            return [v] * n
        if len(v) != n:
            raise ValueError(f"fluid.nets.img_conv_group: {name} has {len(v)} entries, conv_num_filter has {n}")
        return list(v)

    paddings, sizes, attrs, with_bn, drops = (per_conv(k, v) for k, v in (
        ("conv_padding", conv_padding), ("conv_filter_size", conv_filter_size), ("param_attr", param_attr),
        ("conv_with_batchnorm", conv_with_batchnorm), ("conv_batchnorm_drop_rate", conv_batchnorm_drop_rate)))
    tmp = input
    for i in range(n):
        tmp = _l("conv2d")(input=tmp, num_filters=conv_num_filter[i], filter_size=sizes[i], padding=paddings[i],
                           param_attr=attrs[i], act=None if with_bn[i] else conv_act, use_cudnn=use_cudnn)
        if with_bn[i]:
            tmp = _l("batch_norm")(input=tmp, act=conv_act)
            if abs(drops[i]) > 1e-5:
                tmp = _l("dropout")(x=tmp, dropout_prob=drops[i])
    return _l("pool2d")(input=tmp, pool_size=pool_size, pool_type=pool_type, pool_stride=pool_stride,
                        use_cudnn=use_cudnn)


def sequence_conv_pool(input, num_filters, filter_size, param_attr=None, act="sigmoid", pool_type="max",  # noqa: A002
                       bias_attr=None):
    """sequence_conv (with act) then sequence_pool over each sequence of a LoD input."""
    check_variable_and_dtype(input, "input", ["float32", "float64"], "input")
    conv = _l("sequence_conv")(input=input, num_filters=num_filters, filter_size=filter_size, param_attr=param_attr,
                               bias_attr=bias_attr, act=act)
    return _l("sequence_pool")(input=conv, pool_type=pool_type)


def glu(input, dim=-1):  # noqa: A002
    """Gated linear unit: split input in two halves a, b along dim; a * sigmoid(b)."""
    check_variable_and_dtype(input, "input", ["float16", "float32", "float64"], "glu")
    a, b = _l("split")(input, num_or_sections=2, dim=dim)
    return _l("elementwise_mul")(x=a, y=_l("sigmoid")(x=b))


def scaled_dot_product_attention(queries, keys, values, num_heads=1, dropout_rate=0.0):
    """Multi-head attention over 3-D [batch, length, hidden] inputs: with num_heads > 1, q / k / v are first
    projected by fc layers (no bias act), split into heads, scaled by (hidden / heads) ** -0.5; softmax over the
    keys, optional dropout, then the heads are merged back to [batch, length_q, hidden_v]."""
    api = "scaled_dot_product_attention"
    for nm, v in (("queries", queries), ("keys", keys), ("values", values)):
        check_variable_and_dtype(v, nm, ["float32", "float64"], api)
    if not queries.dtype == keys.dtype == values.dtype:
        raise TypeError("The dtype of keys, values and queries should be the same.But received queries.dtype = "
                        f"{queries.dtype},  keys.dtype = {keys.dtype}, values.dtype) = {values.dtype}.")
    if not len(queries.shape) == len(keys.shape) == len(values.shape) == 3:
        raise ValueError("Inputs queries, keys and values should all be 3-D tensors.But received "
                         f"len(queries.shape) = {len(queries.shape)}, len(keys.shape) = {len(keys.shape)}, "
                         f"len(values.shape) = {len(values.shape)}.")
    if queries.shape[-1] != keys.shape[-1]:
        raise ValueError("The hidden size of queries and keys should be the same.But received queries' hidden size "
                         f"= {queries.shape[-1]} and keys' hidden size = {keys.shape[-1]}.")
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError("The max sequence length in value batch and in key batch should be the same. But received "
                         f"max sequence length in value batch = {values.shape[-2]}, in key batch = {keys.shape[-2]}.")
    for nm, v in (("keys", keys), ("values", values)):
        if v.shape[-1] % num_heads != 0:
            raise ValueError(f"The hidden size of {nm} ({v.shape[-1]}) must be divisible by the number of attention "
                             f"heads ({num_heads}).")

    def split_heads(x):
        if num_heads == 1:
            return x
        x = _l("fc")(input=x, size=x.shape[-1], num_flatten_dims=2)
        hidden = x.shape[-1]
        x = _l("reshape")(x=x, shape=list(x.shape[:-1]) + [num_heads, hidden // num_heads])
        return _l("transpose")(x=x, perm=[0, 2, 1, 3])

    q, k, v = split_heads(queries), split_heads(keys), split_heads(values)
    product = _l("matmul")(x=_l("scale")(x=q, scale=(keys.shape[-1] // num_heads) ** -0.5), y=k, transpose_y=True)
    weights = _l("reshape")(x=_l("reshape")(x=product, shape=[-1, product.shape[-1]], act="softmax"),
                            shape=product.shape)
    if dropout_rate:
        weights = _l("dropout")(weights, dropout_prob=dropout_rate, is_test=False)
    ctx = _l("matmul")(weights, v)
    if len(ctx.shape) == 3:
        return ctx
    ctx = _l("transpose")(ctx, perm=[0, 2, 1, 3])
    return _l("reshape")(x=ctx, shape=[int(d) for d in (ctx.shape[0], ctx.shape[1], ctx.shape[2] * ctx.shape[3])])


for _fn in (simple_img_conv_pool, img_conv_group, sequence_conv_pool, glu, scaled_dot_product_attention):
    export(_fn, f"paddle.fluid.nets.{_fn.__name__}")
