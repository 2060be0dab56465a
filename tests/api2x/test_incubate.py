"""paddle.incubate: the gradients at ties against Paddle 2.6.2 (tools/oracle/incubate26_cases.py; the op rows of
tests/ops/rows_incubate.py check values and smooth gradients), and the random neighbor sampling."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("incubate26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "incubate26")


def _graph():
    import paddle

    # node i's neighbors: row[colptr[i]:colptr[i + 1]]; node 0 has 6 neighbors, node 1 has 2
    row = paddle.to_tensor([1, 2, 3, 4, 5, 6, 0, 2], dtype="int64")
    colptr = paddle.to_tensor([0, 6, 8, 8, 8, 8, 8, 8], dtype="int64")
    return row, colptr


def test_sample_neighbors_is_uniform_without_replacement():
    import paddle

    row, colptr = _graph()
    paddle.seed(0)
    hits = np.zeros(7)
    for _ in range(600):
        nb, count = paddle.incubate.graph_sample_neighbors(row, colptr, paddle.to_tensor([0, 1], dtype="int64"),
                                                           sample_size=3)
        assert count.numpy().tolist() == [3, 2]
        first = nb.numpy()[:3]
        assert len(set(first)) == 3 and set(first) <= {1, 2, 3, 4, 5, 6}
        assert sorted(nb.numpy()[3:]) == [0, 2]
        hits[first] += 1
    np.testing.assert_allclose(hits[1:] / 600, 0.5, atol=0.08)  # each neighbor in 3 of 6 draws
    nb, count, eids = paddle.incubate.graph_sample_neighbors(row, colptr, paddle.to_tensor([0], dtype="int64"),
                                                             eids=paddle.arange(8) * 10, sample_size=2,
                                                             return_eids=True)
    np.testing.assert_array_equal(row.numpy()[eids.numpy() // 10], nb.numpy())
    with pytest.raises(ValueError, match="`eids` should not be None"):
        paddle.incubate.graph_sample_neighbors(row, colptr, paddle.to_tensor([0], dtype="int64"), return_eids=True)


def test_khop_sampler_reindexes_what_it_samples():
    import paddle

    row, colptr = _graph()
    paddle.seed(1)
    src, dst, nodes, idx = paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([1], dtype="int64"), [2, 2])
    n = nodes.numpy()
    assert n[0] == 1 and idx.numpy().tolist() == [0] and len(set(n)) == len(n)
    edges = {(int(n[s]), int(n[d])) for s, d in zip(src.numpy().reshape(-1), dst.numpy().reshape(-1))}
    graph = {(int(r), c) for c in range(7) for r in row.numpy()[colptr.numpy()[c]:colptr.numpy()[c + 1]]}
    assert edges <= graph and {(0, 1), (2, 1)} <= edges and sum(1 for e in edges if e[1] == 0) == 2


def test_static_mode_records_incubate_ops():
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 3], "float32")
        ids = paddle.static.data("ids", [4], "int64")
        out = paddle.incubate.segment_mean(x, ids)
        assert list(out.shape) == [-1, 3]
    exe = paddle.static.Executor(paddle.CPUPlace())
    got = exe.run(main, feed={"x": np.ones([4, 3], "float32"), "ids": np.array([0, 0, 2, 2])}, fetch_list=[out])[0]
    np.testing.assert_allclose(got, [[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    with pytest.raises(ValueError, match="segment_ids should be sorted"):
        exe.run(main, feed={"x": np.ones([4, 3], "float32"), "ids": np.array([2, 0, 0, 1])}, fetch_list=[out])
