"""Detection ops in their LoD forms, in the format of cases18.py: multiclass_nms (Faster R-CNN heads: per-class
boxes [M, C, 4] and scores [M, C], one LoD sequence of RoIs per image), box_clip (each image's boxes clipped with
its own im_info row) and target_assign with LoD negative_indices. Golden: tests/goldens/fluid18_det_lod.* (tools/oracle/rec_fluid18_layers.py)."""

import numpy as np

rs = np.random.RandomState(1858)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


def _boxes(m, c):
    xy = rs.rand(m, c, 2).astype("float32") * 20
    wh = rs.rand(m, c, 2).astype("float32") * 10 + 1
    return np.concatenate([xy, xy + wh], -1)


NB = _boxes(7, 3)
NB[1] = NB[0] + 0.5  # near-duplicates of RoI 0 in every class
NS = rs.rand(7, 3).astype("float32")
NS[4] = 0.01  # below every threshold
LENS = [4, 3]
DATA = [("b", [7, 3, 4], "float32", 1), ("s", [7, 3], "float32", 1)]
FEED = {"b": (NB, LENS), "s": (NS, LENS)}


def _nms(**kw):
    def build(L, F, v, pa):
        return [L.multiclass_nms(v["b"], v["s"], **kw)]
    return build


for _name, _kw in {
    "nms_lod": dict(score_threshold=0.05, nms_top_k=10, keep_top_k=10, nms_threshold=0.3, normalized=False),
    "nms_lod_keep3": dict(score_threshold=0.05, nms_top_k=10, keep_top_k=3, nms_threshold=0.3, normalized=False),
    "nms_lod_bg_none": dict(score_threshold=0.2, nms_top_k=2, keep_top_k=-1, nms_threshold=0.5,
                            background_label=-1),
    "nms_lod_empty": dict(score_threshold=0.99, nms_top_k=10, keep_top_k=10),
}.items():
    case(_name, DATA, FEED, _nms(**_kw))


# --- box_clip: 2-D LoD boxes of two images, each clipped with its own im_info row ------------------------------
BC = rs.uniform(-5, 60, (5, 4)).astype("float32")
case("box_clip_per_image", [("bc", [-1, 4], "float32", 1), ("im", [2, 3], "float32", 0)],
     {"bc": (BC, [2, 3]), "im": (np.array([[40, 20, 2.0], [90, 100, 1.5]], "float32"), None)},
     lambda L, F, v, pa: [L.box_clip(v["bc"], v["im"])])


# --- target_assign with negative_indices (LoD per image): K = 2 and K = 1 ------------------------------------------
TA_M = np.array([[0, -1, 1, -1], [2, 0, -1, -1]], "int32")
for _k in (2, 1):
    case(f"target_assign_negatives_k{_k}",
         [("x", [-1, 4, _k], "float32", 1), ("m", [2, 4], "int32", 0), ("ng", [-1, 1], "int32", 1)],
         {"x": (rs.randn(5, 4, _k).astype("float32"), [2, 3]), "m": (TA_M, None),
          "ng": (np.array([[1], [2], [3]], "int32"), [1, 2])},
         lambda L, F, v, pa: list(L.target_assign(v["x"], v["m"], negative_indices=v["ng"], mismatch_value=7)))
