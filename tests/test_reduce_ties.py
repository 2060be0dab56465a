"""paddle.max / paddle.min give the whole gradient to every tied element (Paddle's reduce_max_grad:
dx = dy * (x == y)); torch's amax would split it. Expected values printed by Paddle 2.6.2 for these calls."""

from __future__ import annotations

import numpy as np
import pytest

X = [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]
CASES = [  # (function, axis, keepdim, grad of sum(f(x)) w.r.t. x)
    ("max", None, False, [[0, 1, 1], [0, 0, 0]]),
    ("max", 1, False, [[0, 1, 1], [1, 1, 0]]),
    ("max", [0, -1], True, [[0, 1, 1], [0, 0, 0]]),
    ("min", None, False, [[0, 0, 0], [0, 0, 1]]),
    ("min", 1, False, [[1, 0, 0], [0, 0, 1]]),
    ("min", 0, True, [[1, 0, 0], [0, 1, 1]]),
]


@pytest.mark.parametrize("fn,axis,keepdim,want", CASES)
def test_tied_elements_each_get_the_whole_gradient(fn, axis, keepdim, want):
    import paddle

    x = paddle.to_tensor(X, stop_gradient=False)
    getattr(paddle, fn)(x, axis=axis, keepdim=keepdim).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.array(want, "float32"))

    paddle.enable_static()  # the same body in a static program
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        xv = paddle.static.data("x", [2, 3])
        xv.stop_gradient = False
        (g,) = paddle.static.gradients([paddle.sum(getattr(paddle, fn)(xv, axis=axis, keepdim=keepdim))], [xv])
    exe = paddle.static.Executor(paddle.CPUPlace())
    (got,) = exe.run(main, feed={"x": np.array(X, "float32")}, fetch_list=[g])
    np.testing.assert_array_equal(got, np.array(want, "float32"))
