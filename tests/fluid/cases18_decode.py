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
