"""Full sums and means in Paddle's own order of additions (engine/core/eigen_reduce.py), bit for bit against real 2.6.2
(paddle.sum / paddle.mean / Tensor methods, dygraph and static) and 1.8.5 (fluid.layers.mean / reduce_mean), from
tests/goldens/eigen_reduce{26,18} recorded on tests/ops/cases_eigen_reduce.py."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.conftest import load_golden, replay_run
from tests.ops import cases_eigen_reduce as C


@pytest.mark.parametrize("golden", ["eigen_reduce26", "eigen_reduce18"])
def test_full_reductions_match_paddle_bits(golden):
    got, want = replay_run(C, golden)
    assert sorted(got) == sorted(want)
    for k, v in got.items():
        w = want[k].reshape(1) if want[k].shape == () else want[k]  # 2.6's 0-D result is [1] here, as in 2.4
        assert v.dtype == w.dtype and v.shape == w.shape, (k, v.dtype, v.shape)
        np.testing.assert_array_equal(v, w, err_msg=k)


def test_the_goldens_tell_the_orders_apart():
    """torch's own cascade sums miss Paddle's bits on most of these sizes: the test above checks the order."""
    _, want = load_golden("eigen_reduce26")
    xs = C.inputs()
    differ = [k for k, x in xs.items() if float(torch.from_numpy(x).sum()) != float(want[f"sum_{k}"])]
    assert len(differ) > len(xs) // 2, differ


@pytest.mark.parametrize("n", [37, 70001], ids=["settled", "one pass"])  # 70001: eigen_reduce._FullReduce
@pytest.mark.parametrize("fn", ["sum", "mean"])
def test_gradient_is_unchanged(fn, n):
    import paddle

    x = paddle.to_tensor(np.linspace(-1, 1, n).astype("float32"), stop_gradient=False)
    getattr(paddle, fn)(x * 3).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(n, 3.0 / (n if fn == "mean" else 1), "float32"))
    t = torch.tensor(np.linspace(-1, 1, n).astype("float32"), requires_grad=True)
    getattr(torch, fn)(t * 3).backward()  # torch's own SumBackward / MeanBackward, bit for bit
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("kind", ["sum", "mean"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_one_pass_gives_the_settled_value(kind, dtype):
    """A large tensor's reduction computes Paddle's value once (reduce_full) instead of torch's then settle's."""
    from paddle_compat.engine.core import eigen_reduce as E

    x = torch.randn(E._ONE_PASS + 13, dtype=dtype, generator=torch.Generator().manual_seed(2)) * 50 + 1
    want = E.settle(getattr(torch, kind)(x), x, kind)
    for got in (E.reduce_full(x, kind), E.reduce_full(x.clone().requires_grad_(), kind)):
        assert got.shape == want.shape and got.dtype == want.dtype and torch.equal(got.detach(), want)


@pytest.mark.parametrize("dtype", ["float16", "int32", "int64", "bool"])
def test_other_dtypes_keep_torch_kernels(dtype):
    import paddle

    x = paddle.to_tensor(np.arange(20).astype(dtype))
    assert float(paddle.sum(x).numpy()[0]) == float(np.arange(20).astype(dtype).sum())


@pytest.mark.parametrize("numpy_rows", [0, 10 ** 9], ids=["torch", "numpy"])
@pytest.mark.parametrize("count, width, dtype", [(1, 8, "float32"), (3, 16, "float32"), (300, 8, "float32"),
                                                 (77, 4, "float64"), (1000, 1, "float32")])
def test_rows_are_added_one_after_another(monkeypatch, numpy_rows, count, width, dtype):
    """Every way of adding rows in order (numpy's outer-axis reduce; beyond it embedding_bag's bag sum, or for float64
    torch's cumsum) gives a loop's bits."""
    from paddle_compat.engine.core import eigen_reduce as E

    monkeypatch.setattr(E, "_NUMPY_ROWS", numpy_rows)
    rows = (np.random.RandomState(count).randn(count, width) * 1000).astype(dtype)
    want = np.zeros(width, dtype)
    for r in rows:
        want = want + r
    np.testing.assert_array_equal(E._in_order(rows), want)


@pytest.mark.parametrize("api", ["paddle.mean", "paddle.fluid.layers.mean"])
@pytest.mark.parametrize("memory_optimize", [False, True])
def test_a_training_programs_loss_keeps_paddles_bits(memory_optimize, api):
    """The loss of a program trained through a CompiledProgram, memory_optimize's lean mean included."""
    import paddle

    _, want = load_golden("eigen_reduce26")
    x = C.inputs()["float32_100003"]  # torch's own mean differs here
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            v = paddle.static.data("x", [x.size], "float32")
            w = paddle.create_parameter([x.size], "float32", default_initializer=paddle.nn.initializer.Constant(1.0))
            loss = eval(api, {"paddle": paddle})(v * w)
            paddle.optimizer.SGD(0.0).minimize(loss)
        bs = paddle.static.BuildStrategy()
        bs.memory_optimize = memory_optimize
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prog = paddle.static.CompiledProgram(main, build_strategy=bs)
        got, = exe.run(prog, feed={"x": x}, fetch_list=[loss])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(got, want["mean_float32_100003"].reshape(1))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("tree", [True, False], ids=["sum", "mean"])
def test_one_leaf_path_is_the_general_order(dtype, tree):
    """settle's one-leaf path (`_leaf_sum`, few numpy calls) gives full_sum's bits at every size up to one leaf, across
    the tail, odd-packet and pair boundaries."""
    from paddle_compat.engine.core import eigen_reduce as E

    lanes = 32 // np.dtype(dtype).itemsize
    top = E._LEAF_ELEMS[np.dtype(dtype).itemsize]
    sizes = sorted(set(range(1, 6 * lanes)) | {top - lanes - 1, top - 1, top} | {k * 2 * lanes + d for k in (7, 64, 200)
                                                                                for d in (-1, 0, 1, lanes, lanes + 3)})
    for n in sizes:
        a = (np.random.RandomState(n).randn(n) * 10.0 ** (n % 7)).astype(dtype)
        got, want = E._leaf_sum(a, tree), E.full_sum(torch.from_numpy(a), tree)
        assert type(got) is type(want) and got.tobytes() == want.tobytes(), n


@pytest.mark.parametrize("view", ["neg bit, contiguous", "neg bit, strided", "strided"])
def test_views_are_read_as_their_values(view):
    """settle reads a contiguous tensor's memory directly: a negative-bit view (torch._neg_view, the imaginary part
    of a conjugate) and a strided view give the sums of the values they show."""
    from paddle_compat.engine.core import eigen_reduce as E

    base = torch.linspace(1, 9, 37)
    v = {"neg bit, contiguous": torch._neg_view(base),
         "neg bit, strided": torch.complex(base, base).conj().imag,
         "strided": torch.linspace(1, 9, 74)[::2]}[view]
    values = v.resolve_neg().contiguous()
    want = E.full_sum(values, tree=True)
    got = E.settle(torch.sum(values), v, "sum")
    assert float(got) == float(want) and (float(got) < 0) == view.startswith("neg"), (float(got), float(want))
