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


def test_save_inference_model_with_control_flow_sub_blocks_round_trips(tmp_path):
    """book/test_rnn_encoder_decoder saves a DynamicRNN program: sub-blocks (DynamicRNN step, While body) are
    stored inside the saved program and the loaded one computes the same."""
    import paddle

    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", shape=[3], dtype="float32", lod_level=1)
        h0 = fluid.layers.data("h0", shape=[4], dtype="float32")
        rnn = fluid.layers.DynamicRNN()
        with rnn.block():
            w = rnn.step_input(x)
            m = rnn.memory(init=h0, need_reorder=True)
            h = fluid.layers.fc([w, m], 4, act="tanh")
            rnn.update_memory(m, h)
            rnn.output(h)
        out = fluid.layers.sequence_last_step(rnn())
        i = fluid.layers.fill_constant([1], "int64", 0)
        n = fluid.layers.fill_constant([1], "int64", 3)
        acc = fluid.layers.fill_constant([1], "float32", 1.0)
        cond = fluid.layers.less_than(i, n)
        loop = fluid.layers.While(cond)
        with loop.block():
            fluid.layers.assign(acc * 2.0, acc)
            fluid.layers.increment(i, 1, in_place=True)
            fluid.layers.less_than(i, n, cond=cond)
        res = out * acc
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = {"x": fluid.create_lod_tensor(np.arange(15, dtype="float32").reshape(5, 3) / 10, [[2, 3]],
                                         fluid.CPUPlace()),
            "h0": np.full((2, 4), 0.1, "float32")}
    want, = exe.run(main, feed=feed, fetch_list=[res])
    fluid.io.save_inference_model(str(tmp_path), ["x", "h0"], [res], exe, main)
    prog, feeds, fetches = fluid.io.load_inference_model(str(tmp_path), exe)
    got, = exe.run(prog, feed=feed, fetch_list=fetches)
    assert feeds == ["x", "h0"]
    np.testing.assert_allclose(got, want, rtol=1e-6)
