"""engine/core/gemm.py: which products run on oneDNN (non-Intel CPUs, float32 CPU, at least GEMM_MIN multiply-adds
without a gradient recorded or under torch.compile, there also from SKINNY_MIN elements read and written,
TRAIN_GEMM_MIN multiply-adds with a gradient in eager) and that either way they are torch.matmul's values to rounding,
in torch.matmul's shape, and so are their gradients, a double backward's and torch.compile's; the layers and ops that
multiply by a weight (F.linear, matmul, fluid mul) take the route."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paddle_compat.engine.core import gemm
from tests.conftest import assert_close_scaled

ONEDNN = torch.backends.mkldnn.is_available()
BIG = (64, 384, 384)  # 9.4M multiply-adds, over GEMM_MIN
HUGE = (128, 768, 1152)  # 113M multiply-adds, over TRAIN_GEMM_MIN
SKINNY = (2, 768, 3072)  # 4.7M multiply-adds, under GEMM_MIN, but 2.4M elements read and written, over SKINNY_MIN


def _xw(m: int, k: int, n: int, dtype=torch.float32, lead: tuple = ()) -> tuple:
    g = torch.Generator().manual_seed(3)
    return torch.randn(*lead, m, k, generator=g).to(dtype), torch.randn(k, n, generator=g).to(dtype)


# case -> (x and w, whether the grad mode records, whether oneDNN takes it)
ROUTES = {
    "2-D": (lambda: _xw(*BIG), False, True),
    "3-D input": (lambda: _xw(32, 384, 384, lead=(2,)), False, True),
    "non-contiguous input": (lambda: (_xw(384, 64, 384)[0].t(), _xw(*BIG)[1]), False, True),
    "transposed weight view": (lambda: (_xw(*BIG)[0], _xw(*BIG)[1].t().contiguous().t()), False, True),
    "small": (lambda: _xw(8, 64, 64), False, False),
    "skinny, eager": (lambda: _xw(*SKINNY), False, False),  # SKINNY_MIN holds under torch.compile only
    "float64": (lambda: _xw(*BIG, dtype=torch.float64), False, False),
    "batched weight": (lambda: (_xw(*BIG)[0].expand(2, -1, -1), _xw(*BIG)[1].expand(2, -1, -1)), False, False),
    "gradient recorded": (lambda: tuple(t.requires_grad_() for t in _xw(*BIG)), True, False),
    "gradient recorded, large": (lambda: tuple(t.requires_grad_() for t in _xw(*HUGE)), True, True),
    "gradient recorded, large, 3-D": (lambda: tuple(t.requires_grad_() for t in _xw(64, 768, 1152, lead=(2,))),
                                      True, True),
}


@pytest.mark.skipif(not ONEDNN, reason="torch without oneDNN")
@pytest.mark.parametrize("case", sorted(ROUTES))
def test_which_products_run_on_onednn(case, monkeypatch):
    make, grad, onednn = ROUTES[case]
    monkeypatch.setattr(gemm, "ONEDNN", [True])
    calls = _counted(monkeypatch)
    x, w = make()
    with torch.set_grad_enabled(grad):
        got = gemm.dense(x, w)
    want = torch.matmul(x.detach(), w.detach())
    assert bool(calls) == onednn
    assert got.shape == want.shape and got.dtype == want.dtype and got.is_contiguous()
    assert_close_scaled(got, want, 1e-5)
    if grad:
        got.sum().backward()
        assert x.grad is not None and w.grad is not None


# (x [..., K], w [K, N]) whose products need gradients: the weight's gradient x^T @ g on oneDNN where N > K, else aten
GRADS = {
    "N > K": lambda: _xw(*HUGE),
    "N < K": lambda: _xw(128, 1152, 768),
    "3-D input": lambda: _xw(64, 768, 1152, lead=(2,)),
    "transposed weight view": lambda: (_xw(*HUGE)[0], _xw(128, 1152, 768)[1].t()),
}


@pytest.mark.skipif(not ONEDNN, reason="torch without oneDNN")
@pytest.mark.parametrize("case", sorted(GRADS))
def test_training_products_differentiate_as_matmul(case, monkeypatch):
    """The custom op's gradients, and the gradients of those (a double backward through its own backward), are
    torch.matmul's to rounding; a bias added in place to the product (F.linear) is allowed."""
    monkeypatch.setattr(gemm, "ONEDNN", [True])
    calls = _counted(monkeypatch)
    x, w = (t.requires_grad_() for t in GRADS[case]())
    g = torch.randn(*x.shape[:-1], w.shape[1], generator=torch.Generator().manual_seed(5))
    grads = {}
    for route in ("onednn", "aten"):
        y = gemm.dense(x, w) if route == "onednn" else torch.matmul(x, w)
        y.add_(1.0)
        first = torch.autograd.grad(y, (x, w), g, create_graph=True)
        second = torch.autograd.grad(sum((t * t).sum() for t in first), (x, w))
        grads[route] = (y, *first, *second)
        if route == "onednn":  # the forward and the input's gradient, twice, and the weight's where N > K
            assert len(calls) >= 3
    for got, want in zip(grads["onednn"], grads["aten"]):
        assert got.shape == want.shape
        assert_close_scaled(got, want, 1e-4)


# (x and w, whether they need gradients, oneDNN calls a compiled step makes: the forward, and in training the input's
# gradient; the weight's gradient only where N > K and over GEMM_MIN or SKINNY_MIN)
INDUCTOR = {
    "inference": (lambda: _xw(*HUGE), False, 1),
    "training, large": (lambda: _xw(*HUGE), True, 3),
    "training, below TRAIN_GEMM_MIN": (lambda: _xw(*BIG), True, 2),
    "training, small": (lambda: _xw(8, 64, 64), True, 0),
    "training, skinny": (lambda: _xw(*SKINNY), True, 3),
    "inference, skinny": (lambda: _xw(*SKINNY), False, 1),
    "inference, below SKINNY_MIN": (lambda: _xw(2, 512, 512), False, 0),
}


@pytest.mark.skipif(not ONEDNN, reason="torch without oneDNN")
@pytest.mark.parametrize("case", sorted(INDUCTOR))
def test_products_under_inductor(case, monkeypatch):
    """Under torch.compile (inductor, the compiler path's backend) the product is the custom op from GEMM_MIN, with a
    gradient or without: inductor has no lowering for oneDNN's linear on a plain weight (a compiled inference program
    failed on it), and the op's backward is traced into the compiled graph, so it costs no eager autograd round trip
    (hence no TRAIN_GEMM_MIN there)."""
    import torch._dynamo

    make, grad, onednn_calls = INDUCTOR[case]
    monkeypatch.setattr(gemm, "ONEDNN", [True])
    calls = _counted(monkeypatch)
    torch._dynamo.reset()
    x, w = (t.requires_grad_(grad) for t in make())
    fn = torch.compile(lambda x, w: torch.relu(gemm.dense(x, w)).sum(), backend="inductor", fullgraph=True)
    with torch.set_grad_enabled(grad):
        got = fn(x, w)
        got_g = torch.autograd.grad(got, (x, w)) if grad else ()
    assert len(calls) == onednn_calls
    want = torch.relu(torch.matmul(x, w)).sum()
    torch.testing.assert_close(got, want, rtol=1e-4, atol=0)
    for a, b in zip(got_g, torch.autograd.grad(want, (x, w)) if grad else ()):
        assert_close_scaled(a, b, 1e-4)


def _counted(monkeypatch) -> list:
    """gemm's oneDNN call, counted."""
    calls, real = [], gemm._onednn
    monkeypatch.setattr(gemm, "_onednn", lambda x, w: calls.append(1) or real(x, w))
    return calls


def test_the_route_is_off_where_switched_off(monkeypatch):
    monkeypatch.setattr(gemm, "ONEDNN", [False])
    x, w = _xw(*BIG)
    with torch.no_grad():
        assert torch.equal(gemm.dense(x, w), torch.matmul(x, w))


@pytest.mark.parametrize("env,vendor,want", [
    ("", "GenuineIntel", False), ("", "AuthenticAMD", ONEDNN), ("", "", False),
    ("mkl", "AuthenticAMD", False), ("onednn", "GenuineIntel", ONEDNN), ("ONEDNN ", "", ONEDNN),
])
def test_the_decision_by_vendor_and_environment(env, vendor, want, monkeypatch):
    """Intel CPUs keep MKL's sgemm (Paddle's bits there); other known vendors take oneDNN; PADDLE_COMPAT_GEMM decides
    where set."""
    monkeypatch.setenv("PADDLE_COMPAT_GEMM", env)
    monkeypatch.setattr(gemm, "cpu_vendor", lambda: vendor)
    assert gemm._decide() is want


@pytest.mark.skipif(not ONEDNN, reason="torch without oneDNN")
@pytest.mark.parametrize("api", ["F.linear", "paddle.matmul", "paddle.matmul transpose_y", "fluid.layers.mul",
                                 "nn.Linear"])
def test_inference_products_take_the_route_and_training_keeps_aten(api, monkeypatch):
    """In inference the product runs on oneDNN, with matmul's values to rounding; with gradients, below
    TRAIN_GEMM_MIN, it is aten's."""
    import paddle

    monkeypatch.setattr(gemm, "ONEDNN", [False])  # the reference: aten's product
    paddle.disable_static()
    rng = np.random.RandomState(0)
    x = rng.standard_normal((2, 32, 384)).astype("float32")
    w = rng.standard_normal((384, 384)).astype("float32")
    b = rng.standard_normal(384).astype("float32")
    lin = paddle.nn.Linear(384, 384)
    lin.weight.set_value(w)
    lin.bias.set_value(b)
    run = {
        "F.linear": lambda xt, wt: paddle.nn.functional.linear(xt, wt, paddle.to_tensor(b)),
        "paddle.matmul": lambda xt, wt: paddle.matmul(xt, wt),
        "paddle.matmul transpose_y": lambda xt, wt: paddle.matmul(xt, wt.t(), transpose_y=True),
        "fluid.layers.mul": lambda xt, wt: paddle.fluid.layers.mul(xt.reshape([64, 384]), wt),
        "nn.Linear": lambda xt, wt: lin(xt),
    }[api]
    with paddle.no_grad():
        want = run(paddle.to_tensor(x), paddle.to_tensor(w)).numpy()
    monkeypatch.setattr(gemm, "ONEDNN", [True])
    calls = _counted(monkeypatch)
    with paddle.no_grad():
        got = run(paddle.to_tensor(x), paddle.to_tensor(w)).numpy()
    assert calls
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
    calls.clear()
    xt = paddle.to_tensor(x, stop_gradient=False)
    wt = paddle.to_tensor(w, stop_gradient=False)
    run(xt, wt).sum().backward()
    assert not calls
