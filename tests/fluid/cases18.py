"""fluid.layers cases shared by the recorder (tools/oracle/rec_fluid18_layers.py, run on real Paddle 1.8.5) and
our parity test (test_fluid18_parity.py). Only numpy here; `L` is fluid.layers, `F` is fluid.

A case: data = [(name, shape, dtype, lod_level)], feed = {name: (array, seq_lens or None)}, params = {name: array}
(parameters created with ParamAttr(name=..., initializer=NumpyArrayInitializer(array))), build(L, F, v, pa) -> list
of output Variables (`v` the data vars, `pa(name)` a ParamAttr for params[name]).
"""

import numpy as np

rs = np.random.RandomState(18)
X = rs.randn(6, 4).astype("float32")  # 3 sequences, lengths 2, 3, 1
LENS = [2, 3, 1]
X2 = rs.randn(4, 4).astype("float32")  # lengths 1, 1, 2
LENS2 = [1, 1, 2]
IDS = rs.randint(0, 9, (6, 1)).astype("int64")
IMG = rs.randn(2, 4, 4, 6).astype("float32")
A = rs.randn(3, 5).astype("float32")
B = rs.randn(3, 5).astype("float32")
LBL = rs.randint(0, 2, (3, 5)).astype("float32")
H = 3

CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = dict(data=data, feed=feed, build=build, params=params or {}, atol=atol)


seq_x = ([("x", [-1, 4], "float32", 1)], {"x": (X, LENS)})
for _pt in ("sum", "average", "sqrt", "max", "first", "last"):
    case(f"sequence_pool_{_pt}", *seq_x, lambda L, F, v, pa, _pt=_pt: [L.sequence_pool(v["x"], _pt)])
case("sequence_first_last", *seq_x, lambda L, F, v, pa: [L.sequence_first_step(v["x"]), L.sequence_last_step(v["x"])])
case("sequence_softmax", [("x", [-1, 1], "float32", 1)], {"x": (X[:, :1], LENS)},
     lambda L, F, v, pa: [L.sequence_softmax(v["x"])])
case("sequence_expand_rows", [("x", [-1, 4], "float32", 0), ("y", [-1, 1], "float32", 1)],
     {"x": (X[:3], None), "y": (X[:, :1], LENS)}, lambda L, F, v, pa: [L.sequence_expand(v["x"], v["y"])])
case("sequence_expand_seqs", [("x", [-1, 4], "float32", 1), ("y", [-1, 1], "float32", 1)],
     {"x": (X, LENS), "y": (X2[:3, :1], [2, 0, 1])}, lambda L, F, v, pa: [L.sequence_expand(v["x"], v["y"])])
case("sequence_expand_as", [("x", [-1, 4], "float32", 0), ("y", [-1, 1], "float32", 1)],
     {"x": (X[:3], None), "y": (X[:, :1], LENS)}, lambda L, F, v, pa: [L.sequence_expand_as(v["x"], v["y"])])
case("sequence_pad", *seq_x, lambda L, F, v, pa: list(L.sequence_pad(v["x"], L.fill_constant([1], "float32", 0.5))))
case("sequence_pad_maxlen", *seq_x,
     lambda L, F, v, pa: list(L.sequence_pad(v["x"], L.fill_constant([1], "float32", -1.0), maxlen=4)))
case("sequence_unpad", [("x", [-1, 4, 2], "float32", 0), ("n", [-1], "int64", 0)],
     {"x": (rs.randn(3, 4, 2).astype("float32"), None), "n": (np.array([2, 4, 1], "int64"), None)},
     lambda L, F, v, pa: [L.sequence_unpad(v["x"], v["n"])])
case("sequence_reverse", *seq_x, lambda L, F, v, pa: [L.sequence_reverse(v["x"])])
case("sequence_concat", [("x", [-1, 4], "float32", 1), ("x2", [-1, 4], "float32", 1)],
     {"x": (X, LENS), "x2": (X2, LENS2)}, lambda L, F, v, pa: [L.sequence_concat([v["x"], v["x2"]])])
case("sequence_slice", [("x", [-1, 4], "float32", 1), ("o", [-1, 1], "int64", 0), ("n", [-1, 1], "int64", 0)],
     {"x": (X, LENS), "o": (np.array([[0], [1], [0]], "int64"), None), "n": (np.array([[1], [2], [1]], "int64"), None)},
     lambda L, F, v, pa: [L.sequence_slice(v["x"], v["o"], v["n"])])
case("sequence_enumerate", [("ids", [-1, 1], "int64", 1)], {"ids": (IDS, LENS)},
     lambda L, F, v, pa: [L.sequence_enumerate(v["ids"], 3, pad_value=0)])
case("sequence_conv", *seq_x,
     lambda L, F, v, pa: [L.sequence_conv(v["x"], 3, 3, param_attr=pa("sc_w"), bias_attr=pa("sc_b"))],
     params={"sc_w": rs.randn(12, 3).astype("float32"), "sc_b": rs.randn(3).astype("float32")})
case("sequence_reshape", *seq_x, lambda L, F, v, pa: [L.sequence_reshape(v["x"], 2)])
case("sequence_scatter", [("x", [3, 6], "float32", 0), ("i", [-1, 1], "int64", 1), ("u", [-1, 1], "float32", 1)],
     {"x": (np.zeros((3, 6), "float32"), None), "i": (np.array([[0], [2], [1], [2], [5], [3]], "int64"), LENS),
      "u": (X[:, :1], LENS)}, lambda L, F, v, pa: [L.sequence_scatter(v["x"], v["i"], v["u"])])
case("sequence_mask", [("n", [-1], "int64", 0)], {"n": (np.array([2, 4, 0], "int64"), None)},
     lambda L, F, v, pa: [L.sequence_mask(v["n"], maxlen=5, dtype="float32")])
case("lod_reset_pool", *seq_x,
     lambda L, F, v, pa: [L.sequence_pool(L.lod_reset(v["x"], target_lod=[0, 4, 6]), "sum")])
for _peep in (True, False):
    for _rev in (False, True):
        case(f"dynamic_lstm_{'peep' if _peep else 'nopeep'}_{'rev' if _rev else 'fwd'}",
             [("x", [-1, 4 * H], "float32", 1)], {"x": (rs.randn(6, 4 * H).astype("float32"), LENS)},
             lambda L, F, v, pa, _peep=_peep, _rev=_rev: list(L.dynamic_lstm(
                 v["x"], 4 * H, param_attr=pa("lstm_w"), bias_attr=pa("lstm_b7" if _peep else "lstm_b4"),
                 use_peepholes=_peep, is_reverse=_rev)),
             params={"lstm_w": rs.randn(H, 4 * H).astype("float32") * 0.5,
                     "lstm_b7" if _peep else "lstm_b4": rs.randn(1, (7 if _peep else 4) * H).astype("float32") * 0.5})
for _om in (False, True):
    case(f"dynamic_gru_origin{int(_om)}", [("x", [-1, 3 * H], "float32", 1)],
         {"x": (rs.randn(6, 3 * H).astype("float32"), LENS)},
         lambda L, F, v, pa, _om=_om: [L.dynamic_gru(v["x"], H, param_attr=pa("gru_w"), bias_attr=pa("gru_b"),
                                                      origin_mode=_om)],
         params={"gru_w": rs.randn(H, 3 * H).astype("float32") * 0.5, "gru_b": rs.randn(1, 3 * H).astype("float32")})
case("embedding_seq_pool", [("ids", [-1, 1], "int64", 1)], {"ids": (IDS, LENS)},
     lambda L, F, v, pa: [L.sequence_pool(L.embedding(v["ids"], [9, 4], padding_idx=2, param_attr=pa("emb")), "sum")],
     params={"emb": rs.randn(9, 4).astype("float32")})

# --- dense adapters with 1.x names / defaults ---------------------------------------------------------------
dense_a = [("a", [3, 5], "float32", 0)]
fa = {"a": (A, None)}
for _n, _f in {
    "brelu": lambda L, a: L.brelu(a * 10.0, t_min=1.0, t_max=5.0),
    "soft_relu": lambda L, a: L.soft_relu(a * 30.0, threshold=20.0),
    "hard_sigmoid": lambda L, a: L.hard_sigmoid(a * 3.0),
    "swish": lambda L, a: L.swish(a, beta=2.0),
    "hard_swish": lambda L, a: L.hard_swish(a * 4.0),
    "leaky_relu": lambda L, a: L.leaky_relu(a),
    "relu6": lambda L, a: L.relu6(a * 5.0),
    "elu": lambda L, a: L.elu(a, alpha=0.5),
    "selu": lambda L, a: L.selu(a),
    "softshrink": lambda L, a: L.softshrink(a),
    "hard_shrink": lambda L, a: L.hard_shrink(a),
    "thresholded_relu": lambda L, a: L.thresholded_relu(a),
    "logsigmoid": lambda L, a: L.logsigmoid(a),
    "tanh_shrink": lambda L, a: L.tanh_shrink(a),
    "softsign": lambda L, a: L.softsign(a),
    "softplus": lambda L, a: L.softplus(a),
    "l2_normalize": lambda L, a: L.l2_normalize(a, axis=1),
    "argmax": lambda L, a: L.argmax(a),
    "argmin": lambda L, a: L.argmin(a, axis=1),
    "argsort": lambda L, a: L.argsort(a, axis=1, descending=True),
    "topk": lambda L, a: L.topk(a, 2),
    "cumsum_excl_rev": lambda L, a: L.cumsum(a, axis=1, exclusive=True, reverse=True),
    "expand": lambda L, a: L.expand(a, [2, 1]),
    "crop_tensor": lambda L, a: L.crop_tensor(a, shape=[2, -1], offsets=[1, 2]),
    "pad": lambda L, a: L.pad(a, [1, 0, 0, 2], pad_value=3.0),
    "reverse": lambda L, a: L.reverse(a, [0, 1]),
    "has_inf_nan_finite": lambda L, a: [L.has_inf(a), L.has_nan(a), L.isfinite(a)],
    "matmul_alpha": lambda L, a: L.matmul(a, a, transpose_y=True, alpha=0.5),
    "clip_by_norm": lambda L, a: L.clip_by_norm(a, 1.0),
    "sums": lambda L, a: [L.sum([a, a, a]), L.sums([a, a])],
    "size": lambda L, a: L.size(a),
    "strided_slice": lambda L, a: L.strided_slice(a, [0, 1], [0, 4], [3, 0], [2, -2]),
    "split": lambda L, a: L.split(a, [2, 3], dim=1),
    "squeeze_unsqueeze": lambda L, a: L.squeeze(L.unsqueeze(a, [0, 2]), [2]),
    "stack": lambda L, a: L.stack([a, a], axis=1),
    "mse_loss": lambda L, a: L.mse_loss(a, a * 0.5),
    "huber_loss": lambda L, a: L.huber_loss(a, a * 0.2, 0.5),
    "pow": lambda L, a: L.pow(L.abs(a), 1.5),
}.items():
    case(_n, dense_a, fa, lambda L, F, v, pa, _f=_f: (lambda r: r if isinstance(r, list) else
                                                      list(r) if isinstance(r, tuple) else [r])(_f(L, v["a"])))

ab = ([("a", [3, 5], "float32", 0), ("b", [3, 5], "float32", 0), ("l", [3, 5], "float32", 0)],
      {"a": (A, None), "b": (B, None), "l": (LBL, None)})
case("smooth_l1", *ab, lambda L, F, v, pa: [L.smooth_l1(v["a"], v["b"], sigma=2.0)])
for _red in ("none", "mean", "sum", "batchmean"):
    case(f"kldiv_{_red}", *ab, lambda L, F, v, pa, _red=_red: [L.kldiv_loss(v["a"], L.abs(v["b"]), reduction=_red)])
col = ([("a", [3, 1], "float32", 0), ("b", [3, 1], "float32", 0), ("l", [3, 1], "float32", 0)],
       {"a": (A[:, :1], None), "b": (B[:, :1], None), "l": (LBL[:, :1], None)})
case("rank_loss", *col, lambda L, F, v, pa: [L.rank_loss(v["l"], v["a"], v["b"])])
case("margin_rank_loss", *col, lambda L, F, v, pa: [L.margin_rank_loss(v["l"] * 2.0 - 1.0, v["a"], v["b"], 0.3)])
case("sigmoid_ce", *ab, lambda L, F, v, pa: [L.sigmoid_cross_entropy_with_logits(v["a"], v["l"])])
case("sigmoid_ce_norm", *ab, lambda L, F, v, pa: [L.sigmoid_cross_entropy_with_logits(
    v["a"], L.elementwise_mul(v["l"], L.fill_constant([3, 5], "float32", 1.0)), ignore_index=0, normalize=True)])
case("pad_constant_like", *ab, lambda L, F, v, pa: [L.pad_constant_like(v["a"], L.slice(v["b"], [0, 1], [0, 0],
                                                                                           [2, 3]), 9.0)])
case("bpr_loss", [("a", [3, 5], "float32", 0), ("i", [3, 1], "int64", 0)],
     {"a": (A, None), "i": (np.array([[1], [4], [0]], "int64"), None)},
     lambda L, F, v, pa: [L.bpr_loss(v["a"], v["i"])])
case("focal_loss", [("a", [3, 5], "float32", 0), ("i", [3, 1], "int32", 0), ("fg", [1], "int32", 0)],
     {"a": (A, None), "i": (np.array([[1], [0], [5]], "int32"), None), "fg": (np.array([2], "int32"), None)},
     lambda L, F, v, pa: [L.sigmoid_focal_loss(v["a"], v["i"], v["fg"], gamma=2.0, alpha=0.25)])
case("one_hot", [("i", [4, 1], "int64", 0)], {"i": (np.array([[1], [0], [3], [2]], "int64"), None)},
     lambda L, F, v, pa: [L.one_hot(v["i"], 5)])
case("unique", [("i", [7], "int64", 0)], {"i": (np.array([3, 1, 3, 7, 1, 0, 3], "int64"), None)},
     lambda L, F, v, pa: list(L.unique_with_counts(v["i"])) + list(L.unique(v["i"])))
case("where_gather_nd", [("a", [3, 5], "float32", 0)], {"a": (A, None)},
     lambda L, F, v, pa: [L.where(L.greater_than(v["a"], L.fill_constant([3, 5], "float32", 0.5))),
                          L.gather_nd(v["a"], L.assign(np.array([[0, 1], [2, 4]], "int64")))])
case("scatter_add", [("a", [3, 5], "float32", 0)], {"a": (A, None)},
     lambda L, F, v, pa: [L.scatter(v["a"], L.assign(np.array([1, 1], "int64")),
                                    L.fill_constant([2, 5], "float32", 1.0), overwrite=False)])
img_d = ([("img", [2, 4, 4, 6], "float32", 0)], {"img": (IMG, None)})
case("shuffle_channel", *img_d, lambda L, F, v, pa: [L.shuffle_channel(v["img"], 2)])
case("space_to_depth", *img_d, lambda L, F, v, pa: [L.space_to_depth(v["img"], 2)])
case("pixel_shuffle", *img_d, lambda L, F, v, pa: [L.pixel_shuffle(v["img"], 2)])
for _m in ("constant", "reflect", "edge"):
    case(f"pad2d_{_m}", *img_d, lambda L, F, v, pa, _m=_m: [L.pad2d(v["img"], [1, 0, 2, 1], mode=_m, pad_value=2.0)])
case("resize_bilinear", *img_d, lambda L, F, v, pa: [L.resize_bilinear(v["img"], out_shape=[7, 9])])
case("resize_bilinear_ac0", *img_d,
     lambda L, F, v, pa: [L.resize_bilinear(v["img"], out_shape=[3, 5], align_corners=False, align_mode=0)])
case("resize_nearest", *img_d, lambda L, F, v, pa: [L.resize_nearest(v["img"], scale=2.0)])
case("image_resize_short", *img_d, lambda L, F, v, pa: [L.image_resize_short(v["img"], 3)])
case("lrn", *img_d, lambda L, F, v, pa: [L.lrn(v["img"], n=3, k=2.0, alpha=0.01, beta=0.5)])
case("maxout", *img_d, lambda L, F, v, pa: [L.maxout(v["img"], 2)])
case("affine_channel", *img_d, lambda L, F, v, pa: [L.affine_channel(
    v["img"], L.assign(np.arange(1, 5, dtype="float32")), L.assign(np.arange(4, dtype="float32")))])
case("adaptive_pool2d", *img_d, lambda L, F, v, pa: [L.adaptive_pool2d(v["img"], [2, 3], "avg"),
                                                      L.adaptive_pool2d(v["img"], 2, "max")])
case("add_position_encoding", [("s", [2, 3, 6], "float32", 0)], {"s": (rs.randn(2, 3, 6).astype("float32"), None)},
     lambda L, F, v, pa: [L.add_position_encoding(v["s"], 0.5, 2.0)])
case("grid_sampler", [("img", [2, 4, 4, 6], "float32", 0), ("g", [2, 4, 6, 2], "float32", 0)],
     {"img": (IMG, None), "g": (rs.uniform(-1.1, 1.1, (2, 4, 6, 2)).astype("float32"), None)},
     lambda L, F, v, pa: [L.grid_sampler(v["img"], v["g"])])
case("affine_grid", [("t", [2, 2, 3], "float32", 0)], {"t": (rs.randn(2, 2, 3).astype("float32"), None)},
     lambda L, F, v, pa: [L.affine_grid(v["t"], [2, 3, 4, 5])])
case("creation", [("a", [3, 5], "float32", 0)], {"a": (A, None)},
     lambda L, F, v, pa: [L.eye(2, 3, batch_shape=[2]), L.range(1, 7, 2, "int32"), L.diag(L.assign(np.array(
         [1.0, 2.0], "float32"))), L.zeros_like(v["a"]), L.ones([2], "int64")])
case("label_smooth", [("a", [3, 5], "float32", 0)], {"a": (np.eye(3, 5, dtype="float32"), None)},
     lambda L, F, v, pa: [L.label_smooth(v["a"], epsilon=0.2)])

# --- detection ------------------------------------------------------------------------------------------
BOX_A = np.array([[0.1, 0.1, 0.5, 0.6], [0.2, 0.3, 0.9, 0.8], [0.0, 0.0, 0.3, 0.2]], "float32")
BOX_B = np.array([[0.15, 0.2, 0.55, 0.5], [0.5, 0.5, 1.0, 1.0]], "float32")
boxes = ([("a", [3, 4], "float32", 0), ("b", [2, 4], "float32", 0)], {"a": (BOX_A, None), "b": (BOX_B, None)})
case("iou_similarity", *boxes, lambda L, F, v, pa: [L.iou_similarity(v["a"], v["b"]),
                                                     L.iou_similarity(v["a"] * 10.0, v["b"] * 10.0, False)])
case("box_coder_encode", *boxes, lambda L, F, v, pa: [L.box_coder(v["b"], [0.1, 0.1, 0.2, 0.2], v["a"])])
case("box_coder_encode_var", *boxes, lambda L, F, v, pa: [L.box_coder(
    v["b"], L.assign(np.array([[0.1, 0.1, 0.2, 0.2], [0.2, 0.2, 0.1, 0.1]], "float32")), v["a"] * 9.0,
    box_normalized=False)])
case("box_coder_decode", [("p", [2, 4], "float32", 0), ("t", [3, 2, 4], "float32", 0)],
     {"p": (BOX_B, None), "t": (rs.randn(3, 2, 4).astype("float32") * 0.3, None)},
     lambda L, F, v, pa: [L.box_coder(v["p"], [0.1, 0.1, 0.2, 0.2], v["t"], "decode_center_size"),
                          L.box_coder(L.slice(L.concat([v["p"], v["p"]], 0), [0], [0], [3]), [1.0, 1.0, 1.0, 1.0], v["t"],
                                      "decode_center_size", axis=1)])
case("box_clip", [("b", [-1, 4], "float32", 1), ("im", [1, 3], "float32", 0)],
     {"b": (rs.uniform(-5, 40, (3, 4)).astype("float32"), [3]), "im": (np.array([[40, 20, 2.0]], "float32"), None)},
     lambda L, F, v, pa: [L.box_clip(v["b"], v["im"])])
fm_d = ([("f", [1, 2, 3, 4], "float32", 0), ("im", [1, 3, 12, 16], "float32", 0)],
        {"f": (np.zeros((1, 2, 3, 4), "float32"), None), "im": (np.zeros((1, 3, 12, 16), "float32"), None)})
case("prior_box", *fm_d, lambda L, F, v, pa: list(L.prior_box(v["f"], v["im"], [4.0, 6.0], [8.0, 9.0], [2.0],
                                                               flip=True, clip=True)))
case("prior_box_order", *fm_d, lambda L, F, v, pa: list(L.prior_box(
    v["f"], v["im"], [4.0], [8.0], [2.0, 3.0], flip=True, steps=[5.0, 4.0], offset=0.3,
    min_max_aspect_ratios_order=True)))
case("yolo_box", [("x", [2, 14, 3, 4], "float32", 0), ("s", [2, 2], "int32", 0)],
     {"x": (rs.randn(2, 14, 3, 4).astype("float32"), None), "s": (np.array([[96, 128], [60, 80]], "int32"), None)},
     lambda L, F, v, pa: list(L.yolo_box(v["x"], v["s"], [10, 13, 16, 30], 2, 0.3, 32)))

# --- recurrent units / misc -------------------------------------------------------------------------------
case("fsp_matrix", [("a", [2, 4, 4, 6], "float32", 0)], {"a": (IMG, None)},
     lambda L, F, v, pa: [L.fsp_matrix(v["a"], L.scale(v["a"], 0.5, bias=1.0))])
case("lstm_unit", [("x", [3, 5], "float32", 0), ("h", [3, 4], "float32", 0), ("c", [3, 4], "float32", 0)],
     {"x": (A, None), "h": (rs.randn(3, 4).astype("float32"), None), "c": (rs.randn(3, 4).astype("float32"), None)},
     lambda L, F, v, pa: list(L.lstm_unit(v["x"], v["h"], v["c"], forget_bias=0.5, param_attr=pa("lu_w"),
                                          bias_attr=pa("lu_b"))),
     params={"lu_w": rs.randn(9, 16).astype("float32") * 0.5, "lu_b": rs.randn(16).astype("float32")})
for _om in (False, True):
    case(f"gru_unit_origin{int(_om)}", [("x", [3, 3 * H], "float32", 0), ("h", [3, H], "float32", 0)],
         {"x": (rs.randn(3, 3 * H).astype("float32"), None), "h": (rs.randn(3, H).astype("float32"), None)},
         lambda L, F, v, pa, _om=_om: list(L.gru_unit(v["x"], v["h"], 3 * H, param_attr=pa("gu_w"),
                                                      bias_attr=pa("gu_b"), origin_mode=_om)),
         params={"gu_w": rs.randn(H, 3 * H).astype("float32") * 0.5, "gu_b": rs.randn(1, 3 * H).astype("float32")})
case("edit_distance", [("h", [-1, 1], "int64", 1), ("r", [-1, 1], "int64", 1)],
     {"h": (np.array([[1], [2], [3], [4], [5], [1], [1]], "int64"), [3, 2, 2]),
      "r": (np.array([[1], [3], [4], [5], [6], [2], [1], [1]], "int64"), [2, 3, 3])},
     lambda L, F, v, pa: list(L.edit_distance(v["h"], v["r"])) + list(L.edit_distance(v["h"], v["r"], False, [1])))


def _drnn(L, F, v, pa):
    drnn = L.DynamicRNN()
    with drnn.block():
        w = drnn.step_input(v["x"])
        ctx = drnn.static_input(v["c"])
        prev = drnn.memory(shape=[H], value=0.5)
        acc = drnn.memory(init=v["h0"])
        hid = L.fc([w, prev], H, act="tanh", param_attr=[pa("dw_x"), pa("dw_h")], bias_attr=pa("dw_b"))
        nacc = L.elementwise_add(acc, L.elementwise_mul(hid, ctx))
        drnn.update_memory(prev, hid)
        drnn.update_memory(acc, nacc)
        drnn.output(hid, nacc)
    return list(drnn())


case("dynamic_rnn", [("x", [-1, 4], "float32", 1), ("c", [3, H], "float32", 0), ("h0", [3, H], "float32", 0)],
     {"x": (X, LENS), "c": (rs.randn(3, H).astype("float32"), None), "h0": (rs.randn(3, H).astype("float32"), None)},
     _drnn, params={"dw_x": rs.randn(4, H).astype("float32"), "dw_h": rs.randn(H, H).astype("float32"),
                    "dw_b": rs.randn(H).astype("float32")})

_nb = np.sort(rs.uniform(0, 1, (2, 6, 2, 2)), axis=2).transpose(0, 1, 3, 2).reshape(2, 6, 4)[:, :, [0, 2, 1, 3]]
NMS_B = np.concatenate([_nb[..., :2], _nb[..., 2:]], -1).astype("float32")
NMS_S = rs.uniform(0, 1, (2, 3, 6)).astype("float32")
for _k, (_nt, _kt, _eta) in {"a": (-1, -1, 1.0), "b": (3, 4, 1.0), "c": (-1, 2, 0.7)}.items():
    case(f"multiclass_nms_{_k}", [("b", [2, 6, 4], "float32", 0), ("s", [2, 3, 6], "float32", 0)],
         {"b": (NMS_B, None), "s": (NMS_S, None)},
         lambda L, F, v, pa, _nt=_nt, _kt=_kt, _eta=_eta: [L.multiclass_nms(v["b"], v["s"], 0.2, _nt, _kt, 0.4,
                                                                            nms_eta=_eta)])
case("multiclass_nms_empty", [("b", [2, 6, 4], "float32", 0), ("s", [2, 3, 6], "float32", 0)],
     {"b": (NMS_B, None), "s": (NMS_S, None)}, lambda L, F, v, pa: [L.multiclass_nms(v["b"], v["s"], 1.5, -1, -1)])

ROIS = np.array([[0.0, 0.0, 3.0, 2.0], [1.2, 0.6, 5.7, 3.4], [2.0, 1.0, 2.5, 1.2], [0.5, 0.5, 7.0, 5.0]], "float32")
roi_d = ([("img", [2, 4, 4, 6], "float32", 0), ("r", [-1, 4], "float32", 1)], {"img": (IMG, None), "r": (ROIS, [1, 3])})
case("roi_pool", *roi_d, lambda L, F, v, pa: [L.roi_pool(v["img"], v["r"], 2, 3, 0.8)])
case("roi_align", *roi_d, lambda L, F, v, pa: [L.roi_align(v["img"], v["r"], 2, 3, 0.8),
                                                L.roi_align(v["img"], v["r"], 3, 2, 0.5, sampling_ratio=2)])
case("im2sequence", *img_d, lambda L, F, v, pa: [L.im2sequence(v["img"], [2, 3], [2, 1], [1, 0, 0, 1])])
case("ctc_greedy_decoder", [("p", [-1, 4], "float32", 1)],
     {"p": (np.eye(4, dtype="float32")[[1, 1, 0, 2, 2, 3, 0, 0, 3, 1, 1]], [4, 3, 2, 2])},
     lambda L, F, v, pa: [L.ctc_greedy_decoder(v["p"], 0)])
case("warpctc", [("p", [-1, 5], "float32", 1), ("l", [-1, 1], "int32", 1)],
     {"p": (rs.randn(11, 5).astype("float32"), [4, 5, 2]),
      "l": (np.array([[1], [2], [3], [3], [4], [2]], "int32"), [2, 3, 1])},
     lambda L, F, v, pa: [L.warpctc(v["p"], v["l"])], atol=1e-4)
case("hsigmoid", [("a", [3, 5], "float32", 0), ("i", [3, 1], "int64", 0)],
     {"a": (A, None), "i": (np.array([[0], [5], [3]], "int64"), None)},
     lambda L, F, v, pa: [L.hsigmoid(v["a"], v["i"], 6, param_attr=pa("hs_w"), bias_attr=pa("hs_b"))],
     params={"hs_w": rs.randn(5, 5).astype("float32"), "hs_b": rs.randn(5, 1).astype("float32")})
case("linear_chain_crf", [("e", [-1, 4], "float32", 1), ("y", [-1, 1], "int64", 1)],
     {"e": (X, LENS), "y": (np.array([[0], [3], [1], [1], [2], [3]], "int64"), LENS)},
     lambda L, F, v, pa: [L.linear_chain_crf(v["e"], v["y"], param_attr=pa("crfw")),
                          L.crf_decoding(v["e"], param_attr=pa("crfw")),
                          L.crf_decoding(v["e"], param_attr=pa("crfw"), label=v["y"])],
     params={"crfw": rs.randn(6, 4).astype("float32")})
case("teacher_student_sigmoid_loss", [("a", [6, 1], "float32", 0), ("l", [6, 1], "float32", 0)],
     {"a": (A.reshape(-1)[:6].reshape(6, 1), None),
      "l": (np.array([[-2.0], [-0.5], [0.3], [1.7], [0.0], [1.0]], "float32"), None)},
     lambda L, F, v, pa: [L.teacher_student_sigmoid_loss(v["a"], v["l"])])
case("continuous_value_model", [("a", [3, 5], "float32", 0), ("c", [3, 2], "float32", 0)],
     {"a": (np.abs(A), None), "c": (np.ones((3, 2), "float32"), None)},
     lambda L, F, v, pa: [L.continuous_value_model(v["a"], v["c"]), L.continuous_value_model(v["a"], v["c"], False)])
case("anchor_generator", *fm_d, lambda L, F, v, pa: list(L.anchor_generator(v["f"], [32.0, 64.0], [0.5, 1.0, 2.0],
                                                                              stride=[8.0, 10.0], offset=0.4)))
case("density_prior_box", *fm_d, lambda L, F, v, pa: list(L.density_prior_box(
    v["f"], v["im"], [2, 1], [4.0, 8.0], [1.0, 2.0], clip=True)) + list(L.density_prior_box(
        v["f"], v["im"], [3], [6.0], [0.5], steps=[4.0, 5.0], offset=0.3, flatten_to_2d=True)))
_loc, _sc = rs.randn(3).astype("float32"), rs.uniform(0.5, 2, 3).astype("float32")
dist_d = ([("a", [3], "float32", 0), ("b", [3], "float32", 0), ("x", [3], "float32", 0)],
          {"a": (_loc, None), "b": (_sc, None), "x": (rs.randn(3).astype("float32"), None)})
case("dist_normal", *dist_d, lambda L, F, v, pa: [
    L.Normal(v["a"], v["b"]).entropy(), L.Normal(v["a"], v["b"]).log_prob(v["x"]),
    L.Normal(v["a"], v["b"]).kl_divergence(L.Normal(v["x"], L.elementwise_add(v["b"], v["b"])))])
case("dist_uniform", *dist_d, lambda L, F, v, pa: [
    L.Uniform(v["a"], L.elementwise_add(v["a"], v["b"])).entropy(),
    L.Uniform(v["a"], L.elementwise_add(v["a"], v["b"])).log_prob(L.elementwise_add(v["a"], L.scale(v["b"], 0.5)))])
case("dist_categorical", [("a", [2, 3], "float32", 0), ("b", [2, 3], "float32", 0)],
     {"a": (rs.randn(2, 3).astype("float32"), None), "b": (rs.randn(2, 3).astype("float32"), None)},
     lambda L, F, v, pa: [L.Categorical(v["a"]).entropy(), L.Categorical(v["a"]).kl_divergence(L.Categorical(v["b"]))])
case("dist_mvn", [("a", [3], "float32", 0), ("s", [3, 3], "float32", 0), ("b", [3], "float32", 0),
                  ("t", [3, 3], "float32", 0)],
     {"a": (_loc, None), "s": (np.diag(_sc).astype("float32"), None), "b": (_sc, None),
      "t": (np.diag(_sc[::-1] + 0.5).astype("float32"), None)},
     lambda L, F, v, pa: [L.MultivariateNormalDiag(v["a"], v["s"]).entropy(),
                          L.MultivariateNormalDiag(v["a"], v["s"]).kl_divergence(L.MultivariateNormalDiag(v["b"],
                                                                                                          v["t"]))])
case("polygon_box_transform", *img_d, lambda L, F, v, pa: [L.polygon_box_transform(v["img"])])
_pri = np.concatenate([NMS_B[0], NMS_B[1]], 0)[:8]
case("detection_output", [("loc", [2, 8, 4], "float32", 0), ("sc", [2, 8, 3], "float32", 0),
                          ("pb", [8, 4], "float32", 0), ("pv", [8, 4], "float32", 0)],
     {"loc": (rs.randn(2, 8, 4).astype("float32") * 0.2, None), "sc": (rs.randn(2, 8, 3).astype("float32") * 2, None),
      "pb": (_pri, None), "pv": (np.tile(np.array([[0.1, 0.1, 0.2, 0.2]], "float32"), (8, 1)), None)},
     lambda L, F, v, pa: [L.detection_output(v["loc"], v["sc"], v["pb"], v["pv"], score_threshold=0.2,
                                             nms_threshold=0.45)])
case("bipartite_match", [("d", [-1, 6], "float32", 1)],
     {"d": (rs.uniform(0, 1, (5, 6)).astype("float32") * (rs.uniform(0, 1, (5, 6)) > 0.2), [2, 3])},
     lambda L, F, v, pa: list(L.bipartite_match(v["d"])) + list(L.bipartite_match(v["d"], "per_prediction", 0.3)))
case("target_assign", [("x", [-1, 4, 2], "float32", 1), ("m", [2, 4], "int32", 0), ("ng", [-1, 1], "int32", 1)],
     {"x": (rs.randn(5, 4, 2).astype("float32"), [2, 3]),
      "m": (np.array([[0, -1, 1, -1], [2, 0, -1, -1]], "int32"), None),
      "ng": (np.array([[1], [2], [3]], "int32"), [1, 2])},
     lambda L, F, v, pa: list(L.target_assign(v["x"], v["m"], mismatch_value=7)))
