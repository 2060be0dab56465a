"""A 1x1 convolution of one group on a row-major CPU input runs as ATen's GEMM convolution (engine/ops/nn_functional/
conv.py torch_conv), Paddle's own CPU algorithm for it: forward, input gradient and filter gradient bit for bit as real
Paddle 2.6.2 computes them (tests/goldens/conv1x1_26, tools/oracle/rec_conv1x1_26.py), in dygraph and in a static
Program trained three steps (bit for bit on a CPU of the golden's vendor: tests/conftest.py assert_golden_bits).
Every other convolution keeps torch's F.conv2d, and so does a filter whose strides are
not row-major (torch 2.13's GEMM convolution gets that filter's gradient wrong), and, on a CPU where no kernel gives
Paddle's bits, a 1x1 convolution that oneDNN runs faster (engine/core/gemm.py conv1x1_onednn)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from tests.conftest import assert_close_scaled, assert_golden_bits, key, load_golden

META, GOLD = load_golden("conv1x1_26")


@pytest.mark.parametrize("i", range(len(META["cases"])), ids=[f"{c[0]}->{c[1]} s{c[2]} p{c[3]} {c[4]}"
                                                                for c in META["cases"]])
def test_dygraph_1x1_convolution_is_paddles_bit_for_bit(i):
    import paddle

    paddle.disable_static()
    _, _, stride, padding, _ = META["cases"][i]
    x = paddle.to_tensor(GOLD[f"x{i}"], stop_gradient=False)
    w = paddle.to_tensor(GOLD[f"w{i}"], stop_gradient=False)
    y = paddle.nn.functional.conv2d(x, w, stride=stride, padding=padding)
    (y * paddle.to_tensor(GOLD[f"g{i}"])).sum().backward()
    for got, want in ((y, "y"), (x.grad, "gx"), (w.grad, "gw")):
        assert_golden_bits(got.numpy(), GOLD[f"{want}{i}"], META, want)


def test_static_program_of_1x1_convolutions_trains_as_paddle():
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 16, 8, 8], "float32")
        h = paddle.nn.functional.relu(paddle.static.nn.conv2d(x, 32, 1, bias_attr=False))
        h = paddle.static.nn.conv2d(h, 8, 1, stride=2, bias_attr=False)
        loss = paddle.mean(h * h)
        paddle.optimizer.Momentum(0.1, 0.9).minimize(loss)
    exe, scope = paddle.static.Executor(paddle.CPUPlace()), paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for name in ("conv2d_0.w_0", "conv2d_1.w_0"):
            scope.find_var(name).get_tensor().set(GOLD[key("init", name)], paddle.CPUPlace())
        losses = [exe.run(main, feed={"x": xb}, fetch_list=[loss])[0] for xb in GOLD["xs"]]
        assert_golden_bits(np.array(losses).reshape(-1), GOLD["losses"].reshape(-1), META, "losses")
        for name in ("conv2d_0.w_0", "conv2d_1.w_0"):
            assert_golden_bits(np.array(scope.find_var(name).get_tensor()), GOLD[key("final", name)], META, name)


def _channels_last(t):
    return torch.empty_like(t, memory_format=torch.channels_last).copy_(t)


# (case, x, filter, groups, stride, padding, route): "gemm" when torch_conv takes the GEMM convolution on every CPU,
# "aten" when it never does, "cpu" when it does unless this CPU's rule sends it to oneDNN (engine/core/gemm.py
# conv1x1_onednn: few output pixels and many multiply-adds, on a CPU where no kernel gives Paddle's bits)
ROUTES = [
    ("1x1", lambda: torch.randn(2, 6, 5, 5), lambda: torch.randn(4, 6, 1, 1), 1, [1, 1], [0, 0], "gemm"),
    ("1x1 strided, padded", lambda: torch.randn(2, 6, 5, 5), lambda: torch.randn(4, 6, 1, 1), 1, [2, 2], [1, 1],
     "gemm"),
    ("1x1 float64", lambda: torch.randn(2, 6, 5, 5, dtype=torch.float64),
     lambda: torch.randn(4, 6, 1, 1, dtype=torch.float64), 1, [1, 1], [0, 0], "gemm"),
    ("1x1 7x7 out, 51M MACs", lambda: torch.randn(4, 256, 7, 7), lambda: torch.randn(1024, 256, 1, 1), 1, [1, 1],
     [0, 0], "cpu"),
    ("1x1 stride 2 to 7x7, 103M MACs", lambda: torch.randn(4, 512, 14, 14), lambda: torch.randn(1024, 512, 1, 1), 1,
     [2, 2], [0, 0], "cpu"),
    ("1x1 7x7 out, 51M MACs, float64", lambda: torch.randn(4, 256, 7, 7, dtype=torch.float64),
     lambda: torch.randn(1024, 256, 1, 1, dtype=torch.float64), 1, [1, 1], [0, 0], "gemm"),
    ("1x1 14x14 out, 51M MACs", lambda: torch.randn(4, 128, 14, 14), lambda: torch.randn(512, 128, 1, 1), 1, [1, 1],
     [0, 0], "gemm"),
    ("1x1 4x4 out, 14M MACs", lambda: torch.randn(16, 96, 4, 4), lambda: torch.randn(576, 96, 1, 1), 1, [1, 1],
     [0, 0], "gemm"),
    ("3x3", lambda: torch.randn(2, 6, 5, 5), lambda: torch.randn(4, 6, 3, 3), 1, [1, 1], [1, 1], "aten"),
    ("1x1 grouped", lambda: torch.randn(2, 6, 5, 5), lambda: torch.randn(6, 3, 1, 1), 2, [1, 1], [0, 0], "aten"),
    ("channels-last input", lambda: _channels_last(torch.randn(2, 6, 5, 5)), lambda: torch.randn(4, 6, 1, 1), 1,
     [1, 1], [0, 0], "aten"),
    ("channels-last filter", lambda: torch.randn(2, 6, 5, 5), lambda: _channels_last(torch.randn(4, 6, 1, 1)), 1,
     [1, 1], [0, 0], "aten"),
]


@pytest.mark.parametrize("onednn", [False, True], ids=["mkl-cpu", "onednn-cpu"])
@pytest.mark.parametrize("case,make_x,make_w,groups,stride,padding,route", ROUTES, ids=[r[0] for r in ROUTES])
def test_which_convolutions_take_the_gemm_form(case, make_x, make_w, groups, stride, padding, route, onednn,
                                               monkeypatch):
    """The route, on an Intel CPU (mkl-cpu: Paddle's bits) and on one where the GEMM decision is oneDNN's, and either
    way the values and both gradients of torch's F.conv2d (to rounding: the two kernels add in other orders), also
    through a double backward."""
    from paddle_compat.engine.core import gemm
    from paddle_compat.engine.ops.nn_functional.conv import torch_conv

    monkeypatch.setattr(gemm, "ONEDNN", [onednn])
    calls = []
    real = torch._C._nn.thnn_conv2d
    monkeypatch.setattr(torch._C._nn, "thnn_conv2d", lambda *a: calls.append(1) or real(*a))
    torch.manual_seed(0)
    x, w = make_x().requires_grad_(), make_w().requires_grad_()
    y = torch_conv(2, x, w, stride, padding, [1, 1], groups)
    assert bool(calls) is (route == "gemm" or (route == "cpu" and not onednn))
    ref = F.conv2d(x, w, None, stride, padding, 1, groups)
    g = torch.randn_like(ref)
    got, want = torch.autograd.grad(y, (x, w), g, create_graph=True), torch.autograd.grad(ref, (x, w), g,
                                                                                          create_graph=True)
    assert_close_scaled(y, ref, 1e-5)
    for a, b in zip(got, want):
        assert_close_scaled(a, b, 1e-5)
    second = torch.autograd.grad(sum((t * t).sum() for t in got), (x, w))
    second_ref = torch.autograd.grad(sum((t * t).sum() for t in want), (x, w))
    for a, b in zip(second, second_ref):
        assert_close_scaled(a, b, 1e-4)
