"""fluid.layers detection-training cases (yolov3_loss, ssd_loss, deformable_conv, rpn_target_assign,
retinanet_target_assign, generate_proposal_labels / generate_mask_labels with deterministic settings) in the format
of cases18.py; numpy only (also run by Paddle 1.8.5). Losses also return their gradients (fluid.gradients)."""

import numpy as np

rs = np.random.RandomState(2018)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


# ---------------------------------------------------------------- yolov3_loss: N=2, 2 masked anchors of 3, C=3, 4x4
_YC = 3
_yx = (rs.randn(2, 2 * (5 + _YC), 4, 4) * 0.8).astype("float32")
_ygt = np.zeros((2, 5, 4), "float32")
_ygt[0, :4] = [[0.3, 0.4, 0.35, 0.45], [0.7, 0.2, 0.6, 0.3], [0.1, 0.9, 0.9, 0.8], [0.32, 0.41, 0.3, 0.5]]
_ygt[1, :3] = [[0.55, 0.55, 0.4, 0.8], [0.2, 0.3, 0.25, 0.2], [0.8, 0.8, 0.5, 0.7]]
_ylab = np.array([[0, 2, 1, 1, 0], [2, 0, 1, 0, 0]], "int32")
_yscore = rs.uniform(0.3, 1.0, (2, 5)).astype("float32")
_ydata = [("gt_box", [2, 5, 4], "float32", 0), ("gt_label", [2, 5], "int32", 0), ("gt_score", [2, 5], "float32", 0)]
_yfeed = {"gt_box": (_ygt, None), "gt_label": (_ylab, None), "gt_score": (_yscore, None)}
_ANC = [10, 13, 16, 30, 33, 23]


def _yolo(kw, score=False):
    def build(L, F, v, pa):
        x = L.create_parameter([2, 2 * (5 + _YC), 4, 4], "float32", attr=pa("yx"))
        loss = L.yolov3_loss(x, v["gt_box"], v["gt_label"], _ANC, [1, 2], _YC, kw.get("ignore", 0.5), 8,
                             gt_score=v["gt_score"] if score else None, **kw.get("more", {}))
        return [loss, F.gradients([L.reduce_sum(loss)], [x])[0]]
    return build


for _nm, _kw, _sc in (("yolo_default", {}, False),
                      ("yolo_nosmooth_score", {"more": {"use_label_smooth": False}}, True),
                      ("yolo_ignore_scale", {"ignore": 0.2, "more": {"scale_x_y": 1.2}}, True)):
    case(_nm, _ydata, _yfeed, _yolo(_kw, _sc), params={"yx": _yx}, atol=1e-4)

# ---------------------------------------------------------------- deformable_conv v2 / v1 with gradients
_dx = rs.randn(2, 4, 5, 6).astype("float32")


# NOTE: im2col_step is passed explicitly: Paddle 1.8.5's CPU kernel computes only floor(N / im2col_step) chunks of
# im2col_step images, so with the default (64) and N=2 it returns the bias alone; we always compute every image.
def _dcn(modulated, ks, stride, pad, dil, groups, dg, nf, oshape, step=1):
    g = dg or 1
    off = (rs.randn(*((2, 2 * g * ks * ks) + oshape)) * 1.5).astype("float32")
    msk = rs.uniform(0, 1, (2, g * ks * ks) + oshape).astype("float32")
    w = (rs.randn(nf, 4 // (groups or 1), ks, ks) * 0.3).astype("float32")
    b = rs.randn(nf).astype("float32")

    def build(L, F, v, pa):
        x = L.create_parameter(list(_dx.shape), "float32", attr=pa("dx"))
        o = L.create_parameter(list(off.shape), "float32", attr=pa("doff"))
        m = L.create_parameter(list(msk.shape), "float32", attr=pa("dmask")) if modulated else None
        out = L.deformable_conv(x, o, m, nf, ks, stride=stride, padding=pad, dilation=dil, groups=groups,
                                deformable_groups=dg, im2col_step=step, param_attr=pa("dw"), bias_attr=pa("db"),
                                modulated=modulated)
        wrt = [x, o] + ([m] if modulated else [])
        return [out] + F.gradients([L.reduce_sum(out * out)], wrt)
    params = {"dx": _dx, "doff": off, "dw": w, "db": b}
    if modulated:
        params["dmask"] = msk
    return build, params


for _nm, _args in (("dcn_v2_pad1", (True, 3, 1, 1, 1, None, None, 3, (5, 6))),
                   ("dcn_v2_groups", (True, 3, 2, 1, 1, 2, 2, 4, (3, 3))),
                   ("dcn_v1_dil", (False, 3, 1, 2, 2, None, 2, 2, (5, 6))),
                   ("dcn_v1_k2", (False, 2, 1, 0, 1, 2, 1, 2, (4, 5)))):
    _b, _p = _dcn(*_args)
    case(_nm, [], {}, _b, params=_p, atol=1e-4)

# ---------------------------------------------------------------- ssd_loss: N=2, 8 priors, 4 classes
_sp = np.array([[0.0, 0.0, 0.4, 0.4], [0.3, 0.0, 0.7, 0.4], [0.6, 0.0, 1.0, 0.4], [0.0, 0.5, 0.5, 1.0],
                [0.5, 0.5, 1.0, 1.0], [0.2, 0.2, 0.8, 0.8], [0.1, 0.1, 0.3, 0.3], [0.65, 0.6, 0.95, 0.9]], "float32")
_spv = np.tile(np.array([0.1, 0.1, 0.2, 0.2], "float32"), (8, 1))
_sgt = np.array([[0.05, 0.05, 0.38, 0.42], [0.55, 0.5, 0.98, 0.97], [0.25, 0.15, 0.75, 0.85],
                 [0.62, 0.02, 0.99, 0.38], [0.1, 0.55, 0.45, 0.95]], "float32")
_sgl = np.array([[1], [3], [2], [1], [2]], "int32")
_sloc = (rs.randn(2, 8, 4) * 0.5).astype("float32")
_sconf = rs.randn(2, 8, 4).astype("float32")
_sdata = [("gt_box", [-1, 4], "float32", 1), ("gt_label", [-1, 1], "int32", 1), ("pb", [8, 4], "float32", 0),
          ("pbv", [8, 4], "float32", 0)]
_sfeed = {"gt_box": (_sgt, [3, 2]), "gt_label": (_sgl, [3, 2]), "pb": (_sp, None), "pbv": (_spv, None)}


def _ssd(kw, var=True):
    def build(L, F, v, pa):
        loc = L.create_parameter([2, 8, 4], "float32", attr=pa("sloc"))
        conf = L.create_parameter([2, 8, 4], "float32", attr=pa("sconf"))
        loss = L.ssd_loss(loc, conf, v["gt_box"], v["gt_label"], v["pb"], v["pbv"] if var else [0.1, 0.1, 0.2, 0.3],
                          **kw)
        return [loss] + F.gradients([L.reduce_sum(loss)], [loc, conf])
    return build


for _nm, _kw, _var in (("ssd_default", {}, True),
                       ("ssd_bipartite_nonorm", {"match_type": "bipartite", "normalize": False, "neg_pos_ratio": 1.0},
                        True),
                       ("ssd_listvar_weights", {"loc_loss_weight": 0.5, "conf_loss_weight": 2.0, "overlap_threshold": 0.3,
                                              "neg_overlap": 0.4, "background_label": 0}, False)):
    case(_nm, _sdata, _sfeed, _ssd(_kw, _var), params={"sloc": _sloc, "sconf": _sconf}, atol=1e-4)

# ---------------------------------------------------------------- rpn_target_assign (use_random=False): 2 images
_RA = []
for _y in range(4):
    for _x in range(5):
        for _s in (8.0, 16.0):
            _cx, _cy = _x * 8 + 4, _y * 8 + 4
            _RA.append([_cx - _s / 2, _cy - _s / 2, _cx + _s / 2 - 1, _cy + _s / 2 - 1])
_ranc = np.array(_RA, "float32")  # 40 anchors on a 32x40 image
_rgt = np.array([[2, 3, 14, 12], [20, 8, 35, 20], [5, 18, 12, 30], [0, 0, 30, 30],
                 [8, 6, 20, 18], [22, 14, 38, 31]], "float32")
_rcrowd = np.array([[0], [0], [0], [1], [0], [0]], "int32")
_rdata = [("anchor", [40, 4], "float32", 0), ("var", [40, 4], "float32", 0), ("gt", [-1, 4], "float32", 1),
          ("crowd", [-1, 1], "int32", 1), ("info", [2, 3], "float32", 0)]
_rfeed = {"anchor": (_ranc, None), "var": (np.full((40, 4), 0.1, "float32"), None), "gt": (_rgt, [4, 2]),
          "crowd": (_rcrowd, [4, 2]), "info": (np.array([[32, 40, 1.0], [64, 80, 2.0]], "float32"), None)}
_rbp = rs.randn(2, 40, 4).astype("float32")
_rcl = rs.randn(2, 40, 1).astype("float32")


def _rpn(kw):
    def build(L, F, v, pa):
        bp = L.create_parameter([2, 40, 4], "float32", attr=pa("rbp"))
        cl = L.create_parameter([2, 40, 1], "float32", attr=pa("rcl"))
        outs = list(L.rpn_target_assign(bp, cl, v["anchor"], v["var"], v["gt"], v["crowd"], v["info"],
                                        use_random=False, **kw))
        # loc rows are weighted by bbox_inside_weight as in training: 1.8.5's gather_grad overwrites instead of
        # summing for repeated indices (the zero-weight "fake" foreground rows repeat one anchor), we sum
        g = F.gradients([L.reduce_sum(outs[0] * outs[0]) + L.reduce_sum(outs[1] * outs[1] * outs[4])], [bp, cl])
        return outs + g
    return build


for _nm, _kw in (("rpn_default", {}),
                 ("rpn_small_batch", {"rpn_batch_size_per_im": 8, "rpn_fg_fraction": 0.25,
                                      "rpn_positive_overlap": 0.5, "rpn_negative_overlap": 0.2}),
                 ("rpn_nostraddle", {"rpn_straddle_thresh": -1.0, "rpn_batch_size_per_im": 12})):
    case(_nm, _rdata, _rfeed, _rpn(_kw), params={"rbp": _rbp, "rcl": _rcl})

# ---------------------------------------------------------------- retinanet_target_assign: same anchors, 3 classes
_rlab = np.array([[1], [3], [2], [1], [2], [3]], "int32")
_tdata = _rdata + [("glab", [-1, 1], "int32", 1)]
_tfeed = dict(_rfeed, glab=(_rlab, [4, 2]))
_tcl = rs.randn(2, 40, 3).astype("float32")


def _retina(kw):
    def build(L, F, v, pa):
        bp = L.create_parameter([2, 40, 4], "float32", attr=pa("rbp"))
        cl = L.create_parameter([2, 40, 3], "float32", attr=pa("tcl"))
        outs = list(L.retinanet_target_assign(bp, cl, v["anchor"], v["var"], v["gt"], v["glab"], v["crowd"],
                                              v["info"], 3, **kw))
        g = F.gradients([L.reduce_sum(outs[0] * outs[0]) + L.reduce_sum(outs[1] * outs[1] * outs[4])], [bp, cl])
        return outs + g
    return build


for _nm, _kw in (("retina_default", {}), ("retina_overlaps", {"positive_overlap": 0.3, "negative_overlap": 0.1})):
    case(_nm, _tdata, _tfeed, _retina(_kw), params={"rbp": _rbp, "tcl": _tcl})

# ---------------------------------------------------------------- generate_proposal_labels (use_random=False)
_prois = np.array([[2, 3, 15, 13], [20, 9, 34, 21], [0, 0, 30, 30], [6, 19, 12, 29], [3, 2, 13, 14],
                   [25, 25, 38, 31], [10, 10, 11, 11], [21, 8, 36, 22], [5, 5, 4, 9],
                   [10, 12, 40, 40], [40, 16, 70, 42], [12, 38, 22, 60], [45, 30, 75, 60], [2, 2, 60, 60]],
                  "float32")
_pdata = [("rois", [-1, 4], "float32", 1), ("gcls", [-1, 1], "int32", 1), ("crowd", [-1, 1], "int32", 1),
          ("gt", [-1, 4], "float32", 1), ("info", [2, 3], "float32", 0)]
_pfeed = {"rois": (_prois, [9, 5]), "gcls": (np.array([[1], [3], [2], [1], [2], [3]], "int32"), [4, 2]),
          "crowd": (_rcrowd, [4, 2]), "gt": (_rgt, [4, 2]),
          "info": (np.array([[32, 40, 1.0], [64, 80, 2.0]], "float32"), None)}
for _nm, _kw in (("gpl_default", {"class_nums": 4}),
                 ("gpl_small", {"class_nums": 4, "batch_size_per_im": 6, "fg_fraction": 0.5, "fg_thresh": 0.5,
                                "bg_thresh_hi": 0.4, "bg_thresh_lo": 0.05, "bbox_reg_weights": [1.0, 1.0, 2.0, 2.0]}),
                 ("gpl_agnostic", {"class_nums": 2, "is_cls_agnostic": True, "batch_size_per_im": 5}),
                 ("gpl_cascade", {"class_nums": 4, "is_cascade_rcnn": True, "batch_size_per_im": 64})):
    # 1.8.5's cascade mode divides only some RoIs by im_scale when it is not 1 (a kernel bug): scale 1 there
    case(_nm, _pdata, dict(_pfeed, info=(np.array([[32, 40, 1.0], [64, 80, 1.0]], "float32"), None))
         if _kw.get("is_cascade_rcnn") else _pfeed,
         lambda L, F, v, pa, _kw=_kw: list(L.generate_proposal_labels(v["rois"], v["gcls"], v["crowd"], v["gt"],
                                                                       v["info"], use_random=False, **_kw)))

# ---------------------------------------------------------------- deformable_roi_pooling (+ gradients)
_dfeat = rs.randn(2, 8, 6, 7).astype("float32")
_drois = np.array([[0.4, 1.2, 4.6, 5.0], [2, 0, 6, 3], [1, 1, 1, 2], [0, 0, 9, 8], [3.3, 2.7, 5.5, 4.4]], "float32")


def _droi(kw, ncls, part, nrois_lod=(2, 3)):
    trans = (rs.randn(5, 2 * ncls, part[0], part[1]) * 0.8).astype("float32")

    def build(L, F, v, pa):
        x = L.create_parameter([2, 8, 6, 7], "float32", attr=pa("dfeat"))
        t = L.create_parameter(list(trans.shape), "float32", attr=pa("dtrans"))
        out = L.deformable_roi_pooling(x, v["rois"], t, **kw)
        wrt = [x] if kw.get("no_trans") else [x, t]
        return [out] + F.gradients([L.reduce_sum(out * out)], wrt)
    return build, {"dfeat": _dfeat, "dtrans": trans}


for _nm, _kw, _nc, _part in (
        ("droi_default", {"pooled_height": 2, "pooled_width": 2}, 1, (2, 2)),
        ("droi_notrans", {"no_trans": True, "pooled_height": 3, "pooled_width": 2, "sample_per_part": 2}, 1, (3, 2)),
        # position_sensitive=True fails on 1.8.5 (output_dim = C / ph / pw is a float attr): see test_dettrain18.py
        ("droi_group", {"group_size": [1, 1], "pooled_height": 2, "pooled_width": 2, "sample_per_part": 3,
                        "spatial_scale": 0.7, "trans_std": 0.2}, 2, (2, 2)),
        ("droi_part", {"pooled_height": 3, "pooled_width": 3, "part_size": [2, 2], "sample_per_part": 2}, 4, (2, 2))):
    _b, _p = _droi(_kw, _nc, _part)
    case(_nm, [("rois", [-1, 4], "float32", 1)], {"rois": (_drois, [2, 3])}, _b, params=_p, atol=1e-4)

# ---------------------------------------------------------------- generate_mask_labels: gt_segms has 3 LoD levels,
# which the shared case table cannot feed; tools/oracle/rec_dettrain_masks.py records MASK_CASES into
# tests/goldens/fluid18_dettrain_masks.* and test_dettrain18.py compares
_polys = [np.array([[2, 2], [14, 3], [6, 12]], "float32"),                       # image 0, object 0 (class 1)
          np.array([[18, 6], [30, 6], [30, 18], [18, 18]], "float32"),           # object 1 (class 2): two polygons
          np.array([[22, 20], [34, 22], [33, 30], [20, 29]], "float32"),
          np.array([[5, 18], [12, 17], [13, 25], [8, 30], [4, 26]], "float32"),  # object 2 (class 0: skipped)
          np.array([[4, 4], [40, 8], [20, 44]], "float32"),                      # image 1, object 0 (crowd)
          np.array([[10, 12], [36, 10], [38, 30], [12, 34]], "float32")]         # object 1 (class 3)
MASK_DATA = [("info", [2, 3], "float32", 0), ("gcls", [-1, 1], "int32", 1), ("crowd", [-1, 1], "int32", 1),
             ("segms", [-1, 2], "float32", 3), ("rois", [-1, 4], "float32", 1), ("labels", [-1, 1], "int32", 1)]
_mrois = np.array([[1, 1, 15, 13], [17, 5, 33, 31], [0, 0, 8, 8], [3, 2, 12, 11], [20, 20, 30, 30],
                   [16, 20, 76, 70], [0, 0, 20, 20], [30, 30, 50, 50]], "float32")


def _mask_feed(labels1):
    return {"info": (np.array([[32, 40, 1.0], [64, 80, 2.0]], "float32"), None),
            "gcls": (np.array([[1], [2], [0], [2], [3]], "int32"), [[3, 2]]),
            "crowd": (np.array([[0], [0], [0], [1], [0]], "int32"), [[3, 2]]),
            "segms": (np.concatenate(_polys), [[3, 2], [1, 2, 1, 1, 1], [len(p) for p in _polys]]),
            "rois": (_mrois, [[5, 3]]),
            "labels": (np.array([[1], [2], [0], [1], [0]] + labels1, "int32"), [[5, 3]])}


MASK_CASES = {"masks_fg": (_mask_feed([[3], [0], [3]]), 4, 7), "masks_bg_only": (_mask_feed([[0], [0], [0]]), 4, 5),
              "masks_res14": (_mask_feed([[0], [3], [0]]), 5, 14)}


def mask_build(L, v, num_classes, resolution):
    return list(L.generate_mask_labels(v["info"], v["gcls"], v["crowd"], v["segms"], v["rois"], v["labels"],
                                       num_classes, resolution))
