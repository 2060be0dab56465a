"""The rest of fluid.layers (1.8 names, signatures and defaults) as thin adapters over public Paddle
functions looked up by name at call time (`P("paddle.nn.functional.pad")`) and the 1.x-only bodies in
engine/ops/fluid_only.py. They never call torch, so each records in static mode and runs in dygraph as is."""

from __future__ import annotations

import contextlib

from paddle_compat.engine.core.mode import MODE, legacy_creation
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.argcheck import require_tensor
from paddle_compat.engine.ops import fluid_only as fm
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.framework.registry import OPS, export, op

_EXPORTED: list = []


def fluid_layer(fn):
    _EXPORTED.append(fn)
    return fn


def _named(layer_type: str):
    """In static mode, a 1.x layer names its output after its own LayerHelper type where the 2.x API it calls
    uses another (fluid.layers.zeros: fill_constant_0.tmp_0, paddle.zeros: fill_constant_1.tmp_0; argmax: arg_max_0
    / argmax_0; mse_loss: reduce_mean_0 / mean_0), as Paddle 1.8.5 (tests/fluid/test_names18.py)."""
    return layer_helper(layer_type) if MODE.static else contextlib.nullcontext()


# --- creation --------------------------------------------------------------------------------------


@fluid_layer
@legacy_creation
def zeros(shape, dtype, force_cpu=False):
    with _named("fill_constant"):
        return P("paddle.zeros")(shape, dtype)


@fluid_layer
@legacy_creation
def ones(shape, dtype, force_cpu=False):
    with _named("fill_constant"):
        return P("paddle.ones")(shape, dtype)


@fluid_layer
def zeros_like(x, out=None):
    with _named("zeros_like"):
        r = P("paddle.zeros_like")(x)
    return r if out is None else P("paddle.assign")(r, output=out)


@fluid_layer
def ones_like(x, out=None):
    with _named("ones_like"):
        r = P("paddle.ones_like")(x)
    return r if out is None else P("paddle.assign")(r, output=out)


@fluid_layer
@legacy_creation
def range(start, end, step, dtype, name=None):  # noqa: A001
    return P("paddle.arange")(start, end, step, dtype)


@fluid_layer
@legacy_creation
def eye(num_rows, num_columns=None, batch_shape=None, dtype="float32", name=None):
    out = P("paddle.eye")(num_rows, num_columns, dtype)
    if batch_shape:
        for _ in batch_shape:
            out = P("paddle.unsqueeze")(out, [0])
        out = P("paddle.tile")(out, list(batch_shape) + [1, 1])
    return out


@fluid_layer
@legacy_creation
def diag(diagonal):
    return P("paddle.diag")(diagonal)


@fluid_layer
@legacy_creation
def create_tensor(dtype, name=None, persistable=False):
    from paddle_compat.engine.framework.program import default_main_program

    if not MODE.static:
        return P("paddle.zeros")([0], dtype)
    return default_main_program().current_block().create_var(name=name, dtype=dtype, persistable=persistable)


@fluid_layer
def fill_constant_batch_size_like(input, shape, dtype, value, input_dim_idx=0, output_dim_idx=0,  # noqa: A002
                                  force_cpu=False):
    return fm.fill_constant_batch_size_like(input, shape, dtype, value, input_dim_idx=input_dim_idx,
                                            output_dim_idx=output_dim_idx)


# --- search / index ------------------------------------------------------------------------------------


@fluid_layer
def argmax(x, axis=0):
    with _named("arg_max"):
        return P("paddle.argmax")(x, axis=axis)


@fluid_layer
def argmin(x, axis=0):
    with _named("arg_min"):
        return P("paddle.argmin")(x, axis=axis)


@fluid_layer
def argsort(input, axis=-1, descending=False, name=None):  # noqa: A002
    """1.x returns (sorted values, indices)."""
    ids = P("paddle.argsort")(input, axis=axis, descending=descending)
    return P("paddle.sort")(input, axis=axis, descending=descending), ids


@fluid_layer
def topk(input, k, name=None):  # noqa: A002
    return P("paddle.topk")(input, k)


@fluid_layer
def unique(x, dtype="int32"):
    out, index, _ = fm.unique_with_counts(x, dtype)
    return out, index


@fluid_layer
def unique_with_counts(x, dtype="int32"):
    return fm.unique_with_counts(x, dtype)


@fluid_layer
def where(condition):
    """1.x where: the indices of true elements, [num_true, rank] int64."""
    return P("paddle.nonzero")(condition)


@fluid_layer
def scatter(input, index, updates, name=None, overwrite=True):  # noqa: A002
    return P("paddle.scatter")(input, index, updates, overwrite=overwrite)


@fluid_layer
def gather(input, index, overwrite=True):  # noqa: A002
    return P("paddle.gather")(input, index)


@fluid_layer
def gather_nd(input, index, name=None):  # noqa: A002
    return P("paddle.gather_nd")(input, index)


@fluid_layer
def sampling_id(x, min=0.0, max=1.0, seed=0, dtype="float32"):  # noqa: A002
    return fm.sampling_id(x, min=min, max=max, seed=seed, dtype=dtype)


@fluid_layer
def random_crop(x, shape, seed=None):
    return fm.random_crop(x, shape)


# --- shape manipulation ----------------------------------------------------------------------------------


@fluid_layer
def expand(x, expand_times, name=None):
    return P("paddle.tile")(x, expand_times)


@fluid_layer
def expand_as(x, target_tensor, name=None):
    return P("paddle.expand_as")(x, target_tensor)


@fluid_layer
def crop(x, shape=None, offsets=None, name=None):
    if shape is not None and hasattr(shape, "shape") and not isinstance(shape, (list, tuple)):
        shape = list(shape.shape)
    return fm.crop_tensor(x, shape, offsets)


@fluid_layer
def crop_tensor(x, shape=None, offsets=None, name=None):
    return fm.crop_tensor(x, shape, offsets)


@fluid_layer
def pad(x, paddings, pad_value=0.0, name=None):
    return fm.pad(x, paddings, pad_value)


@fluid_layer
def pad2d(input, paddings=[0, 0, 0, 0], mode="constant", pad_value=0.0, data_format="NCHW", name=None):  # noqa: A002,B006
    """paddings = [top, bottom, left, right]; mode constant / reflect / edge."""
    modes = {"constant": "constant", "reflect": "reflect", "edge": "replicate"}
    if mode not in modes:
        raise ValueError(f"fluid.layers.pad2d: mode must be constant, reflect or edge, got {mode!r}")
    t, b, l, r = [int(p) for p in paddings]
    return P("paddle.nn.functional.pad")(input, [l, r, t, b], mode=modes[mode], value=pad_value,
                                         data_format=data_format)


@fluid_layer
def pad_constant_like(x, y, pad_value=0.0, name=None):
    return fm.pad_constant_like(x, y, pad_value)


@fluid_layer
def reverse(x, axis):
    return P("paddle.flip")(x, [axis] if isinstance(axis, int) else list(axis))


@fluid_layer
def shuffle_channel(x, group, name=None):
    return fm.shuffle_channel(x, group)


@fluid_layer
def space_to_depth(x, blocksize, name=None):
    return fm.space_to_depth(x, blocksize)


@fluid_layer
def pixel_shuffle(x, upscale_factor):
    return P("paddle.nn.functional.pixel_shuffle")(x, upscale_factor)


@fluid_layer
def unbind(input, axis=0):  # noqa: A002
    return P("paddle.unbind")(input, axis)


@fluid_layer
def unsqueeze(input, axes, name=None):  # noqa: A002
    return P("paddle.unsqueeze")(input, axes)


@fluid_layer
def squeeze(input, axes, name=None):  # noqa: A002
    return P("paddle.squeeze")(input, axes)


@fluid_layer
def split(input, num_or_sections, dim=-1, name=None):  # noqa: A002
    return P("paddle.split")(input, num_or_sections, axis=dim)


@fluid_layer
def stack(x, axis=0, name=None):
    return P("paddle.stack")(x, axis)


@fluid_layer
def strided_slice(input, axes, starts, ends, strides):  # noqa: A002
    """NOTE: Paddle 1.8 takes a negative-stride slice as the forward slice [end + 1, start + 1) with |stride|,
    then reversed (so x[4:0:-2] gives indices 3, 1, not Python's 4, 2); we follow that kernel."""
    if not any(isinstance(s, int) and s < 0 for s in strides):
        return P("paddle.strided_slice")(input, axes, starts, ends, strides)
    starts, ends, strides, flip = list(starts), list(ends), list(strides), []
    for k, (ax, st) in enumerate(zip(axes, strides)):
        if st < 0:
            dim = input.shape[ax]
            s, e = starts[k], ends[k]
            if dim >= 0:
                s, e = (s + dim if s < 0 else s), (e + dim if e < 0 else e)
            starts[k], ends[k], strides[k] = e + 1, s + 1, -st
            flip.append(ax)
    out = P("paddle.strided_slice")(input, axes, starts, ends, strides)
    return P("paddle.flip")(out, flip)


@fluid_layer
def sum(x):  # noqa: A001
    require_tensor(x, "paddle.fluid.layers.sum", "x", 0, many=True)
    return P("paddle.add_n")(x if isinstance(x, (list, tuple)) else [x])


@fluid_layer
def size(input):  # noqa: A002
    return P("paddle.numel")(input)


@fluid_layer
def cumsum(x, axis=None, exclusive=None, reverse=None):
    """exclusive: the sum of the elements before; reverse: from the end."""
    ax = -1 if axis is None else axis
    if reverse:
        x = P("paddle.flip")(x, [ax])
    out = P("paddle.cumsum")(x, axis=ax)
    if exclusive:
        out = P("paddle.subtract")(out, x)
    if reverse:
        out = P("paddle.flip")(out, [ax])
    return out


# --- math / checks -----------------------------------------------------------------------------------------


@fluid_layer
def has_inf(x):
    return P("paddle.any")(P("paddle.isinf")(x))


@fluid_layer
def has_nan(x):
    return P("paddle.any")(P("paddle.isnan")(x))


@fluid_layer
def isfinite(x):
    return P("paddle.all")(P("paddle.isfinite")(x))


@fluid_layer
def sign(x):
    return P("paddle.sign")(x)


@fluid_layer
def clip(x, min, max, name=None):  # noqa: A002
    return P("paddle.clip")(x, min, max)


@fluid_layer
def clip_by_norm(x, max_norm, name=None):
    return OPS["clip_by_norm"].public(x, max_norm)


@fluid_layer
def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    out = P("paddle.matmul")(x, y, transpose_x, transpose_y)
    return out if alpha == 1.0 else P("paddle.scale")(out, scale=float(alpha))


@fluid_layer
def pow(x, factor=1.0, name=None):  # noqa: A001
    return P("paddle.pow")(x, factor)


# --- activations with 1.x names / defaults ----------------------------------------------------------------


def _f(name):
    return P(f"paddle.nn.functional.{name}")


@fluid_layer
def elu(x, alpha=1.0, name=None):
    return _f("elu")(x, alpha)


@fluid_layer
def relu6(x, threshold=6.0, name=None):
    return P("paddle.clip")(x, 0.0, float(threshold))


@fluid_layer
def selu(x, scale=None, alpha=None, name=None):
    kw = {}
    if scale is not None:
        kw["scale"] = scale
    if alpha is not None:
        kw["alpha"] = alpha
    return _f("selu")(x, **kw)


@fluid_layer
def gelu(x, approximate=False):
    return _f("gelu")(x, approximate)


@fluid_layer
def leaky_relu(x, alpha=0.02, name=None):
    return _f("leaky_relu")(x, alpha)


@fluid_layer
def logsigmoid(x, name=None):
    return _f("log_sigmoid")(x)


@fluid_layer
def hard_shrink(x, threshold=None):
    return _f("hardshrink")(x, 0.5 if threshold is None else threshold)


@fluid_layer
def softshrink(x, alpha=None):
    return _f("softshrink")(x, 0.5 if alpha is None else alpha)


@fluid_layer
def softplus(x, name=None):
    return _f("softplus")(x)


@fluid_layer
def softsign(x, name=None):
    return _f("softsign")(x)


@fluid_layer
def tanh_shrink(x, name=None):
    return _f("tanhshrink")(x)


@fluid_layer
def thresholded_relu(x, threshold=None):
    return _f("thresholded_relu")(x, 1.0 if threshold is None else threshold)


@fluid_layer
def hard_sigmoid(x, slope=0.2, offset=0.5, name=None):
    with _named("hard_sigmoid"):
        return OPS["hard_sigmoid"].public(x, slope=slope, offset=offset, name=name)


@fluid_layer
def hard_swish(x, threshold=6.0, scale=6.0, offset=3.0, name=None):
    with _named("hard_swish"):
        return OPS["hard_swish"].public(x, threshold=threshold, scale=scale, offset=offset, name=name)


@fluid_layer
def swish(x, beta=1.0, name=None):
    """NOTE: Paddle 1.8.5's swish kernel computes x * sigmoid(x) whatever `beta` is (golden
    fluid18_layers `swish`, beta=2); we follow the code."""
    return P("paddle.multiply")(x, _f("sigmoid")(x))


@fluid_layer
def brelu(x, t_min=0.0, t_max=24.0, name=None):
    return P("paddle.clip")(x, t_min, t_max)


@fluid_layer
def soft_relu(x, threshold=40.0, name=None):
    c = P("paddle.clip")(x, -threshold, threshold)
    return P("paddle.log")(P("paddle.scale")(P("paddle.exp")(c), scale=1.0, bias=1.0))


@fluid_layer
def maxout(x, groups, name=None, axis=1):
    return _f("maxout")(x, groups, axis)


@fluid_layer
def l2_normalize(x, axis, epsilon=1e-12, name=None):
    """x / sqrt(max(sum(x^2, axis), epsilon)) (Paddle 1.8's norm op)."""
    ss = P("paddle.sum")(P("paddle.square")(x), axis=axis, keepdim=True)
    ss = P("paddle.clip")(ss, min=float(epsilon))
    return P("paddle.multiply")(x, P("paddle.rsqrt")(ss))


@fluid_layer
def lrn(input, n=5, k=1.0, alpha=1e-4, beta=0.75, name=None, data_format="NCHW"):  # noqa: A002
    """1.x lrn: x / (k + alpha * sum_window x^2)^beta (alpha is not divided by n, unlike 2.x)."""
    return _f("local_response_norm")(input, n, alpha=alpha * n, beta=beta, k=k, data_format=data_format)


# --- image --------------------------------------------------------------------------------------------------


def _resize(input, out_shape, scale, mode, align_corners, align_mode, data_format, actual_shape=None):  # noqa: A002
    size = actual_shape if actual_shape is not None else out_shape
    if size is not None and not hasattr(size, "shape"):
        size = [int(s) if not hasattr(s, "shape") else s for s in size]
    if size is None and scale is None:
        raise ValueError("fluid.layers.image_resize: one of out_shape and scale must not be None")
    return P("paddle.nn.functional.interpolate")(input, size=size, scale_factor=None if size is not None else scale,
                                                 mode=mode, align_corners=align_corners, align_mode=align_mode,
                                                 data_format=data_format)


@fluid_layer
def resize_bilinear(input, out_shape=None, scale=None, name=None, actual_shape=None, align_corners=True,  # noqa: A002
                    align_mode=1, data_format="NCHW"):
    return _resize(input, out_shape, scale, "bilinear", align_corners, align_mode, data_format, actual_shape)


@fluid_layer
def resize_trilinear(input, out_shape=None, scale=None, name=None, actual_shape=None, align_corners=True,  # noqa: A002
                     align_mode=1, data_format="NCDHW"):
    return _resize(input, out_shape, scale, "trilinear", align_corners, align_mode, data_format, actual_shape)


@fluid_layer
def resize_nearest(input, out_shape=None, scale=None, name=None, actual_shape=None, align_corners=True,  # noqa: A002
                   data_format="NCHW"):
    """1.x nearest: source index int(ratio * k + 0.5) with ratio (in-1)/(out-1) when align_corners (the
    default), else int(k * in / out); 2.x interpolate refuses align_corners for nearest."""
    if not align_corners or actual_shape is not None:
        return _resize(input, out_shape, scale, "nearest", False, 1, data_format, actual_shape)
    import numpy as np

    ha, wa = (2, 3) if data_format == "NCHW" else (1, 2)
    h, w = input.shape[ha], input.shape[wa]
    if h < 0 or w < 0:
        raise ValueError(f"fluid.layers.resize_nearest: H and W must be known, got shape {list(input.shape)}")
    if out_shape is not None:
        oh, ow = (int(s) for s in out_shape)
    elif scale is not None:
        oh, ow = int(h * scale), int(w * scale)
    else:
        raise ValueError("fluid.layers.resize_nearest: one of out_shape and scale must not be None")
    out = input
    for ax, n_in, n_out in ((ha, h, oh), (wa, w, ow)):
        ratio = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        idx = (np.arange(n_out) * ratio + 0.5).astype(np.int64)
        out = P("paddle.index_select")(out, P("paddle.assign")(idx), axis=ax)
    return out


@fluid_layer
def image_resize(input, out_shape=None, scale=None, name=None, resample="BILINEAR", actual_shape=None,  # noqa: A002
                 align_corners=True, align_mode=1, data_format="NCHW"):
    modes = {"BILINEAR": "bilinear", "TRILINEAR": "trilinear", "NEAREST": "nearest", "LINEAR": "linear",
             "BICUBIC": "bicubic"}
    if resample not in modes:
        raise ValueError(f"fluid.layers.image_resize: resample must be one of {sorted(modes)}, got {resample!r}")
    if data_format == "NCHW" and resample == "TRILINEAR":
        data_format = "NCDHW"
    if resample == "NEAREST":  # 1.x nearest rounds with align_corners (the default), which 2.x interpolate refuses
        return resize_nearest(input, out_shape, scale, name, actual_shape, align_corners, data_format)
    return _resize(input, out_shape, scale, modes[resample], align_corners, align_mode, data_format, actual_shape)


@fluid_layer
def image_resize_short(input, out_short_len, resample="BILINEAR"):  # noqa: A002
    h, w = input.shape[2], input.shape[3]
    if h < 0 or w < 0:
        raise ValueError(f"fluid.layers.image_resize_short: H and W of input must be known, got {list(input.shape)}")
    short, long_ = (h, w) if h < w else (w, h)
    long_out = int(float(long_) * out_short_len / short + 0.5)
    out = [out_short_len, long_out] if h < w else [long_out, out_short_len]
    return image_resize(input, out_shape=out, resample=resample)


@fluid_layer
def affine_channel(x, scale=None, bias=None, data_layout="NCHW", name=None, act=None):
    require_tensor(x, "paddle.fluid.layers.affine_channel", "x", 0)
    axis = 1 if data_layout == "NCHW" else x.ndim - 1
    out = x
    if scale is not None:
        out = P("paddle.fluid.layers.elementwise_mul")(out, scale, axis=axis)
    if bias is not None:
        out = P("paddle.fluid.layers.elementwise_add")(out, bias, axis=axis)
    return act_layer(out, act)


@fluid_layer
def affine_grid(theta, out_shape, name=None):
    return _f("affine_grid")(theta, out_shape, align_corners=True)


@fluid_layer
def grid_sampler(x, grid, name=None):
    return _f("grid_sample")(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True)


@fluid_layer
def adaptive_pool2d(input, pool_size, pool_type="max", require_index=False, name=None):  # noqa: A002
    if pool_type == "max":
        return _f("adaptive_max_pool2d")(input, pool_size, return_mask=require_index)
    if require_index:
        raise ValueError("fluid.layers.adaptive_pool2d: require_index is only supported for pool_type='max'")
    return _f("adaptive_avg_pool2d")(input, pool_size)


@fluid_layer
def adaptive_pool3d(input, pool_size, pool_type="max", require_index=False, name=None):  # noqa: A002
    if pool_type == "max":
        return _f("adaptive_max_pool3d")(input, pool_size, return_mask=require_index)
    if require_index:
        raise ValueError("fluid.layers.adaptive_pool3d: require_index is only supported for pool_type='max'")
    return _f("adaptive_avg_pool3d")(input, pool_size)


@fluid_layer
def pool3d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0, global_pooling=False,  # noqa: A002
           use_cudnn=True, ceil_mode=False, name=None, exclusive=True, data_format="NCDHW"):
    if global_pooling:
        return adaptive_pool3d(input, 1, pool_type)
    if pool_type == "max":
        return _f("max_pool3d")(input, pool_size, pool_stride, pool_padding, ceil_mode=ceil_mode,
                                data_format=data_format)
    return _f("avg_pool3d")(input, pool_size, pool_stride, pool_padding, ceil_mode=ceil_mode, exclusive=exclusive,
                            data_format=data_format)


@fluid_layer
def add_position_encoding(input, alpha, beta, name=None):  # noqa: A002
    return fm.add_position_encoding(input, alpha, beta)


# --- embedding / one_hot ----------------------------------------------------------------------------------


@fluid_layer
def one_hot(input, depth, allow_out_of_range=False):  # noqa: A002
    """1.x: the last dim of input must be 1 and is replaced by depth."""
    return fm.one_hot(input, depth, allow_out_of_range)


def fluid_one_hot(input, depth, allow_out_of_range=False):  # noqa: A002
    """fluid.one_hot (one_hot_v2): appends a depth dim."""
    if allow_out_of_range:
        return fm.one_hot(P("paddle.unsqueeze")(input, [-1]), depth, allow_out_of_range)
    return _f("one_hot")(input, depth)


export(fluid_one_hot, "paddle.fluid.one_hot")


@op("lookup_table")
def lookup_table(ids, weight, padding_idx=None, is_sparse=False):
    """The 1.x lookup_table op: ids [..., 1] -> [..., dim] (lookup_table_v2 keeps the ids' shape)."""
    return OPS["lookup_table_v2"].impl(ids.squeeze(-1), weight, padding_idx, is_sparse)


def _embedding(api, op_type, input, size, is_sparse, padding_idx, param_attr, dtype):  # noqa: A002
    """fluid.layers.embedding (lookup_table) and fluid.embedding (lookup_table_v2): weight `embedding_N.w_0`
    [vocab, dim]; a negative padding_idx counts from the vocab end."""
    from paddle_compat.paddle2.utils.nest import check_dtype, check_variable_and_dtype
    from paddle_compat.engine.static.param import embedding_table

    check_variable_and_dtype(input, "input", ["int64"], api)
    check_dtype(dtype, "dtype", ["float16", "float32", "float64"], api)
    if op_type == "lookup_table" and (len(input.shape) == 0 or input.shape[-1] != 1):
        raise ValueError(f"{api}: the last dim of input (the ids) must be 1, but its shape is {list(input.shape)}")
    with layer_helper("embedding") as prefix:
        w, pad = embedding_table(size, dtype, param_attr, is_sparse, padding_idx, prefix)
        sparse = {("is_sparse" if op_type == "lookup_table" else "sparse"): True} if is_sparse else {}
        return OPS[op_type].public(input, w, padding_idx=pad, **sparse)


@fluid_layer
def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None, param_attr=None,  # noqa: A002
              dtype="float32"):
    """size = [vocab, dim]; ids [.., 1] -> [.., dim]."""
    return _embedding("fluid.layers.embedding", "lookup_table", input, size, is_sparse, padding_idx, param_attr,
                      dtype)


def fluid_embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None, param_attr=None,  # noqa: A002
                    dtype="float32"):
    """fluid.embedding (fluid.input.embedding): ids of any shape -> ids.shape + [dim]."""
    return _embedding("fluid.embedding", "lookup_table_v2", input, size, is_sparse, padding_idx, param_attr, dtype)


export(fluid_embedding, "paddle.fluid.embedding", "paddle.fluid.input.embedding")


@fluid_layer
def label_smooth(label, prior_dist=None, epsilon=0.1, dtype="float32", name=None):
    return _f("label_smooth")(label, prior_dist, epsilon)


# --- losses -------------------------------------------------------------------------------------------------


@fluid_layer
def huber_loss(input, label, delta):  # noqa: A002
    r = P("paddle.subtract")(label, input)
    a = P("paddle.abs")(r)
    quad = P("paddle.scale")(P("paddle.square")(r), scale=0.5)
    lin = P("paddle.scale")(a, scale=float(delta), bias=-0.5 * float(delta) ** 2)
    return P("paddle.where")(P("paddle.less_equal")(a, P("paddle.full_like")(a, float(delta))), quad, lin)


@fluid_layer
def smooth_l1(x, y, inside_weight=None, outside_weight=None, sigma=None):
    return fm.smooth_l1_loss(x, y, inside_weight, outside_weight, sigma)


@fluid_layer
def kldiv_loss(x, target, reduction="mean", name=None):
    """target * (log(target) - x), 0 where target <= 0; reduction none / batchmean / mean / sum."""
    pos = P("paddle.greater_than")(target, P("paddle.zeros_like")(target))
    safe = P("paddle.where")(pos, target, P("paddle.ones_like")(target))
    loss = P("paddle.multiply")(target, P("paddle.subtract")(P("paddle.log")(safe), x))
    loss = P("paddle.where")(pos, loss, P("paddle.zeros_like")(loss))
    if reduction == "none":
        return loss
    if reduction == "sum":
        return P("paddle.sum")(loss)
    if reduction == "mean":
        return P("paddle.mean")(loss)
    if reduction == "batchmean":
        return P("paddle.scale")(P("paddle.sum")(loss), scale=1.0 / x.shape[0]) if x.shape[0] > 0 else \
            P("paddle.divide")(P("paddle.sum")(loss), P("paddle.cast")(P("paddle.shape")(x)[0], x.dtype))
    raise ValueError(f"fluid.layers.kldiv_loss: reduction must be none, batchmean, mean or sum, got {reduction!r}")


@fluid_layer
def mse_loss(input, label):  # noqa: A002
    sq = P("paddle.square")(P("paddle.fluid.layers.elementwise_sub")(input, label))
    with _named("reduce_mean"):
        return P("paddle.mean")(sq)


@fluid_layer
def bpr_loss(input, label, name=None):  # noqa: A002
    return fm.bpr_loss(input, label)


@fluid_layer
def rank_loss(label, left, right, name=None):
    return fm.rank_loss(label, left, right)


@fluid_layer
def margin_rank_loss(label, left, right, margin=0.1, name=None):
    return _f("margin_ranking_loss")(left, right, label, margin=margin, reduction="none")


@fluid_layer
def sigmoid_cross_entropy_with_logits(x, label, ignore_index=-100, name=None, normalize=False):
    """max(x, 0) - x * label + log(1 + exp(-|x|)), 0 where label == ignore_index (normalize: / #kept)."""
    zero = P("paddle.zeros_like")(x)
    base = P("paddle.add")(P("paddle.subtract")(P("paddle.maximum")(x, zero), P("paddle.multiply")(x, label)),
                           P("paddle.log1p")(P("paddle.exp")(P("paddle.neg")(P("paddle.abs")(x)))))
    keep = P("paddle.not_equal")(label, P("paddle.full_like")(label, float(ignore_index)))
    out = P("paddle.where")(keep, base, zero)
    if normalize:
        n = P("paddle.clip")(P("paddle.sum")(P("paddle.cast")(keep, x.dtype)), min=1.0)
        out = P("paddle.divide")(out, n)
    return out


@fluid_layer
def sigmoid_focal_loss(x, label, fg_num, gamma=2.0, alpha=0.25):
    return fm.sigmoid_focal_loss(x, label, fg_num, gamma, alpha)


for _fn in _EXPORTED:
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")


# 1.x fluid.layers names outside the manifest whose 2.x function has the same signature
_SAME = ("abs", "exp", "log", "sqrt", "rsqrt", "square", "ceil", "floor", "cos", "sin", "round", "reciprocal",
         "slice", "shape", "logical_and", "logical_or", "logical_xor", "logical_not", "rank", "cos_sim")


def _alias(name):
    def f(*args, **kwargs):
        return P(f"paddle.{name}")(*args, **kwargs)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"fluid.layers.{name}: same as paddle.{name}."
    return f


for _n in _SAME:
    if _n != "cos_sim":
        export(_alias(_n), f"paddle.fluid.layers.{_n}")


@fluid_layer
def fsp_matrix(x, y):
    """[N, C1, H, W] x [N, C2, H, W] -> [N, C1, C2] = x . y^T / (H * W)."""
    n, c1, h, w = x.shape
    xr = P("paddle.reshape")(x, [0, c1, -1])
    yr = P("paddle.reshape")(y, [0, y.shape[1], -1])
    return P("paddle.scale")(P("paddle.matmul")(xr, yr, transpose_y=True), scale=1.0 / (h * w))


@fluid_layer
def lstm_unit(x_t, hidden_t_prev, cell_t_prev, forget_bias=0.0, param_attr=None, bias_attr=None, name=None):
    """fc([x_t, h_prev]) -> gates (i, f, o, j); c = sigmoid(f + forget_bias) * c_prev + sigmoid(i) * tanh(j);
    h = sigmoid(o) * tanh(c). Returns (hidden, cell)."""
    size = cell_t_prev.shape[1]
    with layer_helper("lstm_unit", name):
        gates = P("paddle.fluid.layers.fc")(P("paddle.concat")([x_t, hidden_t_prev], axis=1), 4 * size,
                                            param_attr=param_attr, bias_attr=bias_attr)
        i, f, o, j = P("paddle.split")(gates, 4, axis=1)
        sig = _f("sigmoid")
        c = P("paddle.add")(P("paddle.multiply")(sig(P("paddle.scale")(f, bias=float(forget_bias))), cell_t_prev),
                            P("paddle.multiply")(sig(i), P("paddle.tanh")(j)))
        h = P("paddle.multiply")(sig(o), P("paddle.tanh")(c))
    return h, c


@fluid_layer
def gru_unit(input, hidden, size, param_attr=None, bias_attr=None, activation="tanh",  # noqa: A002
             gate_activation="sigmoid", origin_mode=False):
    """size = 3 * hidden size; returns (updated_hidden, reset_hidden_prev, gate)."""
    from paddle_compat.engine.static.param import create_parameter_impl

    hid = size // 3
    with layer_helper("gru_unit") as prefix:
        w = create_parameter_impl([hid, 3 * hid], input.dtype, param_attr, False, prefix=prefix)
        b = create_parameter_impl([1, 3 * hid], input.dtype, bias_attr, True, prefix=prefix)
        return fm.gru_unit_op(input, hidden, w, b, activation, gate_activation, origin_mode)


@fluid_layer
def edit_distance(input, label, normalized=True, ignored_tokens=None, input_length=None,  # noqa: A002
                  label_length=None):
    """LoD inputs (or padded inputs with input_length / label_length). Returns (distance [B, 1], seq_num [1])."""
    from paddle_compat.engine.ops.sequence import lod_of

    require_tensor(input, "paddle.fluid.layers.edit_distance", "input", 0)

    if input_length is not None and label_length is not None:
        from paddle_compat.engine.ops.sequence import sequence_unpad_op

        input, h_offs = sequence_unpad_op(input, input_length)
        label, r_offs = sequence_unpad_op(label, label_length)
    else:
        h_offs = lod_of(input, "fluid.layers.edit_distance")
        r_offs = lod_of(label, "fluid.layers.edit_distance")
    return fm.edit_distance_op(input, h_offs, label, r_offs, normalized,
                               tuple(ignored_tokens) if ignored_tokens else None)


for _fn in (fsp_matrix, lstm_unit, gru_unit, edit_distance):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")


@fluid_layer
def hsigmoid(input, label, num_classes, param_attr=None, bias_attr=None, name=None, path_table=None,  # noqa: A002
             path_code=None, is_custom=False, is_sparse=False):
    """Creates weight [num_classes - 1, D] and bias [num_classes - 1, 1] (custom trees: num_classes rows) and
    calls paddle.nn.functional.hsigmoid_loss (Paddle's hierarchical_sigmoid op)."""
    from paddle_compat.engine.static.param import create_parameter_impl

    if is_custom and (path_table is None or path_code is None):
        raise ValueError("fluid.layers.hsigmoid: path_table and path_code are needed when is_custom is True")
    rows = num_classes if is_custom else num_classes - 1
    with layer_helper("hierarchical_sigmoid", name) as prefix:
        w = create_parameter_impl([rows, input.shape[1]], input.dtype, param_attr, False, prefix=prefix)
        b = create_parameter_impl([rows, 1], input.dtype, bias_attr, True, prefix=prefix)
        return _f("hsigmoid_loss")(input, label, num_classes, w, b, path_table=path_table, path_code=path_code,
                                   is_sparse=is_sparse)


export(hsigmoid, "paddle.fluid.layers.hsigmoid")


@fluid_layer
def teacher_student_sigmoid_loss(input, label, soft_max_up_bound=15.0, soft_max_lower_bound=-15.0):  # noqa: A002
    return fm.teacher_student_sigmoid_loss_op(input, label, soft_max_up_bound, soft_max_lower_bound)


@fluid_layer
def continuous_value_model(input, cvm, use_cvm=True):  # noqa: A002
    return fm.cvm_op(input, cvm, use_cvm)


def _selected_rows_input(x, api):
    """x as a variable whose node yields a SelectedRowsValue (engine/static/backward.py selected_rows_node)."""
    import copy

    from paddle_compat.engine.framework.program import Variable, VarType
    from paddle_compat.engine.static.backward import selected_rows_node

    if not isinstance(x, Variable):
        raise TypeError(f"{api}: x must be a static Variable (a SelectedRows, e.g. the gradient of an embedding "
                        f"with is_sparse=True), but received {type(x).__name__}")
    if x.type != VarType.SELECTED_ROWS:
        if api.endswith("get_tensor_from_selected_rows"):
            raise TypeError("The type of 'x' in get_tensor_from_selected_rows must be SELECTED_ROWS.")
        from paddle_compat.engine.core.errors import InvalidArgumentError

        raise InvalidArgumentError(f"Input(X) of MergeSelectedRowsOp should be of type SelectedRows, but variable "
                                   f"{x.name!r} is a {x.type} ({api}).")
    view = copy.copy(x)
    view.node = selected_rows_node(x)
    return view


@fluid_layer
def get_tensor_from_selected_rows(x, name=None):
    """The value tensor of a SelectedRows: one row per entry of its rows (a sparse embedding gradient: one per
    looked-up id, in lookup order)."""
    return OPS["get_tensor_from_selected_rows"].public(
        _selected_rows_input(x, "fluid.layers.get_tensor_from_selected_rows"), name=name)


@fluid_layer
def merge_selected_rows(x, name=None):
    """A SelectedRows with one row per distinct id (ascending), the rows of equal ids summed."""
    from paddle_compat.engine.framework.program import VarType

    out = OPS["merge_selected_rows"].public(_selected_rows_input(x, "fluid.layers.merge_selected_rows"), name=name)
    out.type = VarType.SELECTED_ROWS
    out.node.meta["selected_rows"] = True
    return out


for _fn in (teacher_student_sigmoid_loss, continuous_value_model, get_tensor_from_selected_rows,
            merge_selected_rows):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
export(continuous_value_model, "paddle.static.nn.continuous_value_model")  # 2.x moved it there, same signature
