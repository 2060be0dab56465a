"""paddle.distribution cases over the public API (see rec_cases26.py): densities, entropies, KL divergences,
moments, cdf / icdf, transforms and sample shapes. Parameters are Tensors (scalar parameters are 0-D in Paddle
2.6 and [1] here, as in 2.4). Sampling statistics are checked in tests/api2x/test_distribution.py."""
import numpy as np


def _t(paddle, a, dtype="float32"):
    return paddle.to_tensor(np.asarray(a, dtype))


def _common(paddle, d, value, *, entropy=True, moments=True, extra=()):
    out = {"log_prob": d.log_prob(value).numpy(), "prob": d.prob(value).numpy()}
    if entropy:
        out["entropy"] = d.entropy().numpy()
    if moments:
        out["mean"], out["variance"] = d.mean.numpy(), d.variance.numpy()
    for name in extra:
        out[name] = getattr(d, name)(value).numpy()
    out["batch_shape"], out["event_shape"] = np.array(d.batch_shape), np.array(d.event_shape)
    return out


def normal(paddle):
    D = paddle.distribution
    d = D.Normal(_t(paddle, [0.0, 1.0, -2.0]), _t(paddle, [1.0, 0.5, 2.0]))
    out = _common(paddle, d, _t(paddle, [0.3, 1.2, -1.0]), extra=("probs",))
    out["kl"] = d.kl_divergence(D.Normal(_t(paddle, [1.0, 1.0, 1.0]), _t(paddle, [2.0, 1.0, 0.5]))).numpy()
    out["kl_fn"] = D.kl_divergence(d, D.Normal(_t(paddle, [0.5]), _t(paddle, [1.5]))).numpy()
    out["sample_shape"] = np.array(d.sample([4, 2]).shape)
    out["rsample_shape"] = np.array(d.rsample([5]).shape)
    d64 = D.Normal(np.array([0.0, 1.0]), np.array([1.0, 3.0]))
    out["f64_log_prob"] = d64.log_prob(_t(paddle, [0.5, 0.5], "float64")).numpy()
    return out


def uniform(paddle):
    D = paddle.distribution
    d = D.Uniform(_t(paddle, [0.0, -1.0]), _t(paddle, [2.0, 3.0]))
    out = _common(paddle, d, _t(paddle, [1.0, 4.0]), moments=False, extra=("probs",))
    out["sample_shape"] = np.array(d.sample([3]).shape)
    out["list_entropy"] = D.Uniform([0.0, 1.0], [1.0, 5.0]).entropy().numpy()
    return out


def categorical(paddle):
    D = paddle.distribution
    logits = _t(paddle, [[1.0, 2.0, 3.0], [0.5, 0.5, 2.0]])
    d = D.Categorical(logits)
    other = D.Categorical(_t(paddle, [[2.0, 1.0, 1.0], [1.0, 3.0, 0.5]]))
    out = {"entropy": d.entropy().numpy(), "kl": d.kl_divergence(other).numpy(),
           "kl_fn": D.kl_divergence(d, other).numpy(),
           "probs_1d": d.probs(paddle.to_tensor([0, 2])).numpy(),
           "probs_2d": d.probs(paddle.to_tensor([[0], [2]])).numpy(),
           "log_prob": d.log_prob(paddle.to_tensor([[1], [1]])).numpy(),
           "sample_shape": np.array(d.sample([5]).shape)}
    one = D.Categorical(_t(paddle, [1.0, 3.0, 6.0]))
    out["probs_flat"] = one.probs(paddle.to_tensor([2, 0, 1])).numpy()
    out["sample_flat_shape"] = np.array(one.sample([2, 3]).shape)
    return out


def bernoulli(paddle):
    D = paddle.distribution
    d = D.Bernoulli(_t(paddle, [0.2, 0.7, 1.0]))
    out = _common(paddle, d, _t(paddle, [1.0, 0.0, 1.0]), extra=("cdf",))
    out["kl"] = d.kl_divergence(D.Bernoulli(_t(paddle, [0.5, 0.5, 0.9]))).numpy()
    out["cdf_half"] = d.cdf(_t(paddle, [0.5, -1.0, 2.0])).numpy()
    out["sample_shape"] = np.array(d.sample([4]).shape)
    out["rsample_shape"] = np.array(d.rsample([2, 3], temperature=0.5).shape)
    return out


def beta_dirichlet(paddle):
    D = paddle.distribution
    b = D.Beta(_t(paddle, [0.5, 2.0]), _t(paddle, [0.5, 3.0]))
    out = {f"beta_{k}": v for k, v in _common(paddle, b, _t(paddle, [0.3, 0.6])).items()}
    out["beta_kl"] = D.kl_divergence(b, D.Beta(_t(paddle, [1.0, 2.0]), _t(paddle, [3.0, 1.0]))).numpy()
    out["beta_sample_shape"] = np.array(b.sample([3]).shape)
    c = _t(paddle, [[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]])
    dd = D.Dirichlet(c)
    value = _t(paddle, [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    out.update({f"dir_{k}": v for k, v in _common(paddle, dd, value).items()})
    out["dir_kl"] = D.kl_divergence(dd, D.Dirichlet(_t(paddle, [[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]]))).numpy()
    out["dir_sample_shape"] = np.array(dd.sample([4]).shape)
    return out


def cauchy_laplace(paddle):
    D = paddle.distribution
    c = D.Cauchy(_t(paddle, [0.0, 1.0]), _t(paddle, [1.0, 2.0]))
    v = _t(paddle, [0.5, -1.0])
    out = {f"cauchy_{k}": val for k, val in _common(paddle, c, v, moments=False, extra=("cdf",)).items()}
    out["cauchy_kl"] = c.kl_divergence(D.Cauchy(_t(paddle, [1.0, 1.0]), _t(paddle, [0.5, 1.0]))).numpy()
    out["cauchy_sample_shape"] = np.array(c.sample([3]).shape)
    la = D.Laplace(_t(paddle, [0.0, 1.0]), _t(paddle, [1.0, 0.5]))
    out.update({f"laplace_{k}": val for k, val in _common(paddle, la, v, extra=("cdf",)).items()})
    out["laplace_icdf"] = la.icdf(_t(paddle, [0.2, 0.9])).numpy()
    out["laplace_stddev"] = la.stddev.numpy()
    out["laplace_kl"] = la.kl_divergence(D.Laplace(_t(paddle, [1.0, 0.0]), _t(paddle, [2.0, 1.0]))).numpy()
    out["laplace_sample_shape"] = np.array(la.rsample([2, 3]).shape)
    return out


def geometric_gumbel_lognormal(paddle):
    D = paddle.distribution
    g = D.Geometric(_t(paddle, [0.2, 0.5]))
    out = {"geo_mean": g.mean.numpy(), "geo_variance": g.variance.numpy(), "geo_stddev": g.stddev.numpy(),
           "geo_entropy": g.entropy().numpy(), "geo_pmf": g.pmf(3).numpy(), "geo_log_pmf": g.log_pmf(2).numpy(),
           "geo_cdf": g.cdf(4).numpy(), "geo_kl": g.kl_divergence(D.Geometric(_t(paddle, [0.3, 0.3]))).numpy(),
           "geo_sample_shape": np.array(g.sample([3]).shape)}
    gu = D.Gumbel(_t(paddle, [0.0, 1.0]), _t(paddle, [1.0, 2.0]))
    v = _t(paddle, [0.5, 3.0])
    out.update({f"gumbel_{k}": val for k, val in _common(paddle, gu, v, extra=("cdf",)).items()})
    out["gumbel_stddev"] = gu.stddev.numpy()
    out["gumbel_sample_shape"] = np.array(gu.sample([4]).shape)
    ln = D.LogNormal(_t(paddle, [0.0, 1.0]), _t(paddle, [1.0, 0.5]))
    out.update({f"ln_{k}": val for k, val in _common(paddle, ln, _t(paddle, [2.0, 0.5]), extra=("probs",)).items()})
    out["ln_kl"] = D.kl_divergence(ln, D.LogNormal(_t(paddle, [1.0, 1.0]), _t(paddle, [1.0, 2.0]))).numpy()
    out["ln_sample_shape"] = np.array(ln.sample([3]).shape)
    return out


def multinomial_independent(paddle):
    D = paddle.distribution
    m = D.Multinomial(6, _t(paddle, [0.2, 0.3, 0.5]))
    out = {"m_log_prob": m.log_prob(_t(paddle, [1.0, 2.0, 3.0])).numpy(),
           "m_prob": m.prob(_t(paddle, [0.0, 0.0, 6.0])).numpy(), "m_entropy": m.entropy().numpy(),
           "m_mean": m.mean.numpy(), "m_variance": m.variance.numpy(), "m_sample_shape": np.array(m.sample([4]).shape)}
    base = D.Normal(_t(paddle, [[0.0, 1.0], [2.0, 3.0]]), _t(paddle, [[1.0, 1.0], [2.0, 0.5]]))
    ind = D.Independent(base, 1)
    out["ind_log_prob"] = ind.log_prob(_t(paddle, [[0.5, 0.5], [1.0, 1.0]])).numpy()
    out["ind_entropy"] = ind.entropy().numpy()
    out["ind_shapes"] = np.array([len(ind.batch_shape), len(ind.event_shape)])
    return out


def transforms(paddle):
    D = paddle.distribution
    x = _t(paddle, [[0.5, -1.0, 2.0], [0.1, 0.2, -0.3]])
    pos = _t(paddle, [[0.5, 1.0, 2.0], [0.1, 0.2, 0.3]])
    out = {}
    bij = {"affine": (D.AffineTransform(_t(paddle, [1.0]), _t(paddle, [-2.0])), x),
           "exp": (D.ExpTransform(), x), "sigmoid": (D.SigmoidTransform(), x), "tanh": (D.TanhTransform(), x),
           "power": (D.PowerTransform(_t(paddle, [2.0])), pos),
           "chain": (D.ChainTransform([D.AffineTransform(_t(paddle, [0.5]), _t(paddle, [2.0])), D.ExpTransform()]),
                     x),
           "indep": (D.IndependentTransform(D.ExpTransform(), 1), x),
           "stick": (D.StickBreakingTransform(), x),
           "stack": (D.StackTransform([D.ExpTransform(), D.TanhTransform(), D.SigmoidTransform()], 1), x),
           "reshape": (D.ReshapeTransform((3,), (1, 3)), x)}
    for name, (t, v) in bij.items():
        y = t.forward(v)
        out[f"{name}_forward"] = y.numpy()
        out[f"{name}_inverse"] = t.inverse(y).numpy()
        out[f"{name}_fldj"] = t.forward_log_det_jacobian(v).numpy()
        out[f"{name}_ildj"] = t.inverse_log_det_jacobian(y).numpy()
        out[f"{name}_fshape"] = np.array(t.forward_shape((2, 3)))
    sm = D.SoftmaxTransform()
    out["softmax_forward"] = sm.forward(x).numpy()
    out["softmax_inverse"] = sm.inverse(sm.forward(x)).numpy()
    ab = D.AbsTransform()
    out["abs_forward"] = ab.forward(x).numpy()
    out["abs_inverse_neg"], out["abs_inverse_pos"] = (t.numpy() for t in ab.inverse(pos))
    return out


def transformed_distribution(paddle):
    D = paddle.distribution
    base = D.Normal(_t(paddle, [0.0, 1.0]), _t(paddle, [1.0, 2.0]))
    td = D.TransformedDistribution(base, [D.AffineTransform(_t(paddle, [1.0]), _t(paddle, [2.0])),
                                          D.ExpTransform()])
    out = {"log_prob": td.log_prob(_t(paddle, [1.5, 3.0])).numpy(), "prob": td.prob(_t(paddle, [1.5, 3.0])).numpy(),
           "sample_shape": np.array(td.sample([3]).shape), "shapes": np.array([len(td.batch_shape),
                                                                              len(td.event_shape)])}
    # NOTE: a transform of higher event rank than the base (StickBreaking over a Normal) fails in Paddle 2.6
    # (it calls Independent with a tuple); tests/api2x/test_distribution.py checks ours against the formula.
    return out


CASES = [normal, uniform, categorical, bernoulli, beta_dirichlet, cauchy_laplace, geometric_gumbel_lognormal,
         multinomial_independent, transforms, transformed_distribution]
