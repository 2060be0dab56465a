"""paddle.incubate.autograd's vjp / jvp / Jacobian / Hessian against Paddle 2.6.2
(tools/oracle/incubate_autograd26_cases.py, golden incubate_autograd26)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.api2x import cases


@pytest.mark.parametrize("case", cases.params("incubate_autograd26_cases"))
def test_case_matches_paddle(case):
    # float32 throughout; tanh's second derivative at 4 cancels to ~1e-2 of its terms (2e-5 absolute slack)
    cases.check(case, "incubate_autograd26", rtol=1e-6, atol=2e-5 if case.__name__ == "static_program" else 1e-6)


def test_hessian_needs_a_scalar_function():
    import paddle

    with pytest.raises(RuntimeError, match="single element Tensor"):  # as Paddle: when it is built
        paddle.incubate.autograd.Hessian(lambda a: a * a, paddle.ones([2]))


def test_v_of_the_wrong_shape_is_named():
    import paddle

    with pytest.raises(RuntimeError, match=r"The v\[0\] has invalid shape"):
        paddle.incubate.autograd.vjp(lambda a: a * 2, paddle.ones([2]), paddle.ones([3]))


def test_static_inputs_must_be_variables():
    import paddle

    paddle.enable_static()
    try:
        with pytest.raises(TypeError, match="paddle.incubate.autograd.jvp: Expected 'xs' is a Tensor"):
            paddle.incubate.autograd.jvp(lambda a: a * a, np.ones([2], "float32"))
    finally:
        paddle.disable_static()
