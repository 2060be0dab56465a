"""The padded (length-based) forms of fluid 1.8's sequence losses and decoders: ctc_greedy_decoder(input_length=),
warpctc(input_length=, label_length=), linear_chain_crf(length=), crf_decoding(length=), with gradients, and
im2sequence over padded images (input_image_size=, out_stride=), in the format of cases18.py. Golden: tests/goldens/fluid18_padded.* (tools/oracle/rec_fluid18_layers.py)."""

import numpy as np

rs = np.random.RandomState(1808)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


# --- ctc_greedy_decoder: [B, T, C] probabilities and [B, 1] lengths -> ([B, T] padded ids, [B, 1] lengths) -------
CG_X = rs.rand(3, 6, 4).astype("float32")
CG_X[0, :, 0] += 0.6  # mostly blanks
CG_X[1, 1:3, 2] += 2.0  # a repeat to merge
CG_LEN = np.array([[6], [4], [1]], "int64")


def _greedy(pad):
    def build(L, F, v, pa):
        return list(L.ctc_greedy_decoder(v["x"], 0, input_length=v["n"], padding_value=pad))
    return build


for _pad in (0, -1):
    case(f"ctc_greedy_padded_pad{_pad}", [("x", [3, 6, 4], "float32", 0), ("n", [3, 1], "int64", 0)],
         {"x": (CG_X, None), "n": (CG_LEN, None)}, _greedy(_pad))


# --- warpctc: time-major logits [T, B, C], labels [B, Lmax], lengths [B] -> loss [B, 1] and d(sum)/d(logits) -----
WC_X = rs.randn(6, 2, 5).astype("float32")
WC_LAB = np.array([[1, 2, 2], [3, 1, 0]], "int32")
WC_XLEN = np.array([6, 4], "int64")
WC_LLEN = np.array([3, 2], "int64")


def _warpctc(norm):
    def build(L, F, v, pa):
        x = v["x"]
        x.stop_gradient = False
        loss = L.warpctc(x, v["lab"], blank=0, norm_by_times=norm, input_length=v["xl"], label_length=v["ll"])
        return [loss, F.gradients([L.reduce_sum(loss)], [x])[0]]
    return build


for _norm in (False, True):
    case(f"warpctc_padded_norm{int(_norm)}",
         [("x", [6, 2, 5], "float32", 0), ("lab", [2, 3], "int32", 0), ("xl", [2], "int64", 0),
          ("ll", [2], "int64", 0)],
         {"x": (WC_X, None), "lab": (WC_LAB, None), "xl": (WC_XLEN, None), "ll": (WC_LLEN, None)}, _warpctc(_norm))


# --- linear_chain_crf / crf_decoding with length: emission [B, T, D], label [B, T, 1], length [B, 1] ------------
CRF_E = rs.randn(3, 4, 3).astype("float32")
CRF_LAB = rs.randint(0, 3, (3, 4, 1)).astype("int64")
CRF_LEN = np.array([[4], [2], [3]], "int64")
CRF_T = (rs.randn(5, 3) * 0.5).astype("float32")
CRF_DATA = [("e", [3, 4, 3], "float32", 0), ("lab", [3, 4, 1], "int64", 0), ("n", [3, 1], "int64", 0)]
CRF_FEED = {"e": (CRF_E, None), "lab": (CRF_LAB, None), "n": (CRF_LEN, None)}


def _crf(L, F, v, pa):
    e = v["e"]
    e.stop_gradient = False
    nll = L.linear_chain_crf(e, v["lab"], param_attr=pa("crfw"), length=v["n"])
    (ge,) = F.gradients([L.reduce_sum(nll)], [e])
    return [nll, ge, L.crf_decoding(e, pa("crfw"), length=v["n"]),
            L.crf_decoding(e, pa("crfw"), label=v["lab"], length=v["n"])]


case("crf_padded", CRF_DATA, CRF_FEED, _crf, params={"crfw": CRF_T})


# --- im2sequence over padded images: input_image_size [B, 2] real (h, w), out_stride -------------------------------
IM_X = rs.randn(2, 2, 6, 7).astype("float32")
IM_SIZE = np.array([[6, 7], [4, 5]], "float32")


def _im2seq(**kw):
    def build(L, F, v, pa):
        return [L.im2sequence(v["im"], filter_size=[2, 3], stride=[1, 2], padding=[0, 1],
                              input_image_size=v["sz"], **kw)]
    return build


for _name, _kw in {"im2sequence_image_size": {}, "im2sequence_out_stride": {"out_stride": [2, 1]}}.items():
    case(_name, [("im", [2, 2, 6, 7], "float32", 0), ("sz", [2, 2], "float32", 0)],
         {"im": (IM_X, None), "sz": (IM_SIZE, None)}, _im2seq(**_kw))
