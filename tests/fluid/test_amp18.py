"""fluid.contrib.mixed_precision: loss scaling against Paddle 1.8.5 (tests/fluid/cases18_amp.py, golden fluid18_amp),
and the float16 compute of white-list ops (which Paddle 1.8.5 cannot run on CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_amp as C

_, GOLDEN = load_golden("fluid18_amp")


@pytest.fixture(scope="module")
def ours():
    import paddle

    paddle.enable_static()
    return C.run(paddle.fluid)


@pytest.mark.parametrize("case", sorted({k.split("|")[0] for k in GOLDEN}))
def test_loss_scaling_matches_paddle18(ours, case):
    keys = sorted(k for k in GOLDEN if k.startswith(case + "|"))
    assert keys == sorted(k for k in ours if k.startswith(case + "|"))
    for k in keys:
        np.testing.assert_allclose(ours[k], GOLDEN[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_white_list_ops_compute_in_float16():
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    rs = np.random.RandomState(0)
    w = rs.randn(8, 3).astype("float32")
    x = rs.randn(4, 8).astype("float32") * 3
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        xv = fluid.data("x", [-1, 8], "float32")
        y = fluid.layers.fc(xv, 3, bias_attr=False,
                            param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(w)))
        loss = fluid.layers.mean(y)
        opt = fluid.contrib.mixed_precision.decorate(fluid.optimizer.SGD(0.0), init_loss_scaling=128.0)
        opt.minimize(loss)
    assert y.dtype == paddle.float32  # variables keep float32; the mul runs in float16
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(fluid.Scope()):
        exe.run(startup)
        (got,) = exe.run(main, feed={"x": x}, fetch_list=[y])
    want16 = (x.astype("float16") @ w.astype("float16")).astype("float32")
    np.testing.assert_allclose(got, want16, rtol=2e-3, atol=2e-3)
    assert not np.allclose(got, x @ w, rtol=1e-6, atol=1e-6)


def test_amp_lists():
    import paddle

    mp = paddle.fluid.contrib.mixed_precision
    lists = mp.AutoMixedPrecisionLists(custom_white_list=["tanh"], custom_black_list=["mul"])
    assert "tanh" in lists.white_list and "tanh" not in lists.gray_list
    assert "mul" in lists.black_list and "mul" not in lists.white_list
    with pytest.raises(ValueError, match="Custom white list overlap custom black list"):
        mp.AutoMixedPrecisionLists(custom_white_list=["mul"], custom_black_list=["mul"])
