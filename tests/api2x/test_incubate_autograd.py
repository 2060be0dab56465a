"""paddle.incubate.autograd's vjp / jvp / Jacobian / Hessian against Paddle 2.6.2
(tools/oracle/incubate_autograd26_cases.py, golden incubate_autograd26)."""

from __future__ import annotations

import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("incubate_autograd26_cases"))
def test_case_matches_paddle(case):
    cases.check(case, "incubate_autograd26", rtol=1e-6, atol=1e-6)


def test_hessian_needs_a_scalar_function():
    import paddle

    with pytest.raises(RuntimeError, match="single element Tensor"):  # as Paddle: when it is built
        paddle.incubate.autograd.Hessian(lambda a: a * a, paddle.ones([2]))


def test_v_of_the_wrong_shape_is_named():
    import paddle

    with pytest.raises(RuntimeError, match=r"The v\[0\] has invalid shape"):
        paddle.incubate.autograd.vjp(lambda a: a * 2, paddle.ones([2]), paddle.ones([3]))


def test_static_mode_is_named():
    import paddle
    from paddle_compat.core.errors import UnsupportedAPIError

    paddle.enable_static()
    try:
        x = paddle.static.data("x", [2])
        with pytest.raises(UnsupportedAPIError, match="paddle.incubate.autograd.jvp .*in static programs"):
            paddle.incubate.autograd.jvp(lambda a: a * a, x)
    finally:
        paddle.disable_static()
