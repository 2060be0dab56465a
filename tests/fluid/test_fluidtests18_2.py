"""More behaviours Paddle's own fluid-era tests showed differing from 1.8.5 (tools/paddle_tests), one row each,
against real Paddle 1.8.5 (tests/fluid/cases18_fluidtests2.py, golden fluid18_fluidtests2)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_fluidtests2 as C

META, GOLDEN = load_golden("fluid18_fluidtests2")


@pytest.fixture(autouse=True)
def _static():
    import paddle

    paddle.enable_static()


def test_every_case_recorded():
    assert sorted({k.split("/")[0] for k in GOLDEN}) == sorted(C.CASES)


@pytest.mark.parametrize("case", sorted(C.CASES))
def test_matches_paddle18(case):
    import paddle

    got = C.CASES[case](paddle.fluid)
    want = {k.split("/", 1)[1]: v for k, v in GOLDEN.items() if k.startswith(case + "/")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = np.asarray(got[k])
        assert g.shape == w.shape and g.dtype == w.dtype, (k, g.shape, g.dtype, w.shape, w.dtype)
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=1e-6, err_msg=k)
        else:
            np.testing.assert_array_equal(g, w, err_msg=k)


def test_array_read_without_lod_names_the_api():
    """An array marked as holding LoD whose element at this step has none: the sequence op's error says so."""
    import paddle

    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        L = fluid.layers
        x = L.data("x", shape=[3], dtype="float32", lod_level=1)
        i = L.zeros(shape=[1], dtype="int64")
        arr = L.create_array("float32")
        L.array_write(x, i=i, array=arr)
        out = L.sequence_pool(L.array_read(arr, i=i), "sum")
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    with pytest.raises(Exception, match="array_read: the element read from the tensor array carries no LoD"):
        exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[out])
