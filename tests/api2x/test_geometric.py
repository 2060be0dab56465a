"""paddle.geometric against Paddle 2.6.2 (tools/oracle/geometric26_cases.py, golden geometric26); the samplers by
their properties (Paddle 2.6.2's CPU samplers abort without a perm buffer, so there is nothing to record)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases

ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2, 5]


@pytest.mark.parametrize("case", cases.params("geometric26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "geometric26", rtol=1e-6, atol=1e-6)


def _neighbors(n):
    return ROW[COLPTR[n]:COLPTR[n + 1]]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("size", [-1, 1, 2])
def test_samplers_draw_neighbors(weighted, size):
    import paddle

    G = paddle.geometric
    row, colptr = paddle.to_tensor(ROW, dtype="int64"), paddle.to_tensor(COLPTR, dtype="int64")
    nodes, eids = paddle.to_tensor(NODES, dtype="int64"), paddle.arange(len(ROW), dtype="int64")
    paddle.seed(3)
    if weighted:
        w = paddle.to_tensor([1.0] * len(ROW))
        nb, count, e = G.weighted_sample_neighbors(row, colptr, w, nodes, size, eids=eids, return_eids=True)
    else:
        nb, count, e = G.sample_neighbors(row, colptr, nodes, size, eids=eids, return_eids=True)
    nb, count, e = nb.numpy(), count.numpy(), e.numpy()
    start = 0
    for n, c in zip(NODES, count):
        deg = len(_neighbors(n))
        assert c == (deg if size < 0 else min(size, deg))
        got = nb[start:start + c]
        assert sorted(got.tolist()) == sorted(np.asarray(ROW)[e[start:start + c]].tolist())
        assert set(got.tolist()) <= set(_neighbors(n))
        start += c


def test_weighted_sampler_skips_zero_weights():
    import paddle

    w = np.ones(len(ROW), "float32")
    w[COLPTR[5]] = 0.0  # node 5's first edge (to 2) can never be drawn when one of two is sampled
    for seed in range(5):
        paddle.seed(seed)
        nb, _ = paddle.geometric.weighted_sample_neighbors(
            paddle.to_tensor(ROW, dtype="int64"), paddle.to_tensor(COLPTR, dtype="int64"), paddle.to_tensor(w),
            paddle.to_tensor([5], dtype="int64"), 1)
        assert nb.numpy().tolist() == [ROW[COLPTR[5] + 1]]


@pytest.mark.parametrize("call,match", [
    (lambda G, x, i: G.send_ue_recv(x, x, i, i, "pow"), "message_op should be"),
    (lambda G, x, i: G.send_u_recv(x, i, i, "prod"), "reduce_op should be"),
    (lambda G, x, i: G.send_uv(x, x, i, i, "max"), "message_op should be"),
])
def test_bad_ops_are_named(call, match):
    import paddle

    with pytest.raises(ValueError, match=match):
        call(paddle.geometric, paddle.ones([2, 2]), paddle.to_tensor([0, 1]))
