"""fluid.layers two-stage / FPN detection inference ops (Paddle 1.8 CPU kernels in torch): generate_proposals,
distribute_fpn_proposals, collect_fpn_proposals, matrix_nms, box_decoder_and_assign, psroi_pool, prroi_pool.

Data-dependent outputs (proposals, NMS results, FPN levels) carry their LoD as an int64 offsets variable like
multiclass_nms (detection.py)."""

from __future__ import annotations

import math

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.ops.detection import _I64, _jaccard, keep_top_k_of, _roi_batch_ids, _roi_spec
from paddle_compat.engine.framework.registry import export, op

_BBOX_CLIP = math.log(1000.0 / 16.0)  # Paddle's kBBoxClipDefault


def _spec(shape, dtype):
    from paddle_compat.engine.framework.infer import Spec

    return Spec(tuple(shape), dtype)


def _i32():
    from paddle_compat.engine.core import dtype as _dt

    return _dt.to_dtype("int32")


def _offs(counts, device):
    return torch.tensor([0] + [int(v) for v in torch.tensor(counts, dtype=torch.int64).cumsum(0).tolist()],
                        dtype=torch.int64, device=device)


def _is_var(x):
    from paddle_compat.engine.framework.program import Variable

    return isinstance(x, Variable)


def _attach_if(out, offs):
    from paddle_compat.engine.ops.sequence import _attach

    return _attach(out, offs) if _is_var(out) else out


def _lod(x, api, given=None):
    """Offsets of x's LoD in static mode; in dygraph the caller must pass them (Paddle 1.8 dygraph has no LoD)."""
    if given is not None:
        return given
    if not _is_var(x):
        raise InvalidArgumentError(f"{api}: input {getattr(x, 'name', 'rois')!r} needs LoD, which only static-graph "
                                   "LoDTensors carry; build the program in static mode")
    from paddle_compat.engine.ops.sequence import lod_of

    return lod_of(x, api)


def _check_rank(api, name, x, rank, what):
    if len(x.shape) != rank:
        raise InvalidArgumentError(f"{api}: {name} must be {what}, got shape {list(x.shape)}")


# ------------------------------------------------------------------------------------------------
# box_decoder_and_assign


def _bda_infer(prior_box, prior_box_var, target_box, box_score, box_clip):
    return [_spec(target_box.shape, prior_box.dtype), _spec((target_box.shape[0], 4), prior_box.dtype)]


@op("box_decoder_and_assign", differentiable=False, infer=_bda_infer)
def _box_decoder_and_assign(prior_box, prior_box_var, target_box, box_score, box_clip):
    r, k4 = target_box.shape
    k = k4 // 4
    pw = prior_box[:, 2] - prior_box[:, 0] + 1
    ph = prior_box[:, 3] - prior_box[:, 1] + 1
    pcx = (prior_box[:, 0] + pw / 2).reshape(r, 1)
    pcy = (prior_box[:, 1] + ph / 2).reshape(r, 1)
    var = prior_box_var.reshape(-1)
    t = target_box.reshape(r, k, 4)
    pw, ph = pw.reshape(r, 1), ph.reshape(r, 1)
    cx = var[0] * t[..., 0] * pw + pcx
    cy = var[1] * t[..., 1] * ph + pcy
    w = torch.exp(torch.clamp(var[2] * t[..., 2], max=box_clip)) * pw
    h = torch.exp(torch.clamp(var[3] * t[..., 3], max=box_clip)) * ph
    dec = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - 1, cy + h / 2 - 1], -1)
    # assign: the highest-scoring non-background class (class 0 never wins); none (only class 0) -> the prior box
    sc = box_score.reshape(r, k)
    if k > 1:
        best = torch.argmax(sc[:, 1:], dim=1) + 1  # first maximum, like the kernel's strict '>'
        picked = dec[torch.arange(r, device=dec.device), best]
        has = (sc[:, 1:].amax(dim=1) > -1).reshape(r, 1)
        assign = torch.where(has, picked, prior_box)
    else:
        assign = prior_box.clone()
    return dec.reshape(r, k4), assign


def box_decoder_and_assign(prior_box, prior_box_var, target_box, box_score, box_clip, name=None):
    """prior_box [R, 4], prior_box_var [4], target_box [R, 4 * C], box_score [R, C] ->
    (decode_box [R, 4 * C], output_assign_box [R, 4])."""
    api = "fluid.layers.box_decoder_and_assign"
    _check_rank(api, "prior_box", prior_box, 2, "[R, 4]")
    _check_rank(api, "target_box", target_box, 2, "[R, 4 * class_num]")
    _check_rank(api, "box_score", box_score, 2, "[R, class_num]")
    out = _box_decoder_and_assign(prior_box, prior_box_var, target_box, box_score, float(box_clip))
    return tuple(out)


export(box_decoder_and_assign, "paddle.fluid.layers.box_decoder_and_assign")


# ------------------------------------------------------------------------------------------------
# generate_proposals


def _gp_infer(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
              min_size, eta):
    return [_spec((-1, 4), bbox_deltas.dtype), _spec((-1, 1), scores.dtype), _spec((-1,), _I64()),
            _spec((scores.shape[0],), _I64())]


def _greedy_nms(boxes, thresh, eta, normalized):
    """Indices kept by Paddle's greedy NMS over boxes already sorted by score (descending)."""
    bx = boxes.tolist()
    sel, thr = [], thresh
    for i, b in enumerate(bx):
        if all(_jaccard(b, bx[k], normalized) <= thr for k in sel):
            sel.append(i)
            if eta < 1 and thr > 0.5:
                thr *= eta
    return sel


def _decode_proposals(anc, dlt, var, off=1.0):
    aw = anc[:, 2] - anc[:, 0] + off
    ah = anc[:, 3] - anc[:, 1] + off
    acx = anc[:, 0] + 0.5 * aw
    acy = anc[:, 1] + 0.5 * ah
    cx = var[:, 0] * dlt[:, 0] * aw + acx
    cy = var[:, 1] * dlt[:, 1] * ah + acy
    w = torch.exp(torch.clamp(var[:, 2] * dlt[:, 2], max=_BBOX_CLIP)) * aw
    h = torch.exp(torch.clamp(var[:, 3] * dlt[:, 3], max=_BBOX_CLIP)) * ah
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - off, cy + h / 2 - off], 1)


def _proposals(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
               min_size, eta, pixel_offset=True, v2=False):
    """The body of generate_proposals (1.x: im_info [N, 3] with the image scale, +1 pixel sizes, an image with no
    proposal left gets none) and generate_proposals_v2 (2.x: img_size [N, 2], pixel_offset choosing the +1 sizes,
    such an image gets one zero box with score 0)."""
    n = scores.shape[0]
    off = 1.0 if pixel_offset else 0.0
    sc_all = scores.detach().cpu().permute(0, 2, 3, 1).reshape(n, -1)
    dl_all = bbox_deltas.detach().cpu().permute(0, 2, 3, 1).reshape(n, -1, 4)
    anc = anchors.detach().cpu().reshape(-1, 4)
    var = variances.detach().cpu().reshape(-1, 4)
    info = im_info.detach().cpu().reshape(n, -1)
    rois, probs, counts = [], [], []
    min_size = max(min_size, 1.0)
    for i in range(n):
        sc = sc_all[i]
        order = torch.argsort(sc, descending=True, stable=True)
        if 0 < pre_nms_top_n < sc.numel():
            order = order[:pre_nms_top_n]
        props = _decode_proposals(anc[order], dl_all[i][order], var[order], off)
        h, w = (float(v) for v in info[i, :2])
        s = 1.0 if v2 else float(info[i, 2])
        props = torch.stack([props[:, 0].clamp(max=w - off), props[:, 1].clamp(max=h - off),
                             props[:, 2].clamp(max=w - off), props[:, 3].clamp(max=h - off)], 1).clamp(min=0)
        psc = sc[order]
        ws = props[:, 2] - props[:, 0] + off
        hs = props[:, 3] - props[:, 1] + off
        if v2:
            keep = (ws >= min_size) & (hs >= min_size)
            if pixel_offset:
                keep &= (props[:, 0] + ws / 2 <= w) & (props[:, 1] + hs / 2 <= h)
        else:
            wo = (props[:, 2] - props[:, 0]) / s + 1
            ho = (props[:, 3] - props[:, 1]) / s + 1
            keep = (wo >= min_size) & (ho >= min_size) & (props[:, 0] + ws / 2 <= w) & (props[:, 1] + hs / 2 <= h)
        if not bool(keep.any()):
            if v2:  # Paddle 2.x: one zero box scored 0
                rois.append(props.new_zeros(1, 4))
                probs.append(psc.new_zeros(1))
                counts.append(1)
            else:  # Paddle 1.8.5 gives the image no proposal
                counts.append(0)
            continue
        props, psc = props[keep], psc[keep]
        if nms_thresh > 0:
            srt = torch.argsort(psc, descending=True, stable=True)
            sel = srt[_greedy_nms(props[srt], nms_thresh, eta, not pixel_offset)]
            if 0 < post_nms_top_n < sel.numel():
                sel = sel[:post_nms_top_n]
            props, psc = props[sel], psc[sel]
        rois.append(props)
        probs.append(psc)
        counts.append(props.shape[0])
    dev = scores.device
    offs = _offs(counts, dev)
    rois = torch.cat(rois) if rois else sc_all.new_zeros(0, 4)
    probs = torch.cat(probs) if probs else sc_all.new_zeros(0)
    return (rois.to(dev, bbox_deltas.dtype), probs.reshape(-1, 1).to(dev, scores.dtype), offs, offs[1:].clone())


@op("generate_proposals", differentiable=False, infer=_gp_infer)
def _generate_proposals(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n, post_nms_top_n,
                        nms_thresh, min_size, eta):
    return _proposals(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
                      min_size, eta)


@op("generate_proposals_v2", differentiable=False,
    infer=lambda scores, bbox_deltas, im_shape, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
    min_size, eta, pixel_offset: _gp_infer(scores, bbox_deltas, im_shape, anchors, variances, pre_nms_top_n,
                                           post_nms_top_n, nms_thresh, min_size, eta))
def _generate_proposals_v2(scores, bbox_deltas, im_shape, anchors, variances, pre_nms_top_n, post_nms_top_n,
                           nms_thresh, min_size, eta, pixel_offset):
    return _proposals(scores, bbox_deltas, im_shape, anchors, variances, pre_nms_top_n, post_nms_top_n, nms_thresh,
                      min_size, eta, pixel_offset, v2=True)


def generate_proposals(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n=6000, post_nms_top_n=1000,
                       nms_thresh=0.5, min_size=0.1, eta=1.0, name=None, return_rois_num=False):
    """scores [N, A, H, W], bbox_deltas [N, 4A, H, W], im_info [N, 3], anchors / variances [H, W, A, 4] ->
    rpn_rois [R, 4], rpn_roi_probs [R, 1] (LoD: one sequence per image) and, with return_rois_num, the int32
    number of proposals per image [N]."""
    api = "fluid.layers.generate_proposals"
    _check_rank(api, "scores", scores, 4, "[N, A, H, W]")
    _check_rank(api, "bbox_deltas", bbox_deltas, 4, "[N, 4 * A, H, W]")
    rois, probs, offs, ends = _generate_proposals(scores, bbox_deltas, im_info, anchors, variances,
                                                  int(pre_nms_top_n), int(post_nms_top_n), float(nms_thresh),
                                                  float(min_size), float(eta))
    rois, probs = _attach_if(rois, offs), _attach_if(probs, offs)
    # return_rois_num: Paddle 1.8.5's RpnRoisLod, the int64 end offset of each image's proposals
    return (rois, probs, ends) if return_rois_num else (rois, probs)


export(generate_proposals, "paddle.fluid.layers.generate_proposals")


# ------------------------------------------------------------------------------------------------
# distribute_fpn_proposals / collect_fpn_proposals


def _dfp_infer(fpn_rois, offs, min_level, max_level, refer_level, refer_scale, pixel_offset=True):
    nl = max_level - min_level + 1
    return ([_spec((-1, 4), fpn_rois.dtype)] * nl + [_spec((-1,), _I64())] * nl
            + [_spec((-1, 1), _i32())])


@op("distribute_fpn_proposals", differentiable=False, infer=_dfp_infer)
def _distribute_fpn_proposals(fpn_rois, offs, min_level, max_level, refer_level, refer_scale, pixel_offset=True):
    """pixel_offset (a 2.x option; 1.x always): box sizes count +1 pixel."""
    nl = max_level - min_level + 1
    r = fpn_rois.detach()
    w = r[:, 2] - r[:, 0]
    h = r[:, 3] - r[:, 1]
    off = 1.0 if pixel_offset else 0.0
    area = torch.where((w < 0) | (h < 0), torch.zeros_like(w), (w + off) * (h + off))
    lvl = torch.floor(torch.log2(torch.sqrt(area) / refer_scale + 1e-6) + refer_level)
    lvl = lvl.clamp(min_level, max_level).long() - min_level
    bid = _roi_batch_ids(offs, r.shape[0], r.device)
    nb = offs.numel() - 1
    outs, lods, order = [], [], []
    for k in range(nl):
        idx = torch.nonzero(lvl == k).reshape(-1)  # ascending: grouped by image, input order within an image
        outs.append(fpn_rois[idx])
        lods.append(_offs(torch.bincount(bid[idx], minlength=nb)[:nb].tolist(), r.device))
        order.append(idx)
    order = torch.cat(order)
    restore = torch.empty_like(order)
    restore[order] = torch.arange(order.numel(), device=order.device)
    return (*outs, *lods, restore.to(torch.int32).reshape(-1, 1))


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale, name=None):
    """fpn_rois [R, 4] (LoD) -> (multi_rois: one [Ri, 4] LoD variable per level min_level..max_level,
    restore_ind [R, 1] int32: row of each input roi in the levels' concatenation)."""
    api = "fluid.layers.distribute_fpn_proposals"
    _check_rank(api, "fpn_rois", fpn_rois, 2, "[R, 4]")
    if max_level < min_level:
        raise InvalidArgumentError(f"{api}: max_level ({max_level}) must be >= min_level ({min_level})")
    nl = int(max_level) - int(min_level) + 1
    res = _distribute_fpn_proposals(fpn_rois, _lod(fpn_rois, api), int(min_level), int(max_level),
                                    int(refer_level), int(refer_scale))
    multi = [_attach_if(res[k], res[nl + k]) for k in range(nl)]
    restore = res[-1]
    if _is_var(restore):  # one row per input roi, without LoD (Paddle 1.8 gives RestoreIndex none)
        from paddle_compat.engine.ops.sequence import _ends_lod

        _ends_lod(restore)
    return multi, restore


export(distribute_fpn_proposals, "paddle.fluid.layers.distribute_fpn_proposals")


def _cfp_infer(rois, scores, offs, post_nms_top_n):
    return [_spec((-1, 4), rois[0].dtype), _spec((-1,), _I64())]


@op("collect_fpn_proposals", differentiable=False, infer=_cfp_infer)
def _collect_fpn_proposals(rois, scores, offs, post_nms_top_n):
    dev = rois[0].device
    all_r = torch.cat(list(rois))
    all_s = torch.cat([s.reshape(-1) for s in scores]).detach()
    bid = torch.cat([_roi_batch_ids(o, r.shape[0], dev) for o, r in zip(offs, rois)])
    top = min(post_nms_top_n, all_s.numel())
    pick = torch.argsort(all_s, descending=True, stable=True)[:top]
    pick = pick[torch.argsort(bid[pick], stable=True)]
    b = bid[pick].tolist()
    # LoD as the kernel builds it: a boundary wherever the batch id changes (images with no roi left are skipped)
    bounds, cur = [0], 0
    for i, v in enumerate(b):
        if v != cur:
            cur = v
            bounds.append(i)
    bounds.append(top)
    return all_r[pick], torch.tensor(bounds, dtype=torch.int64, device=dev)


def collect_fpn_proposals(multi_rois, multi_scores, min_level, max_level, post_nms_top_n, name=None):
    """multi_rois / multi_scores: per-level [Ri, 4] / [Ri, 1] LoD variables -> the post_nms_top_n best rois of
    the whole batch, grouped by image (LoD)."""
    api = "fluid.layers.collect_fpn_proposals"
    nl = int(max_level) - int(min_level) + 1
    rois, scores = list(multi_rois)[:nl], list(multi_scores)[:nl]
    if len(rois) != len(scores) or len(rois) < nl:
        raise InvalidArgumentError(f"{api}: multi_rois and multi_scores need max_level - min_level + 1 = {nl} "
                                   f"entries each, got {len(list(multi_rois))} and {len(list(multi_scores))}")
    if int(post_nms_top_n) < 0:
        raise InvalidArgumentError(f"{api}: post_nms_top_n must be >= 0, got {post_nms_top_n}")
    offs = [_lod(s, api) for s in scores]
    out, o = _collect_fpn_proposals(rois, scores, offs, int(post_nms_top_n))
    return _attach_if(out, o)


export(collect_fpn_proposals, "paddle.fluid.layers.collect_fpn_proposals")


# ------------------------------------------------------------------------------------------------
# matrix_nms


def _mnms_infer(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian,
                gaussian_sigma, background_label, normalized):
    return [_spec((-1, bboxes.shape[2] + 2), bboxes.dtype), _spec((-1, 1), _i32()), _spec((-1,), _I64())]


def _matrix_nms_class(bx, sc, score_threshold, post_threshold, sigma, top_k, normalized, gaussian):
    cand = torch.nonzero(sc > score_threshold).reshape(-1)
    if cand.numel() == 0:
        return [], []
    perm = cand[torch.argsort(sc[cand], descending=True, stable=True)]
    if top_k > -1:
        perm = perm[:top_k]
    b = bx[perm].tolist()
    m = len(b)
    iou = torch.zeros(m, m, dtype=torch.float64)
    for i in range(1, m):
        for j in range(i):
            iou[i, j] = _jaccard(b[i], b[j], normalized)
    iou_max = iou.amax(dim=1)  # row i: max iou of box i with any higher-scored box
    if gaussian:
        decay = torch.exp((iou_max.reshape(1, m) ** 2 - iou ** 2) * sigma)
    else:
        decay = (1 - iou) / (1 - iou_max.reshape(1, m))
    low = torch.tril(torch.ones(m, m, dtype=torch.bool), -1)
    min_decay = torch.where(low, decay, torch.ones_like(decay)).amin(dim=1).clamp(max=1.0)
    ds = (min_decay * sc[perm].double()).to(sc.dtype)
    ds[0] = sc[perm[0]]
    keep = ds > post_threshold
    return perm[keep].tolist(), ds[keep].tolist()


@op("matrix_nms", differentiable=False, infer=_mnms_infer)
def _matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian,
                gaussian_sigma, background_label, normalized):
    bxs = bboxes.detach().cpu()
    scs = scores.detach().cpu()
    n, c, m = scs.shape
    rows, index, counts = [], [], []
    for i in range(n):
        dets = []  # (score, class, box index)
        for k in range(c):
            if k == background_label:
                continue
            idx, ds = _matrix_nms_class(bxs[i], scs[i, k], score_threshold, post_threshold, gaussian_sigma,
                                        nms_top_k, normalized, use_gaussian)
            dets += [(s, k, j) for j, s in zip(idx, ds)]
        num = len(dets) if keep_top_k <= -1 else min(len(dets), keep_top_k)
        order = sorted(range(len(dets)), key=lambda t: -dets[t][0])[:num]
        for t in order:
            s, k, j = dets[t]
            rows.append([float(k), s] + bxs[i, j].tolist())
            index.append(i * m + j)
        counts.append(num)
    dev = bboxes.device
    out = torch.tensor(rows, dtype=bboxes.dtype, device=dev).reshape(-1, bboxes.shape[2] + 2)
    return (out, torch.tensor(index, dtype=torch.int32, device=dev).reshape(-1, 1), _offs(counts, dev))


def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian=False,
               gaussian_sigma=2., background_label=0, normalized=True, return_index=False, name=None):
    """bboxes [N, M, 4], scores [N, C, M] -> out [No, 6] rows [label, decayed score, x1, y1, x2, y2] (LoD: one
    sequence per image, best score first) and, with return_index, index [No, 1] int32 into the N * M boxes."""
    api = "fluid.layers.matrix_nms"
    _check_rank(api, "bboxes", bboxes, 3, "[N, M, 4]")
    _check_rank(api, "scores", scores, 3, "[N, C, M]")
    for nm, v, t in (("score_threshold", score_threshold, float), ("post_threshold", post_threshold, float),
                     ("nms_top_k", nms_top_k, int), ("keep_top_k", keep_top_k, int),
                     ("use_gaussian", use_gaussian, bool), ("gaussian_sigma", gaussian_sigma, float),
                     ("background_label", background_label, int), ("normalized", normalized, bool)):
        if not isinstance(v, t):
            raise TypeError(f"{api}: {nm} must be {t.__name__}, got {type(v).__name__}")
    out, index, offs = _matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k,
                                   use_gaussian, gaussian_sigma, background_label, normalized)
    out = _attach_if(out, offs)
    if return_index:
        return out, _attach_if(index, offs)
    return out


export(matrix_nms, "paddle.fluid.layers.matrix_nms")


# ------------------------------------------------------------------------------------------------
# psroi_pool / prroi_pool


def _rnd(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)  # std::round


@op("psroi_pool", infer=lambda input, rois, offs, output_channels, spatial_scale, pooled_height, pooled_width:
    _spec((-1, output_channels, pooled_height, pooled_width), input.dtype))
def _psroi_pool(input, rois, offs, output_channels, spatial_scale, pooled_height, pooled_width):
    _n, _cin, h, w = input.shape
    bid = _roi_batch_ids(offs, rois.shape[0], input.device).tolist()
    outs = []
    for r, (x1, y1, x2, y2) in enumerate(rois.detach().cpu().tolist()):
        sw, sh = _rnd(x1) * spatial_scale, _rnd(y1) * spatial_scale
        ew, eh = (_rnd(x2) + 1.0) * spatial_scale, (_rnd(y2) + 1.0) * spatial_scale
        bh = max(eh - sh, 0.1) / pooled_height
        bw = max(ew - sw, 0.1) / pooled_width
        img = input[bid[r]].reshape(output_channels, pooled_height, pooled_width, h, w)
        cells = []
        for ph in range(pooled_height):
            hs = min(max(math.floor(ph * bh + sh), 0), h)
            he = min(max(math.ceil((ph + 1) * bh + sh), 0), h)
            for pw in range(pooled_width):
                ws = min(max(math.floor(pw * bw + sw), 0), w)
                we = min(max(math.ceil((pw + 1) * bw + sw), 0), w)
                if he <= hs or we <= ws:
                    cells.append(input.new_zeros(output_channels))
                else:
                    cells.append(img[:, ph, pw, hs:he, ws:we].mean(dim=(1, 2)))
        outs.append(torch.stack(cells, 1).reshape(output_channels, pooled_height, pooled_width))
    return torch.stack(outs) if outs else input.new_zeros(0, output_channels, pooled_height, pooled_width)


def psroi_pool(input, rois, output_channels, spatial_scale, pooled_height, pooled_width, name=None):
    """Position-sensitive average RoI pooling: input [N, output_channels * ph * pw, H, W], rois [R, 4] (LoD)
    -> [R, output_channels, ph, pw]."""
    api = "fluid.layers.psroi_pool"
    for nm, v, t in (("output_channels", output_channels, int), ("spatial_scale", spatial_scale, float),
                     ("pooled_height", pooled_height, int), ("pooled_width", pooled_width, int)):
        if not isinstance(v, t):
            raise TypeError(f"{nm} must be {t.__name__} type")
    _check_rank(api, "input", input, 4, "[N, C, H, W]")
    if input.shape[1] >= 0 and input.shape[1] != output_channels * pooled_height * pooled_width:
        raise InvalidArgumentError(f"{api}: the channels of input ({input.shape[1]}) must equal output_channels * "
                                   f"pooled_height * pooled_width = {output_channels * pooled_height * pooled_width}")
    return _psroi_pool(input, rois, _lod(rois, api), output_channels, spatial_scale, pooled_height, pooled_width)


export(psroi_pool, "paddle.fluid.layers.psroi_pool")


def _hat_integral(u):
    """G(u) = integral of the hat max(0, 1 - |t|) from -inf to u."""
    return torch.where(u < -1, torch.zeros_like(u),
                       torch.where(u < 0, (u + 1) ** 2 / 2,
                                   torch.where(u < 1, 1 - (1 - u) ** 2 / 2, torch.ones_like(u))))


def _prroi_weights(start, size, bins, n, like):
    """[bins, n]: integral over each bin of the bilinear hat of every pixel (pixels off the map count 0)."""
    k = torch.arange(bins, dtype=like.dtype, device=like.device).reshape(-1, 1)
    i = torch.arange(n, dtype=like.dtype, device=like.device).reshape(1, -1)
    lo = start + size * k
    return _hat_integral(lo + size - i) - _hat_integral(lo - i)


def _prroi_infer(input, rois, offs, spatial_scale, pooled_height, pooled_width):
    return _roi_spec(input, pooled_height, pooled_width)


@op("prroi_pool", infer=_prroi_infer)
def _prroi_pool(input, rois, offs, spatial_scale, pooled_height, pooled_width):
    """Precise RoI pooling: the exact mean of the bilinearly interpolated map over each bin (separable: the
    integral of a bilinear hat over a box is the product of two 1-D hat integrals)."""
    _n, c, h, w = input.shape
    bid = _roi_batch_ids(offs, rois.shape[0], input.device)
    outs = []
    for r in range(rois.shape[0]):
        box = rois[r].to(input.dtype) * spatial_scale
        rw = torch.clamp(box[2] - box[0], min=0)
        rh = torch.clamp(box[3] - box[1], min=0)
        bw, bh = rw / pooled_width, rh / pooled_height
        area = bw * bh
        wy = _prroi_weights(box[1], bh, pooled_height, h, input)  # [ph, H]
        wx = _prroi_weights(box[0], bw, pooled_width, w, input)  # [pw, W]
        s = torch.einsum("ph,chw,qw->cpq", wy, input[int(bid[r])], wx)
        outs.append(torch.where(area > 0, s / torch.where(area > 0, area, torch.ones_like(area)),
                                torch.zeros_like(s)))
    return torch.stack(outs) if outs else input.new_zeros(0, c, pooled_height, pooled_width)


def prroi_pool(input, rois, spatial_scale=1.0, pooled_height=1, pooled_width=1, batch_roi_nums=None,
               name=None):
    """input [N, C, H, W], rois [R, 4] (LoD, or batch_roi_nums [N] int64 counts) -> [R, C, ph, pw]."""
    api = "fluid.layers.prroi_pool"
    for nm, v, t in (("spatial_scale", spatial_scale, float), ("pooled_height", pooled_height, int),
                     ("pooled_width", pooled_width, int)):
        if not isinstance(v, t):
            raise TypeError(f"{nm} must be {t.__name__} type")
    _check_rank(api, "input", input, 4, "[N, C, H, W]")
    if batch_roi_nums is not None:
        offs = _counts_to_offs(batch_roi_nums)
    else:
        offs = _lod(rois, api)
    return _prroi_pool(input, rois, offs, spatial_scale, pooled_height, pooled_width)


@op("prroi_counts_to_offsets", differentiable=False,
    infer=lambda nums: _spec((-1,), _I64()))
def _counts_to_offs(nums):
    return torch.cat([nums.new_zeros(1, dtype=torch.int64), nums.reshape(-1).to(torch.int64).cumsum(0)])


export(prroi_pool, "paddle.fluid.layers.prroi_pool")


# ------------------------------------------------------------------------------------------------
# locality_aware_nms / retinanet_detection_output


def _lanms_infer(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                 background_label):
    return [_spec((-1, bboxes.shape[2] + 2), bboxes.dtype), _spec((-1,), _I64())]


def _lanms_merge(bx, sc, nms_threshold, normalized):
    """Paddle's locality-aware pass: each box overlapping the running box (IoU > nms_threshold) is merged into it
    (score-weighted coordinates, summed score), in place on the float copies bx [M, 4] / sc [M]; returns the
    running boxes left (those not merged away)."""
    alive, cur = [], -1
    for i in range(bx.shape[0]):
        if cur > -1 and _jaccard(bx[i].tolist(), bx[cur].tolist(), normalized) > nms_threshold:
            bx[cur] = (bx[i] * sc[i] + bx[cur] * sc[cur]) / (sc[i] + sc[cur])
            sc[cur] = sc[cur] + sc[i]
        else:
            if cur > -1:
                alive.append(cur)
            cur = i
    if cur > -1:
        alive.append(cur)
    return alive


@op("locality_aware_nms", differentiable=False, infer=_lanms_infer)
def _locality_aware_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized,
                        nms_eta, background_label):
    bxs = bboxes.detach().cpu().clone()
    scs = scores.detach().cpu().clone()
    n, c, _m = scs.shape
    rows, counts = [], []
    for i in range(n):
        picked = {}
        for k in range(c):
            if k == background_label:
                continue
            bx, sc = bxs[i], scs[i, k]  # merged in place: later classes see the merged boxes (as the kernel)
            alive = [j for j in _lanms_merge(bx, sc, nms_threshold, normalized) if sc[j] > score_threshold]
            alive.sort(key=lambda j: -float(sc[j]))
            if nms_top_k > -1:
                alive = alive[:nms_top_k]
            keep = [alive[t] for t in _greedy_nms(bx[alive], nms_threshold, nms_eta, normalized)] if alive else []
            picked[k] = keep
        picked = keep_top_k_of(picked, scs[i], keep_top_k)
        num = sum(len(v) for v in picked.values())
        for k in sorted(picked):
            rows += [[float(k), float(scs[i, k, j])] + bxs[i, j].tolist() for j in picked[k]]
        counts.append(num)
    dev = bboxes.device
    if not rows:  # Paddle 1.8: a single row [-1] and LoD [0, 1]
        return torch.full((1, 1), -1.0, dtype=bboxes.dtype, device=dev), torch.tensor([0, 1], device=dev)
    return torch.tensor(rows, dtype=bboxes.dtype, device=dev), _offs(counts, dev)


def locality_aware_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3, normalized=True,
                       nms_eta=1., background_label=-1, name=None):
    """EAST-style NMS for one class: bboxes [N, M, 4], scores [N, 1, M] -> [No, 6] (LoD: one sequence per
    image); 8..32-coordinate polygon boxes are not supported."""
    api = "fluid.layers.locality_aware_nms"
    for nm, v, t in (("background_label", background_label, int), ("score_threshold", score_threshold, float),
                     ("nms_top_k", nms_top_k, int), ("nms_eta", nms_eta, float),
                     ("nms_threshold", nms_threshold, float), ("keep_top_k", keep_top_k, int),
                     ("normalized", normalized, bool)):
        if not isinstance(v, t):
            raise TypeError(f"The type of '{nm}' in {api.rpartition('.')[2]} must be {t}, but received {type(v)}.")
    _check_rank(api, "scores", scores, 3, "[N, 1, M]")
    _check_rank(api, "bboxes", bboxes, 3, "[N, M, 4]")
    if scores.shape[1] != 1:
        raise InvalidArgumentError(f"{api}: only one class is supported, scores must be [N, 1, M], got "
                                   f"{list(scores.shape)}")
    if bboxes.shape[2] != 4:
        from paddle_compat.engine.core.errors import UnsupportedAPIError

        raise UnsupportedAPIError("paddle.fluid.layers.locality_aware_nms",
                                  f"polygon boxes ({bboxes.shape[2]} coordinates) need polygon clipping IoU; only "
                                  "[xmin, ymin, xmax, ymax] boxes are supported")
    out, offs = _locality_aware_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold,
                                    normalized, nms_eta, background_label)
    return _attach_if(out, offs)


export(locality_aware_nms, "paddle.fluid.layers.locality_aware_nms")


def _retina_infer(bboxes, scores, anchors, im_info, score_threshold, nms_top_k, keep_top_k, nms_threshold,
                  nms_eta):
    return [_spec((-1, bboxes[0].shape[2] + 2), scores[0].dtype), _spec((-1,), _I64())]


@op("retinanet_detection_output", differentiable=False, infer=_retina_infer)
def _retinanet_detection_output(bboxes, scores, anchors, im_info, score_threshold, nms_top_k, keep_top_k,
                                nms_threshold, nms_eta):
    nl = len(scores)
    n, _, c = scores[0].shape
    info = im_info.detach().cpu().reshape(n, -1)
    rows, counts = [], []
    for i in range(n):
        h, w, s = (float(v) for v in info[i, :3])
        ih, iw = float(round(h / s)), float(round(w / s))
        preds = {}  # class -> list of (score, box)
        for lv in range(nl):
            sc = scores[lv][i].detach().cpu().reshape(-1)
            thr = score_threshold if lv < nl - 1 else 0.0
            cand = torch.nonzero(sc > thr).reshape(-1)
            cand = cand[torch.argsort(sc[cand], descending=True, stable=True)]
            if nms_top_k > -1:
                cand = cand[:nms_top_k]
            a = torch.div(cand, c, rounding_mode="floor")
            anc = anchors[lv].detach().cpu().reshape(-1, 4)[a]
            dl = bboxes[lv][i].detach().cpu().reshape(-1, 4)[a]
            aw = anc[:, 2] - anc[:, 0] + 1
            ah = anc[:, 3] - anc[:, 1] + 1
            cx = dl[:, 0] * aw + anc[:, 0] + aw / 2
            cy = dl[:, 1] * ah + anc[:, 1] + ah / 2
            bw = torch.exp(dl[:, 2]) * aw
            bh = torch.exp(dl[:, 3]) * ah
            box = torch.stack([(cx - bw / 2) / s, (cy - bh / 2) / s, (cx + bw / 2 - 1) / s, (cy + bh / 2 - 1) / s], 1)
            lim = torch.tensor([iw - 1, ih - 1, iw - 1, ih - 1], dtype=box.dtype)
            box = torch.minimum(box, lim).clamp(min=0)
            for t, j in enumerate(cand.tolist()):
                preds.setdefault(j % c, []).append((float(sc[j]), box[t]))
        dets = []
        for k in sorted(preds):
            cls = preds[k]
            order = sorted(range(len(cls)), key=lambda t: -cls[t][0])
            boxes = torch.stack([cls[t][1] for t in order])
            dets += [(cls[order[t]][0], k, cls[order[t]][1]) for t in _greedy_nms(boxes, nms_threshold, nms_eta,
                                                                                  False)]
        dets.sort(key=lambda d: -d[0])
        dets = dets[:keep_top_k] if keep_top_k > -1 else dets
        rows += [[float(k + 1), sc] + b.tolist() for sc, k, b in dets]
        counts.append(len(dets))
    dev = scores[0].device
    out = torch.tensor(rows, dtype=scores[0].dtype, device=dev).reshape(-1, 6)
    return out, _offs(counts, dev)


def retinanet_detection_output(bboxes, scores, anchors, im_info, score_threshold=0.05, nms_top_k=1000,
                               keep_top_k=100, nms_threshold=0.3, nms_eta=1.0):
    """Per-level bboxes [N, Mi, 4] (deltas), scores [N, Mi, C], anchors [Mi, 4], im_info [N, 3] -> [No, 6] rows
    [label (1-based), score, x1, y1, x2, y2] in the original image, best score first (LoD: one sequence per image)."""
    api = "fluid.layers.retinanet_detection_output"
    for nm, v in (("bboxes", bboxes), ("scores", scores), ("anchors", anchors)):
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"The type of '{nm}' in retinanet_detection_output must be <class 'list'>, but "
                            f"received {type(v)}.")
    if not (len(bboxes) == len(scores) == len(anchors)) or not bboxes:
        raise InvalidArgumentError(f"{api}: bboxes, scores and anchors need one entry per FPN level each, got "
                                   f"{len(bboxes)}, {len(scores)} and {len(anchors)}")
    # NOTE: Paddle 1.8.5's layer always passes nms_eta=1.0 to the op, whatever the argument says
    out, offs = _retinanet_detection_output(list(bboxes), list(scores), list(anchors), im_info,
                                            float(score_threshold), int(nms_top_k), int(keep_top_k),
                                            float(nms_threshold), 1.0)
    return _attach_if(out, offs)


export(retinanet_detection_output, "paddle.fluid.layers.retinanet_detection_output")


# ------------------------------------------------------------------------------------------------
# roi_perspective_transform

_TOL = 1e-4  # the kernel's comparisons are within 1e-4


def _ge(a, b):
    return (a > b) | (torch.abs(a - b) < _TOL)


def _persp_matrix(xs, ys, tw, th):
    """Paddle's perspective matrix (9 values) mapping output (w, h, 1) to the quad x0..x3 / y0..y3 (0-d tensors)."""
    x0, x1, x2, x3 = xs
    y0, y1, y2, y3 = ys
    est_h = (torch.hypot(x1 - x2, y1 - y2) + torch.hypot(x3 - x0, y3 - y0)) / 2
    est_w = (torch.hypot(x0 - x1, y0 - y1) + torch.hypot(x2 - x3, y2 - y3)) / 2
    nh = max(2, th)
    nw = int(_rnd(float(est_w * (nh - 1) / est_h))) + 1
    nw = max(2, min(nw, tw))
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    den = dx1 * dy2 - dx2 * dy1 + 1e-5
    m6 = (dx3 * dy2 - dx2 * dy3) / den / (nw - 1)
    m7 = (dx1 * dy3 - dx3 * dy1) / den / (nh - 1)
    m3 = (y1 - y0 + m6 * (nw - 1) * y1) / (nw - 1)
    m4 = (y3 - y0 + m7 * (nh - 1) * y3) / (nh - 1)
    m0 = (x1 - x0 + m6 * (nw - 1) * x1) / (nw - 1)
    m1 = (x3 - x0 + m7 * (nh - 1) * x3) / (nh - 1)
    return torch.stack([m0, m1, x0, m3, m4, y0, m6, m7, torch.ones_like(m6)])


def _in_quad(x, y, qx, qy):
    """The kernel's point-in-quadrilateral test (on an edge within 1e-4 counts as inside)."""
    on_edge = torch.zeros_like(x, dtype=torch.bool)
    crosses = torch.zeros_like(x, dtype=torch.int64)
    for i in range(4):
        xs, ys, xe, ye = qx[i], qy[i], qx[(i + 1) % 4], qy[(i + 1) % 4]
        if abs(float(ys - ye)) < _TOL:
            on_edge |= ((torch.abs(y - ys) < _TOL) & (torch.abs(y - ye) < _TOL) & _ge(x, torch.minimum(xs, xe))
                        & _ge(torch.maximum(xs, xe), x))
            continue
        ix = (y - ys) * (xe - xs) / (ye - ys) + xs
        on_edge |= (torch.abs(ix - x) < _TOL) & _ge(y, torch.minimum(ys, ye)) & _ge(torch.maximum(ys, ye), y)
        skip = _ge(torch.minimum(ys, ye), y) | ((y - torch.maximum(ys, ye)) > _TOL)
        crosses += (~skip & ((ix - x) > _TOL)).long()
    return on_edge | (crosses % 2 == 1)


def _rpt_infer(input, rois, offs, transformed_height, transformed_width, spatial_scale):
    th, tw = transformed_height, transformed_width
    return [_spec((-1, input.shape[1], th, tw), input.dtype), _spec((-1, 1, th, tw), _i32()),
            _spec((-1, 9), input.dtype)]


@op("roi_perspective_transform", infer=_rpt_infer)
def _roi_perspective_transform(input, rois, offs, transformed_height, transformed_width, spatial_scale):
    _n, c, h, w = input.shape
    th, tw = transformed_height, transformed_width
    bid = _roi_batch_ids(offs, rois.shape[0], input.device).tolist()
    dt, dev = input.dtype, input.device
    ow = torch.arange(tw, dtype=dt, device=dev).reshape(1, -1).expand(th, tw)
    oh = torch.arange(th, dtype=dt, device=dev).reshape(-1, 1).expand(th, tw)
    outs, masks, mats = [], [], []
    for r in range(rois.shape[0]):
        q = rois[r].detach().to(dt) * spatial_scale
        qx, qy = [q[2 * k] for k in range(4)], [q[2 * k + 1] for k in range(4)]
        m = _persp_matrix(qx, qy, tw, th)
        den = m[6] * ow + m[7] * oh + m[8]
        sx = (m[0] * ow + m[1] * oh + m[2]) / den
        sy = (m[3] * ow + m[4] * oh + m[5]) / den
        out_of = _ge(torch.full_like(sx, -0.5), sx) | _ge(sx, torch.full_like(sx, w - 0.5)) \
            | _ge(torch.full_like(sy, -0.5), sy) | _ge(sy, torch.full_like(sy, h - 0.5))
        valid = _in_quad(sx, sy, qx, qy) & ~out_of
        sx = torch.where(_ge(torch.zeros_like(sx), sx), torch.zeros_like(sx), sx)
        sy = torch.where(_ge(torch.zeros_like(sy), sy), torch.zeros_like(sy), sy)
        x0 = torch.floor(sx).long().clamp(0, w - 1)
        y0 = torch.floor(sy).long().clamp(0, h - 1)
        xtop, ytop = x0 >= w - 1, y0 >= h - 1
        sx = torch.where(xtop, x0.to(dt), sx)
        sy = torch.where(ytop, y0.to(dt), sy)
        x1 = torch.where(xtop, x0, x0 + 1).clamp(max=w - 1)
        y1 = torch.where(ytop, y0, y0 + 1).clamp(max=h - 1)
        lx, ly = sx - x0, sy - y0
        img = input[bid[r]]
        v = (img[:, y0, x0] * ((1 - lx) * (1 - ly)) + img[:, y1, x0] * ((1 - lx) * ly)
             + img[:, y1, x1] * (lx * ly) + img[:, y0, x1] * (lx * (1 - ly)))
        outs.append(torch.where(valid, v, torch.zeros_like(v)))
        masks.append(valid.to(torch.int32).reshape(1, th, tw))
        mats.append(m)
    if not outs:
        return (input.new_zeros(0, c, th, tw), torch.zeros(0, 1, th, tw, dtype=torch.int32, device=dev),
                input.new_zeros(0, 9))
    return torch.stack(outs), torch.stack(masks), torch.stack(mats)


def roi_perspective_transform(input, rois, transformed_height, transformed_width, spatial_scale=1.0,
                              name=None):
    """input [N, C, H, W], rois [R, 8] quads (x0, y0, ..., x3, y3; LoD) -> (out [R, C, th, tw],
    mask [R, 1, th, tw] int32, transform_matrix [R, 9])."""
    api = "fluid.layers.roi_perspective_transform"
    for nm, v, t in (("transformed_height", transformed_height, int), ("transformed_width", transformed_width, int),
                     ("spatial_scale", spatial_scale, float)):
        if not isinstance(v, t):
            raise TypeError(f"The type of '{nm}' in roi_perspective_transform must be {t}, but received {type(v)}.")
    _check_rank(api, "input", input, 4, "[N, C, H, W]")
    if len(rois.shape) != 2 or rois.shape[1] != 8:
        raise InvalidArgumentError(f"{api}: rois must be [R, 8] quads [x0, y0, x1, y1, x2, y2, x3, y3], got shape "
                                   f"{list(rois.shape)}")
    offs = _lod(rois, api)
    out, mask, mat = _roi_perspective_transform(input, rois, offs, transformed_height, transformed_width,
                                                spatial_scale)
    return _attach_if(out, offs), mask, mat  # Out shares the rois' LoD (Paddle 1.8's kernel sets it)


export(roi_perspective_transform, "paddle.fluid.layers.roi_perspective_transform")
