"""fluid.layers.chunk_eval for the IOB, IOE, IOBES and plain schemes (LoD and padded with seq_length), with excluded
chunk types, in the format of cases18.py. Golden: tests/goldens/fluid18_chunk.* (tools/oracle/rec_fluid18_layers.py)."""

import numpy as np

rs = np.random.RandomState(7)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-6):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


for _scheme, _ntag in (("IOB", 2), ("IOE", 2), ("IOBES", 4), ("plain", 1)):
    _top = 3 * _ntag  # 3 chunk types; the top value is "other"
    _gold = rs.randint(0, _top + 1, (20, 1)).astype("int64")
    _pred = np.where(rs.rand(20, 1) < 0.7, _gold, rs.randint(0, _top + 1, (20, 1))).astype("int64")
    for _excl in ((), (1,)):
        case(f"chunk_{_scheme}_lod{'_excl' if _excl else ''}",
             [("p", [-1, 1], "int64", 1), ("g", [-1, 1], "int64", 1)],
             {"p": (_pred, [6, 9, 5]), "g": (_gold, [6, 9, 5])},
             lambda L, F, v, pa, s=_scheme, e=_excl: list(L.chunk_eval(v["p"], v["g"], s, 3,
                                                                       excluded_chunk_types=list(e) or None)))
    case(f"chunk_{_scheme}_padded", [("p", [2, 10], "int64", 0), ("g", [2, 10], "int64", 0), ("n", [2], "int64", 0)],
         {"p": (_pred.reshape(2, 10), None), "g": (_gold.reshape(2, 10), None), "n": (np.array([10, 7], "int64"), None)},
         lambda L, F, v, pa, s=_scheme: list(L.chunk_eval(v["p"], v["g"], s, 3, seq_length=v["n"])))
