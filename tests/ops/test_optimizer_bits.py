"""SGD / Adam / AdamW updates bit for bit against real Paddle (tests/ops/cases_optimizer_bits.py; goldens
optimizer_bits26 / optimizer_bits18), plain and through the BuildStrategy options that rewrite them
(fuse_all_optimizer_ops, memory_optimize's buffer reuse)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden, replay_run
from tests.ops import cases_optimizer_bits as C

# 1.8's Adam update runs Eigen's vectorized sqrt: its parameters agree to a few float32 ulps (of the update near 0),
# its moments exactly
NEAR18 = "fluid_adam_step"
# a float64 parameter: all but ~1 in 4096 elements bit for bit, those within a double ulp (not yet traced)
NEAR_F64 = "dygraph_adam_f64"


@pytest.mark.parametrize("golden", ["optimizer_bits26", "optimizer_bits18"])
def test_updates_match_paddle_bits(golden):
    got, want = replay_run(C, golden)
    assert sorted(got) == sorted(want)
    for k, v in got.items():
        assert v.dtype == want[k].dtype and v.shape == want[k].shape, k
        if k.startswith(NEAR_F64):
            np.testing.assert_allclose(v, want[k], rtol=4.5e-16, atol=0, err_msg=k)
            assert (v != want[k]).mean() < 0.001, k
        elif k.startswith(NEAR18) and k.endswith("_w"):
            np.testing.assert_allclose(v, want[k], rtol=5e-7, atol=4e-9, err_msg=k)
        else:
            np.testing.assert_array_equal(v, want[k], err_msg=k)


@pytest.mark.parametrize("option", ["fuse_all_optimizer_ops", "memory_optimize"])
@pytest.mark.parametrize("name", ["sgd", "adam", "adamw"])
def test_rewritten_updates_keep_the_bits(option, name):
    import paddle

    _, want = load_golden("optimizer_bits26")
    w0, gs = C.data()
    bs = paddle.static.BuildStrategy()
    setattr(bs, option, True)
    paddle.enable_static()
    try:
        steps = C.static_steps(paddle.static, C.param26(paddle, w0), paddle.sum, C.optimizers26(paddle)[name], gs,
                               build_strategy=bs)
    finally:
        paddle.disable_static()
    for i, outs in enumerate(steps):
        np.testing.assert_array_equal(outs[0], want[f"static_{name}_step{i}"], err_msg=f"step {i}")


# dygraph optimizers whose _update_all runs several parameters per call: (the class, how to make one)
BATCHED = {
    "Adam": ("Adam", lambda paddle, fluid, ps: paddle.optimizer.Adam(0.01, parameters=ps)),
    "fluid.optimizer.AdamOptimizer": ("Adam", lambda paddle, fluid, ps: fluid.optimizer.AdamOptimizer(
        0.01, parameter_list=ps)),
    "Momentum": ("Momentum", lambda paddle, fluid, ps: paddle.optimizer.Momentum(0.01, 0.9, parameters=ps)),
    "Momentum+L2Decay": ("Momentum", lambda paddle, fluid, ps: paddle.optimizer.Momentum(
        0.01, 0.9, parameters=ps, weight_decay=paddle.regularizer.L2Decay(1e-3))),
    "Momentum+L1Decay": ("Momentum", lambda paddle, fluid, ps: paddle.optimizer.Momentum(
        0.01, 0.9, parameters=ps, weight_decay=paddle.regularizer.L1Decay(1e-3))),
    "Momentum nesterov": ("Momentum", lambda paddle, fluid, ps: paddle.optimizer.Momentum(
        0.01, 0.9, parameters=ps, use_nesterov=True)),
    "fluid.optimizer.MomentumOptimizer": ("Momentum", lambda paddle, fluid, ps: fluid.optimizer.MomentumOptimizer(
        0.01, 0.9, parameter_list=ps)),
}


@pytest.mark.parametrize("case", sorted(BATCHED))
def test_dygraph_batched_updates_keep_the_bits(monkeypatch, case):
    """Dygraph Adam and Momentum run the parameters of one dtype / device / learning rate as one multi-tensor call
    (`_update_all`): the same bits as one op per parameter, across dtypes, a ParamAttr learning rate, a
    non-contiguous gradient's fallback and a regularizer, parameters and accumulators alike."""
    import paddle
    import paddle.fluid as fluid
    from paddle_compat.paddle2.optimizer import optimizer as O

    cls_name, make = BATCHED[case]
    from paddle_compat.engine.ops import update_ops as U

    steps_fn = "adam_steps" if cls_name == "Adam" else "momentum_steps"
    calls = []

    def run(batched):
        if not batched:
            monkeypatch.setattr(getattr(O, cls_name), "_update_all", O.Optimizer._update_all)
        real = getattr(U, steps_fn)
        monkeypatch.setattr(U, steps_fn, lambda *a, **k: calls.append(batched) or real(*a, **k))
        rng = np.random.RandomState(3)
        lin = paddle.nn.Linear(6, 5, weight_attr=paddle.ParamAttr(learning_rate=0.5))
        lin2 = paddle.nn.Linear(5, 4)
        w64 = paddle.create_parameter([4, 3], "float64")
        for p in [*lin.parameters(), *lin2.parameters(), w64]:
            p.set_value(rng.standard_normal(p.shape).astype(p.numpy().dtype))
        params = [*lin.parameters(), *lin2.parameters(), w64]
        opt = make(paddle, fluid, params)
        for _ in range(3):
            x = paddle.to_tensor(rng.standard_normal((7, 6)).astype("float32"))
            loss = (lin2(lin(x)) ** 2).sum() + paddle.matmul(lin2.weight.astype("float64"), w64).sum().astype("float32")
            loss.backward()
            opt.step()
            opt.clear_grad()
        monkeypatch.undo()
        return [p.numpy() for p in params] + [v.numpy() for v in opt.state_dict().values() if hasattr(v, "numpy")]

    got, want = run(True), run(False)
    assert len(got) == len(want) > 5  # the parameters, then the accumulators
    # the batched run took the multi-tensor path (Nesterov goes one parameter at a time)
    assert (True in calls) == (case != "Momentum nesterov") and False not in calls
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("scaled_epsilon", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_adam_cpu_scratch_path_keeps_the_bits(monkeypatch, scaled_epsilon, dtype):
    """adam_steps updates contiguous CPU tensors one at a time, slice by slice, through a scratch buffer
    (_ScratchCPU): the same bits as the multi-tensor kernels, over several slices, a partial last slice, a small
    tensor, alongside a non-contiguous one (multi-tensor kernels), for three steps."""
    import torch
    from paddle_compat.engine.ops import update_ops as U

    monkeypatch.setattr(U, "_SCRATCH", 1 << 10)
    monkeypatch.setattr(U._ScratchCPU, "_tls", __import__("threading").local())
    rng = np.random.RandomState(5)
    shapes = [(50, 61), (7,), (40, 30), (600,)]
    state = []
    for i, s in enumerate(shapes):
        t = [torch.tensor(rng.standard_normal(s), dtype=getattr(torch, dtype)) for _ in range(3)]
        t.append(torch.tensor(rng.rand(*s), dtype=getattr(torch, dtype)))
        if i == 2:  # non-contiguous
            t = [x.t() for x in t]
        state.append(t + [torch.tensor([0.9]), torch.tensor([0.999])])
    ref = [[x.clone() for x in ts] for ts in state]
    assert [U._ScratchCPU.takes(*ts[:4]) for ts in state] == [True, True, False, True]

    def lists(st):
        return [[ts[k] for ts in st] for k in range(6)]

    for step in range(3):
        U.adam_steps(*lists(state), 1e-3 * (step + 1), 0.9, 0.999, 1e-8, scaled_epsilon)
        with monkeypatch.context() as m:  # the reference: every tensor through the multi-tensor kernels
            m.setattr(U._ScratchCPU, "takes", staticmethod(lambda *ts: False))
            U.adam_steps(*lists(ref), 1e-3 * (step + 1), 0.9, 0.999, 1e-8, scaled_epsilon)
        for i, (a, b) in enumerate(zip(state, ref)):
            for k in range(6):
                assert torch.equal(a[k], b[k]), (step, i, k)


@pytest.mark.parametrize("lr_kind", ["float", "tensor"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["sgd", "momentum"])
def test_cpu_updates_without_temporaries_keep_the_bits(name, dtype, lr_kind):
    """sgd and momentum subtract lr * t from a CPU parameter in place (update_ops._sub_scaled_, no temporary):
    the same bits as the product rounded, then the difference, over three steps."""
    import torch
    from paddle_compat.engine.ops import update_ops as U

    rng = np.random.RandomState(7)
    td = getattr(torch, dtype)
    w0 = torch.tensor(rng.standard_normal((300, 70)), dtype=td)
    grads = [torch.tensor(rng.standard_normal((300, 70)), dtype=td) for _ in range(3)]
    lr = 0.037 if lr_kind == "float" else torch.tensor([0.037], dtype=torch.float32)
    w, v = w0.clone(), torch.zeros_like(w0)
    ref_w, ref_v = w0.clone(), torch.zeros_like(w0)
    for g in grads:
        if name == "sgd":
            U.sgd(w, g, lr)
            ref_w.sub_(torch.mul(g, U._lr(lr)))
        else:
            U.momentum(w, g, v, lr, mu=0.9)
            ref_v.mul_(0.9).add_(g)
            ref_w.sub_(ref_v * U._lr(lr))
        assert torch.equal(w, ref_w) and torch.equal(v, ref_v)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("l2", [0.0, 1e-3])
def test_multi_tensor_momentum_and_sgd_keep_the_bits_at_any_strides(l2, dtype):
    """update_ops.momentum_steps / sub_scaled_all_ (batched dygraph Momentum, fused_momentum / fused_sgd) on a group
    holding a transposed gradient (a compiled backward's channels-last conv weight gradient) and a transposed
    parameter: the same bits as the single momentum / sgd ops, tensor by tensor, over three steps (mu and the L2
    coefficient, which float32 cannot hold exactly, rounded to the parameters' dtype as the single ops round them)."""
    import torch
    from paddle_compat.engine.ops import update_ops as U

    dtype = getattr(torch, dtype)
    rng = np.random.RandomState(11)
    shapes = [(6, 5), (7,), (4, 3, 2, 2)]
    ps = [torch.tensor(rng.standard_normal(s), dtype=dtype) for s in shapes]
    ps[0] = ps[0].t().contiguous().t()  # a non-contiguous parameter
    vs = [torch.zeros_like(p) for p in ps]
    ref_p, ref_v = [p.clone() for p in ps], [v.clone() for v in vs]
    sgd_p, sgd_ref = [p.clone() for p in ps], [p.clone() for p in ps]
    for step in range(3):
        gs = [torch.tensor(rng.standard_normal(s), dtype=dtype) for s in shapes]
        gs[2] = gs[2].permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)  # channels-last strides
        assert U.plain_cpu_group(ps, gs, vs) and not gs[2].is_contiguous()
        U.momentum_steps(ps, gs, vs, 0.05, 0.9, l2)
        U.sub_scaled_all_(sgd_p, gs, 0.05)
        for i in range(len(shapes)):
            U.momentum(ref_p[i], gs[i], ref_v[i], 0.05, mu=0.9, regularization_method="l2_decay" if l2 else "",
                       regularization_coeff=l2)
            U.sgd(sgd_ref[i], gs[i], 0.05)
            assert torch.equal(ps[i], ref_p[i]) and torch.equal(vs[i], ref_v[i]), (step, i)
            assert torch.equal(sgd_p[i], sgd_ref[i]), (step, i)
