"""The fluid.layers names Paddle 1.8 took from its 2.0-alpha tensor API, with 1.8's signatures, plus cos_sim, mish
and mean_iou, in the format of cases18.py. Golden: tests/goldens/fluid18_alias.* (tools/oracle/rec_fluid18_layers.py).
The random ones (randint, randn, randperm) are checked by shape and dtype in tests/fluid/test_alias18.py."""

import numpy as np

rs = np.random.RandomState(18)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


A = rs.uniform(-0.9, 0.9, (3, 4)).astype("float32")
B = rs.uniform(-0.9, 0.9, (3, 4)).astype("float32")
C3 = rs.randn(2, 3, 4).astype("float32")
D3 = rs.randn(2, 4, 3).astype("float32")
SQ = rs.randn(4, 4).astype("float32")
V3 = rs.randn(4, 3).astype("float32")
W3 = rs.randn(4, 3).astype("float32")
IDX = np.array([2, 0, 3], "int64")
AB = ([("a", [3, 4], "float32", 0), ("b", [3, 4], "float32", 0)], {"a": (A, None), "b": (B, None)})
ONE_A = ([("a", [3, 4], "float32", 0)], {"a": (A, None)})


def unary(name, fn):
    case(name, *ONE_A, lambda L, F, v, pa: [fn(L, v["a"])])


for _n in ("acos", "asin", "atan", "erf", "t", "stanh"):
    unary(_n, lambda L, x, _n=_n: getattr(L, _n)(x))
unary("log1p", lambda L, x: L.log1p(L.abs(x)))
unary("clamp", lambda L, x: L.clamp(x, min=-0.3, max=0.5))
unary("flip", lambda L, x: L.flip(x, [0, 1]))
unary("roll", lambda L, x: L.roll(x, [1, -2], dims=[0, 1]))
unary("roll_flat", lambda L, x: L.roll(x, 3))
unary("log_softmax", lambda L, x: L.log_softmax(x, axis=0))
unary("logsumexp", lambda L, x: L.logsumexp(x, dim=[1], keepdim=True))
unary("logsumexp_all", lambda L, x: L.logsumexp(x))
unary("mish", lambda L, x: L.mish(L.scale(x, 30.0)))
unary("full_like", lambda L, x: L.full_like(x, 2.5))
unary("tril_triu", lambda L, x: L.elementwise_add(L.tril(x, -1), L.triu(x, 1)))
unary("unstack", lambda L, x: L.unstack(x, axis=1)[2])
case("addcmul", *AB, lambda L, F, v, pa: [L.addcmul(v["a"], v["b"], v["a"], value=0.5)])
case("allclose", *AB, lambda L, F, v, pa: [L.allclose(v["a"], v["a"]), L.allclose(v["a"], v["b"])])
case("elementwise_equal", *AB, lambda L, F, v, pa: [L.elementwise_equal(v["a"], v["a"])])
case("dist", *AB, lambda L, F, v, pa: [L.dist(v["a"], v["b"], p=3)])
case("cos_sim", *AB, lambda L, F, v, pa: [L.cos_sim(v["a"], v["b"])])
case("cos_sim_one_row", *AB, lambda L, F, v, pa: [L.cos_sim(v["a"], L.slice(v["b"], [0], [0], [1]))])
case("multiplex", [("a", [3, 4], "float32", 0), ("b", [3, 4], "float32", 0), ("i", [3, 1], "int32", 0)],
     {"a": (A, None), "b": (B, None), "i": (np.array([[1], [0], [1]], "int32"), None)},
     lambda L, F, v, pa: [L.multiplex([v["a"], v["b"]], v["i"])])
case("addmm", [("s", [4, 4], "float32", 0), ("v", [4, 3], "float32", 0), ("w", [4, 3], "float32", 0)],
     {"s": (SQ, None), "v": (V3, None), "w": (W3, None)},
     lambda L, F, v, pa: [L.addmm(v["s"], v["s"], v["s"], alpha=0.5, beta=2.0)])
case("cross_dot_trace_kron", [("v", [4, 3], "float32", 0), ("w", [4, 3], "float32", 0), ("s", [4, 4], "float32", 0)],
     {"v": (V3, None), "w": (W3, None), "s": (SQ, None)},
     lambda L, F, v, pa: [L.cross(v["v"], v["w"], dim=1), L.cross(v["v"], v["w"]), L.trace(v["s"], offset=1),
                          L.kron(v["v"], v["w"])])
case("bmm", [("c", [2, 3, 4], "float32", 0), ("d", [2, 4, 3], "float32", 0)], {"c": (C3, None), "d": (D3, None)},
     lambda L, F, v, pa: [L.bmm(v["c"], v["d"])])
case("index_select_sample", [("a", [3, 4], "float32", 0), ("i", [3], "int64", 0), ("j", [3, 2], "int64", 0)],
     {"a": (A, None), "i": (IDX, None), "j": (np.array([[0, 3], [1, 1], [2, 0]], "int64"), None)},
     lambda L, F, v, pa: [L.index_select(v["a"], v["i"], dim=1), L.index_sample(v["a"], v["j"])])
case("arange_linspace_full", [], {}, lambda L, F, v, pa: [L.arange(0, 10, 3, "int64"), L.arange(0.5, 2.0, 0.5, "float32"),
                                                          L.linspace(0, 1, 5, "float32"), L.full([2, 3], 1.5, dtype="float32")])
case("diag_embed", *ONE_A, lambda L, F, v, pa: [L.diag_embed(v["a"], offset=1)])
case("meshgrid", [("x", [3], "float32", 0), ("y", [2], "float32", 0)],
     {"x": (np.array([1, 2, 3], "float32"), None), "y": (np.array([4, 5], "float32"), None)},
     lambda L, F, v, pa: list(L.meshgrid([v["x"], v["y"]])))
case("nonzero", [("m", [3, 4], "float32", 0)], {"m": ((A > 0).astype("float32"), None)},
     lambda L, F, v, pa: [L.nonzero(v["m"])])
case("scatter_nd_and_add", [("a", [3, 4], "float32", 0), ("ix", [2, 1], "int64", 0), ("u", [2, 4], "float32", 0)],
     {"a": (A, None), "ix": (np.array([[2], [0]], "int64"), None), "u": (B[:2], None)},
     lambda L, F, v, pa: [L.scatter_nd(v["ix"], v["u"], [3, 4]), L.scatter_nd_add(v["a"], v["ix"], v["u"])])
case("mean_iou", [("p", [8], "int32", 0), ("l", [8], "int32", 0)],
     {"p": (np.array([0, 1, 1, 2, 2, 2, 0, 3], "int32"), None), "l": (np.array([0, 1, 2, 2, 2, 1, 1, 3], "int32"), None)},
     lambda L, F, v, pa: list(L.mean_iou(v["p"], v["l"], 5)))
case("temporal_shift_unfold", [("x", [4, 4, 3, 3], "float32", 0)], {"x": (rs.randn(4, 4, 3, 3).astype("float32"), None)},
     lambda L, F, v, pa: [L.temporal_shift(v["x"], 2, 0.25), L.unfold(v["x"], [2, 2], strides=1)])
case("losses", [("p", [4, 1], "float32", 0), ("y", [4, 1], "float32", 0)],
     {"p": (np.array([[0.1], [0.8], [0.6], [0.3]], "float32"), None),
      "y": (np.array([[0.0], [1.0], [1.0], [0.0]], "float32"), None)},
     lambda L, F, v, pa: [L.log_loss(v["p"], v["y"])])
case("shard_index", [("i", [4, 1], "int64", 0)], {"i": (np.array([[1], [6], [12], [19]], "int64"), None)},
     lambda L, F, v, pa: [L.shard_index(v["i"], 20, 2, 0), L.shard_index(v["i"], 20, 2, 1, ignore_value=-5)])
