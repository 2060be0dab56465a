"""paddle.nn.utils and the paddle.nn.initializer additions against real Paddle 2.6.2 (tests/goldens/nn26_utils,
recorded by tools/oracle/rec_nn26_utils.py on the cases of tools/oracle/utils26_cases.py)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from tests.conftest import load_golden

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "oracle"))
import utils26_cases as C  # noqa: E402

META, G = load_golden("nn26_utils")


def _close(got, key):
    np.testing.assert_allclose(np.asarray(got).reshape(G[key].shape), G[key], rtol=1e-4, atol=1e-5, err_msg=key)


@pytest.mark.parametrize("cid,ctor,call,shape,spectral",
                         [(*c, False) for c in C.WEIGHT_NORM] + [(*c, True) for c in C.SPECTRAL_NORM],
                         ids=[c[0] for c in C.WEIGHT_NORM + C.SPECTRAL_NORM])
def test_norm_hooks_match_paddle(cid, ctor, call, shape, spectral):
    import paddle
    import paddle.nn as nn  # noqa: F401 - read by eval
    import paddle.nn.utils as U  # noqa: F401 - read by eval

    rec = META[cid]
    layer = eval(ctor)
    layer.set_state_dict({k: G[f"{cid}__init__{k}"] for k in layer.state_dict()})
    eval(call)
    sd = layer.state_dict()
    # a whole-tensor norm (dim None / -1) is 0-D in Paddle 2.6 and [1] in 2.4 (and here)
    assert list(sd) == rec["keys"] and [list(v.shape) for v in sd.values()] == [s or [1] for s in rec["shapes"]]
    assert [n for n, _ in layer.named_parameters()] == rec["params"]
    if spectral:
        layer.set_state_dict({k[len(cid) + 7:]: v for k, v in G.items() if k.startswith(f"{cid}__set__")})
    for k, v in layer.state_dict().items():
        _close(v.numpy(), f"{cid}__before__{k}")
    x = paddle.to_tensor(C.values(cid + "x", shape, 1.0), stop_gradient=False)
    layer.train()
    out = layer(x)
    _close(out.numpy(), f"{cid}__out")
    (out * paddle.to_tensor(C.loss_weights(list(out.shape)))).sum().backward()
    _close(x.grad.numpy(), f"{cid}__xgrad")
    for n, p in layer.named_parameters():
        if f"{cid}__grad__{n}" in G:
            _close(p.grad.numpy(), f"{cid}__grad__{n}")
    for k, v in layer.state_dict().items():
        _close(v.numpy(), f"{cid}__after__{k}")
    if spectral:
        layer.eval()
        _close(layer(x).numpy(), f"{cid}__out_eval")
    else:
        U.remove_weight_norm(layer)
        assert list(layer.state_dict()) == rec["removed_keys"]
        _close(layer.weight.numpy(), f"{cid}__removed__weight")


def _two_params_with_grads():
    import paddle

    ps = [paddle.create_parameter([2, 3], "float32"), paddle.create_parameter([4], "float32")]
    for i, p in enumerate(ps):
        p.grad = paddle.to_tensor(C.values(f"clip{i}", list(p.shape), 2.0))
    return ps


@pytest.mark.parametrize("norm_type", C.CLIP_NORM_TYPES)
def test_clip_grad_norm_(norm_type):
    import paddle

    ps = _two_params_with_grads()
    total = paddle.nn.utils.clip_grad_norm_(ps, max_norm=0.5, norm_type=norm_type)
    _close(total.numpy(), f"clipnorm_{norm_type}__total")
    for i, p in enumerate(ps):
        _close(p.grad.numpy(), f"clipnorm_{norm_type}__grad{i}")


def test_clip_grad_value_and_errors():
    import paddle

    ps = _two_params_with_grads()
    paddle.nn.utils.clip_grad_value_(ps, 0.7)
    for i, p in enumerate(ps):
        _close(p.grad.numpy(), f"clipvalue__grad{i}")
    with pytest.raises(ValueError, match="clip_grad_norm_: norm_type only support"):
        paddle.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=3)
    ps[0].grad = paddle.to_tensor(np.full([2, 3], np.inf, "float32"))
    with pytest.raises(RuntimeError, match="non-finite"):
        paddle.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
    paddle.enable_static()
    with pytest.raises(RuntimeError, match="clip_grad_value_: this API can only run in dynamic mode"):
        paddle.nn.utils.clip_grad_value_(ps, 1.0)


def test_parameters_to_vector_and_back():
    import paddle

    layer = paddle.nn.Linear(3, 2)
    layer.set_state_dict({"weight": C.values("p2v_w", [3, 2]), "bias": C.values("p2v_b", [2])})
    vec = paddle.nn.utils.parameters_to_vector(layer.parameters())
    _close(vec.numpy(), "p2v__vec")
    assert vec.stop_gradient == META["p2v"]["stop_gradient"]
    paddle.nn.utils.vector_to_parameters(paddle.to_tensor(C.values("v2p", [8])), layer.parameters())
    _close(layer.weight.numpy(), "v2p__weight")
    _close(layer.bias.numpy(), "v2p__bias")
    with pytest.raises(ValueError, match="vector_to_parameters.*8 elements"):
        paddle.nn.utils.vector_to_parameters(paddle.ones([7]), layer.parameters())


def test_weight_norm_errors():
    import paddle

    layer = paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match="two weight_norm hooks"):
        paddle.nn.utils.weight_norm(layer)
    with pytest.raises(ValueError, match="weight_norm of 'bias' not found"):
        paddle.nn.utils.remove_weight_norm(layer, "bias")
    with pytest.raises(ValueError, match="dim must set between"):
        paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2), dim=2)


def test_deterministic_initializers():
    import paddle

    init = paddle.nn.initializer
    for i, shape in enumerate(C.BILINEAR_SHAPES):
        _close(paddle.create_parameter(shape, "float32", default_initializer=init.Bilinear()).numpy(), f"bilinear_{i}")
    for i, (shape, groups) in enumerate(C.DIRAC):
        _close(paddle.create_parameter(shape, "float32", default_initializer=init.Dirac(groups)).numpy(), f"dirac_{i}")
    np.testing.assert_allclose([init.calculate_gain(n, p) for n, p in C.GAINS], META["gains"], rtol=1e-12)
    with pytest.raises(ValueError, match="calculate_gain.*not suppported"):
        init.calculate_gain("gelu")
    with pytest.raises(ValueError, match="Bilinear.*shape\\[2\\] must be equal"):
        paddle.create_parameter([1, 1, 2, 3], "float32", default_initializer=init.Bilinear())


def test_set_global_initializer():
    import paddle

    init = paddle.nn.initializer
    init.set_global_initializer(init.Constant(0.25), init.Constant(-0.5))
    try:
        lin = paddle.nn.Linear(2, 3)
        own = paddle.nn.Linear(2, 3, weight_attr=paddle.ParamAttr(initializer=init.Constant(2.0)))
    finally:
        init.set_global_initializer(None)
    _close(lin.weight.numpy(), "global__weight")
    _close(lin.bias.numpy(), "global__bias")
    _close(own.weight.numpy(), "global__own_weight")
    assert abs(float(paddle.nn.Linear(2, 3).bias.numpy().sum())) == 0  # defaults are back


@pytest.mark.parametrize("shape", [[3, 5], [5, 3], [4, 2, 3, 3]])
def test_orthogonal_initializer(shape):
    import paddle

    paddle.seed(0)
    w = paddle.create_parameter(shape, "float64", default_initializer=paddle.nn.initializer.Orthogonal(1.5)).numpy()
    m = w.reshape(shape[0], -1)
    small = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    np.testing.assert_allclose(small, 1.5 ** 2 * np.eye(small.shape[0]), atol=1e-10)
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3])
        paddle.static.nn.fc(x, 4, weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Orthogonal()))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    w = np.array(paddle.static.global_scope().find_var(main.all_parameters()[0].name).get_tensor())
    np.testing.assert_allclose(w @ w.T, np.eye(3), atol=1e-5)
