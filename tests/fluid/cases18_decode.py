"""fluid.layers cases for dynamic_lstmp and beam_search / beam_search_decode, in the format of cases18.py (numpy
only, python 3.8: real Paddle 1.8.5 imports it too). Golden: tests/goldens/fluid18_decode.* (recorded with
tools/oracle/rec_fluid18_layers.py cases18_decode fluid18_decode). fluid.layers.lstm has no goldens: Paddle 1.8.5
has no CPU kernel for cudnn_lstm (tests/fluid/test_decode18.py checks it against torch.nn.LSTM instead)."""

import numpy as np

rs = np.random.RandomState(1819)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


def set_param(L, F, name, arr):
    """Overwrite a parameter made with a default initializer: an assign at the end of the startup program."""
    sp = F.default_startup_program()
    with F.program_guard(sp):
        L.assign(arr, output=sp.global_block().var(name))


# --- dynamic_lstmp: hidden 3, projection 2; three sequences of lengths 2, 3, 1 -----------------------------------
H, PJ = 3, 2
LP_LENS = [2, 3, 1]
LP_X = rs.randn(6, 4 * H).astype("float32")
LP_W = (rs.randn(PJ, 4 * H) * 0.5).astype("float32")
LP_PW = (rs.randn(H, PJ) * 0.5).astype("float32")
LP_B7 = (rs.randn(1, 7 * H) * 0.5).astype("float32")
LP_H0 = rs.randn(3, PJ).astype("float32")
LP_C0 = rs.randn(3, H).astype("float32")


def _lstmp(peep=True, rev=False, acts=("sigmoid", "tanh", "tanh", "tanh"), clips=(None, None), init=False):
    def build(L, F, v, pa):
        kw = {}
        if init:
            kw = {"h_0": v["h0"], "c_0": v["c0"]}
        r, c = L.dynamic_lstmp(v["x"], 4 * H, PJ, use_peepholes=peep, is_reverse=rev, gate_activation=acts[0],
                               cell_activation=acts[1], candidate_activation=acts[2], proj_activation=acts[3],
                               cell_clip=clips[0], proj_clip=clips[1], **kw)
        set_param(L, F, "lstmp_0.w_0", LP_W)
        set_param(L, F, "lstmp_0.w_1", LP_PW)
        set_param(L, F, "lstmp_0.b_0", LP_B7 if peep else LP_B7[:, :4 * H])
        return [r, c]
    return build


_LP_DATA = [("x", [-1, 4 * H], "float32", 1), ("h0", [-1, PJ], "float32", 0), ("c0", [-1, H], "float32", 0)]
_LP_FEED = {"x": (LP_X, LP_LENS), "h0": (LP_H0, None), "c0": (LP_C0, None)}
case("lstmp_peep_fwd", _LP_DATA, _LP_FEED, _lstmp())
case("lstmp_peep_rev", _LP_DATA, _LP_FEED, _lstmp(rev=True))
case("lstmp_nopeep_fwd", _LP_DATA, _LP_FEED, _lstmp(peep=False))
case("lstmp_init_states", _LP_DATA, _LP_FEED, _lstmp(init=True))
case("lstmp_init_states_rev", _LP_DATA, _LP_FEED, _lstmp(init=True, rev=True))
case("lstmp_acts_relu_proj", _LP_DATA, _LP_FEED, _lstmp(acts=("sigmoid", "relu", "tanh", "identity")))
case("lstmp_acts_proj_relu", _LP_DATA, _LP_FEED, _lstmp(acts=("sigmoid", "tanh", "relu", "relu")))
case("lstmp_clips", _LP_DATA, _LP_FEED, _lstmp(clips=(0.3, 0.2)))


# --- beam_search: two sources (rows 0-1 and 2-3), end_id 0; row 1 has already ended --------------------------------
BS_PRE_IDS = np.array([[5], [0], [3], [4]], "int64")
BS_PRE_SC = np.array([[-0.5], [-0.7], [-1.0], [-0.2]], "float32")
BS_IDS = np.array([[2, 7, 0], [1, 4, 6], [0, 3, 8], [9, 1, 2]], "int64")
BS_SC = np.array([[-0.9, -1.2, -0.6], [-2.0, -0.3, -1.5], [-1.1, -1.1, -3.0], [-0.4, -0.8, -1.1]], "float32")
BS_PROB = np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.25, 0.25, 0.5], [0.7, 0.2, 0.1]], "float32")
_BS_DATA = [("pre_ids", [-1, 1], "int64", 1), ("pre_sc", [-1, 1], "float32", 1), ("ids", [-1, 3], "int64", 1),
            ("sc", [-1, 3], "float32", 1)]


def _bs_feed(sc, pre_ids=BS_PRE_IDS, lens=(2, 2)):
    lens = list(lens)
    return {"pre_ids": (pre_ids, lens), "pre_sc": (BS_PRE_SC, lens), "ids": (BS_IDS, lens), "sc": (sc, lens)}


def _bs(beam, acc=True, no_ids=False, parent=False):
    def build(L, F, v, pa):
        return list(L.beam_search(v["pre_ids"], v["pre_sc"], None if no_ids else v["ids"], v["sc"], beam, 0,
                                  is_accumulated=acc, return_parent_idx=parent))
    return build


case("beam_search_acc_b2", _BS_DATA, _bs_feed(BS_SC), _bs(2, parent=True))
case("beam_search_acc_b3", _BS_DATA, _bs_feed(BS_SC), _bs(3))
case("beam_search_prob_b2", _BS_DATA, _bs_feed(BS_PROB), _bs(2, acc=False, parent=True))
case("beam_search_no_ids", _BS_DATA, _bs_feed(BS_SC), _bs(2, no_ids=True))
case("beam_search_one_source", _BS_DATA, _bs_feed(BS_SC, lens=(4,)), _bs(3, parent=True))
case("beam_search_pruned", _BS_DATA, _bs_feed(BS_SC, pre_ids=np.array([[0], [0], [3], [4]], "int64")),
     _bs(2, parent=True))


# --- two unrolled beam_search steps, then beam_search_decode over the step arrays ---------------------------------
DEC_IDS1 = np.array([[3, 5, 0], [2, 6, 4]], "int64")
DEC_SC1 = np.array([[-0.2, -0.9, -1.3], [-0.5, -0.6, -2.0]], "float32")
DEC_IDS2 = np.array([[0, 7, 1], [8, 0, 2], [4, 3, 0], [1, 9, 5]], "int64")
DEC_SC2 = np.array([[-0.4, -1.0, -1.6], [-1.1, -1.2, -2.5], [-0.8, -0.9, -1.0], [-0.7, -1.5, -1.9]], "float32")
DEC_IDS3 = np.array([[6, 0, 2], [0, 3, 1], [5, 0, 4], [0, 2, 7]], "int64")
DEC_SC3 = np.array([[-1.0, -0.6, -2.0], [-0.45, -1.4, -1.5], [-1.0, -1.1, -1.2], [-0.9, -1.7, -2.1]], "float32")
_DEC_DATA = [("init_ids", [-1, 1], "int64", 1), ("init_sc", [-1, 1], "float32", 1)] + [
    (f"{k}{s}", [-1, 3], dt, 1) for s in (1, 2, 3) for k, dt in (("ids", "int64"), ("sc", "float32"))]
_DEC_FEED = {"init_ids": (np.array([[1], [1]], "int64"), [1, 1]),
             "init_sc": (np.zeros((2, 1), "float32"), [1, 1]),
             "ids1": (DEC_IDS1, [1, 1]), "sc1": (DEC_SC1, [1, 1]),
             "ids2": (DEC_IDS2, [2, 2]), "sc2": (DEC_SC2, [2, 2]),
             "ids3": (DEC_IDS3, [2, 2]), "sc3": (DEC_SC3, [2, 2])}


def _decode(steps, fetch_steps=False):
    def build(L, F, v, pa):
        pre_ids, pre_sc = v["init_ids"], v["init_sc"]
        ids_arr = L.create_array("int64")
        sc_arr = L.create_array("float32")
        outs = []
        for s in range(1, steps + 1):
            pre_ids, pre_sc = L.beam_search(pre_ids, pre_sc, v[f"ids{s}"], v[f"sc{s}"], 2, 0)
            i = L.fill_constant([1], "int64", s - 1)
            L.array_write(pre_ids, i, array=ids_arr)
            L.array_write(pre_sc, i, array=sc_arr)
            outs += [pre_ids, pre_sc] if fetch_steps else []
        return outs + list(L.beam_search_decode(ids_arr, sc_arr, 2, 0))
    return build


case("beam_search_decode_2steps", _DEC_DATA, _DEC_FEED, _decode(2, fetch_steps=True))
case("beam_search_decode_3steps", _DEC_DATA, _DEC_FEED, _decode(3, fetch_steps=True))
case("beam_search_decode_1step", _DEC_DATA, _DEC_FEED, _decode(1))


# --- decode helpers + BasicDecoder: initialize and two static steps with a deterministic cell -------------------
HB, HT, HD, HV = 3, 4, 5, 5
H_X = rs.randn(HB, HT, HD).astype("float32")
H_LENS = np.array([2, 4, 1], "int64")
H_EMB = rs.randn(HV, HD).astype("float32")
H_ST = rs.randn(HB, HD).astype("float32")
_H_DATA = [("x", [HB, HT, HD], "float32", 0), ("lens", [HB], "int64", 0), ("st", [HB, HD], "float32", 0),
           ("start", [HB], "int64", 0)]
_H_FEED = {"x": (H_X, None), "lens": (H_LENS, None), "st": (H_ST, None),
           "start": (np.array([1, 4, 0], "int64"), None)}


def _cell(L):
    def cell(inputs, states):
        out = L.elementwise_add(L.scale(inputs, 2.0), states)
        return out, L.elementwise_sub(states, L.scale(inputs, 0.5))
    return cell


def _helper_steps(kind, time_major=False):
    def build(L, F, v, pa):
        if kind == "training":
            x = L.transpose(v["x"], [1, 0, 2]) if time_major else v["x"]
            helper = L.TrainingHelper(x, v["lens"], time_major=time_major)
        else:
            def emb(ids):
                return L.embedding(L.unsqueeze(ids, [1]), [HV, HD], param_attr=pa("h_emb"))
            helper = L.GreedyEmbeddingHelper(emb, v["start"], 3)
        dec = L.BasicDecoder(_cell(L), helper)
        inputs, states, finished = dec.initialize(v["st"])
        outs = [inputs, finished]
        for t in range(2):
            o, states, inputs, finished = dec.step(L.fill_constant([1], "int64", t), inputs, states)
            outs += [o.cell_outputs, o.sample_ids, states, inputs, finished]
        return outs
    return build


case("helper_training_steps", _H_DATA, _H_FEED, _helper_steps("training"))
case("helper_training_time_major", _H_DATA, _H_FEED, _helper_steps("training", time_major=True))
case("helper_greedy_steps", _H_DATA, _H_FEED, _helper_steps("greedy"), params={"h_emb": H_EMB})


# --- lod_rank_table + reorder_lod_tensor_by_rank ------------------------------------------------------------------
RK_X = rs.randn(7, 2).astype("float32")
RK_Y = rs.randn(4, 3).astype("float32")


def _rank_table(L, x):
    # Paddle 1.8 keeps lod_rank_table in fluid.layers.control_flow (not re-exported by fluid.layers)
    fn = getattr(L, "lod_rank_table", None)
    if fn is None:
        import importlib
        fn = importlib.import_module("paddle.fluid.layers.control_flow").lod_rank_table
    return fn(x)


RK_Z = rs.randn(6, 3).astype("float32")
_RK_DATA = [("x", [-1, 2], "float32", 1), ("y", [-1, 3], "float32", 0), ("z", [-1, 3], "float32", 0)]
case("reorder_by_rank_seqs", _RK_DATA, {"x": (RK_X, [2, 3, 1, 1]), "y": (RK_Y, None), "z": (RK_Z, None)},
     lambda L, F, v, pa: [L.reorder_lod_tensor_by_rank(v["x"], _rank_table(L, v["x"]))])
case("reorder_by_rank_rows", _RK_DATA, {"x": (RK_X, [1, 3, 1, 2]), "y": (RK_Y, None), "z": (RK_Z, None)},
     lambda L, F, v, pa: [L.reorder_lod_tensor_by_rank(v["y"], _rank_table(L, v["x"]))])
case("reorder_by_rank_other_seqs", _RK_DATA, {"x": (RK_X, [1, 3, 1, 2]), "y": (RK_Y, None), "z": (RK_Z, None)},
     lambda L, F, v, pa: [L.reorder_lod_tensor_by_rank(L.lod_reset(v["z"], target_lod=[0, 2, 3, 4, 6]),
                                                       _rank_table(L, v["x"]))])
