"""fluid.contrib.match_matrix_tensor against Paddle 1.8.5 (tests/fluid/cases18_contrib_text.py, golden
fluid18_contrib_text), its gradient (1.8.5's CPU grad kernel crashes: checked against the same product written
with dense ops) and its input errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fluid import cases18_contrib_text as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_contrib_text")


def _program(fluid, y_dim=3):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data("x", [3], lod_level=1)
        y = fluid.layers.data("y", [y_dim], lod_level=1)
        out, _ = fluid.contrib.match_matrix_tensor(x, y, 2, param_attr=fluid.ParamAttr(
            name="w", initializer=fluid.initializer.NumpyArrayInitializer(C.W)))
        fluid.backward.append_backward(fluid.layers.reduce_sum(out * out))
    return main, startup


def test_weight_gradient_matches_dense_product():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = _program(fluid)
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        place = fluid.CPUPlace()
        (gw,) = exe.run(main, feed={"x": fluid.create_lod_tensor(C.X, [[2, 3]], place),
                                    "y": fluid.create_lod_tensor(C.Y, [[1, 3]], place)}, fetch_list=["w@GRAD"])
    want = np.zeros_like(C.W, dtype="float64")
    for xs, ys in ((C.X[:2], C.Y[:1]), (C.X[2:], C.Y[1:])):
        m = np.einsum("id,dte,je->tij", xs, C.W, ys)  # d/dW of sum(m^2) = 2 m x_i y_j
        want += np.einsum("tij,id,je->dte", 2 * m, xs, ys)
    np.testing.assert_allclose(gw, want, rtol=1e-5, atol=1e-5)


def test_errors_name_the_api():
    import paddle

    fluid = paddle.fluid
    paddle.enable_static()
    with pytest.raises(Exception, match=r"match_matrix_tensor.*same last dimension"):
        _program(fluid, y_dim=4)
    paddle.disable_static()
    try:
        with pytest.raises(Exception, match=r"match_matrix_tensor.*LoD"):
            fluid.contrib.match_matrix_tensor(paddle.ones([2, 3]), paddle.ones([2, 3]), 2)
    finally:
        paddle.enable_static()


def test_topk_avg_pooling_gradient_reaches_the_top_values_and_errors():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        m, r, c = C.image_and_sizes(fluid)
        out = fluid.contrib.sequence_topk_avg_pooling(m, r, c, [1, 2], 1)
        (gm,) = fluid.gradients(fluid.layers.reduce_sum(out), m)
        with pytest.raises(Exception, match=r"sequence_topk_avg_pooling: topks must be positive and ascending"):
            fluid.contrib.sequence_topk_avg_pooling(m, r, c, [2, 1], 1)
    place = fluid.CPUPlace()
    vals = np.array([[3.0], [1.0], [2.0]], "float32")  # one sequence: 1 row, 3 columns
    exe = fluid.Executor(place)
    feed = {"m": fluid.create_lod_tensor(vals, [[3]], place),
            "r": fluid.create_lod_tensor(np.zeros((1, 1), "float32"), [[1]], place),
            "c": fluid.create_lod_tensor(np.zeros((3, 1), "float32"), [[3]], place)}
    o, g = exe.run(main, feed=feed, fetch_list=[out, gm])
    np.testing.assert_allclose(o, [[3.0, 2.5]])
    np.testing.assert_allclose(g.ravel(), [1.5, 0.0, 0.5])  # as real 1.8.5 gives (top-1: 3; top-2 mean: 3, 2)
    feed["c"] = fluid.create_lod_tensor(np.zeros((2, 1), "float32"), [[2]], place)
    with pytest.raises(Exception, match=r"sequence_topk_avg_pooling: sequence 0 of input holds 3 values"):
        exe.run(main, feed=feed, fetch_list=[out])
