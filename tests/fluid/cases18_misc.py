"""fluid.layers cases for center_loss, hash, similarity_focus, filter_by_instag, sampled_softmax_with_cross_entropy
(customized samples: deterministic) and inplace_abn, in the format of cases18.py (numpy only, python 3.8: real
Paddle 1.8.5 imports it too). Golden: tests/goldens/fluid18_misc.* (tools/oracle/rec_fluid18_layers.py)."""

import numpy as np

rs = np.random.RandomState(1818)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


# --- center_loss: the loss and the centers after the in-forward update (fetched by the parameter's name) -------
CL_X = rs.randn(5, 3).astype("float32")
CL_LBL = np.array([[0], [2], [0], [3], [2]], "int64")
CL_C = rs.randn(4, 3).astype("float32")


def _center(update, alpha):
    def build(L, F, v, pa):
        a = alpha if isinstance(alpha, float) else L.fill_constant([1], "float32", alpha[0])
        loss = L.center_loss(v["x"], v["lbl"], 4, a, pa("cl_c"), update_center=update)
        return [loss, F.default_main_program().global_block().var("cl_c")]
    return build


for _u in (True, False):
    case("center_loss_update" if _u else "center_loss_fixed",
         [("x", [5, 3], "float32", 0), ("lbl", [5, 1], "int64", 0)], {"x": (CL_X, None), "lbl": (CL_LBL, None)},
         _center(_u, 0.3), params={"cl_c": CL_C})
case("center_loss_alpha_var", [("x", [5, 3], "float32", 0), ("lbl", [5, 1], "int64", 0)],
     {"x": (CL_X, None), "lbl": (CL_LBL, None)}, _center(True, (0.7,)), params={"cl_c": CL_C})


# --- hash: Paddle's XXH64 values (row bytes of 8, 12, 36, 40 bytes cover every XXH64 code path) ----------------
def _hash(size, num_hash):
    def build(L, F, v, pa):
        try:
            return [L.hash(v["h"], size, num_hash=num_hash)]
        except TypeError:
            # Paddle 1.8.5's layer rejects every hash_size in its own type check (check_type with a list of
            # strings); record its hash op directly
            from paddle.fluid.layer_helper import LayerHelper

            helper = LayerHelper("hash")
            out = helper.create_variable_for_type_inference(v["h"].dtype, stop_gradient=True)
            helper.append_op(type="hash", inputs={"X": v["h"]}, outputs={"Out": out},
                             attrs={"num_hash": num_hash, "mod_by": size})
            return [out]
    return build


for _dt, _d, _size, _nh in (("int32", 2, 1000, 2), ("int64", 2, 10 ** 6, 1), ("int32", 3, 97, 3),
                            ("int32", 9, 12345, 2), ("int64", 5, 2 ** 40, 2), ("int64", 1, 7, 4)):
    _h = rs.randint(-10 ** 6, 10 ** 6, (4, _d)).astype(_dt)
    case(f"hash_{_dt}_d{_d}_n{_nh}", [("h", [4, _d], _dt, 0)], {"h": (_h, None)}, _hash(_size, _nh))


# --- similarity_focus (distinct values: Paddle's sort has no tie order) --------------------------------------
SF_X = rs.permutation(2 * 3 * 4 * 5).reshape(2, 3, 4, 5).astype("float32") / 10.0
for _axis, _idx in ((1, [0]), (1, [0, 2]), (2, [1, 3]), (3, [4])):
    case(f"similarity_focus_axis{_axis}_{len(_idx)}", [("x", [2, 3, 4, 5], "float32", 0)], {"x": (SF_X, None)},
         lambda L, F, v, pa, _a=_axis, _i=_idx: [L.similarity_focus(v["x"], _a, _i)])


# --- filter_by_instag ---------------------------------------------------------------------------------------
FI_X = rs.randn(6, 2).astype("float32")
FI_TAG = np.array([[1], [2], [3], [4], [1], [5]], "int64")
for _lod in (True, False):
    for _ft, _tag in ((np.array([1, 4], "int64"), "hit"), (np.array([9], "int64"), "empty")):
        _x = FI_X if _lod else FI_X[:4]
        _tl = [2, 1, 3] if _lod else [2, 1, 2, 1]
        case(f"filter_by_instag_{'lod' if _lod else 'rows'}_{_tag}",
             [("x", [-1, 2], "float32", 1 if _lod else 0), ("t", [-1, 1], "int64", 1), ("f", [-1], "int64", 0)],
             {"x": (_x, [2, 1, 3] if _lod else None), "t": (FI_TAG, _tl), "f": (_ft, None)},
             lambda L, F, v, pa, _l=_lod: list(L.filter_by_instag(v["x"], v["t"], v["f"], _l, out_val_if_empty=7)))


# --- sampled_softmax_with_cross_entropy with customized samples ----------------------------------------------
SS_LOGITS = rs.randn(3, 8).astype("float32")
SS_LBL = np.array([[1], [5], [0]], "int64")
SS_SAMPLES = np.concatenate([SS_LBL, np.array([[1, 3, 6, 7]] * 3, "int64")], axis=1)  # row 0 hits its label
SS_PROBS = rs.uniform(0.1, 0.9, (3, 5)).astype("float32")
for _rah in (True, False):
    case(f"sampled_softmax_custom_{'rm' if _rah else 'keep'}",
         [("lg", [3, 8], "float32", 0), ("lbl", [3, 1], "int64", 0), ("s", [3, 5], "int64", 0),
          ("p", [3, 5], "float32", 0)],
         {"lg": (SS_LOGITS, None), "lbl": (SS_LBL, None), "s": (SS_SAMPLES, None), "p": (SS_PROBS, None)},
         lambda L, F, v, pa, _r=_rah: [L.sampled_softmax_with_cross_entropy(
             v["lg"], v["lbl"], 4, remove_accidental_hits=_r, use_customized_samples=True,
             customized_samples=v["s"], customized_probabilities=v["p"])], atol=1e-4)


# --- inplace_abn: the output and the moving statistics after one training step -------------------------------
ABN_X = rs.randn(2, 3, 2, 2).astype("float32")


def _abn(act, is_test):
    def build(L, F, v, pa):
        y = L.inplace_abn(v["x"], act=act, is_test=is_test, param_attr=pa("abn_s"), bias_attr=pa("abn_b"),
                          moving_mean_name="abn_m", moving_variance_name="abn_v", act_alpha=0.2)
        blk = F.default_main_program().global_block()
        return [y, blk.var("abn_m"), blk.var("abn_v")]
    return build


for _act in (None, "leaky_relu", "elu"):
    for _t in (False, True):
        case(f"inplace_abn_{_act}_{'test' if _t else 'train'}", [("x", [2, 3, 2, 2], "float32", 0)],
             {"x": (ABN_X, None)}, _abn(_act, _t),
             params={"abn_s": rs.uniform(0.5, 1.5, 3).astype("float32"), "abn_b": rs.randn(3).astype("float32")},
             atol=1e-4)
