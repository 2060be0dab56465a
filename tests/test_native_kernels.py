"""The native kernels of engine/core/native/_views.cpp against the Python forms of the same operations (the native
function off), bit for bit, and their declines (None) wherever the Python form must run:
  hard_swish_grad          engine/ops/common._HardSwish.backward
  hard_sigmoid_grad        engine/ops/common._HardSigmoid.backward
  batch_norm_stats_update  engine/ops/nn_functional/norm.train_batch_norm's running-statistics update
  momentum_update          engine/ops/update_ops.momentum_steps' torch multi-tensor calls
  max_pool2d               torch.ops.aten.max_pool2d_with_indices (values and indices)
The gradient kernels and momentum_update split their loops across torch's intra-op threads: checked with one thread
and with two.
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


# --- the momentum optimizer's update ------------------------------------------------------------------------------
MOM = native.function("momentum_update")
SPECIALS = [0.0, -0.0, float("nan"), -float("nan"), float("inf"), -float("inf"), 1e-45, -1e-310, 3e38, -1.0, 2.5]
SHAPES = [(), (1,), (7,), (33,), (3, 5, 7), (40000,), (257, 300), (0,), (0, 4)]  # tiny, odd, over the grain, empty


def _momentum_torch_path(ps, gs, vs, lr, mu, l2):
    """update_ops.momentum_steps with the native update off (its torch multi-tensor calls), on these tensors."""
    from paddle_compat.engine.ops import update_ops

    prev = update_ops._MOMENTUM
    update_ops._MOMENTUM = None
    try:
        update_ops.momentum_steps(ps, gs, vs, lr, mu, l2)
    finally:
        update_ops._MOMENTUM = prev


def _momentum_group(dtype, seed):
    """(params, grads, velocities): random tensors of SHAPES, then every combination of SPECIALS as (p, g, v)."""
    gen = torch.Generator().manual_seed(seed)
    lists = [[torch.randn(s, generator=gen, dtype=dtype) * 3 for s in SHAPES] for _ in range(3)]
    grid = torch.cartesian_prod(*[torch.tensor(SPECIALS, dtype=dtype)] * 3)
    for k in range(3):
        lists[k].append(grid[:, k].contiguous())
    return lists


def _same_bits_or_nans(got, want) -> bool:
    """Bit for bit except the sign of a NaN from a NaN times a NaN (see MOMENTUM_CASES)."""
    nan = got.isnan()
    return torch.equal(nan, want.isnan()) and torch.equal(_bits(got)[~nan], _bits(want)[~nan])


# name -> (dtype, lr, mu, l2_coeff, exact NaN signs)
def _momentum_cases():
    cases = {}
    for dt in (torch.float32, torch.float64):
        name = str(dt).split(".")[1]
        for lr, mu in ((0.1, 0.9), (1e-3, 0.95), (0.037, 1), (3, 0.0), (float("inf"), 0.9), (2e38, 0.9)):
            for l2 in (0.0, 1e-3, 0.5, -0.0):
                cases[f"{name} lr={lr} mu={mu} l2={l2}"] = (dt, lr, mu, l2, True)
        # a NaN mu or coefficient: torch's own product of two NaNs takes either's sign (its vectorized body one,
        # its scalar tail the other), so there NaN stands for NaN
        cases[f"{name} mu=nan"] = (dt, 0.1, float("nan"), 0.0, False)
        cases[f"{name} l2=nan"] = (dt, 0.1, 0.9, float("nan"), False)
    return cases


MOMENTUM_CASES = _momentum_cases()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("case", sorted(MOMENTUM_CASES))
def test_native_momentum_update_is_the_torch_paths_bits(case, threads):
    """Two steps of momentum_update against update_ops.momentum_steps' torch calls on copies: parameters and
    velocities bit for bit (signed zeros, NaN signs, inf, subnormals), version counters moved alike."""
    dt, lr, mu, l2, exact = MOMENTUM_CASES[case]
    ps, _, vs = _momentum_group(dt, 4)
    ref_p, ref_v = [p.clone() for p in ps], [v.clone() for v in vs]
    prev = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for step in range(2):
            gs = _momentum_group(dt, 5 + step)[1]
            before = [t._version for t in ps + vs + ref_p + ref_v]
            with torch.no_grad():
                assert MOM(ps, gs, vs, float(lr), float(mu), float(l2)) is True
            _momentum_torch_path(ref_p, gs, ref_v, lr, mu, l2)
            moved = [t._version - b for t, b in zip(ps + vs + ref_p + ref_v, before)]
            assert moved[: len(moved) // 2] == moved[len(moved) // 2:]  # p once, v twice, as the torch path
            same = _same_bits if exact else _same_bits_or_nans
            for i in range(len(ps)):
                assert same(ps[i], ref_p[i]) and same(vs[i], ref_v[i]), (step, i)
    finally:
        torch.set_num_threads(prev)


def test_native_momentum_update_takes_tuples_views_of_one_buffer_and_a_shared_gradient():
    """Tuples as lists; parameters that are disjoint views of one buffer (a fused parameter store); one gradient
    read by two parameters: the torch path's bits."""
    buf, vbuf = torch.randn(1000, dtype=torch.float64), torch.randn(1000, dtype=torch.float64)
    g = torch.randn(300, dtype=torch.float64)
    ps, vs = (buf[:300], buf[300:600]), (vbuf[:300], vbuf[600:900])
    ref_buf, ref_vbuf = buf.clone(), vbuf.clone()
    with torch.no_grad():
        assert MOM(ps, (g, g), vs, 0.1, 0.9, 1e-4) is True
    _momentum_torch_path([ref_buf[:300], ref_buf[300:600]], [g, g], [ref_vbuf[:300], ref_vbuf[600:900]], 0.1, 0.9, 1e-4)
    assert _same_bits(buf, ref_buf) and _same_bits(vbuf, ref_vbuf)
    assert MOM([], [], [], 0.1, 0.9, 0.0) is True  # nothing to do


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_native_momentum_update_at_any_strides(dtype, threads):
    """Non-contiguous triples (through a TensorIterator): a transposed parameter and its velocity, a channels-last
    gradient (a compiled backward's conv weight gradient) of a contiguous parameter, an expanded gradient (a sum's
    backward), a step-sliced gradient, over the grain size and under it, beside contiguous ones: the torch path's bits
    (NaN signs included) and version counters."""
    gen = torch.Generator().manual_seed(8)

    def rnd(*s):
        t = torch.randn(*s, generator=gen, dtype=dtype)
        t.view(-1)[: len(SPECIALS)] = torch.tensor(SPECIALS, dtype=dtype)
        return t

    ps = [rnd(300, 130).t(), rnd(64, 32, 3, 3), rnd(40, 50), rnd(7, 9), rnd(33)]
    vs = [rnd(300, 130).t(), rnd(64, 32, 3, 3), rnd(40, 50), rnd(7, 9), rnd(33)]
    ps[4] = ps[4].unsqueeze(1).expand(33, 1)  # 33 x 1 with a size-1 dim's stride anything: contiguous
    vs[4] = vs[4].unsqueeze(1)
    gs = [rnd(130, 300), rnd(64, 3, 3, 32).permute(0, 3, 1, 2), rnd(1, 50).expand(40, 50), rnd(7, 18)[:, ::2],
          rnd(33, 1)]
    assert [p.is_contiguous() and g.is_contiguous() and v.is_contiguous() for p, g, v in zip(ps, gs, vs)] == \
        [False, False, False, False, True]
    ref_p, ref_v = [p.clone() for p in ps], [v.clone() for v in vs]
    prev = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for l2 in (0.0, 1e-3):
            before = [t._version for t in ps + vs]
            with torch.no_grad():
                assert MOM(ps, gs, vs, 0.05, 0.9, l2) is True
            _momentum_torch_path(ref_p, gs, ref_v, 0.05, 0.9, l2)
            assert [t._version - b for t, b in zip(ps + vs, before)] == [1] * len(ps) + [2] * len(vs)
            for i in range(len(ps)):
                assert _same_bits(ps[i], ref_p[i]) and _same_bits(vs[i], ref_v[i]), (l2, i)
    finally:
        torch.set_num_threads(prev)


def test_native_momentum_update_declines_where_the_torch_path_must_run():
    """None, and not one element written, wherever the torch path must run (or raise)."""
    gen = torch.Generator().manual_seed(6)
    ps = [torch.randn(s, generator=gen) for s in ((4, 5), (6,), (40000,))]
    gs = [torch.randn(p.shape, generator=gen) for p in ps]
    vs = [torch.randn(p.shape, generator=gen) for p in ps]
    snapshot = [t.clone() for t in ps + gs + vs]
    versions = [t._version for t in ps + gs + vs]

    class Sub(torch.Tensor):
        pass

    with torch.inference_mode():
        inference = torch.randn(6)
    p_grad = ps[1].clone().requires_grad_(True)
    declines = {
        "float16": ([p.half() for p in ps], [g.half() for g in gs], [v.half() for v in vs], 0.1, 0.9, 0.0),
        "float64 velocity": (ps, gs, vs[:2] + [vs[2].double()], 0.1, 0.9, 0.0),
        "float64 parameter among float32": (ps[:2] + [ps[2].double()], gs, vs, 0.1, 0.9, 0.0),
        "int": ([p.long() for p in ps], [g.long() for g in gs], [v.long() for v in vs], 0.1, 0.9, 0.0),
        "step-sliced parameter": ([torch.randn(8, 5)[::2], *ps[1:]], gs, vs, 0.1, 0.9, 0.0),  # may overlap
        "expanded velocity": (ps, gs, [vs[0][:1].expand(4, 5), *vs[1:]], 0.1, 0.9, 0.0),
        "step-sliced gradient within a velocity": (ps, [gs[0], vs[2][:12:2], gs[2]], vs, 0.1, 0.9, 0.0),
        "shapes differ": (ps, [gs[0].reshape(5, 4), *gs[1:]], vs, 0.1, 0.9, 0.0),
        "lengths differ": (ps, gs[:2], vs, 0.1, 0.9, 0.0),
        "a generator": (ps, iter(gs), vs, 0.1, 0.9, 0.0),
        "not a tensor": (ps, [gs[0].numpy(), *gs[1:]], vs, 0.1, 0.9, 0.0),
        "a Tensor subclass": (ps, [gs[0].as_subclass(Sub), *gs[1:]], vs, 0.1, 0.9, 0.0),
        "velocity is the parameter": (ps, gs, [vs[0], ps[1], vs[2]], 0.1, 0.9, 0.0),
        "gradient overlaps a velocity": (ps, [gs[0], vs[2][3:9], gs[2]], vs, 0.1, 0.9, 0.0),
        "a parameter twice": ([ps[0], ps[1], ps[1]], gs[:2] + [gs[1]], vs[:2] + [vs[1].clone()], 0.1, 0.9, 0.0),
        "an inference tensor": (ps, [gs[0], inference, gs[2]], vs, 0.1, 0.9, 0.0),
        "a gradient to record": ([ps[0], p_grad, ps[2]], gs, vs, 0.1, 0.9, 0.0),
        "lr beyond float32": (ps, gs, vs, 1e39, 0.9, 0.0),  # torch's Scalar conversion raises
        "int lr": (ps, gs, vs, 1, 0.9, 0.0),
        "tensor mu": (ps, gs, vs, 0.1, torch.tensor(0.9), 0.0),
        "int coefficient": (ps, gs, vs, 0.1, 0.9, 0),
    }
    for name, args in declines.items():
        assert MOM(*args) is None, name
    with pytest.raises(RuntimeError, match="overflow"):
        _momentum_torch_path([p.clone() for p in ps], gs, [v.clone() for v in vs], 1e39, 0.9, 0.0)

    class Mode(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with torch.no_grad():
        with Mode():
            assert MOM(ps, gs, vs, 0.1, 0.9, 0.0) is None
        prev = native.MODULE.set_enabled(False)
        try:
            assert MOM(ps, gs, vs, 0.1, 0.9, 0.0) is None
        finally:
            native.MODULE.set_enabled(prev)
    assert all(_same_bits(t, s) for t, s in zip(ps + gs + vs, snapshot))  # nothing written where it declined
    assert [t._version for t in ps + gs + vs] == versions
    with pytest.raises(TypeError):
        MOM(ps, gs, vs, 0.1, 0.9)
    with torch.no_grad():
        assert MOM([ps[0], p_grad, ps[2]], gs, vs, 0.1, 0.9, 0.0) is True  # grad mode off: nothing to record


@pytest.mark.parametrize("l2", [0.0, 1e-3])
def test_momentum_optimizer_and_fused_momentum_take_the_native_update(monkeypatch, l2):
    """Dygraph paddle.optimizer.Momentum (batched _update_all) and the fused_momentum op call it through
    update_ops.momentum_steps; tests/ops/test_optimizer_bits.py compares those with the one-op-per-parameter path."""
    import numpy as np

    import paddle
    from paddle_compat.engine.ops import fused, update_ops

    calls = []
    monkeypatch.setattr(update_ops, "_MOMENTUM", lambda *a: calls.append(len(a[0])) or MOM(*a))
    lin = paddle.nn.Linear(5, 3)
    opt = paddle.optimizer.Momentum(0.1, 0.9, parameters=lin.parameters(),
                                    weight_decay=paddle.regularizer.L2Decay(l2) if l2 else None)
    lin(paddle.to_tensor(np.ones((2, 5), "float32"))).sum().backward()
    opt.step()
    assert calls == [2]
    ps = [torch.randn(4, 3), torch.randn(3)]
    fused.fused_momentum.__paddle_op__.impl(ps, [torch.randn(4, 3), torch.randn(3)], [torch.zeros(4, 3),
                                            torch.zeros(3)], torch.tensor([0.1]), mu=0.9,
                                            regularization_method="l2_decay" if l2 else "", regularization_coeff=l2)
    assert calls == [2, 2]


# --- max_pool2d: torch's max_pool2d_with_indices, values and indices -----------------------------------------------
MAX_POOL2D = native.function("max_pool2d")
_POOL_SPECIALS = [float("nan"), float("-inf"), float("inf"), 0.0, -0.0, 1.0]


def _pool_input(shape, dtype, seed=0):
    """Random values with a third of the cells special: NaN, +-inf, signed zeros and ties (1.0), so windows hold
    several maxima, NaNs, all -inf, and zeros of both signs."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=gen, dtype=dtype)
    flat = x.view(-1)
    pick = torch.randint(0, 3 * len(_POOL_SPECIALS), flat.shape, generator=gen)
    for i, v in enumerate(_POOL_SPECIALS):
        flat[pick == i] = v
    return x


# windows: (kernel, stride, padding), each (h, w); every padding torch accepts (at most half the window)
_WINDOWS = [((2, 2), (2, 2), (0, 0)), ((3, 3), (2, 2), (1, 1)), ((3, 3), (1, 1), (1, 1)), ((2, 3), (1, 2), (1, 0)),
            ((1, 1), (1, 1), (0, 0)), ((4, 5), (3, 3), (2, 2)), ((3, 2), (3, 1), (0, 1)), ((5, 5), (4, 2), (2, 1))]
_POOL_SHAPES = [(2, 3, 7, 7), (1, 2, 8, 6), (3, 1, 5, 11), (2, 2, 9, 4), (1, 1, 1, 1), (2, 40, 16, 16)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("window", _WINDOWS, ids=str)
def test_native_max_pool2d_is_torchs_bits(window, dtype, threads):
    """Each window of each shape (where torch accepts it), values bit for bit (signed zeros and NaNs included) and
    indices equal; the last shape has enough planes for torch's threads to split them."""
    k, s, p = window
    prev = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for seed, shape in enumerate(_POOL_SHAPES):
            x = _pool_input(shape, dtype, seed)
            try:
                want = torch.ops.aten.max_pool2d_with_indices(x, list(k), list(s), list(p))
            except RuntimeError:  # torch refuses the window (an empty output): so does the kernel, torch raises
                assert MAX_POOL2D(x, *k, *s, *p) is None, shape
                continue
            got = MAX_POOL2D(x, *k, *s, *p)
            assert got is not None, shape
            assert _same_bits(got[0], want[0]), shape
            assert got[1].dtype == torch.int64 and torch.equal(got[1], want[1]), shape
    finally:
        torch.set_num_threads(prev)


def test_native_max_pool2d_declines_where_torchs_op_must_run():
    x = torch.randn(2, 3, 8, 8)
    w = (2, 2, 2, 2, 0, 0)
    assert MAX_POOL2D(x, *w) is not None
    assert MAX_POOL2D(x.half(), *w) is None  # dtype
    assert MAX_POOL2D(x.bfloat16(), *w) is None
    assert MAX_POOL2D((x * 10).int(), *w) is None
    assert MAX_POOL2D(x.transpose(2, 3), *w) is None  # not contiguous
    assert MAX_POOL2D(x.contiguous(memory_format=torch.channels_last), *w) is None
    assert MAX_POOL2D(x[0], *w) is None  # 3-D
    assert MAX_POOL2D(x[:0], *w) is None  # no elements
    assert MAX_POOL2D(x, 3, 3, 1, 1, 2, 2) is None  # padding over half the window: torch's error
    assert MAX_POOL2D(x, 9, 9, 1, 1, 0, 0) is None  # window larger than the map
    assert MAX_POOL2D(x, 2, 2, 0, 2, 0, 0) is None  # stride 0
    assert MAX_POOL2D(x, 2.0, 2, 2, 2, 0, 0) is None  # not ints
    xr = x.clone().requires_grad_(True)
    assert MAX_POOL2D(xr, *w) is None  # a gradient to record
    with torch.no_grad():
        assert MAX_POOL2D(xr, *w) is not None

    class Mode(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with Mode():  # tracing and FLAGS_check_nan_inf's check must see the operation
        assert MAX_POOL2D(x, *w) is None
    prev = native.MODULE.set_enabled(False)
    try:
        assert MAX_POOL2D(x, *w) is None
    finally:
        native.MODULE.set_enabled(prev)
    with pytest.raises(TypeError):
        MAX_POOL2D(x, 2, 2)


def _paddle_pool_run(native_on: bool, monkeypatch, kwargs: dict, shape=(4, 8, 12, 12)):
    """paddle.nn.functional.max_pool2d forward and backward in dygraph, with the native kernel on or off (torch's
    F.max_pool2d then runs); returns (out, mask or None, x.grad) as numpy and how often the kernel ran."""
    import numpy as np

    import paddle
    from paddle_compat.engine.ops.nn_functional import pooling

    calls = []
    kernel = pooling._MAX_POOL2D if native_on else None
    monkeypatch.setattr(pooling, "_MAX_POOL2D", (lambda *a: calls.append(1) or kernel(*a)) if kernel else None)
    x = paddle.to_tensor(_pool_input(shape, torch.float32, 3).nan_to_num(0.5).numpy(), stop_gradient=False)
    r = paddle.nn.functional.max_pool2d(x, **kwargs)
    out, mask = r if isinstance(r, tuple) else (r, None)
    (out * paddle.to_tensor(np.arange(out.size, dtype="float32").reshape(out.shape))).sum().backward()
    return out.numpy(), None if mask is None else mask.numpy(), x.grad.numpy(), len(calls)


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2, stride=2), dict(kernel_size=3, stride=2, padding=1),
                                    dict(kernel_size=2, stride=2, return_mask=True),
                                    dict(kernel_size=3, stride=1, padding=[1, 0])], ids=str)
def test_dygraph_max_pool2d_takes_the_native_kernel_with_torchs_bits(kwargs, monkeypatch):
    """F.max_pool2d's forward goes through the kernel (an input of _NATIVE_GRAD_MIN elements or more that records its
    gradient); output, mask and gradient equal the torch path's (ties in the input: the first maximum takes it)."""
    import numpy as np

    got = _paddle_pool_run(True, monkeypatch, kwargs)
    want = _paddle_pool_run(False, monkeypatch, kwargs)
    assert got[3] == 1 and want[3] == 0
    for a, b in zip(got[:3], want[:3]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype


def test_dygraph_max_pool2d_small_input_keeps_torchs_op(monkeypatch):
    """Under _NATIVE_GRAD_MIN elements a pool recording its gradient stays on F.max_pool2d (the autograd.Function
    costs more than the kernel saves); without a gradient it takes the kernel whatever the size."""
    import paddle

    assert _paddle_pool_run(True, monkeypatch, dict(kernel_size=2), shape=(1, 2, 4, 4))[3] == 0
    with paddle.no_grad():
        calls = []
        from paddle_compat.engine.ops.nn_functional import pooling

        monkeypatch.setattr(pooling, "_MAX_POOL2D", lambda *a: calls.append(1) or MAX_POOL2D(*a))
        paddle.nn.functional.max_pool2d(paddle.ones([1, 2, 4, 4]), 2)
    assert calls == [1]
