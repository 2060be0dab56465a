"""paddle.distribution against real Paddle 2.6.2 (tools/oracle/distribution26_cases.py, golden distribution26),
sampling by its statistics, static mode, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("distribution26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "distribution26", rtol=2e-5, atol=1e-6)


def _t(a, dtype="float32"):
    import paddle

    return paddle.to_tensor(np.asarray(a, dtype))


N = 40000


@pytest.mark.parametrize("make,mean,var", [
    (lambda D: D.Normal(_t([1.0, -2.0]), _t([0.5, 2.0])), [1.0, -2.0], [0.25, 4.0]),
    (lambda D: D.Uniform(_t([0.0, 2.0]), _t([1.0, 5.0])), [0.5, 3.5], [1 / 12, 0.75]),
    (lambda D: D.Bernoulli(_t([0.2, 0.7])), [0.2, 0.7], [0.16, 0.21]),
    (lambda D: D.Beta(_t([2.0, 0.5]), _t([3.0, 0.5])), [0.4, 0.5], [0.04, 0.125]),
    (lambda D: D.Laplace(_t([0.0, 1.0]), _t([1.0, 0.5])), [0.0, 1.0], [2.0, 0.5]),
    (lambda D: D.Geometric(_t([0.5, 0.25])), [1.0, 3.0], [2.0, 12.0]),
    (lambda D: D.Gumbel(_t([0.0, 1.0]), _t([1.0, 2.0])), [0.5772157, 2.1544313], [1.6449341, 6.5797363]),
    (lambda D: D.LogNormal(_t([0.0, 0.5]), _t([0.5, 0.25])), np.exp([0.125, 0.53125]),
     np.expm1([0.25, 0.0625]) * np.exp([0.25, 1.0625])),
])
def test_sample_statistics(make, mean, var):
    import paddle

    paddle.seed(7)
    d = make(paddle.distribution)
    s = d.sample([N]).numpy().astype("float64")
    assert s.shape == (N, 2)
    np.testing.assert_allclose(s.mean(0), mean, rtol=0.05, atol=0.02)
    np.testing.assert_allclose(s.var(0), var, rtol=0.08, atol=0.01)
    if not isinstance(d, paddle.distribution.Uniform):  # Paddle's Uniform has no mean / variance
        np.testing.assert_allclose(d.mean.numpy(), mean, rtol=1e-5)
        np.testing.assert_allclose(d.variance.numpy(), var, rtol=1e-5)


def test_categorical_dirichlet_multinomial_cauchy_samples():
    import paddle

    D = paddle.distribution
    paddle.seed(3)
    c = D.Categorical(_t([[0.0, np.log(3.0)], [np.log(4.0), 0.0]]))
    s = c.sample([N]).numpy()
    assert s.dtype == np.int64 and s.shape == (N, 2)
    np.testing.assert_allclose(s.mean(0), [0.75, 0.2], atol=0.01)  # softmax of the logits
    dd = D.Dirichlet(_t([1.0, 2.0, 3.0]))
    x = dd.sample([N]).numpy()
    np.testing.assert_allclose(x.sum(-1), 1, rtol=1e-5)
    np.testing.assert_allclose(x.mean(0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)
    m = D.Multinomial(10, _t([0.1, 0.3, 0.6]))
    counts = m.sample([5000]).numpy()
    assert (counts.sum(-1) == 10).all()
    np.testing.assert_allclose(counts.mean(0), [1, 3, 6], atol=0.1)
    cy = D.Cauchy(_t([1.0]), _t([2.0]))
    np.testing.assert_allclose(np.median(cy.sample([N]).numpy()), 1.0, atol=0.1)


def test_rsample_is_differentiable():
    import paddle

    D = paddle.distribution
    loc, scale = _t([0.5, 1.0]), _t([1.0, 2.0])
    loc.stop_gradient = scale.stop_gradient = False
    paddle.seed(0)
    s = D.Normal(loc, scale).rsample([1000])
    s.mean().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [0.5, 0.5], rtol=1e-6)
    assert D.Normal(loc, scale).sample([3]).stop_gradient


def test_stick_breaking_over_a_normal_works_here():
    """Paddle 2.6 raises for it (Independent called with a tuple); ours gives the change-of-variables density."""
    import paddle

    D = paddle.distribution
    base = D.Normal(_t([0.0, 0.5]), _t([1.0, 1.0]))
    t = D.StickBreakingTransform()
    td = D.TransformedDistribution(base, [t])
    assert td.event_shape == (3,) and td.batch_shape == ()
    y = _t([0.2, 0.3, 0.5])
    x = t.inverse(y)
    want = base.log_prob(x).numpy().sum() - t.forward_log_det_jacobian(x).numpy()
    np.testing.assert_allclose(td.log_prob(y).numpy(), want, rtol=1e-6)
    assert td.sample([4]).shape == [4, 3]


def test_static_mode():
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        loc = paddle.static.data("loc", [2], "float32")
        d = paddle.distribution.Normal(loc, paddle.full([2], 2.0))
        lp = d.log_prob(paddle.static.data("v", [2], "float32"))
        ent = d.entropy()
        s = d.sample([3])
        kl = paddle.distribution.kl_divergence(d, paddle.distribution.Normal(paddle.zeros([2]), paddle.ones([2])))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    lp_v, ent_v, s_v, kl_v = exe.run(main, feed={"loc": np.array([0.0, 1.0], "float32"),
                                                 "v": np.array([1.0, 1.0], "float32")}, fetch_list=[lp, ent, s, kl])
    np.testing.assert_allclose(lp_v, -0.5 * (np.array([1.0, 0.0]) / 2) ** 2 - np.log(2) - 0.5 * np.log(2 * np.pi),
                               rtol=1e-6)
    np.testing.assert_allclose(ent_v, 0.5 + 0.5 * np.log(2 * np.pi) + np.log(2), rtol=1e-6)
    assert s_v.shape == (3, 2)
    np.testing.assert_allclose(kl_v, [np.log(0.5) + 1.5, np.log(0.5) + 2.0], rtol=1e-6)


def test_register_kl_and_errors():
    import paddle

    D = paddle.distribution

    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _kl(p, q):
        return paddle.to_tensor([42.0])

    n = D.Normal(_t([0.0]), _t([1.0]))
    assert float(D.kl_divergence(MyNormal(_t([0.0]), _t([1.0])), n)) == 42.0
    assert float(D.kl_divergence(n, n)) == 0.0
    with pytest.raises(NotImplementedError, match="Uniform.kl_divergence"):
        D.kl_divergence(D.Uniform(_t([0.0]), _t([1.0])), D.Uniform(_t([0.0]), _t([2.0])))
    with pytest.raises(TypeError, match="register_kl"):
        D.register_kl(int, D.Normal)
    with pytest.raises(ValueError, match="if one argument is Tensor"):
        D.Normal(_t([0.0]), 1.0)
    with pytest.raises(ValueError, match="Bernoulli: The arg of `probs` must be in range"):
        D.Bernoulli(_t([1.5]))
    with pytest.raises(ValueError, match="Cauchy distribution has no mean"):
        _ = D.Cauchy(0.0, 1.0).mean
    with pytest.raises(ValueError, match="reinterpreted_batch_rank"):
        D.Independent(n, 2)
    with pytest.raises(NotImplementedError, match="non-injective"):
        D.SoftmaxTransform().forward_log_det_jacobian(_t([[1.0, 2.0]]))
    with pytest.raises(TypeError, match="sample shape must be Iterable"):
        n.sample(3)
