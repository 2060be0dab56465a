"""fluid.layers detection-inference cases (generate_proposals, FPN distribute / collect, matrix_nms,
box_decoder_and_assign, psroi_pool, prroi_pool) in the format of cases18.py; numpy only (also run by Paddle 1.8.5)."""

import numpy as np

rs = np.random.RandomState(1818)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


def _boxes(n, lo, hi, smin, smax):
    xy = rs.uniform(lo, hi, (n, 2))
    wh = rs.uniform(smin, smax, (n, 2))
    return np.concatenate([xy, xy + wh], 1).astype("float32")


# generate_proposals: N=2, A=3, H=4, W=5, image 40x50 at scale 1 / 0.5
_N, _A, _H, _W = 2, 3, 4, 5
_anc = np.zeros((_H, _W, _A, 4), "float32")
for _y in range(_H):
    for _x in range(_W):
        for _a, _s in enumerate((6.0, 10.0, 16.0)):
            _cx, _cy = _x * 10 + 5, _y * 10 + 5
            _anc[_y, _x, _a] = [_cx - _s / 2, _cy - _s / 2, _cx + _s / 2 - 1, _cy + _s / 2 - 1]
_var = np.tile(np.array([0.1, 0.1, 0.2, 0.2], "float32"), (_H, _W, _A, 1))
_gp_data = [("scores", [_N, _A, _H, _W], "float32", 0), ("deltas", [_N, 4 * _A, _H, _W], "float32", 0),
            ("im_info", [_N, 3], "float32", 0), ("anchors", [_H, _W, _A, 4], "float32", 0),
            ("variances", [_H, _W, _A, 4], "float32", 0)]
_gp_feed = {"scores": (rs.rand(_N, _A, _H, _W).astype("float32"), None),
            "deltas": ((rs.randn(_N, 4 * _A, _H, _W) * 0.5).astype("float32"), None),
            "im_info": (np.array([[40, 50, 1.0], [30, 40, 0.5]], "float32"), None),
            "anchors": (_anc, None), "variances": (_var, None)}
for _nm, _kw in (("gp_default", {}),
                 ("gp_topn", {"pre_nms_top_n": 20, "post_nms_top_n": 6, "nms_thresh": 0.3, "min_size": 2.0}),
                 ("gp_eta", {"pre_nms_top_n": 40, "post_nms_top_n": 10, "nms_thresh": 0.7, "eta": 0.9}),
                 ("gp_nonms", {"pre_nms_top_n": 0, "nms_thresh": 0.0})):
    case(_nm, _gp_data, _gp_feed,
         lambda L, F, v, pa, _kw=_kw: list(L.generate_proposals(v["scores"], v["deltas"], v["im_info"], v["anchors"],
                                                                 v["variances"], **_kw)))
case("gp_rois_num", _gp_data, _gp_feed,
     lambda L, F, v, pa: list(L.generate_proposals(v["scores"], v["deltas"], v["im_info"], v["anchors"],
                                                   v["variances"], post_nms_top_n=5, return_rois_num=True))[2:])

# distribute_fpn_proposals: rois of many sizes in 2 images (lengths 7, 5)
_fpn = np.concatenate([_boxes(12, 0, 100, 8, 700)])
_fpn_data = [("rois", [-1, 4], "float32", 1)]
_fpn_feed = {"rois": (_fpn, [7, 5])}


def _dist(L, F, v, pa):
    multi, restore = L.distribute_fpn_proposals(v["rois"], 2, 5, 4, 224)
    return list(multi) + [restore]


case("distribute_fpn", _fpn_data, _fpn_feed, _dist)
case("distribute_fpn_pool", _fpn_data, _fpn_feed,
     lambda L, F, v, pa: [L.sequence_pool(m, "sum") for m in L.distribute_fpn_proposals(v["rois"], 3, 4, 4, 448)[0]])

# collect_fpn_proposals: 3 levels, 2 images
_lv_lens = [[3, 2], [1, 3], [2, 0]]
_coll_data, _coll_feed = [], {}
for _i, _l in enumerate(_lv_lens):
    _coll_data += [(f"r{_i}", [-1, 4], "float32", 1), (f"s{_i}", [-1, 1], "float32", 1)]
    _coll_feed[f"r{_i}"] = (_boxes(sum(_l), 0, 50, 2, 30), _l)
    _coll_feed[f"s{_i}"] = (rs.rand(sum(_l), 1).astype("float32"), _l)
for _top in (100, 6, 3):
    case(f"collect_fpn_top{_top}", _coll_data, _coll_feed,
         lambda L, F, v, pa, _top=_top: [L.collect_fpn_proposals([v["r0"], v["r1"], v["r2"]],
                                                                 [v["s0"], v["s1"], v["s2"]], 2, 4, _top)])
case("collect_fpn_two_levels", _coll_data, _coll_feed,
     lambda L, F, v, pa: [L.collect_fpn_proposals([v["r0"], v["r1"], v["r2"]], [v["s0"], v["s1"], v["s2"]], 2, 3, 4)])

# matrix_nms: N=2, C=3, M=8 normalized boxes
_mb = np.stack([_boxes(8, 0, 0.6, 0.1, 0.4) for _ in range(2)])
_ms = rs.rand(2, 3, 8).astype("float32")
_mn_data = [("b", [2, 8, 4], "float32", 0), ("s", [2, 3, 8], "float32", 0)]
_mn_feed = {"b": (_mb, None), "s": (_ms, None)}
for _nm, _kw in (("matrix_nms_linear", {"score_threshold": 0.1, "post_threshold": 0.2, "nms_top_k": 6, "keep_top_k": 5}),
                 ("matrix_nms_gauss", {"score_threshold": 0.05, "post_threshold": 0.1, "nms_top_k": -1, "keep_top_k": -1,
                                           "use_gaussian": True, "gaussian_sigma": 3.0, "background_label": -1}),
                 ("matrix_nms_unnorm", {"score_threshold": 0.3, "post_threshold": 0.3, "nms_top_k": 4, "keep_top_k": 10,
                                            "normalized": False, "background_label": 1})):
    case(_nm, _mn_data, _mn_feed,
         lambda L, F, v, pa, _kw=_kw: list(L.matrix_nms(v["b"], v["s"], return_index=True, **_kw)))

# box_decoder_and_assign: R=5 priors, 3 classes
_pb = _boxes(5, 0, 40, 4, 20)
_bda_data = [("pb", [5, 4], "float32", 0), ("pv", [4], "float32", 0), ("tb", [5, 12], "float32", 0),
             ("sc", [5, 3], "float32", 0)]
_sc = rs.rand(5, 3).astype("float32")
_sc[2, 1:] = -2.0  # only the background class has a score above -1: assign the prior box
case("box_decoder_and_assign", _bda_data,
     {"pb": (_pb, None), "pv": (np.array([0.1, 0.1, 0.2, 0.2], "float32"), None),
      "tb": ((rs.randn(5, 12) * 2).astype("float32"), None), "sc": (_sc, None)},
     lambda L, F, v, pa: list(L.box_decoder_and_assign(v["pb"], v["pv"], v["tb"], v["sc"], 2.0)))

# psroi_pool / prroi_pool: feature [2, 2*2*3, 6, 7], rois in 2 images (lengths 2, 3)
_feat = rs.randn(2, 12, 6, 7).astype("float32")
_prois = np.array([[0, 0, 5, 4], [1.4, 2.6, 3.2, 5.5], [2, 1, 6, 5], [-1, 0.3, 3, 2], [4, 4, 4, 4]], "float32")
_ps_data = [("x", [2, 12, 6, 7], "float32", 0), ("rois", [-1, 4], "float32", 1)]
_ps_feed = {"x": (_feat, None), "rois": (_prois, [2, 3])}
case("psroi_pool", _ps_data, _ps_feed, lambda L, F, v, pa: [L.psroi_pool(v["x"], v["rois"], 3, 1.0, 2, 2)])
case("psroi_pool_scaled", _ps_data, _ps_feed, lambda L, F, v, pa: [L.psroi_pool(v["x"], v["rois"], 2, 0.7, 3, 2)])
case("prroi_pool", _ps_data, _ps_feed, lambda L, F, v, pa: [L.prroi_pool(v["x"], v["rois"], 1.0, 2, 3)])
case("prroi_pool_nums", _ps_data + [("nums", [2], "int64", 0)],
     {"x": (_feat, None), "rois": (_prois, [2, 3]), "nums": (np.array([2, 3], "int64"), None)},
     lambda L, F, v, pa: [L.prroi_pool(v["x"], v["rois"], 1.0, 2, 2, batch_roi_nums=v["nums"])])
case("prroi_pool_scaled", _ps_data, _ps_feed, lambda L, F, v, pa: [L.prroi_pool(v["x"], v["rois"], 0.6, 3, 2)])


# gradients w.r.t. the feature map (a parameter holding _feat); 1.8.5's prroi_pool_grad needs a ROIs@GRAD output
# and fails when rois stop gradients, so only psroi_pool's is recorded
def _psroi_grad(L, F, v, pa):
    x = L.create_parameter([2, 12, 6, 7], "float32", attr=pa("feat"))
    out = L.psroi_pool(x, v["rois"], 3, 0.8, 2, 2)
    return [out, F.gradients([L.reduce_sum(out * out)], [x])[0]]


case("psroi_pool_grad", [("rois", [-1, 4], "float32", 1)], {"rois": (_prois, [2, 3])}, _psroi_grad,
     params={"feat": _feat})

# locality_aware_nms: runs of near-identical boxes (merged) in 2 images, one class
_lb = []
for _img in range(2):
    _base = _boxes(4, 0, 30, 5, 12)
    _lb.append(np.concatenate([_base[_t // 3] + rs.uniform(-1, 1, 4) for _t in range(12)]).reshape(12, 4))
_lb = np.stack(_lb).astype("float32")
_la_data = [("b", [2, 12, 4], "float32", 0), ("s", [2, 1, 12], "float32", 0)]
_la_feed = {"b": (_lb, None), "s": (rs.rand(2, 1, 12).astype("float32"), None)}
for _nm, _kw in (("lanms_default", {"score_threshold": 0.2, "nms_top_k": 10, "keep_top_k": 5, "normalized": False}),
                 ("lanms_eta", {"score_threshold": 0.5, "nms_top_k": -1, "keep_top_k": -1, "nms_threshold": 0.6,
                                "normalized": False, "nms_eta": 0.9}),
                 ("lanms_none", {"score_threshold": 0.5, "nms_top_k": 5, "keep_top_k": 5, "background_label": 0})):
    case(_nm, _la_data, _la_feed, lambda L, F, v, pa, _kw=_kw: [L.locality_aware_nms(v["b"], v["s"], **_kw)])

# retinanet_detection_output: 2 FPN levels (8 and 2 anchors), 3 classes, 2 images
_ra = [_boxes(8, 0, 40, 4, 16), _boxes(2, 0, 30, 10, 30)]
_rt_data, _rt_feed = [("im_info", [2, 3], "float32", 0)], {"im_info": (np.array([[48, 56, 1.0], [60, 80, 2.0]],
                                                                                   "float32"), None)}
for _i, _a in enumerate(_ra):
    _m = _a.shape[0]
    _rt_data += [(f"rb{_i}", [2, _m, 4], "float32", 0), (f"rs{_i}", [2, _m, 3], "float32", 0),
                 (f"ra{_i}", [_m, 4], "float32", 0)]
    _rt_feed.update({f"rb{_i}": ((rs.randn(2, _m, 4) * 0.3).astype("float32"), None),
                     f"rs{_i}": (rs.rand(2, _m, 3).astype("float32"), None), f"ra{_i}": (_a, None)})
for _nm, _kw in (("retinanet_default", {}), ("retinanet_topk", {"score_threshold": 0.3, "nms_top_k": 5,
                                                                   "keep_top_k": 6, "nms_threshold": 0.2})):
    case(_nm, _rt_data, _rt_feed, lambda L, F, v, pa, _kw=_kw: [L.retinanet_detection_output(
        [v["rb0"], v["rb1"]], [v["rs0"], v["rs1"]], [v["ra0"], v["ra1"]], v["im_info"], **_kw)])

# roi_perspective_transform: quads (x0, y0, x1, y1, x2, y2, x3, y3) over a [2, 2, 8, 9] map, LoD lengths 2, 1
_pfeat = rs.randn(2, 2, 8, 9).astype("float32")
_quads = np.array([[1, 1, 6, 1.5, 6.5, 6, 0.5, 5],  # a skewed quad inside
                   [0, 0, 8, 0, 8, 7, 0, 7],  # the whole map
                   [2, 3, 11, 2, 10, 9, 3, 10]], "float32")  # partly off the map
_pt_data = [("x", [2, 2, 8, 9], "float32", 0), ("q", [-1, 8], "float32", 1)]
_pt_feed = {"x": (_pfeat, None), "q": (_quads, [2, 1])}
case("roi_perspective", _pt_data, _pt_feed,
     lambda L, F, v, pa: list(L.roi_perspective_transform(v["x"], v["q"], 4, 5)))
case("roi_perspective_scaled", _pt_data, _pt_feed,
     lambda L, F, v, pa: list(L.roi_perspective_transform(v["x"], v["q"], 3, 6, spatial_scale=0.8)))


def _persp_grad(L, F, v, pa):
    x = L.create_parameter([2, 2, 8, 9], "float32", attr=pa("pfeat"))
    out = L.roi_perspective_transform(x, v["q"], 4, 5)[0]
    return [F.gradients([L.reduce_sum(out * out)], [x])[0]]


case("roi_perspective_grad", [("q", [-1, 8], "float32", 1)], {"q": (_quads, [2, 1])}, _persp_grad,
     params={"pfeat": _pfeat})
