"""fluid.layers that create parameters or hook the executor (Paddle 1.8 names and defaults).

Their op bodies live in engine/ops/ (decode18.py: cudnn_lstm / lstmp; detection_train.py: deformable_conv(_v1) /
generate_mask_labels; fluid_misc18.py: center_loss); these layers create the parameters (engine/static/param.py) and,
for generate_mask_labels, register the executor feed hook that supplies gt_segms' upper LoD levels."""

from __future__ import annotations

from paddle_compat.engine.core.dtype import dtype_name as _dtype_name

import math

import numpy as np

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.lod import LoDTensor
from paddle_compat.paddle2.utils.nest import check_variable_and_dtype
from paddle_compat.engine.framework.program import Variable, default_main_program
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.ops.rnn_decoding import cudnn_lstm_op, cudnn_lstm_weight_sizes, lstmp_op
from paddle_compat.engine.ops.detection_infer import _attach_if, _is_var, _lod
from paddle_compat.engine.ops.detection_train import _deformable_conv, _deformable_conv_v1, _generate_mask_labels
from paddle_compat.engine.ops.fluid_only_kernels import center_loss_op
from paddle_compat.engine.ops.nn_functional.activation import act_layer
from paddle_compat.engine.ops.nce_data_norm import alias_tables, data_norm_op, nce_op
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.ops.tree_conv import tree_conv_op
from paddle_compat.engine.ops.sequence import _attach, _static_only, lod_of
from paddle_compat.engine.static import executor as _ex
from paddle_compat.engine.static.initializer import ConstantInitializer, NormalInitializer, NumpyArrayInitializer
from paddle_compat.engine.static.nn import batch_norm
from paddle_compat.engine.static.param import ParamAttr, create_global_var, create_parameter_impl

# ------------------------------------------------------------------------------------------------
# lstm (cudnn_lstm) / dynamic_lstmp


def lstm(input, init_h, init_c, max_len, hidden_size, num_layers, dropout_prob=0.0, is_bidirec=False,
         is_test=False, name=None, default_initializer=None, seed=-1):
    """Multi-layer (bi)LSTM over time-major input [seq_len, batch, input_size]; returns (out, last_h, last_c)."""

    api = "fluid.layers.lstm"
    for nm, v in (("max_len", max_len), ("hidden_size", hidden_size), ("num_layers", num_layers)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"{api}: {nm} must be an int, got {type(v).__name__}")
    if len(input.shape) != 3:
        raise ValueError(f"{api}: input must be [seq_len, batch, input_size], got shape {list(input.shape)}")
    if _dtype_name(input.dtype) not in ("float32", "float64"):
        raise TypeError(f"{api}: input must be float32 or float64, got {input.dtype}")
    want = [num_layers * (2 if is_bidirec else 1), int(input.shape[1]), hidden_size]
    for nm, t in (("init_h", init_h), ("init_c", init_c)):
        got = [int(d) for d in t.shape]
        if len(got) != 3 or any(a >= 0 and b >= 0 and a != b for a, b in zip(got, want)):
            raise ValueError(f"{api}: {nm} must have shape {want} ([num_layers * directions, batch, hidden_size]), "
                             f"got {got}")
    mats, biases = cudnn_lstm_weight_sizes(int(input.shape[-1]), hidden_size, num_layers, is_bidirec)
    size = sum(a * b for a, b in mats) + sum(b[0] for b in biases)
    with layer_helper("cudnn_lstm", name) as prefix:
        w = create_parameter_impl([size], input.dtype, None, False, default_initializer=default_initializer,
                                  prefix=prefix)
        return cudnn_lstm_op(input, init_h, init_c, w, max_len, hidden_size, num_layers, is_bidirec=is_bidirec,
                             dropout_prob=float(dropout_prob), seed=seed, is_test=is_test)


def dynamic_lstmp(input, size, proj_size, param_attr=None, bias_attr=None, use_peepholes=True,
                  is_reverse=False, gate_activation="sigmoid", cell_activation="tanh", candidate_activation="tanh",
                  proj_activation="tanh", dtype="float32", name=None, h_0=None, c_0=None, cell_clip=None,
                  proj_clip=None):
    """input [N, 4H] (already projected); size = 4H; returns (projection [N, proj_size], cell [N, H])."""

    api = "fluid.layers.dynamic_lstmp"
    _static_only("dynamic_lstmp", input)
    if size % 4:
        raise ValueError(f"{api}: size must be 4 * hidden size, got {size}")
    hid = size // 4
    if int(input.shape[-1]) != size:
        raise ValueError(f"{api}: input's last dim must equal size ({size}), got shape {list(input.shape)}")
    if h_0 is not None and int(h_0.shape[-1]) != proj_size:
        raise ValueError(f"{api}: h_0 must be [batch_size, {proj_size}], got {list(h_0.shape)}")
    if c_0 is not None and int(c_0.shape[-1]) != hid:
        raise ValueError(f"{api}: c_0 must be [batch_size, {hid}], got {list(c_0.shape)}")
    for nm, v in (("cell_clip", cell_clip), ("proj_clip", proj_clip)):
        if v is not None and v < 0:
            raise ValueError(f"{api}: {nm} should not be negative, got {v}")
    offs = lod_of(input, api)
    with layer_helper("lstmp", name) as prefix:
        w = create_parameter_impl([proj_size, 4 * hid], dtype, param_attr, False, prefix=prefix)
        pw = create_parameter_impl([hid, proj_size], dtype, param_attr, False, prefix=prefix)
        nb = 7 * hid if use_peepholes else 4 * hid
        b = create_parameter_impl([1, nb], dtype, bias_attr, True, prefix=prefix)
        if b is None:
            b = P("paddle.zeros")([1, nb], dtype)
        r, c = lstmp_op(input, offs, w, pw, b, h_0, c_0, use_peepholes, is_reverse, gate_activation,
                        cell_activation, candidate_activation, proj_activation, float(cell_clip or 0.0),
                        float(proj_clip or 0.0))
    return _attach(r, offs), _attach(c, offs)


# ------------------------------------------------------------------------------------------------
# deformable_conv (v2 with a modulation mask, v1 without)


def _pair(v, what):
    if isinstance(v, (list, tuple)):
        if len(v) != 2:
            raise InvalidArgumentError(f"fluid.layers.deformable_conv: {what} must be an int or a pair, got {v}")
        return int(v[0]), int(v[1])
    return int(v), int(v)


def deformable_conv(input, offset, mask, num_filters, filter_size, stride=1, padding=0, dilation=1,
                    groups=None, deformable_groups=None, im2col_step=None, param_attr=None, bias_attr=None,
                    modulated=True, name=None):

    api = "fluid.layers.deformable_conv"
    if param_attr is False:
        raise InvalidArgumentError(f"{api}: param_attr should not be False here.")
    if len(input.shape) != 4:
        raise InvalidArgumentError(f"{api}: input must be 4-D [N, C, H, W], got shape {list(input.shape)}")
    if modulated and mask is None:
        raise InvalidArgumentError(f"{api}: modulated=True (deformable conv v2) needs a mask Variable")
    c = int(input.shape[1])
    g = 1 if groups is None else int(groups)
    if c % g != 0:
        raise ValueError("num_channels must be divisible by groups.")
    dg = 1 if deformable_groups is None else int(deformable_groups)
    fs, st, pd, dl = (_pair(v, w) for v, w in ((filter_size, "filter_size"), (stride, "stride"),
                                                 (padding, "padding"), (dilation, "dilation")))
    k = fs[0] * fs[1]
    if offset.shape[1] >= 0 and offset.shape[1] != 2 * dg * k:
        raise InvalidArgumentError(f"{api}: offset must have 2 * deformable_groups * kh * kw = {2 * dg * k} channels, "
                                   f"got shape {list(offset.shape)}")
    if modulated and mask.shape[1] >= 0 and mask.shape[1] != dg * k:
        raise InvalidArgumentError(f"{api}: mask must have deformable_groups * kh * kw = {dg * k} channels, "
                                   f"got shape {list(mask.shape)}")
    if c % dg != 0:
        raise InvalidArgumentError(f"{api}: input channels {c} must be divisible by deformable_groups {dg}")
    step = 64 if im2col_step is None else int(im2col_step)
    std = (2.0 / (k * c)) ** 0.5
    with layer_helper("deformable_conv", name) as prefix:
        w = create_parameter_impl([num_filters, c // g, fs[0], fs[1]], input.dtype, param_attr, False,
                                  default_initializer=NormalInitializer(0.0, std, 0), prefix=prefix)
        if modulated:
            out = _deformable_conv(input, offset, mask, w, st, pd, dl, g, dg, step)
        else:
            out = _deformable_conv_v1(input, offset, w, st, pd, dl, g, dg, step)
        b = create_parameter_impl([num_filters], input.dtype, bias_attr, True, prefix=prefix)
        if b is not None:
            out = P("paddle.fluid.layers.elementwise_add")(out, b, axis=1)
    return out


# ------------------------------------------------------------------------------------------------
# generate_mask_labels (Mask R-CNN mask targets from polygon ground truth: gt_segms has 3 LoD levels)

_SEGM_LOD = ("@LOD_L0", "@LOD_L1")  # hidden feeds with gt_segms' two upper LoD levels (offsets)


def _feed_upper_lods(program, feed):
    """Executor feed hook: `<name>@LOD_L0` / `@LOD_L1` for a fed 3-level LoDTensor a generate_mask_labels reads."""

    block = program.global_block()
    out = None
    for name, value in list(feed.items()):
        if name + _SEGM_LOD[0] not in block.vars or name + _SEGM_LOD[0] in feed:
            continue
        lod = value.lod() if isinstance(value, LoDTensor) else None
        if not lod or len(lod) != 3:
            raise InvalidArgumentError(
                f"fluid.layers.generate_mask_labels: gt_segms {name!r} must be fed as a LoDTensor with 3 LoD levels "
                f"(objects per image, polygons per object, points per polygon), got lod {lod}")
        out = dict(feed) if out is None else out
        for lvl, suffix in enumerate(_SEGM_LOD):
            out[name + suffix] = np.asarray(lod[lvl], dtype=np.int64)
    return out if out is not None else feed


def generate_mask_labels(im_info, gt_classes, is_crowd, gt_segms, rois, labels_int32, num_classes, resolution):

    api = "fluid.layers.generate_mask_labels"
    if not _is_var(gt_segms):
        raise InvalidArgumentError(f"{api}: gt_segms needs 3 LoD levels, which only static-graph LoDTensors carry; "
                                   "build the program in static mode")
    block = gt_segms.block.program.global_block()
    v = block.vars.get(gt_segms.name)
    if gt_segms.node.op != "placeholder" or v is None or v.lod_level != 3:
        raise InvalidArgumentError(
            f"{api}: gt_segms {gt_segms.name!r} must be a data variable with lod_level=3 (objects / polygons / points), "
            f"e.g. fluid.data(name, [None, 2], 'float32', lod_level=3)")
    upper = []
    for suffix in _SEGM_LOD:
        lv = block.vars.get(gt_segms.name + suffix)
        if lv is None:
            lv = block.create_var(name=gt_segms.name + suffix, shape=[-1], dtype="int64", stop_gradient=True)
            lv.is_data = True
        upper.append(lv)
    if _feed_upper_lods not in _ex.FEED_HOOKS:
        _ex.FEED_HOOKS.append(_feed_upper_lods)
    mrois, has, masks, offs = _generate_mask_labels(
        im_info, gt_classes, _lod(gt_classes, api), is_crowd, _lod(is_crowd, api), gt_segms, upper[0], upper[1],
        _lod(gt_segms, api), rois, _lod(rois, api), labels_int32, _lod(labels_int32, api), int(num_classes),
        int(resolution))
    return tuple(_attach_if(o, offs) for o in (mrois, has, masks))


# ------------------------------------------------------------------------------------------------
# center_loss / inplace_abn


def center_loss(input, label, num_classes, alpha, param_attr, update_center=True):
    """fluid.layers.center_loss: centers parameter [num_classes, D] (`center_loss_N.w_0`, not trainable) and a
    persistable `centerloss_alpha` [1] when alpha is a float; returns the loss [N, 1]."""

    if len(input.shape) != 2:
        raise InvalidArgumentError(
            f"fluid.layers.center_loss: input must be 2-D [N, D], but its shape is {list(input.shape)}")
    with layer_helper("center_loss") as prefix:
        centers = create_parameter_impl([int(num_classes), input.shape[1]], input.dtype, param_attr, False,
                                        prefix=prefix)
        centers.stop_gradient = True
        if not isinstance(alpha, (Variable,)) and not hasattr(alpha, "_t"):
            if not isinstance(alpha, float):
                raise TypeError(f"fluid.layers.center_loss: alpha must be a float or a Variable, got "
                                f"{type(alpha).__name__}")
            name = "centerloss_alpha"
            if MODE.static and name in default_main_program().global_block().vars:

                name = unique_name.generate(name)
            alpha = create_global_var([1], alpha, "float32", persistable=True, name=name)
        loss, _ = center_loss_op(input, label, centers, alpha, int(num_classes), bool(update_center))
    return loss


def inplace_abn(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
                bias_attr=None, data_layout="NCHW", name=None, moving_mean_name=None, moving_variance_name=None,
                do_model_average_for_mean_and_var=True, use_global_stats=False, act_alpha=1.0):
    """Batch norm then identity / leaky_relu(act_alpha) / elu(act_alpha), with parameters named
    `inplace_abn_N.w_0..w_2`, `.b_0`. As in Paddle, the result overwrites the input, which is returned."""

    if act not in (None, "identity", "leaky_relu", "elu"):
        raise ValueError("inplace_abn only support act as None, 'identity', 'leaky_relu', 'elu' currently")
    if bias_attr is False:
        raise ValueError("bias_attr should not be False in inplace_abn.")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError("unsupported data layout:" + data_layout)
    prefix = name or unique_name.generate("inplace_abn")
    out = batch_norm(input, None, is_test, momentum, epsilon, param_attr, bias_attr, data_layout, False, prefix,
                     moving_mean_name, moving_variance_name, do_model_average_for_mean_and_var, use_global_stats)
    with layer_helper("inplace_abn", prefix):
        if act == "leaky_relu":
            out = P("paddle.nn.functional.leaky_relu")(out, float(act_alpha))
        elif act == "elu":
            out = P("paddle.nn.functional.elu")(out, float(act_alpha))
    if isinstance(input, Variable):
        from paddle_compat.engine.framework.dispatch import rebind

        rebind(input, out)  # the input variable's name now holds the result
    else:
        input._t = out._t
    return input


# ------------------------------------------------------------------------------------------------
# data_norm / nce (engine/ops/nce_data_norm.py)


def data_norm(input, act=None, epsilon=1e-05, param_attr=None, data_layout="NCHW", in_place=False, name=None,  # noqa: A002
              moving_mean_name=None, moving_variance_name=None, do_model_average_for_mean_and_var=True,
              slot_dim=-1, sync_stats=False, summary_decay_rate=0.9999999, enable_scale_and_shift=False):
    """fluid.layers.data_norm / paddle.static.nn.data_norm: normalizes a 2-D input [N, C] by accumulated
    statistics, the trainable parameters `<name>.batch_size`, `.batch_sum`, `.batch_square_sum` (name defaults to
    "dn"; param_attr may be a dict of their initial values: batch_size, batch_sum, batch_square, scale_w, bias)."""
    api = "fluid.layers.data_norm"
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError("unsupported data layout:" + data_layout)
    if len(input.shape) != 2:
        raise InvalidArgumentError(f"{api}: input must be 2-D [N, C], got shape {list(input.shape)}")
    channels = int(input.shape[1] if data_layout == "NCHW" else input.shape[-1])
    init = {"batch_size": 1e4, "batch_sum": 0.0, "batch_square": 1e4, "scale_w": 1.0, "bias": 0.0}
    if isinstance(param_attr, dict):
        init.update({k: param_attr[k] for k in init if k in param_attr})
    name = name or "dn"

    def stat(suffix: str, value: float):
        return create_parameter_impl([channels], input.dtype, ParamAttr(name=f"{name}.{suffix}",
                                     initializer=ConstantInitializer(float(value)), trainable=True), False)

    scale_w = bias = None
    if enable_scale_and_shift:
        scale_w, bias = stat("scale_w", init["scale_w"]), stat("bias", init["bias"])
    size, total, square = stat("batch_size", init["batch_size"]), stat("batch_sum", init["batch_sum"]), \
        stat("batch_square_sum", init["batch_square"])
    with layer_helper("data_norm"):
        out = data_norm_op(input, size, total, square, scale_w, bias, float(epsilon), int(slot_dim))
        return act_layer(out, act)


_SAMPLERS = {"uniform": 0, "log_uniform": 1, "custom_dist": 2}


def nce_weights(num_total_classes, dim, dtype, param_attr, bias_attr, sampler, custom_dist, prefix):
    """nce's parameters: weight [C, dim], bias [C, 1] (unless bias_attr is False) and, for custom_dist, the
    distribution and its alias tables (not trainable), named as Paddle's layer names them."""
    if sampler not in _SAMPLERS:
        raise Exception("Unsupported sampler type.")
    w = create_parameter_impl([int(num_total_classes), int(dim)], dtype, param_attr, False, prefix=prefix)
    b = create_parameter_impl([int(num_total_classes), 1], dtype, bias_attr, True, prefix=prefix)
    custom = [None, None, None]
    if sampler == "custom_dist":
        if custom_dist is None:
            raise InvalidArgumentError("fluid.layers.nce: sampler='custom_dist' needs custom_dist")
        alias, alias_probs = alias_tables(custom_dist, int(num_total_classes))
        for i, arr in enumerate((np.asarray(custom_dist, "float32"), np.asarray(alias, "int32"),
                                 np.asarray(alias_probs, "float32"))):
            custom[i] = create_parameter_impl(list(arr.shape), str(arr.dtype), ParamAttr(), False,
                                              default_initializer=NumpyArrayInitializer(arr), prefix=prefix,
                                              stop_gradient=True)
    return w, b, custom


def nce_cost(input, label, w, b, custom, num_total_classes, sample_weight, num_neg_samples, sampler, seed):
    k = 10 if num_neg_samples is None else int(num_neg_samples)
    cost = nce_op(input, label, w, b, sample_weight, custom[0], custom[1], custom[2], int(num_total_classes), k,
                  _SAMPLERS[sampler], int(seed))
    return P("paddle.scale")(cost, scale=1.0 / (k + 1))


def nce(input, label, num_total_classes, sample_weight=None, param_attr=None, bias_attr=None,  # noqa: A002
        num_neg_samples=None, name=None, sampler="uniform", custom_dist=None, seed=0, is_sparse=False):
    """fluid.layers.nce / paddle.static.nn.nce: noise-contrastive estimation loss [N, 1] (the cost averaged over
    the true and num_neg_samples (default 10) sampled classes)."""
    check_variable_and_dtype(input, "input", ["float32", "float64"], "nce")
    check_variable_and_dtype(label, "label", ["int64"], "nce")
    with layer_helper("nce", name) as prefix:
        w, b, custom = nce_weights(num_total_classes, input.shape[1], input.dtype, param_attr, bias_attr, sampler,
                                   custom_dist, prefix)
        return nce_cost(input, label, w, b, custom, num_total_classes, sample_weight, num_neg_samples, sampler,
                        seed)


def tree_conv(nodes_vector, edge_set, output_size, num_filters=1, max_depth=2, act="tanh", param_attr=None,
              bias_attr=None, name=None):
    """fluid.contrib.tree_conv: tree-based convolution (engine/ops/tree_conv.py) of nodes_vector [B, N, F] over the trees
    of edge_set [B, E, 2]; filter `tree_conv_N.w_0` [F, 3, output_size, num_filters], bias [N, output_size,
    num_filters] (Paddle's append_bias_op shape) unless bias_attr is False; then act."""
    check_variable_and_dtype(nodes_vector, "nodes_vector", ["float32", "float64"], "tree_conv")
    with layer_helper("tree_conv", name) as prefix:
        f = int(nodes_vector.shape[2])
        w = create_parameter_impl([f, 3, int(output_size), int(num_filters)], nodes_vector.dtype, param_attr, False,
                                  prefix=prefix)
        out = tree_conv_op(nodes_vector, edge_set, w, int(max_depth))
        b = create_parameter_impl(list(out.shape[1:]), nodes_vector.dtype, bias_attr, True, prefix=prefix)
        if b is not None:
            out = P("paddle.fluid.layers.elementwise_add")(out, b, axis=1)
        return act_layer(out, act)


def multi_box_head(inputs, image, base_size, num_classes, aspect_ratios, min_ratio=None, max_ratio=None,
                   min_sizes=None, max_sizes=None, steps=None, step_w=None, step_h=None, offset=0.5,
                   variance=[0.1, 0.1, 0.2, 0.2], flip=True, clip=False, kernel_size=1, pad=0, stride=1,  # noqa: B006
                   name=None, min_max_aspect_ratios_order=False):
    """SSD heads: per input feature map, prior_box and two conv2d (box offsets, class scores) flattened in NHWC
    order; -> (locations [N, boxes, 4], confidences [N, boxes, num_classes], boxes, variances)."""
    L = "paddle.fluid.layers."

    def seq(v):
        return isinstance(v, (list, tuple))

    def same_len(v, what):
        if not (seq(v) and len(v) == n):
            raise ValueError(f"{what} should be list or tuple, and the length of inputs and {what} should be the "
                             "same.")

    if not seq(inputs):
        raise ValueError("inputs should be a list or tuple.")
    n = len(inputs)
    if n <= 2:
        if min_sizes is None or max_sizes is None or len(min_sizes) != n or len(max_sizes) != n:
            raise ValueError("multi_box_head: with 1 or 2 inputs, min_sizes and max_sizes must be given, one per "
                             "input")
    elif min_sizes is None and max_sizes is None:
        step = int(math.floor((max_ratio - min_ratio) / (n - 2)))
        ratios = range(min_ratio, max_ratio + 1, step)
        min_sizes = [base_size * 0.10] + [base_size * r / 100.0 for r in ratios]
        max_sizes = [base_size * 0.20] + [base_size * (r + step) / 100.0 for r in ratios]
    if aspect_ratios:
        same_len(aspect_ratios, "aspect_ratios")
    for v, what in ((step_h, "step_h"), (step_w, "step_w"), (steps, "steps")):
        if v is not None:
            same_len(v, what)
    if steps is not None:
        step_w = step_h = steps
    locs, confs, boxes, variances = [], [], [], []
    for i, feat in enumerate(inputs):
        mn = min_sizes[i] if seq(min_sizes[i]) else [min_sizes[i]]
        mx = max_sizes[i] if seq(max_sizes[i]) else [max_sizes[i]]
        ar = [] if aspect_ratios is None else (aspect_ratios[i] if seq(aspect_ratios[i]) else [aspect_ratios[i]])
        # Paddle's layer reads step_h only when step_w is given
        st = [step_w[i] if step_w else 0.0, step_h[i] if step_w else 0.0]
        box, var = P(L + "prior_box")(feat, image, mn, mx, ar, variance, flip, clip, st, offset, None,
                                      min_max_aspect_ratios_order)
        boxes.append(box)
        variances.append(var)
        nb = int(box.shape[2])
        for width, out in ((nb * 4, locs), (nb * num_classes, confs)):
            conv = P(L + "conv2d")(input=feat, num_filters=width, filter_size=kernel_size, padding=pad,
                                   stride=stride)
            out.append(P(L + "flatten")(P(L + "transpose")(conv, perm=[0, 2, 3, 1]), axis=1))
    if n == 1:
        box, var, loc, conf = boxes[0], variances[0], locs[0], confs[0]
    else:
        box = P(L + "concat")([P(L + "flatten")(b, axis=3) for b in boxes])
        var = P(L + "concat")([P(L + "flatten")(v, axis=3) for v in variances])
        loc = P(L + "reshape")(P(L + "concat")(locs, axis=1), shape=[0, -1, 4])
        conf = P(L + "reshape")(P(L + "concat")(confs, axis=1), shape=[0, -1, num_classes])
    box.stop_gradient = True
    var.stop_gradient = True
    return loc, conf, box, var


export(multi_box_head, "paddle.fluid.layers.multi_box_head")
export(tree_conv, "paddle.fluid.contrib.tree_conv", "paddle.fluid.contrib.layers.tree_conv",
       "paddle.fluid.contrib.layers.nn.tree_conv")
for _fn in (lstm, dynamic_lstmp, deformable_conv, generate_mask_labels, center_loss, inplace_abn, data_norm, nce):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
export(data_norm, "paddle.static.nn.data_norm")
export(nce, "paddle.static.nn.nce")
