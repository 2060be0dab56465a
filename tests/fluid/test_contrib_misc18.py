"""The rest of fluid.contrib against Paddle 1.8.5 (tests/fluid/cases18_contrib_misc.py, golden fluid18_contrib_misc),
op_freq_statistic (1.8.5's own uses dict.has_key and fails on Python 3), shuffle_batch, and the names that raise a
clear error."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fluid import cases18_contrib_misc as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_contrib_misc")


def test_op_freq_statistic():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [-1, 4], "float32")
        h = fluid.layers.fc(x, 3, act="relu")
        fluid.layers.fc(h, 2, act="relu")
    uni, adj = fluid.contrib.op_freq_statistic(main)
    assert dict(uni) == {"mul": 2, "elementwise_add": 2, "relu": 2}
    assert dict(adj) == {"mul->elementwise_add": 2, "elementwise_add->relu": 2, "relu->mul": 1}
    with pytest.raises(TypeError, match="The input type should be Porgram"):
        fluid.contrib.op_freq_statistic(3)


def test_shuffle_batch_permutes_rows_per_run():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.data("x", [8, 2], "float32")
        out = fluid.contrib.layers.shuffle_batch(x, seed=5)
    exe = fluid.Executor(fluid.CPUPlace())
    xv = np.arange(16, dtype="float32").reshape(8, 2)
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        a, b = (exe.run(main, feed={"x": xv}, fetch_list=[out])[0] for _ in range(2))
    for r in (a, b):
        assert sorted(map(tuple, r.tolist())) == sorted(map(tuple, xv.tolist()))
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("name", ["QuantizeTranspiler", "Compressor", "HDFSClient", "multi_download",
                                  "search_pyramid_hash", "tdm_sampler"])
def test_unsupported_contrib_names_raise_clearly(name):
    import paddle

    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match=f"paddle.fluid.contrib.{name}"):
        getattr(paddle.fluid.contrib, name)()


def test_fused_elemwise_activation_combination_error():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        a = fluid.data("a", [2, 2], "float32")
        with pytest.raises(ValueError, match="sigmoid,elementwise_mul has not been implemented"):
            fluid.contrib.layers.fused_elemwise_activation(a, a, "sigmoid,elementwise_mul")
        with pytest.raises(ValueError, match="functor_list should be a list of str"):
            fluid.contrib.layers.fused_elemwise_activation(a, a, ["relu"])
