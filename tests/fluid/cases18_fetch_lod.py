"""Which fetched variables carry LoD, and which LoD (Executor.run(return_numpy=False)): one program of
LoD-keeping, LoD-making and LoD-consuming ops over 1- and 2-level feeds. Shared by the Paddle 1.8.5 recorder
(tools/oracle/rec_fetch_lod18.py) and tests/fluid/test_fetch_lod.py."""

import numpy as np


def build(fluid):
    """-> {name: Variable} to fetch."""
    L = fluid.layers
    w = fluid.data("w", [None, 1], "int64", lod_level=1)
    w2 = fluid.data("w2", [None, 1], "int64", lod_level=2)
    y = fluid.data("y", [None, 3], "float32", lod_level=1)
    e = L.embedding(w, [10, 3])
    e2 = L.embedding(w2, [10, 3])
    c = L.sequence_conv(e, 4, 3)
    pooled = L.sequence_pool(c, "sum")
    return {
        "embedding": e, "embedding_2level": e2, "sequence_conv": c, "fc_tanh": L.fc(c, 2, act="tanh"),
        "sequence_softmax": L.sequence_softmax(L.fc(c, 1)), "sequence_pool": pooled,
        "expand_of_pooled": L.sequence_expand(pooled, y), "expand_as": L.sequence_expand_as(pooled, y),
        "elementwise_add": L.elementwise_add(e, e), "sequence_reverse": L.sequence_reverse(e),
        "mean": L.mean(c), "pool_2level": L.sequence_pool(e2, "max"), "data": w, "dense_of_lod": L.reshape(e, [-1]),
    }


def feed(fluid):
    place = fluid.CPUPlace()
    return {"w": fluid.create_lod_tensor(np.arange(5).reshape(5, 1).astype("int64"), [[2, 3]], place),
            "w2": fluid.create_lod_tensor(np.arange(6).reshape(6, 1).astype("int64"), [[2, 1], [1, 2, 3]], place),
            "y": fluid.create_lod_tensor(np.ones((4, 3), "float32"), [[1, 3]], place)}
