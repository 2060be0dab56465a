"""fluid.layers detection ops (1.8 kernels in torch): iou_similarity, box_clip, box_coder, prior_box, yolo_box."""

from __future__ import annotations

import math

import numpy as np
import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.argcheck import require_tensor
from paddle_compat.engine.framework.registry import export, op


def _pad1(normalized: bool) -> float:
    return 0.0 if normalized else 1.0


@op("iou_similarity", differentiable=False)
def iou_similarity(x, y, box_normalized=True, name=None):
    """IoU of every box of x [N, 4] with every box of y [M, 4] -> [N, M]."""
    p = _pad1(box_normalized)
    ax = (x[:, 2] - x[:, 0] + p) * (x[:, 3] - x[:, 1] + p)
    ay = (y[:, 2] - y[:, 0] + p) * (y[:, 3] - y[:, 1] + p)
    iw = (torch.minimum(x[:, None, 2], y[None, :, 2]) - torch.maximum(x[:, None, 0], y[None, :, 0]) + p).clamp(min=0)
    ih = (torch.minimum(x[:, None, 3], y[None, :, 3]) - torch.maximum(x[:, None, 1], y[None, :, 1]) + p).clamp(min=0)
    inter = iw * ih
    return inter / (ax[:, None] + ay[None, :] - inter)


@op("box_clip", differentiable=False)
def _box_clip(input, im_info, offs=None):  # noqa: A002
    """Clip boxes to [0, round(w / scale) - 1] x [0, round(h / scale) - 1]; im_info [N, 3] = (h, w, scale).
    Input [N, M, 4] uses row n of im_info; a 2-D input with LoD offsets the row of each box's image, without
    LoD the first row."""
    info = im_info.reshape(-1, 3)
    h = torch.round(info[:, 0] / info[:, 2])
    w = torch.round(info[:, 1] / info[:, 2])
    if input.dim() == 3:
        wb, hb = (w - 1).reshape(-1, 1), (h - 1).reshape(-1, 1)
    elif offs is not None:
        img = _roi_batch_ids(offs, input.shape[0], input.device)
        wb, hb = (w - 1)[img], (h - 1)[img]
    else:
        wb, hb = w[0] - 1, h[0] - 1
    zero = torch.zeros_like(input[..., 0])
    return torch.stack([torch.minimum(torch.maximum(input[..., k], zero), b)
                        for k, b in ((0, wb), (1, hb), (2, wb), (3, hb))], -1)


def box_clip(input, im_info, name=None):  # noqa: A002
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.ops.sequence import _attach, lod_of

    offs = None
    if isinstance(input, Variable) and len(input.shape) == 2:  # LoD boxes: each image's own im_info row
        try:
            offs = lod_of(input, "fluid.layers.box_clip")
        except InvalidArgumentError:
            offs = None
    out = _box_clip(input, im_info, offs)
    return _attach(out, offs) if offs is not None else out


@op("box_coder")
def _box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size", box_normalized=True,
               axis=0, variance=None):
    p = _pad1(box_normalized)
    pw = prior_box[:, 2] - prior_box[:, 0] + p
    ph = prior_box[:, 3] - prior_box[:, 1] + p
    pcx = prior_box[:, 0] + pw / 2  # NOTE: prior centers use the +1 width, target centers (x1 + x2) / 2 (1.8)
    pcy = prior_box[:, 1] + ph / 2
    if prior_box_var is not None:
        var = prior_box_var.reshape(-1, 4)
    elif variance:
        var = torch.tensor(list(variance), dtype=prior_box.dtype, device=prior_box.device).reshape(1, 4)
    else:
        var = torch.ones(1, 4, dtype=prior_box.dtype, device=prior_box.device)
    if code_type.lower() == "encode_center_size":
        t = target_box
        tw = t[:, 2] - t[:, 0] + p
        th = t[:, 3] - t[:, 1] + p
        tcx = ((t[:, 0] + t[:, 2]) / 2)[:, None]
        tcy = ((t[:, 1] + t[:, 3]) / 2)[:, None]
        v = var if var.shape[0] == 1 else var.unsqueeze(0)
        v = v.expand(1, pw.shape[0], 4) if v.dim() == 2 else v
        o0 = (tcx - pcx[None]) / pw[None] / v[..., 0]
        o1 = (tcy - pcy[None]) / ph[None] / v[..., 1]
        o2 = torch.log(torch.abs(tw[:, None] / pw[None])) / v[..., 2]
        o3 = torch.log(torch.abs(th[:, None] / ph[None])) / v[..., 3]
        return torch.stack([o0, o1, o2, o3], -1)
    if code_type.lower() != "decode_center_size":
        raise InvalidArgumentError(
            f"fluid.layers.box_coder: code_type must be encode_center_size or decode_center_size, got {code_type!r}")
    t = target_box if target_box.dim() == 3 else target_box.reshape(target_box.shape[0], -1, 4)
    shp = (1, -1) if axis == 0 else (-1, 1)
    pw_, ph_, pcx_, pcy_ = (a.reshape(shp) for a in (pw, ph, pcx, pcy))
    v = var.reshape(shp + (4,)) if var.shape[0] > 1 else var.reshape(1, 1, 4)
    cx = v[..., 0] * t[..., 0] * pw_ + pcx_
    cy = v[..., 1] * t[..., 1] * ph_ + pcy_
    w = torch.exp(v[..., 2] * t[..., 2]) * pw_
    h = torch.exp(v[..., 3] * t[..., 3]) * ph_
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - p, cy + h / 2 - p], -1)


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size", box_normalized=True,
              name=None, axis=0):
    """prior_box_var: a Variable [M, 4], a list of 4 floats, or None."""
    if isinstance(prior_box_var, (list, tuple)):
        return _box_coder(prior_box, None, target_box, code_type, box_normalized, axis, variance=tuple(prior_box_var))
    return _box_coder(prior_box, prior_box_var, target_box, code_type, box_normalized, axis)


def _expand_ratios(aspect_ratios, flip):
    out = [1.0]
    for ar in aspect_ratios:
        if all(abs(ar - o) > 1e-6 for o in out):
            out.append(float(ar))
            if flip:
                out.append(1.0 / ar)
    return out


@op("prior_box", differentiable=False)
def _prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=(1.0,), variance=(0.1, 0.1, 0.2, 0.2),  # noqa: A002
               flip=False, clip=False, steps=(0.0, 0.0), offset=0.5, min_max_aspect_ratios_order=False):
    fh, fw = input.shape[2], input.shape[3]
    ih, iw = image.shape[2], image.shape[3]
    sw = steps[0] if steps[0] else iw / fw
    sh = steps[1] if steps[1] else ih / fh
    ars = _expand_ratios(aspect_ratios, flip)
    sizes = []  # (half width, half height) per prior
    for s, mn in enumerate(min_sizes):
        mx = [math.sqrt(mn * max_sizes[s]) / 2] if max_sizes else []
        if min_max_aspect_ratios_order:
            sizes.append((mn / 2, mn / 2))
            sizes += [(m, m) for m in mx]
            sizes += [(mn * math.sqrt(ar) / 2, mn / math.sqrt(ar) / 2) for ar in ars if abs(ar - 1.0) >= 1e-6]
        else:
            sizes += [(mn * math.sqrt(ar) / 2, mn / math.sqrt(ar) / 2) for ar in ars]
            sizes += [(m, m) for m in mx]
    dev = input.device
    half = torch.tensor(sizes, dtype=torch.float32, device=dev)  # [P, 2]
    cx = (torch.arange(fw, dtype=torch.float32, device=dev) + offset) * sw
    cy = (torch.arange(fh, dtype=torch.float32, device=dev) + offset) * sh
    cxg = cx.reshape(1, fw, 1).expand(fh, fw, len(sizes))
    cyg = cy.reshape(fh, 1, 1).expand(fh, fw, len(sizes))
    boxes = torch.stack([(cxg - half[:, 0]) / iw, (cyg - half[:, 1]) / ih, (cxg + half[:, 0]) / iw,
                         (cyg + half[:, 1]) / ih], -1)
    if clip:
        boxes = boxes.clamp(0.0, 1.0)
    var = torch.tensor(list(variance), dtype=torch.float32, device=dev).expand_as(boxes).clone()
    return boxes.to(input.dtype), var.to(input.dtype)


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.0], variance=[0.1, 0.1, 0.2, 0.2],  # noqa: A002,B006
              flip=False, clip=False, steps=[0.0, 0.0], offset=0.5, name=None, min_max_aspect_ratios_order=False):  # noqa: B006
    as_list = lambda v: [float(x) for x in v] if isinstance(v, (list, tuple)) else [float(v)]  # noqa: E731
    if max_sizes is not None and len(as_list(max_sizes)) != len(as_list(min_sizes)):
        raise ValueError("fluid.layers.prior_box: max_sizes and min_sizes must have the same length")
    return _prior_box(input, image, tuple(as_list(min_sizes)), tuple(as_list(max_sizes)) if max_sizes else None,
                      tuple(as_list(aspect_ratios)), tuple(as_list(variance)), flip, clip, tuple(as_list(steps)),
                      float(offset), min_max_aspect_ratios_order)


@op("yolo_box", differentiable=False)
def _yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, scale_x_y=1.0,
              iou_aware=False, iou_aware_factor=0.5, grid_w=False):
    """grid_w: the x axis uses the grid width (Paddle 2.x); Paddle 1.8's kernel uses the grid height for both.
    iou_aware (2.x): x's first len(anchors)/2 channels are IoU logits, conf = obj^(1-f) * iou^f."""
    n, _, h, w = x.shape
    an = len(anchors) // 2
    per = 5 + class_num
    if x.shape[1] != an * (per + int(iou_aware)):
        raise InvalidArgumentError(
            f"yolo_box: x's channels {x.shape[1]} must be len(anchors)/2 * ({per + int(iou_aware)} + class_num) = "
            f"{an * (per + int(iou_aware))}")
    iou = x[:, :an] if iou_aware else None
    p = x[:, an:] if iou_aware else x
    p = p.reshape(n, an, per, h, w)
    ih = img_size[:, 0].to(x.dtype).reshape(n, 1, 1, 1)
    iw = img_size[:, 1].to(x.dtype).reshape(n, 1, 1, 1)
    gw = w if grid_w else h
    in_h, in_w = downsample_ratio * h, downsample_ratio * gw
    bias = -0.5 * (scale_x_y - 1.0)
    gx = torch.arange(w, dtype=x.dtype, device=x.device).reshape(1, 1, 1, w)
    gy = torch.arange(h, dtype=x.dtype, device=x.device).reshape(1, 1, h, 1)
    anc = torch.tensor(anchors, dtype=x.dtype, device=x.device).reshape(1, an, 2)
    cx = (gx + torch.sigmoid(p[:, :, 0]) * scale_x_y + bias) * iw / gw
    cy = (gy + torch.sigmoid(p[:, :, 1]) * scale_x_y + bias) * ih / h
    bw = torch.exp(p[:, :, 2]) * anc[..., 0].reshape(1, an, 1, 1) * iw / in_w
    bh = torch.exp(p[:, :, 3]) * anc[..., 1].reshape(1, an, 1, 1) * ih / in_h
    x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:
        x1, y1 = x1.clamp(min=0), y1.clamp(min=0)
        x2, y2 = torch.minimum(x2, iw - 1), torch.minimum(y2, ih - 1)
    conf = torch.sigmoid(p[:, :, 4])
    if iou_aware:
        conf = conf.pow(1 - iou_aware_factor) * torch.sigmoid(iou).pow(iou_aware_factor)
    keep = (conf >= conf_thresh).to(x.dtype)
    boxes = torch.stack([x1, y1, x2, y2], -1) * keep.unsqueeze(-1)
    scores = (conf.unsqueeze(2) * torch.sigmoid(p[:, :, 5:])) * keep.unsqueeze(2)
    return boxes.reshape(n, an * h * w, 4), scores.permute(0, 1, 3, 4, 2).reshape(n, an * h * w, class_num)


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, name=None,
             scale_x_y=1.0):
    return _yolo_box(x, img_size, tuple(int(a) for a in anchors), int(class_num), float(conf_thresh),
                     int(downsample_ratio), bool(clip_bbox), float(scale_x_y))


for _fn in (iou_similarity, box_clip, box_coder, prior_box, yolo_box):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")


def _jaccard(a, b, normalized):
    p = 0.0 if normalized else 1.0
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return 0.0
    iw = min(a[2], b[2]) - max(a[0], b[0]) + p
    ih = min(a[3], b[3]) - max(a[1], b[1]) + p
    inter = iw * ih
    area = lambda r: (r[2] - r[0] + p) * (r[3] - r[1] + p)  # noqa: E731
    return inter / (area(a) + area(b) - inter)


def _mcnms_infer(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                 background_label):
    from paddle_compat.engine.framework.infer import Spec

    return [Spec((-1, 6), bboxes.dtype), Spec((-1,), _I64())]


def _I64():
    from paddle_compat.engine.core import dtype as _dt

    return _dt.to_dtype("int64")


def keep_top_k_of(picked: dict, scores, keep_top_k: int) -> dict:
    """NMS's last cut: class -> kept box indices, trimmed to the keep_top_k best (score, over all classes) when
    keep_top_k > -1; scores[c, m] is box m's score for class c."""
    if keep_top_k <= -1 or sum(len(v) for v in picked.values()) <= keep_top_k:
        return picked
    pairs = sorted(((float(scores[c, m]), c, m) for c, ms in picked.items() for m in ms), key=lambda t: -t[0])
    out: dict = {}
    for _, c, m in pairs[:keep_top_k]:
        out.setdefault(c, []).append(m)
    return out


def _nms_image(box, sc, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
               background_label, by_index) -> dict:
    """One image of Paddle 1.8's multiclass_nms: class -> kept box indices (greedy per class, best first; in box
    order when by_index, as Paddle's LoD form). sc [C, M] scores; box(c, m) the coordinates of box m for class c."""
    picked = {}
    for c in range(sc.shape[0]):
        if c == background_label:
            continue
        cand = [(float(sc[c, m]), m) for m in range(sc.shape[1]) if sc[c, m] > score_threshold]
        cand.sort(key=lambda t: -t[0])
        if nms_top_k > -1:
            cand = cand[:nms_top_k]
        sel, thr = [], nms_threshold
        for _, m in cand:
            if all(_jaccard(box(c, m), box(c, k), normalized) <= thr for k in sel):
                sel.append(m)
                if nms_eta < 1 and thr > 0.5:
                    thr *= nms_eta
        if sel:
            picked[c] = sorted(sel) if by_index else sel
    picked = keep_top_k_of(picked, sc, keep_top_k)
    return {c: sorted(ms) for c, ms in picked.items()} if by_index else picked


def _nms_rows(images, like, attrs, by_index=False):
    """images: (box(c, m), scores [C, M]) per image -> rows [label, score, x1, y1, x2, y2] grouped by class
    (ascending), by score within a class, and the LoD offsets; no detection at all gives the single row [-1]
    with LoD [0, 1], as Paddle 1.8."""
    rows, counts = [], []
    for box, sc in images:
        picked = _nms_image(box, sc, *attrs, by_index)
        for c in sorted(picked):
            rows += [[c, sc[c, m]] + list(box(c, m)) for m in picked[c]]
        counts.append(sum(len(v) for v in picked.values()))
    if not rows:
        return (torch.full((1, 1), -1.0, dtype=like.dtype, device=like.device),
                torch.tensor([0, 1], device=like.device))
    offs = torch.tensor([0] + torch.tensor(counts).cumsum(0).tolist(), dtype=torch.int64, device=like.device)
    return torch.tensor(rows, dtype=like.dtype, device=like.device), offs


@op("multiclass_nms", differentiable=False, infer=_mcnms_infer)
def _multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                    background_label):
    """The dense form: bboxes [N, M, 4] shared by the classes, scores [N, C, M]."""
    bx = bboxes.detach().cpu().double().numpy()
    sc = scores.detach().cpu().double().numpy()
    images = [((lambda c, m, n=n: bx[n, m]), sc[n]) for n in range(sc.shape[0])]
    return _nms_rows(images, bboxes, (score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                                      background_label))


def _mcnms_lod_infer(bboxes, scores, offs, *attrs):
    return _mcnms_infer(bboxes, scores, *attrs)


@op("multiclass_nms_lod", differentiable=False, infer=_mcnms_lod_infer)
def _multiclass_nms_lod(bboxes, scores, offs, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized,
                        nms_eta, background_label):
    """The LoD form: per-class boxes [M, C, 4] and scores [M, C], one sequence of RoIs per image (offs)."""
    bx = bboxes.detach().cpu().double().numpy()
    sc = scores.detach().cpu().double().numpy()
    o = offs.tolist()
    images = [((lambda c, m, a=a: bx[a + m, c]), sc[a:b].T) for a, b in zip(o[:-1], o[1:])]
    return _nms_rows(images, bboxes, (score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                                      background_label), by_index=True)


def multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3, normalized=True,
                   nms_eta=1.0, background_label=0, name=None):
    """bboxes [N, M, 4] and scores [N, C, M], or (LoD form, static mode) per-class bboxes [M, C, 4] and scores
    [M, C] with one LoD sequence per image; returns [No, 6] with one LoD sequence per image."""
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.ops.sequence import _attach, _static_only, lod_of

    attrs = (float(score_threshold), int(nms_top_k), int(keep_top_k), float(nms_threshold), bool(normalized),
             float(nms_eta), int(background_label))
    if len(scores.shape) == 2:
        if len(bboxes.shape) != 3 or bboxes.shape[2] != 4:
            raise ValueError("fluid.layers.multiclass_nms: with 2-D (LoD) scores [M, C], bboxes must be [M, C, 4], "
                             f"got {list(bboxes.shape)}")
        _static_only("multiclass_nms", bboxes)
        out, offs = _multiclass_nms_lod(bboxes, scores, lod_of(bboxes, "fluid.layers.multiclass_nms"), *attrs)
    elif len(bboxes.shape) != 3 or len(scores.shape) != 3:
        raise ValueError("fluid.layers.multiclass_nms: bboxes must be [N, M, 4] with scores [N, C, M], or [M, C, 4] "
                         f"with LoD scores [M, C]; got {list(bboxes.shape)} and {list(scores.shape)}")
    elif bboxes.shape[2] != 4:
        from paddle_compat.engine.core.errors import UnsupportedAPIError

        raise UnsupportedAPIError("paddle.fluid.layers.multiclass_nms with polygon boxes",
                                  f"boxes must have 4 coordinates [x1, y1, x2, y2], got {bboxes.shape[2]}")
    else:
        out, offs = _multiclass_nms(bboxes, scores, *attrs)
    return _attach(out, offs) if isinstance(out, Variable) else out


export(multiclass_nms, "paddle.fluid.layers.multiclass_nms")


def _roi_batch_ids(offs, n_rois, device):
    lens = offs[1:] - offs[:-1]
    return torch.repeat_interleave(torch.arange(lens.numel(), device=device), lens, output_size=n_rois)


@op("roi_pool", infer=lambda input, rois, offs, pooled_height, pooled_width, spatial_scale:
    _roi_spec(input, pooled_height, pooled_width))
def _roi_pool(input, rois, offs, pooled_height, pooled_width, spatial_scale):  # noqa: A002
    n, c, h, w = input.shape
    bid = _roi_batch_ids(offs, rois.shape[0], input.device)
    outs = []
    # NOTE: Paddle rounds the scaled roi with std::round (half away from zero)
    rr = [[int(math.floor(v * spatial_scale + 0.5)) if v >= 0 else -int(math.floor(-v * spatial_scale + 0.5))
           for v in r] for r in rois.detach().tolist()]
    for r, (x1, y1, x2, y2) in enumerate(rr):
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        bh, bw = rh / pooled_height, rw / pooled_width
        img = input[int(bid[r])]
        cells = []
        for ph in range(pooled_height):
            hs = min(max(int(math.floor(ph * bh)) + y1, 0), h)
            he = min(max(int(math.ceil((ph + 1) * bh)) + y1, 0), h)
            for pw in range(pooled_width):
                ws = min(max(int(math.floor(pw * bw)) + x1, 0), w)
                we = min(max(int(math.ceil((pw + 1) * bw)) + x1, 0), w)
                if he <= hs or we <= ws:
                    cells.append(img.new_zeros(c))
                else:
                    cells.append(img[:, hs:he, ws:we].amax(dim=(1, 2)))
        outs.append(torch.stack(cells, 1).reshape(c, pooled_height, pooled_width))
    return torch.stack(outs) if outs else input.new_zeros(0, c, pooled_height, pooled_width)


def _roi_spec(input, ph, pw):  # noqa: A002
    from paddle_compat.engine.framework.infer import Spec

    return Spec((-1, input.shape[1], ph, pw), input.dtype)


def _bilinear(img, y, x):
    """Caffe2 / Paddle roi_align sampling: img [C, H, W], y / x 1-D sample coords -> [C, S]."""
    c, h, w = img.shape
    out_of = (y < -1.0) | (y > h) | (x < -1.0) | (x > w)
    y = y.clamp(min=0)
    x = x.clamp(min=0)
    y0 = torch.floor(y).long()
    x0 = torch.floor(x).long()
    ytop = y0 >= h - 1
    xtop = x0 >= w - 1
    y0 = torch.where(ytop, torch.full_like(y0, h - 1), y0)
    x0 = torch.where(xtop, torch.full_like(x0, w - 1), x0)
    y1 = torch.where(ytop, y0, y0 + 1)
    x1 = torch.where(xtop, x0, x0 + 1)
    y = torch.where(ytop, y0.to(y.dtype), y)
    x = torch.where(xtop, x0.to(x.dtype), x)
    ly, lx = y - y0, x - x0
    hy, hx = 1 - ly, 1 - lx
    v = (img[:, y0, x0] * (hy * hx) + img[:, y0, x1] * (hy * lx) + img[:, y1, x0] * (ly * hx)
         + img[:, y1, x1] * (ly * lx))
    return torch.where(out_of, torch.zeros_like(v), v)


@op("roi_align", infer=lambda input, rois, offs, pooled_height, pooled_width, spatial_scale, sampling_ratio,
    aligned=False: _roi_spec(input, pooled_height, pooled_width))
def _roi_align(input, rois, offs, pooled_height, pooled_width, spatial_scale, sampling_ratio,  # noqa: A002
               aligned=False):
    """aligned (2.x, default there): box corners shift by -0.5 pixel and small boxes are not grown to 1x1."""
    n, c, h, w = input.shape
    bid = _roi_batch_ids(offs, rois.shape[0], input.device)
    outs = []
    shift = 0.5 if aligned else 0.0
    for r in range(rois.shape[0]):
        x1, y1, x2, y2 = (float(v) * spatial_scale - shift for v in rois[r].detach().tolist())
        rw, rh = (x2 - x1, y2 - y1) if aligned else (max(x2 - x1, 1.0), max(y2 - y1, 1.0))
        bh, bw = rh / pooled_height, rw / pooled_width
        gh = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rh / pooled_height))
        gw = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rw / pooled_width))
        if gh * gw == 0:  # an empty aligned box: Paddle averages no sample (count clamps to 1) -> 0
            outs.append(input.new_zeros(c, pooled_height, pooled_width))
            continue
        ar = lambda k: torch.arange(k, dtype=input.dtype, device=input.device)  # noqa: E731
        ph = ar(pooled_height).reshape(-1, 1, 1, 1)
        pw = ar(pooled_width).reshape(1, -1, 1, 1)
        iy = ar(gh).reshape(1, 1, -1, 1)
        ix = ar(gw).reshape(1, 1, 1, -1)
        ys = (y1 + ph * bh + (iy + 0.5) * bh / gh).expand(pooled_height, pooled_width, gh, gw).reshape(-1)
        xs = (x1 + pw * bw + (ix + 0.5) * bw / gw).expand(pooled_height, pooled_width, gh, gw).reshape(-1)
        v = _bilinear(input[int(bid[r])], ys, xs).reshape(c, pooled_height, pooled_width, gh * gw)
        outs.append(v.mean(-1))
    return torch.stack(outs) if outs else input.new_zeros(0, c, pooled_height, pooled_width)


def roi_pool(input, rois, pooled_height=1, pooled_width=1, spatial_scale=1.0, rois_lod=None):  # noqa: A002
    from paddle_compat.engine.ops.sequence import lod_of

    offs = rois_lod if rois_lod is not None else lod_of(rois, "fluid.layers.roi_pool")
    return _roi_pool(input, rois, offs, int(pooled_height), int(pooled_width), float(spatial_scale))


def roi_align(input, rois, pooled_height=1, pooled_width=1, spatial_scale=1.0, sampling_ratio=-1, name=None,  # noqa: A002
              rois_lod=None):
    from paddle_compat.engine.ops.sequence import lod_of

    offs = rois_lod if rois_lod is not None else lod_of(rois, "fluid.layers.roi_align")
    return _roi_align(input, rois, offs, int(pooled_height), int(pooled_width), float(spatial_scale),
                      int(sampling_ratio))


export(roi_pool, "paddle.fluid.layers.roi_pool")
export(roi_align, "paddle.fluid.layers.roi_align")


@op("anchor_generator", differentiable=False)
def _anchor_generator(input, anchor_sizes, aspect_ratios, variance, stride, offset):  # noqa: A002
    fh, fw = input.shape[2], input.shape[3]
    sw, sh = stride
    base = []
    for r in aspect_ratios:
        for s in anchor_sizes:
            bw = math.floor(math.sqrt(sw * sh / r) + 0.5)  # C++ round: half away from zero
            bh = math.floor(bw * r + 0.5)
            base.append(((s / sw) * bw, (s / sh) * bh))
    wh = torch.tensor(base, dtype=torch.float32)
    xc = (torch.arange(fw, dtype=torch.float32) * sw + offset * (sw - 1)).reshape(1, fw, 1)
    yc = (torch.arange(fh, dtype=torch.float32) * sh + offset * (sh - 1)).reshape(fh, 1, 1)
    aw, ah = wh[:, 0], wh[:, 1]
    anchors = torch.stack([(xc - 0.5 * (aw - 1)).expand(fh, fw, len(base)), (yc - 0.5 * (ah - 1)).expand(fh, fw, len(base)),
                           (xc + 0.5 * (aw - 1)).expand(fh, fw, len(base)), (yc + 0.5 * (ah - 1)).expand(fh, fw, len(base))], -1)
    var = torch.tensor(list(variance), dtype=torch.float32).expand_as(anchors).clone()
    return anchors.to(input.dtype).to(input.device), var.to(input.dtype).to(input.device)


def anchor_generator(input, anchor_sizes=None, aspect_ratios=None, variance=[0.1, 0.1, 0.2, 0.2], stride=None,  # noqa: A002,B006
                     offset=0.5, name=None):
    sizes = anchor_sizes if anchor_sizes is not None else [64, 128, 256, 512]
    ratios = aspect_ratios if aspect_ratios is not None else [0.5, 1.0, 2.0]
    st = stride if stride is not None else [16.0, 16.0]
    fl = lambda v: tuple(float(a) for a in (v if isinstance(v, (list, tuple)) else [v]))  # noqa: E731
    return _anchor_generator(input, fl(sizes), fl(ratios), fl(variance), fl(st), float(offset))


@op("density_prior_box", differentiable=False)
def _density_prior_box(input, image, densities, fixed_sizes, fixed_ratios, variance, clip, steps, offset,  # noqa: A002
                       flatten_to_2d):
    fh, fw = input.shape[2], input.shape[3]
    ih, iw = image.shape[2], image.shape[3]
    sw = steps[0] if steps[0] else iw / fw
    sh = steps[1] if steps[1] else ih / fh
    step_avg = int((sw + sh) * 0.5)
    rel = []  # (dx, dy, half w, half h) relative to the cell center
    for size, dens in zip(fixed_sizes, densities):
        shift = step_avg // dens  # NOTE: integer division in Paddle's kernel
        for r in fixed_ratios:
            bw, bh = size * math.sqrt(r), size / math.sqrt(r)
            for di in range(dens):
                for dj in range(dens):
                    rel.append((-step_avg / 2.0 + shift / 2.0 + dj * shift, -step_avg / 2.0 + shift / 2.0 + di * shift,
                                bw / 2.0, bh / 2.0))
    r_ = torch.tensor(rel, dtype=torch.float64)
    cx = ((torch.arange(fw, dtype=torch.float64) + offset) * sw).reshape(1, fw, 1) + r_[:, 0]
    cy = ((torch.arange(fh, dtype=torch.float64) + offset) * sh).reshape(fh, 1, 1) + r_[:, 1]
    cx, cy = cx.expand(fh, fw, len(rel)), cy.expand(fh, fw, len(rel))
    boxes = torch.stack([((cx - r_[:, 2]) / iw).clamp(min=0), ((cy - r_[:, 3]) / ih).clamp(min=0),
                         ((cx + r_[:, 2]) / iw).clamp(max=1), ((cy + r_[:, 3]) / ih).clamp(max=1)], -1)
    if clip:
        boxes = boxes.clamp(0.0, 1.0)
    var = torch.tensor(list(variance), dtype=torch.float64).expand_as(boxes).clone()
    if flatten_to_2d:
        boxes, var = boxes.reshape(-1, 4), var.reshape(-1, 4)
    return boxes.to(input.dtype).to(input.device), var.to(input.dtype).to(input.device)


def density_prior_box(input, image, densities=None, fixed_sizes=None, fixed_ratios=None,  # noqa: A002
                      variance=[0.1, 0.1, 0.2, 0.2], clip=False, steps=[0.0, 0.0], offset=0.5,  # noqa: B006
                      flatten_to_2d=False, name=None):
    if not densities or not fixed_sizes or not fixed_ratios or len(densities) != len(fixed_sizes):
        raise ValueError("fluid.layers.density_prior_box: densities, fixed_sizes and fixed_ratios are required, "
                         "with len(densities) == len(fixed_sizes)")
    return _density_prior_box(input, image, tuple(int(d) for d in densities), tuple(float(s) for s in fixed_sizes),
                              tuple(float(r) for r in fixed_ratios), tuple(float(v) for v in variance), bool(clip),
                              tuple(float(s) for s in steps), float(offset), bool(flatten_to_2d))


export(anchor_generator, "paddle.fluid.layers.anchor_generator")
export(density_prior_box, "paddle.fluid.layers.density_prior_box")


@op("polygon_box_transform", differentiable=False)
def polygon_box_transform(input, name=None):  # noqa: A002
    """Offsets [N, 2k, H, W] to absolute coordinates: even channels 4 * w - x, odd channels 4 * h - y."""
    n, c, h, w = input.shape
    gx = (torch.arange(w, dtype=input.dtype, device=input.device) * 4).reshape(1, 1, 1, w)
    gy = (torch.arange(h, dtype=input.dtype, device=input.device) * 4).reshape(1, 1, h, 1)
    even = (torch.arange(c, device=input.device) % 2 == 0).reshape(1, c, 1, 1)
    return torch.where(even, gx - input, gy - input)


export(polygon_box_transform, "paddle.fluid.layers.polygon_box_transform")


def detection_output(loc, scores, prior_box, prior_box_var, background_label=0, nms_threshold=0.3, nms_top_k=400,
                     keep_top_k=200, score_threshold=0.01, nms_eta=1.0, return_index=False):
    """SSD head: decode loc [N, M, 4] against the priors, softmax the scores [N, M, C], then multiclass_nms."""
    from paddle_compat.engine.ops.control_flow import P

    if return_index:
        from paddle_compat.engine.core.errors import UnsupportedAPIError

        raise UnsupportedAPIError("paddle.fluid.layers.detection_output", "return_index=True is not supported")
    decoded = box_coder(prior_box, prior_box_var, loc, "decode_center_size")
    probs = P("paddle.transpose")(P("paddle.nn.functional.softmax")(scores, axis=-1), [0, 2, 1])
    return multiclass_nms(decoded, probs, score_threshold, nms_top_k, keep_top_k, nms_threshold, True, nms_eta,
                          background_label)


export(detection_output, "paddle.fluid.layers.detection_output")


def _bm_infer(dist, offs, match_type, dist_threshold):
    from paddle_compat.engine.core import dtype as _dt
    from paddle_compat.engine.framework.infer import Spec

    return [Spec((-1, dist.shape[1]), _dt.to_dtype("int32")), Spec((-1, dist.shape[1]), dist.dtype)]


@op("bipartite_match", differentiable=False, infer=_bm_infer)
def _bipartite_match(dist, offs, match_type, dist_threshold):
    """Per image (LoD rows = ground truths, columns = priors): greedy bipartite matching on the largest
    distance; 'per_prediction' then matches each left-over column to its best row if >= dist_threshold."""
    eps = 1e-6
    d = dist.detach().cpu().double().numpy()
    o = offs.tolist()
    m = d.shape[1]
    idx_out, dist_out = [], []
    for i in range(len(o) - 1):
        sub = d[o[i]:o[i + 1]]
        match = [-1] * m
        mdist = [0.0] * m
        pool = list(range(sub.shape[0]))
        while pool:
            best, bj, br = -1.0, -1, -1
            for j in range(m):
                if match[j] != -1:
                    continue
                for r in pool:
                    if sub[r, j] < eps:
                        continue
                    if sub[r, j] > best:
                        best, bj, br = sub[r, j], j, r
            if bj == -1:
                break
            match[bj], mdist[bj] = br, best
            pool.remove(br)
        if match_type == "per_prediction":
            for j in range(m):
                if match[j] != -1 or sub.shape[0] == 0:
                    continue
                r = int(np.argmax(sub[:, j]))
                if sub[r, j] >= dist_threshold and sub[r, j] >= eps:
                    match[j], mdist[j] = r, sub[r, j]
        idx_out.append(match)
        dist_out.append(mdist)
    return (torch.tensor(idx_out, dtype=torch.int32, device=dist.device).reshape(-1, m),
            torch.tensor(dist_out, dtype=dist.dtype, device=dist.device).reshape(-1, m))


def bipartite_match(dist_matrix, match_type=None, dist_threshold=None, name=None):
    from paddle_compat.engine.ops.sequence import lod_of

    require_tensor(dist_matrix, "paddle.fluid.layers.bipartite_match", "dist_matrix", 0)
    offs = lod_of(dist_matrix, "fluid.layers.bipartite_match")
    return _bipartite_match(dist_matrix, offs, match_type or "bipartite",
                            0.5 if dist_threshold is None else float(dist_threshold))


export(bipartite_match, "paddle.fluid.layers.bipartite_match")


def _ta_infer(x, offs, matched, neg, neg_offs, mismatch_value):
    from paddle_compat.engine.framework.infer import Spec

    return [Spec((matched.shape[0], matched.shape[1], x.shape[2]), x.dtype),
            Spec((matched.shape[0], matched.shape[1], 1), "float32")]  # OutWeight is float32 whatever X is


@op("target_assign", infer=_ta_infer)
def _target_assign(x, offs, matched, neg, neg_offs, mismatch_value):
    """out[i, j] = x[offs[i] + matched[i, j], j % P] (mismatch_value where unmatched), weight 1 where matched;
    negative_indices (LoD per image) get the mismatch value and weight 1. Paddle 1.8.5's kernel writes a
    negative's K weights at flat offset (i * M + j) * K of the [N, M, 1] weights (right only for K = 1); we write
    the same positions, skipping those past the end (which Paddle writes out of bounds)."""
    n, p = matched.shape
    k = x.shape[2]
    m = matched.long()
    rows = offs[:-1].reshape(-1, 1) + m.clamp(min=0)
    # the prior column modulo X's P (Paddle's w % P_): an [M, 1, K] input (ssd_loss' labels) serves every prior
    cols = (torch.arange(p, device=x.device) % x.shape[1]).reshape(1, -1).expand(n, p)
    got = x[rows.reshape(-1), cols.reshape(-1)].reshape(n, p, k)
    ok = (m >= 0).unsqueeze(-1)
    out = torch.where(ok, got, torch.full_like(got, float(mismatch_value)))
    w = ok.to(torch.float32)
    if neg is not None:
        seg = torch.repeat_interleave(torch.arange(n, device=x.device), neg_offs[1:] - neg_offs[:-1],
                                      output_size=neg.shape[0])
        j = neg.reshape(-1).long()
        out = out.index_put((seg, j), torch.full((1, k), float(mismatch_value), dtype=x.dtype, device=x.device))
        flat = ((seg * p + j) * k).unsqueeze(1) + torch.arange(k, device=x.device)
        flat = flat.reshape(-1)
        w = w.reshape(-1).index_put((flat[flat < n * p],), torch.ones(1, dtype=w.dtype, device=x.device))
        w = w.reshape(n, p, 1)
    return out, w


def target_assign(input, matched_indices, negative_indices=None, mismatch_value=None, name=None):  # noqa: A002
    from paddle_compat.engine.ops.sequence import lod_of

    offs = lod_of(input, "fluid.layers.target_assign")
    neg_offs = lod_of(negative_indices, "fluid.layers.target_assign") if negative_indices is not None else None
    return _target_assign(input, offs, matched_indices, negative_indices, neg_offs,
                          0.0 if mismatch_value is None else float(mismatch_value))


export(target_assign, "paddle.fluid.layers.target_assign")


# ------------------------------------------------------------------------------------------------
# nms (2.x): plain greedy NMS over boxes in the given order; with scores, sorted first; with category_idxs,
# per category, then the kept boxes by descending score (top_k of them)


def _nms_keep(boxes, iou_threshold):
    """Paddle's nms kernel: boxes in order, a box is dropped when its IoU (no +1) with a kept one exceeds the
    threshold -> kept indices (int64, ascending)."""
    b = boxes.detach().to(torch.float64)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.maximum(b[:, None, :2], b[None, :, :2])
    rb = torch.minimum(b[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    iou = inter / (area[:, None] + area[None, :] - inter)
    dropped = torch.zeros(b.shape[0], dtype=torch.bool)
    for i in range(b.shape[0]):
        if not dropped[i]:
            dropped[i + 1:] |= (iou[i, i + 1:] > iou_threshold).cpu()
    return torch.nonzero(~dropped).reshape(-1).to(boxes.device)


def _by_score(scores, idx):
    return idx[torch.argsort(scores[idx], descending=True, stable=True)]


@op("nms", differentiable=False, infer=lambda boxes, iou_threshold=0.3, scores=None, category_idxs=None,
    categories=None, top_k=None: _spec1((-1,), "int64"))
def _nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    if scores is None:
        return _nms_keep(boxes, iou_threshold)
    if category_idxs is None:
        order = _by_score(scores, torch.arange(boxes.shape[0], device=boxes.device))
        return order[_nms_keep(boxes[order], iou_threshold)]
    keep = torch.zeros(boxes.shape[0], dtype=torch.bool, device=boxes.device)
    for cat in categories:
        idx = torch.nonzero(category_idxs == cat).reshape(-1)
        if idx.numel():
            order = _by_score(scores, idx)
            keep[order[_nms_keep(boxes[order], iou_threshold)]] = True
    out = _by_score(scores, torch.nonzero(keep).reshape(-1))
    return out if top_k is None else out[:top_k]


def _spec1(shape, dtype):
    from paddle_compat.engine.core import dtype as _dt
    from paddle_compat.engine.framework.infer import Spec

    return Spec(tuple(shape), _dt.to_dtype(dtype))
