"""The dense weight gradient of a large embedding table goes into a buffer kept per table (engine/ops/nn_functional/
input.py, _TableGrad): the same bits as torch's own embedding backward, and a buffer is written again only when
nothing holds the gradient it gave out."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
import torch

from paddle_compat.engine.framework.registry import OPS
from paddle_compat.engine.ops.nn_functional import input as inp

VOCAB, DIM = 4096, 256  # float32: exactly _KEPT_GRAD_MIN_BYTES


def _lookup(ids, weight, padding_idx=None):
    return OPS["lookup_table_v2"].impl(ids, weight, padding_idx)


def _grad(ids, weight, dout, padding_idx=None):
    return torch.autograd.grad(_lookup(ids, weight, padding_idx), [weight], dout)[0]


def _reference(ids, weight, dout, padding_idx=None):
    """torch's embedding backward (embedding_dense_backward), the padding rows' output gradient dropped as the op's
    mask does."""
    w = weight.detach().clone().requires_grad_()
    out = torch.nn.functional.embedding(ids, w)
    if padding_idx is not None:
        out = out * (ids != padding_idx % weight.shape[0]).unsqueeze(-1).to(out.dtype)
    return torch.autograd.grad(out, [w], dout)[0]


CASES = [  # ids shape, repeated id, padding_idx, dtype
    ((64,), True, None, torch.float32),
    ((4, 16), True, None, torch.float32),
    ((2, 3, 8), False, None, torch.float32),
    ((4, 16), True, 5, torch.float32),
    ((4, 16), True, -1, torch.float32),
    ((4, 16), True, None, torch.float64),
]


@pytest.mark.parametrize("shape,repeat,padding_idx,dtype", CASES)
def test_gradient_bits_are_torchs(shape, repeat, padding_idx, dtype):
    g = torch.Generator().manual_seed(0)
    weight = torch.randn(VOCAB, DIM, dtype=dtype, generator=g).requires_grad_()
    ids = torch.randint(0, VOCAB, shape, generator=g)
    if repeat:  # one id many times: the sum of its rows in the ids' order
        ids.view(-1)[: ids.numel() // 2] = 5
    dout = torch.randn(*shape, DIM, dtype=dtype, generator=g)
    for _ in range(2):  # a new buffer, then the kept one
        got = _grad(ids, weight, dout, padding_idx)
        assert inp._KEPT.get(weight) is not None  # the kept-buffer path ran
        assert torch.equal(got, _reference(ids, weight, dout, padding_idx))
        del got


def test_small_table_keeps_torchs_kernel():
    weight = torch.randn(VOCAB // 2, DIM).requires_grad_()  # half the threshold
    _grad(torch.arange(8), weight, torch.ones(8, DIM))
    assert inp._KEPT.get(weight) is None


def _same_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


HOLDERS = {  # how a caller may keep the gradient of one step past the next
    "the tensor": lambda g: g,
    "a view": lambda g: g[10:20],
    "a list": lambda g: [g],
    "param.grad": None,  # autograd's AccumulateGrad keeps it (dygraph)
}


def _held(keeper) -> torch.Tensor:
    return keeper[0] if isinstance(keeper, list) else keeper


@pytest.mark.parametrize("holder", list(HOLDERS))
def test_a_held_gradient_is_never_written(holder):
    weight = torch.zeros(VOCAB, DIM).requires_grad_()
    first_ids, next_ids = torch.tensor([10, 11, 12]), torch.tensor([13, 14, 15])
    dout = torch.ones(3, DIM)
    if HOLDERS[holder] is None:
        _lookup(first_ids, weight).backward(dout)
        keeper = weight.grad
    else:
        keeper = HOLDERS[holder](_grad(first_ids, weight, dout))
    value = _held(keeper).clone()  # only the keeper holds the gradient from here
    second = _grad(next_ids, weight, dout)
    assert not _same_storage(second, _held(keeper))
    assert torch.equal(_held(keeper), value)
    assert torch.equal(second, _reference(next_ids, weight, dout))


def test_a_released_gradient_buffer_is_reused():
    weight = torch.zeros(VOCAB, DIM).requires_grad_()
    dout = torch.ones(3, DIM)
    first = _grad(torch.tensor([1, 2, 3]), weight, dout)
    ptr = first.untyped_storage().data_ptr()
    del first
    second = _grad(torch.tensor([4, 5, 6]), weight, dout)
    assert second.untyped_storage().data_ptr() == ptr  # no new memory
    assert torch.equal(second, _reference(torch.tensor([4, 5, 6]), weight, dout))  # the old rows zeroed


def test_threads_differentiating_one_table_each_get_their_own_gradient():
    """Replicas of a data-parallel run on threads share a table: a buffer one thread was handed is never another's."""
    import threading

    weight = torch.zeros(VOCAB, DIM).requires_grad_()
    start, wrong = threading.Barrier(4), []

    def work(k: int) -> None:
        ids, dout = torch.tensor([k, k + 4, k + 8]), torch.full((3, DIM), float(k + 1))
        want = _reference(ids, weight, dout)
        start.wait()
        for _ in range(30):
            got = _grad(ids, weight, dout)
            if not torch.equal(got, want):
                wrong.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong


def test_create_graph_gives_a_differentiable_gradient():
    weight = torch.randn(VOCAB, DIM, dtype=torch.float64).requires_grad_()
    ids = torch.tensor([3, 3, 7])
    dout = torch.randn(3, DIM, dtype=torch.float64).requires_grad_()
    (g,) = torch.autograd.grad(_lookup(ids, weight), [weight], dout, create_graph=True)
    assert g.requires_grad and torch.equal(g, _reference(ids, weight, dout.detach()))
    (gg,) = torch.autograd.grad(g[3].sum(), [dout])  # row 3 sums the first two lookups' output gradients
    assert torch.equal(gg, torch.tensor([[1.0] * DIM, [1.0] * DIM, [0.0] * DIM], dtype=torch.float64))


@contextlib.contextmanager
def _static_session():
    """(main program, loss, the table's name, executor, scope) of a large-table SGD program, its startup run."""
    import paddle

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
            ids = paddle.static.data("ids", [4], "int64")
            emb = paddle.nn.Embedding(VOCAB, DIM)
            loss = paddle.mean(emb(ids) * paddle.arange(DIM, dtype="float32"))
            paddle.optimizer.SGD(0.5).minimize(loss)
        exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            paddle.seed(1)
            exe.run(startup)
            yield main, loss, emb.weight.name, exe, scope
    finally:
        paddle.disable_static()


def test_static_fetched_gradient_survives_the_next_run():
    """exe.run's gradient fetched with return_numpy=False and kept: the next run writes another buffer."""
    with _static_session() as (main, loss, wname, exe, _):
        feed = {"ids": np.array([1, 2, 2, 3], "int64")}
        (held,) = exe.run(main, feed=feed, fetch_list=[wname + "@GRAD"], return_numpy=False)
        before = np.array(held).copy()
        assert before[2].sum() != 0 and before[5].sum() == 0
        exe.run(main, feed={"ids": np.array([5, 6, 7, 8], "int64")}, fetch_list=[loss])
        np.testing.assert_array_equal(np.array(held), before)


def _training_losses(backend) -> tuple:
    """Three SGD steps of a large-table program: plain, or on the compiler path with `backend`."""
    import torch._dynamo

    import paddle

    with _static_session() as (main, loss, wname, exe, scope):
        prog = paddle.static.CompiledProgram(main)._with_compiler(backend) if backend else main
        torch._dynamo.reset()
        torch._dynamo.utils.counters.clear()
        losses = [exe.run(prog, feed={"ids": np.array([i, 2, 2, 9], "int64")}, fetch_list=[loss])[0]
                  for i in range(3)]
        return np.concatenate(losses), np.array(scope.find_var(wname).get_tensor())


def test_compiler_path_leaves_the_lookup_outside_its_graphs():
    """Under torch.compile the lookup runs eagerly (engine/core/eager_kernels.py: a graph break, the kept buffer's
    state out of the graph), and three steps give the plain Executor's losses and table."""
    import torch._dynamo

    plain = _training_losses(None)
    compiled = _training_losses("eager")
    assert torch._dynamo.utils.counters["graph_break"], "the lookup was traced into the graph"
    np.testing.assert_allclose(compiled[0], plain[0], rtol=1e-6)
    np.testing.assert_allclose(compiled[1], plain[1], rtol=1e-6)
