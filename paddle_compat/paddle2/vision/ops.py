"""paddle.vision.ops: the detection ops (adapters with the 2.x signatures over the one definition each op has
in paddle_compat.engine.ops.detection*) and ConvNormActivation, the conv-norm-activation block the models build on."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.paddle2.nn.common import ReLU
from paddle_compat.paddle2.nn.container import Sequential
from paddle_compat.paddle2.nn.conv import Conv2D
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.paddle2.nn.norm import BatchNorm2D
from paddle_compat.engine.ops import detection as _det
from paddle_compat.engine.ops import detection_infer as _deti
from paddle_compat.engine.ops import detection_train as _dett
from paddle_compat.engine.ops import image_io as _img
from paddle_compat.engine.framework.lookup import P
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static.initializer import Normal

_OPS = "paddle.vision.ops"


def _pair(v: Any, what: str, api: str) -> tuple[int, int]:
    if isinstance(v, int):
        return v, v
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return int(v[0]), int(v[1])
    raise InvalidArgumentError(f"{_OPS}.{api}: {what} should be an int or a pair of ints, got {v!r}")


def _check_boxes(api: str, x: Any, boxes: Any, boxes_num: Any) -> Any:
    """The offsets [N + 1] of boxes_num (boxes of image i are rows offs[i]:offs[i+1])."""
    if len(x.shape) != 4:
        raise InvalidArgumentError(f"{_OPS}.{api}: x should be a 4-D [N, C, H, W] tensor, got shape {list(x.shape)}")
    if len(boxes.shape) != 2 or boxes.shape[1] not in (4, -1):
        raise InvalidArgumentError(f"{_OPS}.{api}: boxes should be a [num_boxes, 4] tensor, got {list(boxes.shape)}")
    if boxes_num is None:
        raise InvalidArgumentError(f"{_OPS}.{api}: boxes_num (the number of boxes of each image, [N]) is required")
    return _deti._counts_to_offs(boxes_num)


# ------------------------------------------------------------------------------------------------ RoI ops


def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1, aligned=True, name=None):
    """RoI Align (the fluid roi_align op): x [N, C, H, W], boxes [R, 4] (x1, y1, x2, y2), boxes_num [N] ->
    [R, C, oh, ow]; aligned shifts boxes by half a pixel as Detectron2 does."""
    oh, ow = _pair(output_size, "output_size", "roi_align")
    offs = _check_boxes("roi_align", x, boxes, boxes_num)
    return _det._roi_align(x, boxes, offs, oh, ow, float(spatial_scale), int(sampling_ratio), bool(aligned))


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """RoI max pooling (the fluid roi_pool op) -> [R, C, oh, ow]."""
    oh, ow = _pair(output_size, "output_size", "roi_pool")
    offs = _check_boxes("roi_pool", x, boxes, boxes_num)
    return _det._roi_pool(x, boxes, offs, oh, ow, float(spatial_scale))


def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """Position-sensitive RoI average pooling: x [N, C * oh * ow, H, W] -> [R, C, oh, ow]."""
    oh, ow = _pair(output_size, "output_size", "psroi_pool")
    offs = _check_boxes("psroi_pool", x, boxes, boxes_num)
    if x.shape[1] >= 0 and x.shape[1] % (oh * ow):
        raise InvalidArgumentError(f"{_OPS}.psroi_pool: the channels of x ({x.shape[1]}) should be divisible by "
                                   f"output_size[0] * output_size[1] = {oh * ow}")
    return _deti._psroi_pool(x, boxes, offs, x.shape[1] // (oh * ow), float(spatial_scale), oh, ow)


def _roi_layer(fn: Any, doc: str) -> type:
    def __init__(self, output_size, spatial_scale=1.0):
        Layer.__init__(self)
        self._output_size, self._spatial_scale = output_size, spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        extra = {"aligned": aligned} if fn is roi_align else {}
        return fn(x, boxes, boxes_num, self._output_size, self._spatial_scale, **extra)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"

    return {"__init__": __init__, "forward": forward, "extra_repr": extra_repr, "__doc__": doc}


RoIAlign = type("RoIAlign", (Layer,), _roi_layer(roi_align, "paddle.vision.ops.RoIAlign(output_size, "
                                                              "spatial_scale=1.0): roi_align as a layer."))
RoIPool = type("RoIPool", (Layer,), _roi_layer(roi_pool, "paddle.vision.ops.RoIPool(output_size, spatial_scale=1.0)"))
PSRoIPool = type("PSRoIPool", (Layer,), _roi_layer(psroi_pool, "paddle.vision.ops.PSRoIPool(output_size, "
                                                                "spatial_scale=1.0)"))


class ConvNormActivation(Sequential):
    """paddle.vision.ops.ConvNormActivation: Conv2D (bias only without a norm layer unless `bias` says),
    then norm_layer(out_channels) and activation_layer() where given; sublayers are named 0, 1, 2."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any = 3, stride: Any = 1,
                 padding: Any = None, groups: int = 1, norm_layer: Any = BatchNorm2D, activation_layer: Any = ReLU,
                 dilation: int = 1, bias: Any = None) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        layers = [Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation, groups=groups,
                         bias_attr=(norm_layer is None) if bias is None else bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


export(ConvNormActivation, f"{_OPS}.ConvNormActivation")


# ------------------------------------------------------------------------------------------------ NMS


def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    """Greedy NMS -> int64 indices of the boxes kept: in box order without scores; by descending score with
    scores; per category (categories lists the ids) with category_idxs, then the top_k best."""
    api = f"{_OPS}.nms"
    if len(boxes.shape) != 2 or boxes.shape[1] not in (4, -1):
        raise InvalidArgumentError(f"{api}: boxes should be a [num_boxes, 4] tensor, got shape {list(boxes.shape)}")
    if category_idxs is not None:
        if scores is None:
            raise InvalidArgumentError(f"{api}: category_idxs needs scores")
        if categories is None:
            raise AssertionError("if category_idxs is given, categories which is a list of unique id of all "
                                 "categories is necessary")
        if top_k is not None and boxes.shape[0] >= 0 and top_k > boxes.shape[0]:
            raise AssertionError("top_k should be smaller equal than the number of boxes")
        categories = tuple(int(c) for c in categories)
    return _det._nms(boxes, float(iou_threshold), scores, category_idxs, categories,
                     None if top_k is None else int(top_k))


# ------------------------------------------------------------------------------------------------ deformable conv


def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1, deformable_groups=1, groups=1,
                  mask=None, name=None):
    """Deformable convolution: v2 (modulated by mask [N, dg * kh * kw, Ho, Wo]) or v1 without mask; offset is
    [N, 2 * dg * kh * kw, Ho, Wo]. The fluid deformable_conv / deformable_conv_v1 ops, plus bias on channels."""
    api = "deform_conv2d"
    st, pd, dl = (_pair(v, what, api) for v, what in ((stride, "stride"), (padding, "padding"),
                                                      (dilation, "dilation")))
    if len(x.shape) != 4 or len(weight.shape) != 4:
        raise InvalidArgumentError(f"{_OPS}.{api}: x and weight should be 4-D, got {list(x.shape)} and "
                                   f"{list(weight.shape)}")
    k = weight.shape[2] * weight.shape[3]
    if offset.shape[1] >= 0 and offset.shape[1] != 2 * deformable_groups * k:
        raise InvalidArgumentError(f"{_OPS}.{api}: offset should have 2 * deformable_groups * kh * kw = "
                                   f"{2 * deformable_groups * k} channels, got {offset.shape[1]}")
    if mask is None:
        out = _dett._deformable_conv_v1(x, offset, weight, st, pd, dl, int(groups), int(deformable_groups), 1)
    else:
        out = _dett._deformable_conv(x, offset, mask, weight, st, pd, dl, int(groups), int(deformable_groups), 1)
    if bias is not None:
        out = P("add")(out, P("reshape")(bias, [1, -1, 1, 1]))
    return out


class DeformConv2D(Layer):
    """paddle.vision.ops.DeformConv2D: weight [out, in / groups, kh, kw] (Normal(0, sqrt(2 / (kh * kw * in)))
    by default), bias [out]; forward(x, offset, mask=None) is deform_conv2d."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, deformable_groups=1,
                 groups=1, weight_attr=None, bias_attr=None):
        super().__init__()
        if weight_attr is False:
            raise AssertionError("weight_attr should not be False in Conv.")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups.")
        api = "DeformConv2D"
        self._in_channels, self._out_channels = in_channels, out_channels
        self._groups, self._deformable_groups = groups, deformable_groups
        self._stride, self._padding, self._dilation, self._kernel_size = (
            list(_pair(v, what, api)) for v, what in ((stride, "stride"), (padding, "padding"), (dilation, "dilation"),
                                                      (kernel_size, "kernel_size")))
        std = (2.0 / (self._kernel_size[0] * self._kernel_size[1] * in_channels)) ** 0.5
        self.weight = self.create_parameter(shape=[out_channels, in_channels // groups] + self._kernel_size,
                                            attr=weight_attr, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding, self._dilation,
                             self._deformable_groups, self._groups, mask)


# ------------------------------------------------------------------------------------------------ YOLO / SSD boxes


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, name=None,
             scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """YOLOv3 box decoding -> (boxes [N, M, 4], scores [N, M, class_num]); boxes under conf_thresh are zero."""
    return _det._yolo_box(x, img_size, tuple(int(a) for a in anchors), int(class_num), float(conf_thresh),
                          int(downsample_ratio), bool(clip_bbox), float(scale_x_y), bool(iou_aware),
                          float(iou_aware_factor), True)


def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio, gt_score=None,
              use_label_smooth=True, name=None, scale_x_y=1.0):
    """The YOLOv3 loss per image [N] (the fluid yolov3_loss op)."""
    return _dett.yolov3_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                             gt_score, use_label_smooth, None, scale_x_y)


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size", box_normalized=True, axis=0,
              name=None):
    """Encode target boxes against priors, or decode deltas (the fluid box_coder op)."""
    return _det.box_coder(prior_box, prior_box_var, target_box, code_type, box_normalized, None, axis)


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.0],  # noqa: A002,B006
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0], offset=0.5,  # noqa: B006
              min_max_aspect_ratios_order=False, name=None):
    """SSD prior boxes for each feature-map cell -> (boxes, variances) [H, W, num_priors, 4]."""
    if max_sizes is not None and not (len(max_sizes) > 0 and max_sizes[0] > 0):
        max_sizes = None
    return _det.prior_box(input, image, min_sizes, max_sizes, aspect_ratios, variance, flip, clip, steps, offset,
                          None, min_max_aspect_ratios_order)


# ------------------------------------------------------------------------------------------------ two-stage detectors


def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000, post_nms_top_n=1000,
                       nms_thresh=0.5, min_size=0.1, eta=1.0, pixel_offset=False, return_rois_num=False, name=None):
    """RPN proposals (Paddle's generate_proposals_v2): scores [N, A, H, W], bbox_deltas [N, 4A, H, W],
    img_size [N, 2] (h, w), anchors / variances [H, W, A, 4] -> (rpn_rois [R, 4], rpn_roi_probs [R, 1],
    rpn_rois_num [N] int32 or None)."""
    api = f"{_OPS}.generate_proposals"
    if not return_rois_num and not _static():
        raise AssertionError("return_rois_num should be True in dygraph mode.")
    for what, v, rank in (("scores", scores, 4), ("bbox_deltas", bbox_deltas, 4), ("img_size", img_size, 2)):
        if len(v.shape) != rank:
            raise InvalidArgumentError(f"{api}: {what} should be {rank}-D, got shape {list(v.shape)}")
    rois, probs, _offs, ends = _deti._generate_proposals_v2(
        scores, bbox_deltas, img_size, anchors, variances, int(pre_nms_top_n), int(post_nms_top_n),
        float(nms_thresh), float(min_size), float(eta), bool(pixel_offset))
    return rois, probs, (_counts(_offs) if return_rois_num else None)


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale, pixel_offset=False,
                             rois_num=None, name=None):
    """Split rois [R, 4] over FPN levels min_level..max_level by their scale -> (multi_rois (a list), restore_ind
    [R, 1] int32, rois_num_per_level (a list of [N] int32))."""
    api = f"{_OPS}.distribute_fpn_proposals"
    if not (max_level > 0 and min_level > 0):
        raise AssertionError("min_level and max_level should be greater than 0")
    nl = int(max_level) - int(min_level) + 1
    if nl <= 1:
        raise AssertionError("max_level should be greater than min_level")
    if rois_num is None:
        raise AssertionError("rois_num should not be None in dygraph mode.")
    if len(fpn_rois.shape) != 2:
        raise InvalidArgumentError(f"{api}: fpn_rois should be [R, 4], got shape {list(fpn_rois.shape)}")
    res = _deti._distribute_fpn_proposals(fpn_rois, _deti._counts_to_offs(rois_num), int(min_level), int(max_level),
                                          int(refer_level), int(refer_scale), bool(pixel_offset))
    return list(res[:nl]), res[-1], [_counts(o) for o in res[nl:2 * nl]]


def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian=False,
               gaussian_sigma=2.0, background_label=0, normalized=True, return_index=False, return_rois_num=True,
               name=None):
    """Matrix NMS (SOLOv2) -> (out [No, 6] rows [label, score, x1, y1, x2, y2], rois_num [N] int32 or None,
    index [No, 1] or None)."""
    out, index, offs = _deti._matrix_nms(bboxes, scores, float(score_threshold), float(post_threshold),
                                         int(nms_top_k), int(keep_top_k), bool(use_gaussian), float(gaussian_sigma),
                                         int(background_label), bool(normalized))
    return out, (_counts(offs) if return_rois_num else None), (index if return_index else None)


# ------------------------------------------------------------------------------------------------ image files


def read_file(filename, name=None):
    """The bytes of a file as a 1-D uint8 tensor."""
    return _img._read_file(str(filename))


def decode_jpeg(x, mode="unchanged", name=None):
    """Decode the JPEG bytes x (read_file's output) -> uint8 [C, H, W]; mode 'unchanged', 'gray' or 'rgb'.
    Paddle decodes on GPU only; this works on every device (Pillow, the paddle_compat[vision] extra)."""
    return _img._decode_jpeg(x, mode)


def _counts(offs):
    """int32 per-image counts from offsets [N + 1]."""
    return P("cast")(P("diff")(offs), "int32")


def _static():
    from paddle_compat.engine.core.mode import MODE

    return MODE.static


for _o in (roi_align, roi_pool, psroi_pool, RoIAlign, RoIPool, PSRoIPool, nms, deform_conv2d, DeformConv2D, yolo_box,
           yolo_loss, box_coder, prior_box, generate_proposals, distribute_fpn_proposals, matrix_nms, read_file,
           decode_jpeg):
    export(_o, f"{_OPS}.{_o.__name__}")
