"""The native kernels of engine/core/native/_views.cpp against the Python forms of the same operations (the native
function off), bit for bit, and their declines (None) wherever the Python form must run:
  hard_swish_grad          engine/ops/common._HardSwish.backward
  hard_sigmoid_grad        engine/ops/common._HardSigmoid.backward
  batch_norm_stats_update  engine/ops/nn_functional/norm.train_batch_norm's running-statistics update
The gradient kernels split their loop across torch's intra-op threads: checked with one thread and with two.
The Python forms themselves are checked against real Paddle by tests/nn/test_act26_grads.py, tests/fluid/test_act18.py
and the batch norm tests of tests/nn (which run with the native functions on)."""

from __future__ import annotations

import pytest
import torch

from paddle_compat.engine.core import native
from paddle_compat.engine.ops import common

NATIVE = native.function("hard_swish_grad")
pytestmark = pytest.mark.skipif(NATIVE is None, reason="the native module is not built (tools/build_native.py)")

KINKS = [-3.0, 3.0, 2.9999998, -2.9999998, 0.0, -0.0, 6.0, float("nan"), float("inf"), -float("inf"), 1e-30]


def _python_backward(function, slot: str, g, **ctx):
    """function.backward (an autograd Function of engine/ops/common) on g with its native kernel (common.<slot>) off:
    the Python form; `ctx`: what the forward saved."""
    prev = getattr(common, slot)
    setattr(common, slot, None)
    try:
        return function.backward(type("Ctx", (), ctx)(), g)[0]
    finally:
        setattr(common, slot, prev)


def _python_form(g, x, attrs):
    return _python_backward(common._HardSwish, "_HSW_GRAD", g, saved_tensors=(x,), attrs=attrs)


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


# --- hard_swish_grad and hard_sigmoid_grad over torch's intra-op threads ------------------------------------------
def _bits(t: torch.Tensor) -> torch.Tensor:
    """t's bytes as integers: equal exactly when the values are bit for bit (signed zeros and NaN payloads too)."""
    return t.contiguous().view(torch.int32 if t.dtype == torch.float32 else torch.int64)


def _same_bits(got, want) -> bool:
    return got.dtype == want.dtype and got.shape == want.shape and torch.equal(_bits(got), _bits(want))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", sorted(CASES))
def test_native_gradient_bits_whatever_the_threads(case, threads):
    """Split across torch's threads (a tensor over torch's grain size), each element computed as in one pass."""
    x, g, attrs = CASES[case]
    x, g = x.repeat(1, 1, 8, 1) if x.numel() else x, g.repeat(1, 1, 8, 1) if g.numel() else g  # > 32768 elements
    prev = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        got = NATIVE(g, x, *attrs)
    finally:
        torch.set_num_threads(prev)
    assert got is not None and _same_bits(got, _python_form(g, x, attrs))


HSG = native.function("hard_sigmoid_grad")
EDGES = [0.0, -0.0, 1.0, 0.99999994, 5.9604645e-08, 0.5, -1e-30, 1.0000001, float("nan"), float("inf"), -float("inf")]


def _hsg_python_form(g, out, slope):
    return _python_backward(common._HardSigmoid, "_HSG_GRAD", g, saved_tensors=(out,), slope=slope)


# name -> (g, out, slope): out is the forward's output (clamped to [0, 1]) or any value at all
def _hsg_cases():
    gen = torch.Generator().manual_seed(1)
    cases = {}
    for dt in (torch.float32, torch.float64):
        x = torch.randn(4, 72, 19, 23, generator=gen, dtype=dt) * 3  # > 32768 elements: split across threads
        out = torch.clamp(x * 0.2 + 0.5, 0.0, 1.0)
        out.view(-1)[: len(EDGES)] = torch.tensor(EDGES, dtype=dt)
        g = torch.randn(x.shape, generator=gen, dtype=dt)
        g.view(-1)[len(EDGES): 2 * len(EDGES)] = torch.tensor(EDGES, dtype=dt)  # inf * 0, NaN * 0, -g * 0
        g.view(-1)[2 * len(EDGES): 3 * len(EDGES)] = -g.view(-1)[2 * len(EDGES): 3 * len(EDGES)].abs()
        name = str(dt).split(".")[1]
        cases[f"{name} slope 0.2"] = (g, out, 0.2)
        cases[f"{name} slope 1/6"] = (g, out, 0.1666667)
        cases[f"{name} slope 1e39"] = (g, out, 1e39)  # inf in float32, as torch rounds it
        cases[f"{name} non-contiguous"] = (g.transpose(1, 3), out.transpose(1, 3), 0.2)
        cases[f"{name} expanded gradient"] = (g[:1, :1].expand(out.shape), out, 0.2)  # a sum's backward
        cases[f"{name} small"] = (g[0, 0, 0], out[0, 0, 0], 0.2)
        cases[f"{name} empty"] = (g[:0], out[:0], 0.2)
    return cases


HSG_CASES = _hsg_cases()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", sorted(HSG_CASES))
def test_native_hard_sigmoid_gradient_is_the_python_forms_bits(case, threads):
    g, out, slope = HSG_CASES[case]
    prev = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        got = HSG(g, out, slope)
    finally:
        torch.set_num_threads(prev)
    assert got is not None and _same_bits(got, _hsg_python_form(g, out, slope))


def test_native_hard_sigmoid_gradient_declines_where_the_python_form_must_run():
    out = torch.rand(3, 4)
    g = torch.randn(3, 4)
    assert HSG(g.half(), out.half(), 0.2) is None  # dtype
    assert HSG(g.double(), out, 0.2) is None  # mixed dtypes
    assert HSG(g[:2], out, 0.2) is None  # shapes differ
    assert HSG(g, out, 1) is None and HSG(g, out, torch.tensor(0.2)) is None  # a slope that is not a float
    gr = g.clone().requires_grad_(True)
    assert HSG(gr, out, 0.2) is None  # a gradient to record (double backward)
    with torch.no_grad():
        assert HSG(gr, out, 0.2) is not None

    class Mode(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with Mode():
        assert HSG(g, out, 0.2) is None
    prev = native.MODULE.set_enabled(False)
    try:
        assert HSG(g, out, 0.2) is None
    finally:
        native.MODULE.set_enabled(prev)
    with pytest.raises(TypeError):
        HSG(g, out)


@pytest.mark.usefixtures("no_integer_gradients")
def test_hardsigmoid_layer_gradient_takes_the_native_kernel(monkeypatch):
    """paddle.nn.Hardsigmoid's backward calls it, and the gradient is the Python form's bit for bit."""
    import numpy as np

    import paddle

    grads = []
    for on in (True, False):
        calls = []
        monkeypatch.setattr(common, "_HSG_GRAD", (lambda *a: calls.append(1) or HSG(*a)) if on else None)
        x = paddle.to_tensor(np.linspace(-5, 5, 41).astype("float32"), stop_gradient=False)
        (paddle.nn.Hardsigmoid()(x) * paddle.to_tensor(np.linspace(-2, 2, 41).astype("float32"))).sum().backward()
        assert calls == ([1] if on else [])
        grads.append(x.grad._t)
    assert _same_bits(*grads)


# --- batch norm's running-statistics update -----------------------------------------------------------------------
BNS = native.function("batch_norm_stats_update")


def _bn_python_form(rm, rv, mean, invstd, momentum, eps):
    """norm.train_batch_norm's update with the native one off, on copies: (running_mean, running_var)."""
    rm, rv = rm.clone(), rv.clone()
    with torch.no_grad():
        var = invstd.double().pow(-2).sub_(eps).clamp_(min=0).to(rv.dtype)
        rm.mul_(momentum).add_(mean.to(rm.dtype) * (1.0 - momentum))
        rv.mul_(momentum).add_(var * (1.0 - momentum))
    return rm, rv


# name -> (running_mean, running_var, mean, invstd, momentum, epsilon)
def _bn_cases():
    gen = torch.Generator().manual_seed(2)
    cases = {}
    for sdt in (torch.float32, torch.float64):  # the batch statistics' dtype (the input's)
        for tdt in (torch.float32, torch.float64):  # the running statistics'
            c = 600
            mean = torch.randn(c, generator=gen, dtype=sdt) * 10
            invstd = torch.rand(c, generator=gen, dtype=sdt).mul(1e3).exp2().mul(1e-150 if sdt == torch.float64
                                                                                   else 1e-30)
            invstd[:8] = torch.tensor([316.22775, 316.2278, 1e-3, 0.0, float("inf"), float("nan"), 1e30, 1.0],
                                      dtype=sdt)  # 1 / sqrt(eps) and its neighbours: var - eps below 0
            rm = torch.randn(c, generator=gen, dtype=tdt)
            rv = torch.rand(c, generator=gen, dtype=tdt) * 4
            name = f"{str(sdt).split('.')[1]} stats into {str(tdt).split('.')[1]}"
            for m, eps in ((0.9, 1e-5), (0.99, 1e-3), (0.1, 0.0), (0.8999999761581421, 1e-5)):
                cases[f"{name} m={m} eps={eps}"] = (rm, rv, mean, invstd, m, eps)
    return cases


BN_CASES = _bn_cases()


@pytest.mark.parametrize("case", sorted(BN_CASES))
def test_native_batch_norm_stats_update_is_the_python_forms_bits(case):
    rm, rv, mean, invstd, m, eps = BN_CASES[case]
    want = _bn_python_form(rm, rv, mean, invstd, m, eps)
    got_m, got_v = rm.clone(), rv.clone()
    v0 = got_m._version, got_v._version
    assert BNS(got_m, got_v, mean, invstd, m, eps) is True
    assert _same_bits(got_m, want[0]) and _same_bits(got_v, want[1])
    assert (got_m._version, got_v._version) == (v0[0] + 2, v0[1] + 2)  # mul_ and add_ each, as the Python form


def test_native_batch_norm_stats_update_declines_where_the_python_form_must_run():
    rm, rv, mean, invstd, m, eps = BN_CASES["float32 stats into float32 m=0.9 eps=1e-05"]
    rm, rv = rm.clone(), rv.clone()
    before = rm.clone(), rv.clone()
    declines = {
        "half": (rm.half(), rv.half(), mean, invstd, m, eps),
        "mixed running dtypes": (rm, rv.double(), mean, invstd, m, eps),
        "mixed batch dtypes": (rm, rv, mean.double(), invstd, m, eps),
        "lengths differ": (rm[:5], rv, mean, invstd, m, eps),
        "2-D": (rm.view(2, -1), rv.view(2, -1), mean.view(2, -1), invstd.view(2, -1), m, eps),
        "non-contiguous": (rm[::2], rv[::2], mean[::2], invstd[::2], m, eps),
        "shared storage": (rm, rm, mean, invstd, m, eps),
        "int momentum": (rm, rv, mean, invstd, 1, eps),
        "int epsilon": (rm, rv, mean, invstd, m, 0),
        "tensor epsilon": (rm, rv, mean, invstd, m, torch.tensor(1e-5)),
    }
    for name, args in declines.items():
        assert BNS(*args) is None, name
    with torch.inference_mode():
        rmi, rvi = rm.clone(), rv.clone()
    assert BNS(rmi, rvi, mean, invstd, m, eps) is None  # torch's in-place error comes from the Python form

    class Mode(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with Mode():
        assert BNS(rm, rv, mean, invstd, m, eps) is None
    prev = native.MODULE.set_enabled(False)
    try:
        assert BNS(rm, rv, mean, invstd, m, eps) is None
    finally:
        native.MODULE.set_enabled(prev)
    assert torch.equal(rm, before[0]) and torch.equal(rv, before[1])  # nothing written where it declined
    with pytest.raises(TypeError):
        BNS(rm, rv, mean, invstd, m)


@pytest.mark.usefixtures("no_integer_gradients")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batch_norm_layer_training_takes_the_native_update(monkeypatch, dtype):
    """A paddle.nn.BatchNorm2D training step calls it; its running statistics are the Python form's bit for bit."""
    import numpy as np

    import paddle
    from paddle_compat.engine.ops.nn_functional import norm

    x = np.random.RandomState(3).standard_normal((4, 6, 5, 5)).astype(dtype)
    x[:, 2] = 1.5  # a constant channel: var 0
    stats = []
    for on in (True, False):
        calls = []
        monkeypatch.setattr(norm, "_BN_STATS", (lambda *a: calls.append(1) or BNS(*a)) if on else None)
        paddle.seed(0)
        prev = paddle.get_default_dtype()
        paddle.set_default_dtype(dtype)
        try:
            bn = paddle.nn.BatchNorm2D(6, momentum=0.8)
        finally:
            paddle.set_default_dtype(prev)
        for _ in range(3):
            bn(paddle.to_tensor(x))
        assert calls == ([1, 1, 1] if on else [])
        stats.append((bn._mean._t.clone(), bn._variance._t.clone()))
    assert _same_bits(stats[0][0], stats[1][0]) and _same_bits(stats[0][1], stats[1][1])
