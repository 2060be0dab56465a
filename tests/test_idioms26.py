"""Issue 12 item 2: the 2.x idioms, against real Paddle 2.6.2 (tests/cases26_idioms.py, golden tests/goldens/idioms26),
and the errors that must name the Paddle API instead of passing torch's through."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests import cases26_idioms as C
from tests.conftest import check_case26, load_golden

_, GOLDEN = load_golden("idioms26")


@pytest.mark.parametrize("name", sorted(C.CASES))
def test_idiom_matches_paddle26(name):
    check_case26(GOLDEN, C.CASES, name, rtol=1e-6, atol=0)


def _log_softmax_str_axis(paddle):
    paddle.nn.functional.log_softmax(paddle.ones([2, 3]), axis="1")


def _reflect_pad_too_wide(paddle):
    paddle.nn.functional.pad(paddle.ones([1, 1, 2]), [3, 3], mode="reflect", data_format="NCL")


def _reflect_pad_2d_too_high(paddle):
    paddle.nn.functional.pad(paddle.ones([1, 1, 2, 5]), [1, 1, 0, 2], mode="reflect")


def _dropout_p_tensor_shape(paddle):
    paddle.nn.functional.dropout(paddle.ones([4]), p=paddle.to_tensor([0.1, 0.2]))


def _unexpected_kwarg(paddle):
    paddle.nn.functional.relu6(paddle.ones([2]), axis=1)


def _beam_end_token(paddle):
    nn = paddle.nn
    cell = nn.GRUCell(4, 4)
    dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=4, beam_size=2, embedding_fn=nn.Embedding(8, 4),
                               output_fn=nn.Linear(4, 4))
    nn.dynamic_decode(dec, inits=cell.get_initial_states(paddle.ones([2, 3, 4])), max_step_num=2)


# (case, exception classes it must be, text the message must hold)
ERRORS = [
    (_log_softmax_str_axis, (TypeError, ValueError), "paddle.nn.functional.log_softmax"),
    (_reflect_pad_too_wide, (ValueError,), "pad_left in reflect mode, but received width(2) and pad_left(3)"),
    (_reflect_pad_2d_too_high, (ValueError,), "received height(2) and pad_bottom(2)"),
    (_dropout_p_tensor_shape, (TypeError,), "Required p.shape == [1]"),
    (_unexpected_kwarg, (TypeError,), "paddle.nn.functional.relu6"),
    (_beam_end_token, (IndexError,), "list assignment index out of range"),
]


@pytest.mark.parametrize("case, types, text", ERRORS, ids=[c.__name__.strip("_") for c, _, _ in ERRORS])
def test_errors_name_the_paddle_api(case, types, text):
    import paddle

    paddle.disable_static()
    with pytest.raises(types) as info:
        case(paddle)
    assert text in str(info.value)
    assert all(isinstance(info.value, t) for t in types)


def test_no_torch_warning_reading_grad_of_a_non_leaf():
    import paddle

    paddle.disable_static()
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 3
    y.sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad is None
        assert x.grad.numpy().tolist() == [3.0, 3.0]


def test_dropout_p_tensor_records_in_static_mode():
    import paddle

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            p = paddle.static.data("p", [1], "float32")
            out = paddle.nn.functional.dropout(x, p=p)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        xv = np.ones([2, 3], "float32")
        (o0,) = exe.run(main, feed={"x": xv, "p": np.array([0.0], "float32")}, fetch_list=[out])
        (o1,) = exe.run(main, feed={"x": xv, "p": np.array([1.0], "float32")}, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(o0, xv)
    np.testing.assert_array_equal(o1, np.zeros_like(xv))


def test_int_tensor_stop_gradient_flag_round_trips():
    import paddle

    paddle.disable_static()
    t = paddle.to_tensor([1, 2])
    assert t.stop_gradient
    t.stop_gradient = False
    assert not t.stop_gradient
    t.stop_gradient = True
    assert t.stop_gradient
    assert (t + 1).stop_gradient  # no gradient flows through integers


def test_layer_given_dtype_wins_over_default_dtype():
    """fluid 1.8 dygraph layers pass their dtype; 2.x layers follow paddle.get_default_dtype()."""
    import paddle

    paddle.disable_static()
    paddle.set_default_dtype("float64")
    try:
        assert str(paddle.fluid.dygraph.Linear(2, 3).weight.dtype) == "paddle.float32"
        assert str(paddle.fluid.dygraph.Linear(2, 3, dtype="float64").weight.dtype) == "paddle.float64"
        assert str(paddle.nn.Linear(2, 3).weight.dtype) == "paddle.float64"
    finally:
        paddle.set_default_dtype("float32")
    assert str(paddle.nn.Linear(2, 3).weight.dtype) == "paddle.float32"


def test_numpy_of_lazy_conjugate_views():
    import paddle

    paddle.disable_static()
    x = paddle.to_tensor(np.array([1 + 2j, 3 - 1j], "complex64"))
    np.testing.assert_array_equal(paddle.conj(x).numpy(), np.array([1 - 2j, 3 + 1j], "complex64"))
    np.testing.assert_allclose(paddle.fft.ifft(x).numpy(), np.fft.ifft(np.array([1 + 2j, 3 - 1j])), rtol=1e-6)


def test_numpy_returns_a_copy():
    """Paddle's Tensor.numpy() copies: writing into the array leaves the tensor (a parameter, say) alone."""
    import paddle

    paddle.disable_static()
    w = paddle.nn.Linear(2, 2).weight
    before = w.numpy()
    a = w.numpy()
    a *= 0
    np.testing.assert_array_equal(w.numpy(), before)
