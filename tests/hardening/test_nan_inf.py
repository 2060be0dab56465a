"""FLAGS_check_nan_inf in static, data-parallel and dygraph runs: the first op producing NaN / Inf raises
Paddle's PreconditionNotMet naming the op and the variable (goldens: hardening18 / hardening26)."""

from __future__ import annotations

import numpy as np
import pytest

from ._common import G18, G26, check_error


@pytest.fixture
def check_on():
    import paddle

    paddle.set_flags({"FLAGS_check_nan_inf": True})
    yield paddle
    paddle.set_flags({"FLAGS_check_nan_inf": False})


def _static_program(paddle, log_input=True, lr=0.1):
    import paddle.fluid as fluid

    x = fluid.layers.data("x", [3])
    h = fluid.layers.log(x) if log_input else x
    loss = fluid.layers.mean(fluid.layers.fc(h, 2))
    fluid.optimizer.SGD(lr).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fluid.default_startup_program())
    return fluid, exe, loss


BAD = {"x": np.array([[-1.0, 2.0, 3.0]], "float32")}
GOOD = {"x": np.array([[1.0, 2.0, 3.0]], "float32")}
STATIC_MSG = r"There are NAN or INF \(num_nan=1, num_inf=0, num_zero=0\) in \[device=cpu, op=log, " \
             r"tensor=log_0\.tmp_0, dtype=fp32\]"


def test_static_names_op_and_variable(check_on):
    fluid, exe, loss = _static_program(check_on)
    with pytest.raises(Exception) as ei:
        exe.run(feed=BAD, fetch_list=[loss])
    check_error(ei.value, G26["nan_static"], r"^\(PreconditionNotMet\) " + STATIC_MSG)
    check_error(ei.value, G18["nan_static"], r"op=log\b", r"tensor=log_0\.tmp_0", r"test_nan_inf\.py")
    assert exe.run(feed=GOOD, fetch_list=[loss])[0].shape == (1,)


def test_static_data_parallel(check_on, monkeypatch):
    monkeypatch.setenv("CPU_NUM", "2")
    fluid, exe, loss = _static_program(check_on)
    prog = fluid.CompiledProgram(fluid.default_main_program()).with_data_parallel(loss_name=loss.name)
    feed = {"x": np.concatenate([GOOD["x"], BAD["x"]])}
    with pytest.raises(RuntimeError, match=STATIC_MSG):
        exe.run(prog, feed=feed, fetch_list=[loss])
    assert exe.run(prog, feed={"x": np.concatenate([GOOD["x"]] * 2)}, fetch_list=[loss])[0].shape == (2,)


def test_static_optimizer_update_names_the_parameter(check_on):
    fluid, exe, loss = _static_program(check_on, log_input=False, lr=1e38)
    with pytest.raises(RuntimeError, match=r"op=sgd, tensor=fc_0\.(w|b)_0, dtype=fp32"):
        for _ in range(3):
            exe.run(feed={"x": np.full((1, 3), 1e30, "float32")}, fetch_list=[loss])


def test_static_off_costs_nothing():
    """With the flag off the executed graph is the plain one: no op is wrapped."""
    import paddle

    fluid, exe, loss = _static_program(paddle)
    out = exe.run(feed=BAD, fetch_list=[loss])
    assert np.isnan(out[0]).all()
    plans = list(fluid.default_main_program()._exec_cache.values())
    assert plans and all("_checked" not in p.gm.code for p in plans)


# (case, dygraph call, golden record or None, message regex); each makes a NaN or an Inf from finite inputs
DYGRAPH = [
    ("log", lambda p: p.log(p.to_tensor([-1.0, 2.0])), G26["nan_dygraph"],
     r"There are NAN or INF \(num_nan=1, num_inf=0, num_zero=0\) in \[device=cpu, op=log, tensor=, dtype=fp32\]"),
    ("div_operator", lambda p: p.to_tensor([1.0, 0.0]) / p.to_tensor([0.0, 0.0]), G26["nan_dygraph_div"],
     r"\(num_nan=1, num_inf=1, num_zero=0\) in \[device=cpu, op=elementwise_div, tensor=, dtype=fp32\]"),
    ("divide", lambda p: p.divide(p.to_tensor([1.0]), p.to_tensor([0.0])), None, r"op=elementwise_div"),
    ("exp_overflow", lambda p: p.exp(p.to_tensor([1000.0])), None, r"num_inf=1.*op=exp\b"),
    ("sqrt_backward", lambda p: p.sqrt(p.to_tensor([1.0, 0.0], stop_gradient=False)).sum().backward(), None,
     r"op=sqrt_grad.*in the backward of SqrtBackward"),
    ("matmul_overflow", lambda p: p.matmul(p.full([2, 2], 1e30), p.full([2, 2], 1e30)), None, r"op=matmul"),
]


@pytest.mark.parametrize("call,rec,pattern", [c[1:] for c in DYGRAPH], ids=[c[0] for c in DYGRAPH])
def test_dygraph_names_the_op(check_on, call, rec, pattern):
    with pytest.raises(RuntimeError, match=pattern) as ei:
        call(check_on)
    if rec is not None:
        check_error(ei.value, rec, r"^\(PreconditionNotMet\) There are NAN or INF")


def _linear(paddle, weight):
    lin = paddle.nn.Linear(2, 1)  # fixed weights: the random initialisation decides where an overflow happens
    lin.weight.set_value(np.full([2, 1], weight, "float32"))
    lin.bias.set_value(np.zeros([1], "float32"))
    return lin


def test_dygraph_training_stops_before_the_weights_go_bad(check_on):
    paddle = check_on
    lin = _linear(paddle, 1.0)
    opt = paddle.optimizer.SGD(1e30, parameters=lin.parameters())
    with pytest.raises(RuntimeError, match=r"There are NAN or INF.*op=(pow|elementwise_pow)\b"):
        loss = (lin(paddle.ones([4, 2]) * 1e20) ** 2).mean()  # (2e20)^2 overflows float32 in the forward
        loss.backward()
        opt.step()
    np.testing.assert_array_equal(lin.weight.numpy(), np.ones([2, 1], "float32"))  # no update ran


def test_dygraph_update_overflow_names_the_optimizer_op(check_on):
    paddle = check_on
    lin = _linear(paddle, 1e-3)
    opt = paddle.optimizer.SGD(1e30, parameters=lin.parameters())
    loss = (lin(paddle.ones([4, 2]) * 1e15) ** 2).mean()  # finite forward and gradient; lr * grad overflows
    loss.backward()
    with pytest.raises(RuntimeError, match=r"num_inf=2.*op=sgd\b"):
        opt.step()  # as Paddle, the check follows the in-place update: the parameter holds the Inf it reports


# made on purpose or removed inside the op: no error (Paddle's kernels never expose them either)
FINE = [
    ("maxpool_padding", lambda p: p.nn.functional.max_pool2d(p.rand([1, 1, 5, 5]), 3, 2, 1, ceil_mode=True)),
    ("masked_softmax", lambda p: p.nn.functional.softmax(p.rand([2, 4]) + p.to_tensor(
        [[0.0, 0.0, -np.inf, -np.inf], [0.0, 0.0, 0.0, -np.inf]]))),
    ("bce_on_0_and_1", lambda p: p.nn.functional.binary_cross_entropy(p.to_tensor([0.0, 1.0]),
                                                                      p.to_tensor([0.0, 1.0]))),
    ("log_softmax_large", lambda p: p.nn.functional.log_softmax(p.to_tensor([[1000.0, -1000.0]]))),
    ("empty_then_fill", lambda p: p.empty([64, 64]).fill_(1.0)),
]


@pytest.mark.parametrize("call", [c[1] for c in FINE], ids=[c[0] for c in FINE])
def test_dygraph_no_false_alarm(check_on, call):
    out = call(check_on)
    assert out is not None


def test_dygraph_off_after_reset():
    import paddle

    paddle.set_flags({"FLAGS_check_nan_inf": True})
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    assert np.isnan(paddle.log(paddle.to_tensor([-1.0])).numpy()).all()
    from paddle_compat.engine.framework import nan_inf

    assert not nan_inf._MODE and not nan_inf.ENABLED[0]
