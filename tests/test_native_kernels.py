"""The native hard_swish gradient (engine/core/native/_views.cpp `hard_swish_grad`) against the Python form of the
same operations (engine/ops/common._HardSwish.backward with the native function off): the same bits, and it
declines (None) wherever the Python form must run. The Python form itself is checked against real Paddle's gradients
by tests/nn/test_act26_grads.py and tests/fluid/test_act18.py (which run with the native function on)."""

from __future__ import annotations

import pytest
import torch

from paddle_compat.engine.core import native
from paddle_compat.engine.ops import common

NATIVE = native.function("hard_swish_grad")
pytestmark = pytest.mark.skipif(NATIVE is None, reason="the native module is not built (tools/build_native.py)")

KINKS = [-3.0, 3.0, 2.9999998, -2.9999998, 0.0, -0.0, 6.0, float("nan"), float("inf"), -float("inf"), 1e-30]


def _python_form(g, x, attrs):
    prev = common._HSW_GRAD
    common._HSW_GRAD = None
    try:
        ctx = type("Ctx", (), {"saved_tensors": (x,), "attrs": attrs})()
        return common._HardSwish.backward(ctx, g)[0]
    finally:
        common._HSW_GRAD = prev


# name -> (x, g, (threshold, scale, offset))
def _cases():
    gen = torch.Generator().manual_seed(0)
    out = {}
    for dt in (torch.float32, torch.float64):
        x = torch.randn(4, 8, 17, 19, generator=gen, dtype=dt) * 4
        x.view(-1)[: len(KINKS)] = torch.tensor(KINKS, dtype=dt)
        g = torch.randn(x.shape, generator=gen, dtype=dt)
        name = str(dt).split(".")[1]
        out[f"{name} default"] = (x, g, (6.0, 6.0, 3.0))
        out[f"{name} other attrs"] = (x, g, (5.0, 4.0, 2.0))
        out[f"{name} non-contiguous"] = (x.transpose(1, 3), g.transpose(1, 3), (6.0, 6.0, 3.0))
        out[f"{name} empty"] = (x[:0], g[:0], (6.0, 6.0, 3.0))
    return out


CASES = _cases()


@pytest.mark.parametrize("case", sorted(CASES))
def test_native_gradient_is_the_python_forms_bits(case):
    x, g, attrs = CASES[case]
    got = NATIVE(g, x, *attrs)
    want = _python_form(g, x, attrs)
    assert got is not None and got.dtype == want.dtype and got.shape == want.shape
    assert torch.equal(got.nan_to_num(7.0, 8.0, 9.0), want.nan_to_num(7.0, 8.0, 9.0))
    assert torch.equal(got.isnan(), want.isnan())


def test_native_gradient_declines_where_the_python_form_must_run():
    x = torch.randn(3, 4)
    g = torch.randn(3, 4)
    attrs = (6.0, 6.0, 3.0)
    assert NATIVE(g.to(torch.float16), x.to(torch.float16), *attrs) is None  # dtype
    assert NATIVE(g.long(), x.long(), *attrs) is None
    assert NATIVE(g, x.double(), *attrs) is None  # mixed dtypes
    assert NATIVE(g[:2], x, *attrs) is None  # shapes differ
    xr = x.clone().requires_grad_(True)
    assert NATIVE(g, xr, *attrs) is None  # a gradient to record (double backward)
    with torch.no_grad():
        assert NATIVE(g, xr, *attrs) is not None

    class Mode(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with Mode():  # FLAGS_check_nan_inf's dygraph check is such a mode: it must see the operations
        assert NATIVE(g, x, *attrs) is None
    prev = native.MODULE.set_enabled(False)
    try:
        assert NATIVE(g, x, *attrs) is None
    finally:
        native.MODULE.set_enabled(prev)
    with pytest.raises(TypeError):
        NATIVE(g, x, 6.0)


def test_hardswish_layer_gradient_takes_the_native_kernel(monkeypatch):
    """paddle.nn.Hardswish's backward calls it (and the result equals the Python form's, above)."""
    import numpy as np

    import paddle

    calls = []
    monkeypatch.setattr(common, "_HSW_GRAD", lambda *a: calls.append(1) or NATIVE(*a))
    x = paddle.to_tensor(np.linspace(-5, 5, 40).astype("float32"), stop_gradient=False)
    paddle.nn.Hardswish()(x).sum().backward()
    assert calls == [1] and x.grad.shape == [40]
