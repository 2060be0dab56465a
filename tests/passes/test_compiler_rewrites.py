"""The compiler path's own graph rewrites (engine/static/compiler.py, after the BuildStrategy passes):
- the narrowing of values to the positions read (engine/passes/read_positions.py): a transformer layer read at one
  position computes that position only from its attention on, and trains as the plain Executor does; what is read
  whole, fetched or drawn at random stays whole;
- the projections of one input as one GEMM (engine/passes/fuse_multi_linear.py fuse_projections)."""

from __future__ import annotations

import os
import sys
from collections import Counter

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from _programs import three_steps  # noqa: E402

SHAPE = (2, 4, 8)  # batch, positions, hidden


def _encoder(read, normalize_before=False, dropout=0.0, fetch_whole=False, also_whole=False):
    """One paddle.nn.TransformerEncoderLayer on [2, 4, 8], `read(paddle, h)` of its output into an fc, a loss."""
    def build(paddle, x):
        h = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=dropout, normalize_before=normalize_before)(x)
        loss = (paddle.static.nn.fc(read(paddle, h), 3) ** 2).mean()
        if also_whole:
            loss = loss + h.mean()
        return (loss, [h]) if fetch_whole else loss
    return build


def _first(paddle, h):
    return h[:, 0]


def _last(paddle, h):
    return h[:, -1]


def _two(paddle, h):
    return paddle.reshape(paddle.slice(h, axes=[1], starts=[1], ends=[3]), [-1, 16])


def _by_index_tensor(paddle, h):
    """Positions chosen by an index tensor of the program: not a constant window."""
    return paddle.reshape(h[:, paddle.full([1], 2, "int64")], [-1, 8])


def _plain_and_compiled(build, monkeypatch) -> tuple:
    """The losses of three steps of `build` plain and on the compiler path (dynamo's eager backend), and the graph
    the compiler path compiled."""
    from paddle_compat.engine.static import compile_backend

    graphs = []
    real = compile_backend.compile_graph

    def spy(gm, backend, device):
        graphs.append(gm)
        return real(gm, backend, device)

    monkeypatch.setattr(compile_backend, "compile_graph", spy)
    plain = three_steps(build, None, SHAPE)
    compiled = three_steps(build, "eager", SHAPE)
    (gm,) = graphs
    return plain, compiled, gm


# the layer's 8 products: q, k, v projections, q k^T, weights v, output projection, two feed-forward ones; narrowed:
# all but k's and v's projections. Its layer norms: both after the attention (post-norm), or the feed-forward
# block's only (pre-norm: the first one's output is read by k's and v's projections)
LAYER = {"matmul_v2": 6, "softmax": 1, "layer_norm": 2, "transpose2": 2, "reshape2": 2, "scale": 1, "relu": 1}
PRE_NORM = dict(LAYER, layer_norm=1)


@pytest.mark.parametrize("build,window,narrowed", [
    (_encoder(_first), (1, 0, 1), LAYER),
    (_encoder(_first, normalize_before=True), (1, 0, 1), PRE_NORM),
    (_encoder(_last), (1, 3, 1), LAYER),
    (_encoder(_two), (1, 1, 2), LAYER),
    (_encoder(_by_index_tensor), None, {}),
    (_encoder(_first, also_whole=True), None, {}),  # the output read whole as well
    (_encoder(_first, fetch_whole=True), None, {}),  # the output fetched
    # the feed-forward block ends in a dropout, which draws random numbers: the last residual add and layer norm only
    (_encoder(_first, dropout=0.5), (1, 0, 1), {"layer_norm": 1, "elementwise_add": 1, "dropout": 0, "matmul_v2": 0}),
], ids=["first", "pre_norm", "last", "slice_of_two", "index_tensor", "read_whole", "fetched", "dropout"])
def test_narrowed_ops_and_losses(build, window, narrowed, monkeypatch):
    plain, compiled, gm = _plain_and_compiled(build, monkeypatch)
    got = [n for n in gm.graph.nodes if n.meta.get("narrowed")]
    counts = Counter(n.meta["op_type"] for n in got)
    assert {k: counts[k] for k in narrowed} == narrowed, counts
    assert {n.meta["narrowed"][1:] for n in got} == ({window[1:]} if window else set())
    if any(n.meta.get("op_type") == "dropout" for n in gm.graph.nodes):
        return  # random numbers drawn by other generators
    np.testing.assert_allclose(np.concatenate(compiled), np.concatenate(plain), rtol=1e-5)
    assert not np.array_equal(plain[0], plain[2])  # the steps trained


def _two_layers(paddle, x):
    """Two encoder layers, read at position 0: the first layer's q / k / v projections read one input, the second's
    k / v (its q is narrowed to the position read)."""
    layer = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    return (paddle.static.nn.fc(paddle.nn.TransformerEncoder(layer, 2)(x)[:, 0], 3) ** 2).mean()


def _different_inputs(paddle, x):
    """Two projections of different inputs, and one projection of x: nothing to fuse."""
    a, b = paddle.nn.Linear(8, 8), paddle.nn.Linear(8, 8)
    return (a(x) * b(paddle.tanh(x))).mean()


@pytest.mark.parametrize("build,groups", [(_two_layers, [3, 2]), (_different_inputs, [])],
                         ids=["two_layers", "different_inputs"])
def test_projections_of_one_input_as_one_gemm(build, groups, monkeypatch):
    """Each group of projections of one input is one concat_linear node (its weights' count), the matmuls it replaces
    gone; three training steps give the plain Executor's losses."""
    plain, compiled, gm = _plain_and_compiled(build, monkeypatch)
    fused = [n for n in gm.graph.nodes if n.meta.get("op_type") == "concat_linear"]
    assert [len(n.args[1]) for n in fused] == groups
    assert sum(n.meta.get("op_type") == "matmul_v2" for n in gm.graph.nodes if n.args and n.args[0] in
               {f.args[0] for f in fused}) == 0
    np.testing.assert_allclose(np.concatenate(compiled), np.concatenate(plain), rtol=1e-5)
    assert not np.array_equal(plain[0], plain[2])
