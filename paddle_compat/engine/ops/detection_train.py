"""fluid.layers detection *training* ops (Paddle 1.8 kernels in torch): yolov3_loss, ssd_loss (with
mine_hard_examples), deformable_conv (v1 / v2), rpn_target_assign.

Losses are differentiable through torch autograd; the matching / sampling parts (anchor assignment, bipartite
matching, hard-example mining) are computed without gradient, as Paddle's kernels treat them."""

from __future__ import annotations

from paddle_compat.engine.core.dtype import dtype_name as _dtype_name

import math

import numpy as np
import torch
import torch.nn.functional as tF

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.detection_infer import _i32, _lod, _spec
from paddle_compat.engine.framework.registry import export, get, op

# ------------------------------------------------------------------------------------------------
# yolov3_loss


def _yolo_iou(ax, ay, aw, ah, bx, by, bw, bh):
    """IoU of center-size boxes as Paddle's CalcBoxIoU (no +1, intersection 0 when either overlap < 0)."""
    ow = torch.minimum(ax + aw / 2, bx + bw / 2) - torch.maximum(ax - aw / 2, bx - bw / 2)
    oh = torch.minimum(ay + ah / 2, by + bh / 2) - torch.maximum(ay - ah / 2, by - bh / 2)
    inter = torch.where((ow < 0) | (oh < 0), torch.zeros_like(ow), ow * oh)
    return inter / (aw * ah + bw * bh - inter)


def _yolo_infer(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                use_label_smooth, scale_x_y):
    return _spec((x.shape[0],), x.dtype)


@op("yolov3_loss", infer=_yolo_infer)
def _yolov3_loss(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio,
                 use_label_smooth, scale_x_y):
    n, _, h, w = x.shape
    m = len(anchor_mask)
    b = gt_box.shape[1]
    dev, dt = x.device, x.dtype
    xs = x.reshape(n, m, 5 + class_num, h, w)
    input_size = downsample_ratio * h
    bias = -0.5 * (scale_x_y - 1.0)
    anc = torch.tensor(anchors, dtype=dt, device=dev).reshape(-1, 2)
    amask = torch.tensor(anchor_mask, dtype=torch.long, device=dev)
    gt = gt_box.to(dt)
    score = torch.ones(n, b, dtype=dt, device=dev) if gt_score is None else gt_score.to(dt).reshape(n, b)
    pos_l, neg_l = 1.0, 0.0
    if use_label_smooth:
        sw = min(1.0 / class_num, 1.0 / 40)
        pos_l, neg_l = 1.0 - sw, sw
    with torch.no_grad():
        valid = (gt[..., 2] >= 1e-6) & (gt[..., 3] >= 1e-6)  # [n, b]
        gx_, gy_, gw_, gh_ = (gt[..., k] for k in range(4))
        # predicted boxes -> best IoU with any valid gt -> ignored objectness (-1)
        xd = xs.detach()
        col = torch.arange(w, device=dev, dtype=dt).reshape(1, 1, 1, w)
        row = torch.arange(h, device=dev, dtype=dt).reshape(1, 1, h, 1)
        px = (col + torch.sigmoid(xd[:, :, 0]) * scale_x_y + bias) / h
        py = (row + torch.sigmoid(xd[:, :, 1]) * scale_x_y + bias) / h
        aw = anc[amask, 0].reshape(1, m, 1, 1)
        ah = anc[amask, 1].reshape(1, m, 1, 1)
        pw = torch.exp(xd[:, :, 2]) * aw / input_size
        ph = torch.exp(xd[:, :, 3]) * ah / input_size
        e = (lambda t: t.unsqueeze(-1))
        g = (lambda t: t.reshape(n, 1, 1, 1, b))
        iou = _yolo_iou(e(px), e(py), e(pw), e(ph), g(gx_), g(gy_), g(gw_), g(gh_))
        iou = torch.where(g(valid), iou, torch.zeros_like(iou))
        best = iou.amax(-1) if b else torch.zeros_like(px)
        obj = torch.where(best > ignore_thresh, torch.full_like(best, -1.0), torch.zeros_like(best))  # [n, m, h, w]
        # every gt: best anchor over all anchors (shape only), positive when that anchor is in anchor_mask
        z = torch.zeros((), dtype=dt, device=dev)
        an_iou = _yolo_iou(z, z, (anc[:, 0] / input_size).reshape(1, 1, -1), (anc[:, 1] / input_size).reshape(1, 1, -1),
                           z, z, gw_.unsqueeze(-1), gh_.unsqueeze(-1))  # [n, b, A]
        best_n = torch.where(an_iou.amax(-1) > 0, an_iou.argmax(-1), torch.zeros_like(an_iou[..., 0], dtype=torch.long))
        lut = torch.full((anc.shape[0],), -1, dtype=torch.long, device=dev)
        lut[amask] = torch.arange(m, device=dev)
        midx = lut[best_n]
        pos = valid & (midx >= 0)
        gi = (gx_ * w).to(torch.long).clamp(0, w - 1)
        gj = (gy_ * h).to(torch.long).clamp(0, h - 1)
        bi, bt = pos.nonzero(as_tuple=True)
        pm, pgi, pgj, pbn = midx[bi, bt], gi[bi, bt], gj[bi, bt], best_n[bi, bt]
        ps = score[bi, bt]
        # objectness target: the score of the last gt that lands on a cell (Paddle writes them in order)
        flat = ((bi * m + pm) * h + pgj) * w + pgi
        order = bi * b + bt
        last = torch.full((n * m * h * w,), -1, dtype=torch.long, device=dev)
        last = last.scatter_reduce(0, flat, order, reduce="amax")
        objf = obj.reshape(-1).clone()
        sc_of = torch.zeros(n * b, dtype=dt, device=dev)
        sc_of[order] = ps
        hit = last >= 0
        objf[hit] = sc_of[last[hit]]
        obj = objf.reshape(n, m, h, w)
        tx = gx_[bi, bt] * h - pgi
        ty = gy_[bi, bt] * h - pgj
        tw = torch.log(gw_[bi, bt] * input_size / anc[pbn, 0])
        th = torch.log(gh_[bi, bt] * input_size / anc[pbn, 1])
        lscale = (2.0 - gw_[bi, bt] * gh_[bi, bt]) * ps
        lab = gt_label.reshape(n, b)[bi, bt].long()
        onehot = torch.full((bi.shape[0], class_num), neg_l, dtype=dt, device=dev)
        onehot[torch.arange(bi.shape[0], device=dev), lab] = pos_l
    cell = xs[bi, pm, :, pgj, pgi]  # [P, 5 + C] (differentiable)
    bce = tF.binary_cross_entropy_with_logits
    loc = (bce(cell[:, 0], tx, reduction="none") + bce(cell[:, 1], ty, reduction="none")
           + (cell[:, 2] - tw).abs() + (cell[:, 3] - th).abs()) * lscale
    cls = bce(cell[:, 5:], onehot, reduction="none").sum(1) * ps
    loss = torch.zeros(n, dtype=dt, device=dev).index_add(0, bi, loc + cls)
    conf = xs[:, :, 4]
    posm = obj > 1e-5
    negm = (~posm) & (obj > -0.5)
    ol = (bce(conf, torch.ones_like(conf), reduction="none") * torch.where(posm, obj, torch.zeros_like(obj))
          + bce(conf, torch.zeros_like(conf), reduction="none") * negm.to(dt))
    return loss + ol.reshape(n, -1).sum(1)


def yolov3_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio, gt_score=None,
                use_label_smooth=True, name=None, scale_x_y=1.0):
    api = "fluid.layers.yolov3_loss"
    if not isinstance(anchors, (list, tuple)):
        raise TypeError("Attr anchors of yolov3_loss must be list or tuple")
    if not isinstance(anchor_mask, (list, tuple)):
        raise TypeError("Attr anchor_mask of yolov3_loss must be list or tuple")
    if not isinstance(class_num, int):
        raise TypeError("Attr class_num of yolov3_loss must be an integer")
    if not isinstance(ignore_thresh, float):
        raise TypeError("Attr ignore_thresh of yolov3_loss must be a float number")
    if not isinstance(use_label_smooth, bool):
        raise TypeError("Attr use_label_smooth of yolov3_loss must be a bool value")
    if len(x.shape) != 4 or (x.shape[1] >= 0 and x.shape[1] != len(anchor_mask) * (5 + class_num)):
        raise InvalidArgumentError(
            f"{api}: x must be [N, len(anchor_mask) * (5 + class_num), H, W] = [N, {len(anchor_mask) * (5 + class_num)}"
            f", H, W], got {list(x.shape)}")
    if len(gt_box.shape) != 3 or gt_box.shape[2] != 4:
        raise InvalidArgumentError(f"{api}: gt_box must be [N, B, 4] (x, y, w, h normalized), got {list(gt_box.shape)}")
    for a in anchor_mask:
        if not 0 <= a < len(anchors) // 2:
            raise InvalidArgumentError(f"{api}: anchor_mask entry {a} is out of range for {len(anchors) // 2} anchors")
    return _yolov3_loss(x, gt_box, gt_label, gt_score, tuple(int(a) for a in anchors),
                        tuple(int(a) for a in anchor_mask), class_num, float(ignore_thresh), int(downsample_ratio),
                        use_label_smooth, float(scale_x_y))


export(yolov3_loss, "paddle.fluid.layers.yolov3_loss")


# ------------------------------------------------------------------------------------------------
# deformable_conv (v2 `deformable_conv` with a modulation mask, v1 `deformable_conv_v1` without)


def _dcn(x, offset, mask, weight, strides, paddings, dilations, groups, deformable_groups):
    n, c, hi, wi = x.shape
    mo, cg, kh, kw = weight.shape
    k = kh * kw
    sh, sw = strides
    ph, pw = paddings
    dh, dw = dilations
    ho = (hi + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    wo = (wi + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    dg = deformable_groups
    dev, dt = x.device, x.dtype
    off = offset.reshape(n, dg, k, 2, ho, wo)
    ky = (torch.arange(kh, device=dev, dtype=dt) * dh).repeat_interleave(kw).reshape(1, 1, k, 1, 1)
    kx = (torch.arange(kw, device=dev, dtype=dt) * dw).repeat(kh).reshape(1, 1, k, 1, 1)
    oy = (torch.arange(ho, device=dev, dtype=dt) * sh - ph).reshape(1, 1, 1, ho, 1)
    ox = (torch.arange(wo, device=dev, dtype=dt) * sw - pw).reshape(1, 1, 1, 1, wo)
    py = oy + ky + off[:, :, :, 0]  # [n, dg, k, ho, wo]
    px = ox + kx + off[:, :, :, 1]
    inside = (py > -1) & (px > -1) & (py < hi) & (px < wi)
    y0f, x0f = torch.floor(py), torch.floor(px)
    ly, lx = py - y0f, px - x0f
    y0, x0 = y0f.long(), x0f.long()
    xg = x.reshape(n, dg, c // dg, hi * wi)
    col = torch.zeros(n, dg, c // dg, k * ho * wo, dtype=dt, device=dev)
    for yy, xx, wt in ((y0, x0, (1 - ly) * (1 - lx)), (y0, x0 + 1, (1 - ly) * lx),
                       (y0 + 1, x0, ly * (1 - lx)), (y0 + 1, x0 + 1, ly * lx)):
        ok = inside & (yy >= 0) & (xx >= 0) & (yy <= hi - 1) & (xx <= wi - 1)
        idx = (yy.clamp(0, hi - 1) * wi + xx.clamp(0, wi - 1)).reshape(n, dg, 1, -1).expand(n, dg, c // dg, -1)
        wgt = torch.where(ok, wt, torch.zeros_like(wt)).reshape(n, dg, 1, -1)
        col = col + torch.gather(xg, 3, idx) * wgt
    col = col.reshape(n, dg, c // dg, k, ho * wo)
    if mask is not None:
        col = col * mask.reshape(n, dg, 1, k, ho * wo)
    col = col.reshape(n, groups, (c // groups) * k, ho * wo)
    wm = weight.reshape(groups, mo // groups, cg * k)
    out = torch.einsum("gok,ngkl->ngol", wm, col)
    return out.reshape(n, mo, ho, wo)


def _dcn_infer(input, offset, mask, filter, strides, paddings, dilations, groups, deformable_groups,
               im2col_step):
    n, _, hi, wi = input.shape
    kh, kw = filter.shape[2], filter.shape[3]
    ho = (hi + 2 * paddings[0] - (dilations[0] * (kh - 1) + 1)) // strides[0] + 1 if hi >= 0 else -1
    wo = (wi + 2 * paddings[1] - (dilations[1] * (kw - 1) + 1)) // strides[1] + 1 if wi >= 0 else -1
    return _spec((n, filter.shape[0], ho, wo), input.dtype)


@op("deformable_conv", infer=_dcn_infer)
def _deformable_conv(input, offset, mask, filter, strides, paddings, dilations, groups, deformable_groups,
                     im2col_step):
    return _dcn(input, offset, mask, filter, strides, paddings, dilations, groups, deformable_groups)


@op("deformable_conv_v1", infer=lambda input, offset, filter, strides, paddings, dilations, groups, deformable_groups,
    im2col_step: _dcn_infer(input, offset, None, filter, strides, paddings, dilations, groups, deformable_groups,
                            im2col_step))
def _deformable_conv_v1(input, offset, filter, strides, paddings, dilations, groups, deformable_groups,
                        im2col_step):
    return _dcn(input, offset, None, filter, strides, paddings, dilations, groups, deformable_groups)


# ------------------------------------------------------------------------------------------------
# ssd_loss: iou_similarity -> bipartite_match -> mine_hard_examples (max_negative) -> target_assign -> losses


def _mine_max_negative(cls_loss, matched, mdist, neg_pos_ratio, neg_dist_threshold):
    """mine_hard_examples, mining_type 'max_negative': per image the int(num_pos * ratio) unmatched priors with
    match distance < threshold and the largest classification loss -> bool [N, P]."""
    elig = (matched == -1) & (mdist < neg_dist_threshold)
    num_pos = (matched != -1).sum(1)
    ratio = torch.tensor(neg_pos_ratio, dtype=torch.float32)
    neg_sel = torch.minimum((num_pos.float().cpu() * ratio).long().to(matched.device), elig.sum(1))
    key = torch.where(elig, cls_loss, torch.full_like(cls_loss, -float("inf")))
    order = torch.argsort(key, dim=1, descending=True, stable=True)
    rank = torch.empty_like(order).scatter_(1, order, torch.arange(order.shape[1], device=order.device)
                                            .expand_as(order).contiguous())
    return elig & (rank < neg_sel.unsqueeze(1))


def _ssd_infer(location, confidence, gt_box, offs, gt_label, prior_box, prior_box_var, background_label,
               overlap_threshold, neg_pos_ratio, neg_overlap, loc_loss_weight, conf_loss_weight, match_type, normalize,
               variance):
    return _spec((location.shape[0], 1), location.dtype)


@op("ssd_loss", infer=_ssd_infer)
def _ssd_loss(location, confidence, gt_box, offs, gt_label, prior_box, prior_box_var, background_label,
              overlap_threshold, neg_pos_ratio, neg_overlap, loc_loss_weight, conf_loss_weight, match_type, normalize,
              variance):
    n, p, c = confidence.shape
    with torch.no_grad():
        iou = get("iou_similarity").impl(gt_box, prior_box, True)
        matched, mdist = get("bipartite_match").impl(iou, offs, match_type, overlap_threshold)
        ta = get("target_assign").impl
        lab = gt_label.reshape(-1, 1, 1).to(confidence.dtype).expand(-1, p, 1)
        tlab, _ = ta(lab, offs, matched, None, None, float(background_label))
        tlab = tlab.reshape(-1).long()
        logp = torch.log_softmax(confidence.detach().reshape(-1, c), -1)
        cls_loss = (-logp.gather(1, tlab.unsqueeze(1))).reshape(n, p)
        neg = _mine_max_negative(cls_loss, matched, mdist, neg_pos_ratio, neg_overlap)
        enc = get("box_coder").impl(prior_box, prior_box_var, gt_box, "encode_center_size", True, 0, variance)
        tbox, loc_w = ta(enc, offs, matched, None, None, float(background_label))
        conf_w = ((matched >= 0) | neg).to(confidence.dtype).reshape(-1, 1)
        loc_w = loc_w.reshape(-1, 1)
    conf_loss = -torch.log_softmax(confidence.reshape(-1, c), -1).gather(1, tlab.unsqueeze(1)) * conf_w
    d = location.reshape(-1, 4) - tbox.reshape(-1, 4)
    a = d.abs()
    loc_loss = torch.where(a < 1.0, 0.5 * d * d, a - 0.5).sum(1, keepdim=True) * loc_w
    loss = (conf_loss_weight * conf_loss + loc_loss_weight * loc_loss).reshape(n, p).sum(1, keepdim=True)
    if normalize:
        loss = loss / loc_w.sum()
    return loss


def ssd_loss(location, confidence, gt_box, gt_label, prior_box, prior_box_var=None, background_label=0,
             overlap_threshold=0.5, neg_pos_ratio=3.0, neg_overlap=0.5, loc_loss_weight=1.0, conf_loss_weight=1.0,
             match_type="per_prediction", mining_type="max_negative", normalize=True, sample_size=None):
    api = "fluid.layers.ssd_loss"
    if mining_type != "max_negative":
        raise ValueError("Only support mining_type == max_negative now.")
    if len(confidence.shape) != 3:
        raise InvalidArgumentError(f"{api}: confidence must be [N, Np, C], got shape {list(confidence.shape)}")
    if len(location.shape) != 3 or location.shape[2] != 4:
        raise InvalidArgumentError(f"{api}: location must be [N, Np, 4], got shape {list(location.shape)}")
    if match_type not in ("bipartite", "per_prediction"):
        raise InvalidArgumentError(f"{api}: match_type must be 'bipartite' or 'per_prediction', got {match_type!r}")
    variance = None
    if isinstance(prior_box_var, (list, tuple)):
        if len(prior_box_var) != 4:
            raise InvalidArgumentError(f"{api}: a list prior_box_var must hold 4 floats, got {prior_box_var}")
        variance, prior_box_var = tuple(float(v) for v in prior_box_var), None
    elif prior_box_var is None:  # Paddle 1.8.5 hands None on to box_coder, which rejects it
        raise TypeError(f"{api}: prior_box_var must be a Variable [Np, 4] or a list of 4 floats (box_coder's "
                        "variance), got None")
    offs = _lod(gt_box, api)
    return _ssd_loss(location, confidence, gt_box, offs, gt_label, prior_box, prior_box_var, int(background_label),
                     float(overlap_threshold), float(neg_pos_ratio), float(neg_overlap), float(loc_loss_weight),
                     float(conf_loss_weight), match_type, bool(normalize), variance)


export(ssd_loss, "paddle.fluid.layers.ssd_loss")


# ------------------------------------------------------------------------------------------------
# rpn_target_assign (Faster R-CNN RPN targets; Detectron's sampling)


def _overlaps_px(a, b):
    """IoU in pixel coordinates (+1 widths), Paddle's BboxOverlaps: a [A, 4] x b [G, 4] -> [A, G]."""
    aa = (a[:, 2] - a[:, 0] + 1) * (a[:, 3] - a[:, 1] + 1)
    ab = (b[:, 2] - b[:, 0] + 1) * (b[:, 3] - b[:, 1] + 1)
    iw = (torch.minimum(a[:, None, 2], b[None, :, 2]) - torch.maximum(a[:, None, 0], b[None, :, 0]) + 1).clamp(min=0)
    ih = (torch.minimum(a[:, None, 3], b[None, :, 3]) - torch.maximum(a[:, None, 1], b[None, :, 1]) + 1).clamp(min=0)
    inter = iw * ih
    return inter / (aa[:, None] + ab[None, :] - inter)


def _box_to_delta(ex, gt, weights=None):
    """Paddle's BoxToDelta (unnormalized, +1 widths): regression targets of gt relative to ex, / weights."""
    ew, eh = ex[:, 2] - ex[:, 0] + 1, ex[:, 3] - ex[:, 1] + 1
    gw, gh = gt[:, 2] - gt[:, 0] + 1, gt[:, 3] - gt[:, 1] + 1
    d = torch.stack([(gt[:, 0] + 0.5 * gw - ex[:, 0] - 0.5 * ew) / ew, (gt[:, 1] + 0.5 * gh - ex[:, 1] - 0.5 * eh) / eh,
                     torch.log(gw / ew), torch.log(gh / eh)], 1)
    if weights is not None:
        d = d / torch.tensor(weights, dtype=d.dtype, device=d.device)
    return d


def _match(anchors, gt, positive_overlap):
    """Per anchor: best IoU with a gt, that gt's index, and whether it is a foreground candidate (the best anchor
    of some gt, ties within 1e-5 included, or IoU >= positive_overlap), as Paddle's ScoreAssign."""
    if gt.shape[0] == 0:
        z = torch.zeros(anchors.shape[0], dtype=anchors.dtype, device=anchors.device)
        return z, z.long(), z.bool()
    ov = _overlaps_px(anchors, gt)
    a2g, arg = ov.max(1)
    g2a = ov.max(0).values
    return a2g, arg, ((ov - g2a[None]).abs() < 1e-5).any(1) | (a2g >= positive_overlap)


def _score_assign(anchors, gt, positive_overlap, negative_overlap, fg_cap, batch_size, use_random):
    """Paddle's ScoreAssign: foreground candidates (sampled down to fg_cap), then background (IoU < negative_overlap,
    sampled down to batch_size - #fg) overwrites them; a candidate turned background leaves a "fake" location row
    (the first candidate again, inside weight 0). Returns location rows, their inside weights, fg / bg anchors, the
    best gt of every anchor and the candidate count."""
    dev, dt = anchors.device, anchors.dtype
    a2g, arg, fg_cand = _match(anchors, gt, positive_overlap)
    fg = _reservoir(fg_cand.nonzero()[:, 0], fg_cap, use_random)
    label = torch.full((anchors.shape[0],), -1, dtype=torch.long, device=dev)
    label[fg] = 1
    bg = _reservoir((a2g < negative_overlap).nonzero()[:, 0], batch_size - fg.numel(), use_random)
    fake = int((label[bg] == 1).sum())
    label[bg] = 0
    fg_inds = (label == 1).nonzero()[:, 0]
    bg_inds = (label == 0).nonzero()[:, 0]
    loc = torch.cat([fg[:1].repeat(fake), fg_inds])
    wt = torch.cat([torch.zeros(fake, 4, dtype=dt, device=dev), torch.ones(fg.numel() - fake, 4, dtype=dt, device=dev)])
    return loc, wt, fg_inds, bg_inds, arg, fg.numel()


def _reservoir(inds, num, use_random, swap_below=None, partner=None):
    """Paddle's ReservoirSampling: keep `num` of the candidate indices (the first ones when use_random=False).
    swap_below: the bound Paddle compares the drawn slot with (num, except generate_proposal_labels' background
    draw, which compares with the foreground count); partner: a list permuted alongside."""
    if inds.numel() <= num:
        return (inds, partner) if partner is not None else inds
    if use_random:
        bound = num if swap_below is None else swap_below
        u = torch.rand(inds.numel(), dtype=torch.float32).tolist()
        lst = inds.tolist()
        par = partner.tolist() if partner is not None else None
        for i in range(num, len(lst)):
            r = int(u[i] * i)
            if r < bound:
                lst[r], lst[i] = lst[i], lst[r]
                if par is not None:
                    par[r], par[i] = par[i], par[r]
        inds = torch.tensor(lst, dtype=inds.dtype, device=inds.device)
        if par is not None:
            partner = torch.tensor(par, dtype=partner.dtype, device=partner.device)
    return (inds[:num], partner[:num]) if partner is not None else inds[:num]


def _rpn_infer(anchor, gt_boxes, gt_offs, is_crowd, crowd_offs, im_info, batch_size_per_im, straddle_thresh,
               fg_fraction, positive_overlap, negative_overlap, use_random):
    return [_spec((-1,), _i32()), _spec((-1,), _i32()), _spec((-1, 1), _i32()), _spec((-1, 4), anchor.dtype),
            _spec((-1, 4), anchor.dtype), _spec((-1,), torch.int64), _spec((-1,), torch.int64)]


@op("rpn_target_assign", differentiable=False, infer=_rpn_infer)
def _rpn_target_assign(anchor, gt_boxes, gt_offs, is_crowd, crowd_offs, im_info, batch_size_per_im, straddle_thresh,
                       fg_fraction, positive_overlap, negative_overlap, use_random):
    dev, dt = anchor.device, anchor.dtype
    a_num = anchor.shape[0]
    anc = anchor.reshape(-1, 4)
    go, co = gt_offs.tolist(), crowd_offs.tolist()
    info = im_info.reshape(-1, 3)
    locs, scores, lbls, bboxes, wts, nl, ns = [], [], [], [], [], [0], [0]
    fg_cap = int(torch.tensor(fg_fraction, dtype=torch.float32) * batch_size_per_im)
    for i in range(len(go) - 1):
        h, w, s = (float(v) for v in info[i].tolist())
        if straddle_thresh >= 0:
            inside = ((anc[:, 0] >= -straddle_thresh) & (anc[:, 1] >= -straddle_thresh)
                      & (anc[:, 2] < w + straddle_thresh) & (anc[:, 3] < h + straddle_thresh)).nonzero()[:, 0]
        else:
            inside = torch.arange(a_num, device=dev)
        crowd = is_crowd.reshape(-1)[co[i]:co[i + 1]]
        gt = gt_boxes[go[i]:go[i + 1]][crowd == 0] * s
        ia = anc[inside]
        loc, wt, fg_inds, bg_inds, arg, _ = _score_assign(ia, gt, positive_overlap, negative_overlap, fg_cap,
                                                          batch_size_per_im, use_random)
        sc = torch.cat([fg_inds, bg_inds])
        bboxes.append(_box_to_delta(anc[inside[loc]], gt[arg[loc]]))
        locs.append(inside[loc] + i * a_num)
        scores.append(inside[sc] + i * a_num)
        lbls.append(torch.cat([torch.ones_like(fg_inds), torch.zeros_like(bg_inds)]))
        wts.append(wt)
        nl.append(nl[-1] + loc.numel())
        ns.append(ns[-1] + sc.numel())
    i32 = torch.int32
    cat = (lambda xs, shape, d: torch.cat(xs).to(d) if xs else torch.zeros(shape, dtype=d, device=dev))
    return (cat(locs, (0,), i32), cat(scores, (0,), i32), cat(lbls, (0,), i32).reshape(-1, 1),
            cat(bboxes, (0, 4), dt).reshape(-1, 4), cat(wts, (0, 4), dt).reshape(-1, 4),
            torch.tensor(nl, dtype=torch.int64, device=dev), torch.tensor(ns, dtype=torch.int64, device=dev))


def rpn_target_assign(bbox_pred, cls_logits, anchor_box, anchor_var, gt_boxes, is_crowd, im_info,
                      rpn_batch_size_per_im=256, rpn_straddle_thresh=0.0, rpn_fg_fraction=0.5,
                      rpn_positive_overlap=0.7, rpn_negative_overlap=0.3, use_random=True):
    from paddle_compat.engine.ops.control_flow import P
    from paddle_compat.engine.ops.detection_infer import _attach_if

    api = "fluid.layers.rpn_target_assign"
    for nm, v in (("anchor_box", anchor_box), ("gt_boxes", gt_boxes), ("im_info", im_info)):
        if len(v.shape) != 2:
            raise InvalidArgumentError(f"{api}: {nm} must be 2-D, got shape {list(v.shape)}")
    if _dtype_name(is_crowd.dtype) != "int32":
        raise TypeError(f"{api}: is_crowd must be int32, got {is_crowd.dtype}")
    loc_i, score_i, lbl, tbox, wt, loffs, soffs = _rpn_target_assign(
        anchor_box, gt_boxes, _lod(gt_boxes, api), is_crowd, _lod(is_crowd, api), im_info, int(rpn_batch_size_per_im),
        float(rpn_straddle_thresh), float(rpn_fg_fraction), float(rpn_positive_overlap),
        float(rpn_negative_overlap), bool(use_random))
    lbl, tbox, wt = _attach_if(lbl, soffs), _attach_if(tbox, loffs), _attach_if(wt, loffs)
    cls = P("paddle.fluid.layers.gather")(P("paddle.fluid.layers.reshape")(cls_logits, [-1, 1]), score_i)
    box = P("paddle.fluid.layers.gather")(P("paddle.fluid.layers.reshape")(bbox_pred, [-1, 4]), loc_i)
    return cls, box, lbl, tbox, wt


export(rpn_target_assign, "paddle.fluid.layers.rpn_target_assign")


# ------------------------------------------------------------------------------------------------
# retinanet_target_assign (every anchor: no straddle filter, no sampling; labels are the gt classes)


def _retina_infer(anchor, gt_boxes, gt_offs, gt_labels, is_crowd, crowd_offs, im_info, positive_overlap,
                  negative_overlap):
    return [_spec((-1,), _i32()), _spec((-1,), _i32()), _spec((-1, 1), _i32()), _spec((-1, 4), anchor.dtype),
            _spec((-1, 4), anchor.dtype), _spec((-1, 1), _i32()), _spec((-1,), torch.int64),
            _spec((-1,), torch.int64), _spec((-1,), torch.int64)]


@op("retinanet_target_assign", differentiable=False, infer=_retina_infer)
def _retinanet_target_assign(anchor, gt_boxes, gt_offs, gt_labels, is_crowd, crowd_offs, im_info, positive_overlap,
                             negative_overlap):
    dev, dt = anchor.device, anchor.dtype
    anc = anchor.reshape(-1, 4)
    a_num = anc.shape[0]
    go, co = gt_offs.tolist(), crowd_offs.tolist()
    info = im_info.reshape(-1, 3)
    locs, scores, lbls, bboxes, wts, fgn, nl, ns = [], [], [], [], [], [], [0], [0]
    for i in range(len(go) - 1):
        keep = is_crowd.reshape(-1)[co[i]:co[i + 1]] == 0
        gt = gt_boxes[go[i]:go[i + 1]][keep] * info[i, 2]
        glab = gt_labels.reshape(-1)[go[i]:go[i + 1]][keep]
        big = a_num + 1  # no sampling: every candidate is kept
        loc, wt, fg, bg, arg, n_cand = _score_assign(anc, gt, positive_overlap, negative_overlap, big, 2 * big, False)
        bboxes.append(_box_to_delta(anc[loc], gt[arg[loc]]))
        wts.append(wt)
        locs.append(loc + i * a_num)
        scores.append(torch.cat([fg, bg]) + i * a_num)
        lbls.append(torch.cat([glab[arg[fg]].long(), torch.zeros_like(bg)]))
        fgn.append(n_cand + 1)
        nl.append(nl[-1] + loc.numel())
        ns.append(ns[-1] + fg.numel() + bg.numel())
    i32, n = torch.int32, len(go) - 1
    cat = (lambda xs, shape, d: torch.cat(xs).to(d) if xs else torch.zeros(shape, dtype=d, device=dev))
    return (cat(locs, (0,), i32), cat(scores, (0,), i32), cat(lbls, (0,), i32).reshape(-1, 1),
            cat(bboxes, (0, 4), dt).reshape(-1, 4), cat(wts, (0, 4), dt).reshape(-1, 4), torch.tensor(fgn, dtype=i32, device=dev).reshape(-1, 1),
            torch.tensor(nl, dtype=torch.int64, device=dev), torch.tensor(ns, dtype=torch.int64, device=dev),
            torch.arange(n + 1, dtype=torch.int64, device=dev))


def retinanet_target_assign(bbox_pred, cls_logits, anchor_box, anchor_var, gt_boxes, gt_labels, is_crowd, im_info,
                            num_classes=1, positive_overlap=0.5, negative_overlap=0.4):
    from paddle_compat.engine.ops.control_flow import P
    from paddle_compat.engine.ops.detection_infer import _attach_if

    api = "fluid.layers.retinanet_target_assign"
    for nm, v in (("anchor_box", anchor_box), ("gt_boxes", gt_boxes), ("gt_labels", gt_labels), ("im_info", im_info)):
        if len(v.shape) != 2:
            raise InvalidArgumentError(f"{api}: {nm} must be 2-D, got shape {list(v.shape)}")
    for nm, v in (("gt_labels", gt_labels), ("is_crowd", is_crowd)):
        if _dtype_name(v.dtype) != "int32":
            raise TypeError(f"{api}: {nm} must be int32, got {v.dtype}")
    loc_i, score_i, lbl, tbox, wt, fg_num, loffs, soffs, foffs = _retinanet_target_assign(
        anchor_box, gt_boxes, _lod(gt_boxes, api), gt_labels, is_crowd, _lod(is_crowd, api), im_info,
        float(positive_overlap), float(negative_overlap))
    lbl, tbox, wt = _attach_if(lbl, soffs), _attach_if(tbox, loffs), _attach_if(wt, loffs)
    fg_num = _attach_if(fg_num, foffs)
    cls = P("paddle.fluid.layers.gather")(P("paddle.fluid.layers.reshape")(cls_logits, [-1, num_classes]), score_i)
    box = P("paddle.fluid.layers.gather")(P("paddle.fluid.layers.reshape")(bbox_pred, [-1, 4]), loc_i)
    return cls, box, lbl, tbox, wt, fg_num


export(retinanet_target_assign, "paddle.fluid.layers.retinanet_target_assign")


# ------------------------------------------------------------------------------------------------
# generate_proposal_labels (Fast R-CNN head targets: sample fg / bg RoIs, per-class box targets)


def _gpl_infer(rpn_rois, roi_offs, gt_classes, gt_offs, is_crowd, crowd_offs, gt_boxes, box_offs, im_info,
               batch_size_per_im, fg_fraction, fg_thresh, bg_thresh_hi, bg_thresh_lo, bbox_reg_weights, class_nums,
               use_random, is_cls_agnostic, is_cascade_rcnn):
    w = 4 * class_nums
    return [_spec((-1, 4), rpn_rois.dtype), _spec((-1, 1), gt_classes.dtype), _spec((-1, w), rpn_rois.dtype),
            _spec((-1, w), rpn_rois.dtype), _spec((-1, w), rpn_rois.dtype), _spec((-1,), torch.int64)]


@op("generate_proposal_labels", differentiable=False, infer=_gpl_infer)
def _generate_proposal_labels(rpn_rois, roi_offs, gt_classes, gt_offs, is_crowd, crowd_offs, gt_boxes, box_offs,
                              im_info, batch_size_per_im, fg_fraction, fg_thresh, bg_thresh_hi, bg_thresh_lo,
                              bbox_reg_weights, class_nums, use_random, is_cls_agnostic, is_cascade_rcnn):
    dev, dt = rpn_rois.device, rpn_rois.dtype
    ro, go, co, bo = (o.tolist() for o in (roi_offs, gt_offs, crowd_offs, box_offs))
    info = im_info.reshape(-1, 3)
    width = 4 * class_nums
    outs = [[], [], [], []]
    offs = [0]
    fg_cap = int(np.floor(np.float32(fg_fraction) * np.float32(batch_size_per_im)))
    for i in range(len(ro) - 1):
        scale = info[i, 2]
        rois = rpn_rois[ro[i]:ro[i + 1]] / scale
        if is_cascade_rcnn:  # drop degenerate RoIs (a single zero box when none is left)
            keep = ((rois[:, 2] - rois[:, 0] + 1) > 0) & ((rois[:, 3] - rois[:, 1] + 1) > 0)
            rois = rois[keep] if bool(keep.any()) else torch.zeros(1, 4, dtype=dt, device=dev)
        gt = gt_boxes[bo[i]:bo[i + 1]]
        cls = gt_classes.reshape(-1)[go[i]:go[i + 1]]
        crowd = is_crowd.reshape(-1)[co[i]:co[i + 1]]
        # cascade: only the kept RoIs are candidates (no gt boxes), and the is_crowd flags then index RoIs (1.8.5)
        boxes = rois if is_cascade_rcnn else torch.cat([gt, rois])
        if gt.shape[0]:
            ov = _overlaps_px(boxes, gt)
            mx = ov.max(1).values
            first = ((mx[:, None] - ov).abs() < 1e-5).to(torch.int8).argmax(1)
        else:
            mx = torch.zeros(boxes.shape[0], dtype=dt, device=dev)
            first = torch.zeros(boxes.shape[0], dtype=torch.long, device=dev)
        ng = min(crowd.numel(), boxes.shape[0])
        mx[:ng] = torch.where(crowd[:ng] != 0, torch.full_like(mx[:ng], -1.0), mx[:ng])
        fg = (mx >= fg_thresh).nonzero()[:, 0]
        gti = first[fg]
        bg = ((mx < fg_thresh) & (mx >= bg_thresh_lo) & (mx < bg_thresh_hi)).nonzero()[:, 0]
        if not is_cascade_rcnn:
            n_fg = min(fg_cap, fg.numel())
            fg, gti = _reservoir(fg, n_fg, use_random, partner=gti)
            bg = _reservoir(bg, min(batch_size_per_im - n_fg, bg.numel()), use_random, swap_below=n_fg)
        lab = torch.cat([cls[gti].to(gt_classes.dtype), torch.zeros(bg.numel(), dtype=gt_classes.dtype, device=dev)])
        delta = _box_to_delta(boxes[fg], gt[gti], bbox_reg_weights)
        r = fg.numel() + bg.numel()
        tgt = torch.zeros(r, width, dtype=dt, device=dev)
        wgt = torch.zeros(r, width, dtype=dt, device=dev)
        pos = (lab[:fg.numel()] > 0).nonzero()[:, 0]
        col = torch.ones_like(pos) if is_cls_agnostic else lab[pos].long()
        cols = (4 * col[:, None] + torch.arange(4, device=dev)[None]).reshape(-1)
        rows = pos.repeat_interleave(4)
        tgt[rows, cols] = delta[pos].reshape(-1)
        wgt[rows, cols] = 1.0
        outs[0].append(torch.cat([boxes[fg], boxes[bg]]) * scale)
        outs[1].append(lab.reshape(-1, 1))
        outs[2].append(tgt)
        outs[3].append(wgt)
        offs.append(offs[-1] + r)
    if not offs[1:]:
        return (torch.zeros(0, 4, dtype=dt, device=dev), torch.zeros(0, 1, dtype=gt_classes.dtype, device=dev),
                *(torch.zeros(0, width, dtype=dt, device=dev) for _ in range(3)),
                torch.zeros(1, dtype=torch.int64, device=dev))
    wgt = torch.cat(outs[3])
    return (torch.cat(outs[0]), torch.cat(outs[1]), torch.cat(outs[2]), wgt, wgt.clone(),
            torch.tensor(offs, dtype=torch.int64, device=dev))


def generate_proposal_labels(rpn_rois, gt_classes, is_crowd, gt_boxes, im_info, batch_size_per_im=256,
                             fg_fraction=0.25, fg_thresh=0.25, bg_thresh_hi=0.5, bg_thresh_lo=0.0,
                             bbox_reg_weights=[0.1, 0.1, 0.2, 0.2], class_nums=None, use_random=True,  # noqa: B006
                             is_cls_agnostic=False, is_cascade_rcnn=False):
    from paddle_compat.engine.ops.detection_infer import _attach_if

    api = "fluid.layers.generate_proposal_labels"
    if class_nums is None:
        raise InvalidArgumentError(f"{api}: class_nums (the number of classes, background included) is required")
    for nm, v in (("gt_classes", gt_classes), ("is_crowd", is_crowd)):
        if _dtype_name(v.dtype) != "int32":
            raise TypeError(f"{api}: {nm} must be int32, got {v.dtype}")
    if len(bbox_reg_weights) != 4:
        raise InvalidArgumentError(f"{api}: bbox_reg_weights must hold 4 floats, got {bbox_reg_weights}")
    rois, labels, tgt, inw, outw, offs = _generate_proposal_labels(
        rpn_rois, _lod(rpn_rois, api), gt_classes, _lod(gt_classes, api), is_crowd, _lod(is_crowd, api), gt_boxes,
        _lod(gt_boxes, api), im_info, int(batch_size_per_im), float(fg_fraction), float(fg_thresh),
        float(bg_thresh_hi), float(bg_thresh_lo), tuple(float(w) for w in bbox_reg_weights), int(class_nums),
        bool(use_random), bool(is_cls_agnostic), bool(is_cascade_rcnn))
    return tuple(_attach_if(o, offs) for o in (rois, labels, tgt, inw, outw))


export(generate_proposal_labels, "paddle.fluid.layers.generate_proposal_labels")


# ------------------------------------------------------------------------------------------------
# deformable_roi_pooling (op deformable_psroi_pooling: R-FCN / Deformable ConvNets RoI pooling)


def _dpsroi_infer(input, rois, offs, trans, no_trans, spatial_scale, output_dim, group_size, pooled_height,
                  pooled_width, part_size, sample_per_part, trans_std):
    return _spec((rois.shape[0], output_dim, pooled_height, pooled_width), input.dtype)


@op("deformable_psroi_pooling", infer=_dpsroi_infer)
def _deformable_psroi_pooling(input, rois, offs, trans, no_trans, spatial_scale, output_dim, group_size,
                              pooled_height, pooled_width, part_size, sample_per_part, trans_std):
    from paddle_compat.engine.ops.detection import _roi_batch_ids

    dev, dt = input.device, input.dtype
    _, c, h, w = input.shape
    r = rois.shape[0]
    o, ph_, pw_, s = output_dim, pooled_height, pooled_width, sample_per_part
    gh_, gw_ = group_size
    parth, partw = part_size
    bid = _roi_batch_ids(offs, r, dev).long()
    rd = rois.detach()
    rr = torch.sign(rd) * torch.floor(rd.abs() + 0.5)  # C's round(): halves away from zero (torch.round: to even)
    sw = rr[:, 0] * spatial_scale - 0.5
    sh = rr[:, 1] * spatial_scale - 0.5
    rw = torch.clamp((rr[:, 2] + 1.0) * spatial_scale - 0.5 - sw, min=0.1)
    rh = torch.clamp((rr[:, 3] + 1.0) * spatial_scale - 0.5 - sh, min=0.1)
    bw, bh = rw / pw_, rh / ph_
    f32 = np.float32
    part_h = torch.tensor([int(np.floor(f32(i) / f32(ph_) * f32(parth))) for i in range(ph_)], device=dev)
    part_w = torch.tensor([int(np.floor(f32(i) / f32(pw_) * f32(partw))) for i in range(pw_)], device=dev)
    gh = torch.tensor([min(max(int(np.floor(f32(i) * gh_ / ph_)), 0), gh_ - 1) for i in range(ph_)], device=dev)
    gw = torch.tensor([min(max(int(np.floor(f32(i) * gw_ / pw_)), 0), gw_ - 1) for i in range(pw_)], device=dev)
    if no_trans:
        tx = torch.zeros(r, o, ph_, pw_, dtype=dt, device=dev)
        ty = tx
    else:
        ncls = trans.shape[1] // 2
        cls = torch.arange(o, device=dev) // (o // ncls)
        t = trans.reshape(r, ncls, 2, parth, partw)
        idx_c = cls.reshape(1, o, 1, 1)
        tx = t[torch.arange(r, device=dev).reshape(r, 1, 1, 1), idx_c, 0, part_h.reshape(1, 1, ph_, 1),
               part_w.reshape(1, 1, 1, pw_)] * trans_std
        ty = t[torch.arange(r, device=dev).reshape(r, 1, 1, 1), idx_c, 1, part_h.reshape(1, 1, ph_, 1),
               part_w.reshape(1, 1, 1, pw_)] * trans_std
    v4 = (lambda a: a.reshape(r, 1, 1, 1))
    wstart = torch.arange(pw_, device=dev, dtype=dt).reshape(1, 1, 1, pw_) * v4(bw) + v4(sw) + tx * v4(rw)
    hstart = torch.arange(ph_, device=dev, dtype=dt).reshape(1, 1, ph_, 1) * v4(bh) + v4(sh) + ty * v4(rh)
    si = torch.arange(s, device=dev, dtype=dt)
    xs = wstart.unsqueeze(-1).unsqueeze(-2) + si.reshape(1, 1, 1, 1, 1, s) * (v4(bw) / s).unsqueeze(-1).unsqueeze(-1)
    ys = hstart.unsqueeze(-1).unsqueeze(-1) + si.reshape(1, 1, 1, 1, s, 1) * (v4(bh) / s).unsqueeze(-1).unsqueeze(-1)
    xs, ys = torch.broadcast_tensors(xs, ys)  # [r, o, ph, pw, s, s]
    ok = (xs >= -0.5) & (xs <= w - 0.5) & (ys >= -0.5) & (ys <= h - 0.5)
    xc = xs.clamp(0.0, w - 1.0)
    yc = ys.clamp(0.0, h - 1.0)
    x1, y1 = torch.floor(xc.detach()).long(), torch.floor(yc.detach()).long()
    x2, y2 = torch.ceil(xc.detach()).long(), torch.ceil(yc.detach()).long()
    dx, dy = xc - x1.to(dt), yc - y1.to(dt)
    ch = (torch.arange(o, device=dev).reshape(1, o, 1, 1) * gh_ + gh.reshape(1, 1, ph_, 1)) * gw_ + gw.reshape(1, 1, 1,
                                                                                                           pw_)
    base = ((bid.reshape(r, 1, 1, 1) * c + ch) * h).unsqueeze(-1).unsqueeze(-1)
    flat = input.reshape(-1)

    def at(yy, xx):
        return flat[((base + yy) * w + xx).reshape(-1)].reshape(yy.shape)

    val = ((1 - dx) * (1 - dy) * at(y1, x1) + (1 - dx) * dy * at(y2, x1) + dx * (1 - dy) * at(y1, x2)
           + dx * dy * at(y2, x2))
    val = torch.where(ok, val, torch.zeros_like(val))
    cnt = ok.sum((-1, -2))
    tot = val.sum((-1, -2))
    return torch.where(cnt > 0, tot / cnt.clamp(min=1).to(dt), torch.zeros_like(tot))


def deformable_roi_pooling(input, rois, trans, no_trans=False, spatial_scale=1.0, group_size=[1, 1],  # noqa: B006
                           pooled_height=1, pooled_width=1, part_size=None, sample_per_part=1, trans_std=0.1,
                           position_sensitive=False, name=None):
    api = "fluid.layers.deformable_roi_pooling"
    if not isinstance(group_size, (list, tuple)):
        raise TypeError(f"{api}: group_size must be a list or tuple, got {type(group_size).__name__}")
    if part_size is not None and not isinstance(part_size, (list, tuple)):
        raise TypeError(f"{api}: part_size must be a list or tuple, got {type(part_size).__name__}")
    if len(input.shape) != 4:
        raise InvalidArgumentError(f"{api}: input must be 4-D [N, C, H, W], got shape {list(input.shape)}")
    c = int(input.shape[1])
    out_c = c if not position_sensitive else c // pooled_height // pooled_width
    part = [pooled_height, pooled_width] if part_size is None else [int(p) for p in part_size]
    grp = [int(g) for g in group_size]
    if len(part) != 2 or len(grp) != 2:
        raise InvalidArgumentError(f"{api}: part_size and group_size must hold 2 ints, got {part}, {grp}")
    if out_c * grp[0] * grp[1] > c:
        raise InvalidArgumentError(f"{api}: output channels {out_c} x group_size {grp} exceed the {c} input channels")
    if not no_trans:
        tc = int(trans.shape[1])
        if tc < 2 or tc % 2 or out_c % (tc // 2) or list(trans.shape[2:]) != part:
            raise InvalidArgumentError(
                f"{api}: trans must be [num_rois, 2 * num_classes, part_h, part_w] with num_classes dividing the "
                f"{out_c} output channels and part size {part}, got shape {list(trans.shape)}")
    return _deformable_psroi_pooling(input, rois, _lod(rois, api), trans, bool(no_trans), float(spatial_scale), out_c,
                                     tuple(grp), int(pooled_height), int(pooled_width), tuple(part),
                                     int(sample_per_part), float(trans_std))


export(deformable_roi_pooling, "paddle.fluid.layers.deformable_roi_pooling")


# ------------------------------------------------------------------------------------------------
# generate_mask_labels (Mask R-CNN mask targets from polygon ground truth: gt_segms has 3 LoD levels)


def _poly2mask(xy, h, w):
    """COCO's polygon rasterization (maskApi rleFrPoly, 5x upsampled boundary) as Paddle's Poly2Mask: xy [k, 2]
    float32 -> uint8 [h, w]."""
    scale = 5.0
    k = xy.shape[0]
    x = [int(scale * float(xy[j, 0]) + 0.5) for j in range(k)]
    y = [int(scale * float(xy[j, 1]) + 0.5) for j in range(k)]
    x.append(x[0])
    y.append(y[0])
    u, v = [], []
    for j in range(k):
        xs, xe, ys, ye = x[j], x[j + 1], y[j], y[j + 1]
        dx, dy = abs(xe - xs), abs(ys - ye)
        flip = (dx >= dy and xs > xe) or (dx < dy and ys > ye)
        if flip:
            xs, xe, ys, ye = xe, xs, ye, ys
        if dx >= dy:
            s = 0.0 if dx == 0 else (ye - ys) / dx
            for d in range(dx + 1):
                t = dx - d if flip else d
                u.append(t + xs)
                v.append(int(ys + s * t + 0.5))
        else:
            s = 0.0 if dy == 0 else (xe - xs) / dy
            for d in range(dy + 1):
                t = dy - d if flip else d
                v.append(t + ys)
                u.append(int(xs + s * t + 0.5))
    a = []
    for j in range(1, len(u)):
        if u[j] != u[j - 1]:
            xd = float(u[j] if u[j] < u[j - 1] else u[j] - 1)
            xd = (xd + 0.5) / scale - 0.5
            if math.floor(xd) != xd or xd < 0 or xd > w - 1:
                continue
            yd = float(min(v[j - 1], v[j]))
            yd = (yd + 0.5) / scale - 0.5
            yd = min(max(yd, 0.0), float(h))
            a.append(int(xd) * h + math.ceil(yd))
    a.append(h * w)
    a.sort()
    runs, p = [], 0
    for t in a:
        runs.append(t - p)
        p = t
    b = [runs[0]]
    j = 1
    while j < len(runs):
        if runs[j] > 0:
            b.append(runs[j])
            j += 1
        else:
            j += 1
            if j < len(runs):
                b[-1] += runs[j]
                j += 1
    flat = np.zeros(h * w, np.uint8)
    pos, val = 0, 0
    for c in b:
        flat[pos:pos + c] = val
        pos += c
        val = 1 - val
    return flat.reshape(w, h).T


def _gml_infer(im_info, gt_classes, cls_offs, is_crowd, crowd_offs, gt_segms, segm_l0, segm_l1, segm_l2, rois,
               roi_offs, labels, label_offs, num_classes, resolution):
    return [_spec((-1, 4), rois.dtype), _spec((-1, 1), gt_classes.dtype),
            _spec((-1, num_classes * resolution * resolution), gt_classes.dtype), _spec((-1,), torch.int64)]


@op("generate_mask_labels", differentiable=False, infer=_gml_infer)
def _generate_mask_labels(im_info, gt_classes, cls_offs, is_crowd, crowd_offs, gt_segms, segm_l0, segm_l1, segm_l2,
                          rois, roi_offs, labels, label_offs, num_classes, resolution):
    dev, dt = rois.device, rois.dtype
    m = resolution
    pts = gt_segms.detach().cpu().float().numpy().reshape(-1, 2)
    l0, l1, l2 = segm_l0.tolist(), segm_l1.tolist(), segm_l2.tolist()
    co, ro, lo = cls_offs.tolist(), roi_offs.tolist(), label_offs.tolist()
    cls_all = gt_classes.reshape(-1).tolist()
    crowd_all = is_crowd.reshape(-1).tolist()
    lab_all = labels.reshape(-1).tolist()
    rois_np = rois.detach().cpu().float().numpy()
    info = im_info.reshape(-1, 3).detach().cpu().float().numpy()
    out_rois, out_has, out_mask, offs = [], [], [], [0]
    f32 = np.float32
    for i in range(len(co) - 1):
        if ro[i] == ro[i + 1]:
            offs.append(offs[-1])
            continue
        scale = f32(info[i, 2])
        polys = []
        for g in range(co[i + 1] - co[i]):
            if cls_all[co[i] + g] > 0 and crowd_all[co[i] + g] == 0:
                obj = l0[i] + g  # this object's polygons: l1[obj] .. l1[obj + 1], points l2[...]
                polys.append([pts[l2[q]:l2[q + 1]] for q in range(l1[obj], l1[obj + 1])])
        lab = lab_all[lo[i]:lo[i + 1]]
        r_img = rois_np[ro[i]:ro[i + 1]]
        fg = [j for j, c in enumerate(lab) if c > 0]
        if fg:
            rfg = (r_img[fg] / scale).astype(f32)
            boxes = np.zeros((len(polys), 4), f32)
            for g, pl in enumerate(polys):
                allp = np.concatenate(pl) if pl else np.zeros((0, 2), f32)
                boxes[g] = [min(allp[:, 0].min(initial=np.finfo(f32).max), np.finfo(f32).max),
                            min(allp[:, 1].min(initial=np.finfo(f32).max), np.finfo(f32).max),
                            allp[:, 0].max(initial=np.finfo(f32).tiny), allp[:, 1].max(initial=np.finfo(f32).tiny)]
            if len(polys):
                ov = _overlaps_px(torch.from_numpy(rfg), torch.from_numpy(boxes)).numpy()
            masks = np.full((len(fg), num_classes * m * m), -1, np.int32)
            for k, j in enumerate(fg):
                best, gid = np.finfo(f32).tiny, 0
                for g in range(len(polys)):
                    if ov[k, g] > best:
                        best, gid = ov[k, g], g
                box = rfg[k]
                bw, bh = max(box[2] - box[0], f32(1.0)), max(box[3] - box[1], f32(1.0))
                mk = np.zeros((m, m), np.uint8)
                for pl in polys[gid] if polys else []:
                    q = np.stack([(pl[:, 0] - box[0]) * f32(m) / bw, (pl[:, 1] - box[1]) * f32(m) / bh], 1)
                    mk |= _poly2mask(q.astype(f32), m, m)
                c = lab[j]
                masks[k, c * m * m:(c + 1) * m * m] = mk.reshape(-1)
            out_rois.append(rfg * scale)
            out_has.append(np.asarray(fg, np.int32).reshape(-1, 1))
            out_mask.append(masks)
        else:  # no foreground: the first RoI with an all -1 (ignored) mask, labelled background
            bg = [j for j, c in enumerate(lab) if c == 0][:1]
            out_rois.append((r_img[:1] / scale * scale).astype(f32))
            out_has.append(np.asarray(bg, np.int32).reshape(-1, 1))
            out_mask.append(np.full((1, num_classes * m * m), -1, np.int32))
        offs.append(offs[-1] + out_rois[-1].shape[0])
    cat = (lambda xs, shape, d: np.concatenate(xs).astype(d) if xs else np.zeros(shape, d))
    ci = _dtype_name(gt_classes.dtype)
    return (torch.from_numpy(cat(out_rois, (0, 4), np.float32)).to(device=dev, dtype=dt),
            torch.from_numpy(cat(out_has, (0, 1), np.int32)).to(device=dev, dtype=getattr(torch, ci)),
            torch.from_numpy(cat(out_mask, (0, num_classes * m * m), np.int32)).to(device=dev,
                                                                                    dtype=getattr(torch, ci)),
            torch.tensor(offs, dtype=torch.int64, device=dev))
