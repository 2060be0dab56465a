"""Behaviours Paddle's own fluid-era tests showed differing from 1.8.5 (tools/paddle_tests), one row each, against
real Paddle 1.8.5 (tests/fluid/cases18_fluidtests.py and cases18_fluidtests2.py, goldens fluid18_fluidtests and
fluid18_fluidtests2), plus the errors 1.8.5 raises."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import load_golden
from tests.fluid import cases18_fluidtests, cases18_fluidtests2

# (cases module, golden recorded from it by real 1.8.5)
SUITES = [(cases18_fluidtests, "fluid18_fluidtests"), (cases18_fluidtests2, "fluid18_fluidtests2")]
GOLDENS = {golden: load_golden(golden)[1] for _, golden in SUITES}


@pytest.fixture(autouse=True)
def _static():
    import paddle

    paddle.enable_static()


@pytest.mark.parametrize("module,golden", SUITES, ids=[g for _, g in SUITES])
def test_every_case_recorded(module, golden):
    assert sorted({k.split("/")[0] for k in GOLDENS[golden]}) == sorted(module.CASES)


@pytest.mark.parametrize("module,golden,case", [(m, g, c) for m, g in SUITES for c in sorted(m.CASES)],
                         ids=[f"{g}-{c}" for m, g in SUITES for c in sorted(m.CASES)])
def test_matches_paddle18(module, golden, case):
    import paddle

    got = module.CASES[case](paddle.fluid)
    want = {k.split("/", 1)[1]: v for k, v in GOLDENS[golden].items() if k.startswith(case + "/")}
    assert sorted(got) == sorted(want)
    for k, w in want.items():
        g = np.asarray(got[k])
        assert g.shape == w.shape and g.dtype == w.dtype, (k, g.shape, g.dtype, w.shape, w.dtype)
        if w.dtype.kind in "fc":
            assert np.isfinite(g).all() == np.isfinite(w).all(), k
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=1e-6, err_msg=k)
        else:
            np.testing.assert_array_equal(g, w, err_msg=k)


def test_fluid_data_feed_is_shape_checked():
    """fluid.data (need_check_feed) still rejects a wrong shape, naming the variable and both shapes."""
    import paddle

    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", shape=[None, 3], dtype="float32")
        y = fluid.layers.reduce_sum(x)
    with pytest.raises(ValueError, match=r"'x' should have dimensions = 2, shape = \(-1, 3\).*\[2, 4\]"):
        fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[y])


def _sgd_fc(fluid):
    """An fc + mean + SGD program, its startup run: (main, executor, loss)."""
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", shape=[3], dtype="float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 2))
        fluid.optimizer.SGD(0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    return main, exe, loss


def test_data_parallel_extra_feed_key_raises():
    """1.8.5's ParallelExecutor feed looks each name up in the block: ValueError 'var zzz not in this block'."""
    import paddle

    fluid = paddle.fluid
    main, exe, loss = _sgd_fc(fluid)
    cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, places=[fluid.CPUPlace()] * 2)
    with pytest.raises(ValueError, match="with_data_parallel: the feed name 'zzz'.*var zzz not in this block"):
        exe.run(cp, feed={"x": np.ones((2, 3), "float32"), "zzz": np.ones(2)}, fetch_list=[loss])


def test_static_executor_ignores_extra_feed_keys():
    """paddle.static (2.x) warns and ignores too (PaddleTest's static cases feed extra names)."""
    import paddle

    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.sum(x)
    with pytest.warns(UserWarning, match="The variable zzz is not found in program"):
        out = paddle.static.Executor(paddle.CPUPlace()).run(
            main, feed={"x": np.ones((2, 3), "float32"), "zzz": 1.0}, fetch_list=[y])
    assert out[0].tolist() == [6.0]


def test_py_reader_builds_in_a_script_that_never_chose_a_mode():
    """1.8 scripts build programs without enable_static(): py_reader + read_file keep each slot's lod_level."""
    import paddle
    from paddle_compat.engine.core.mode import MODE

    MODE.static, MODE.explicit = False, False  # a fresh `import paddle.fluid` script
    reader = paddle.fluid.layers.py_reader(capacity=4, shapes=([-1, 2], [-1, 3], [-1, 1]),
                                           dtypes=("float32", "int64", "float64"), lod_levels=(1, 2, 0))
    assert [v.lod_level for v in paddle.fluid.layers.read_file(reader)] == [1, 2, 0]


def test_loader_reset_ends_the_pass_in_progress():
    """PyReader(iterable=True)._loader._reset() (test_py_reader_combination): closes the generator mid-pass (its
    finally runs); the next pass starts from the first batch."""
    import paddle

    fluid = paddle.fluid
    closed = []

    def batches():
        try:
            for i in range(3):
                yield [np.full((2, 1), i, "float32")]
        finally:
            closed.append(True)

    with fluid.program_guard(fluid.Program(), fluid.Program()):
        x = fluid.layers.data("x", shape=[1], dtype="float32")
        reader = fluid.io.PyReader(feed_list=[x], capacity=4, iterable=True)
        reader.decorate_batch_generator(batches, places=fluid.CPUPlace())
        first = next(iter(reader()))
        reader._loader._reset()
        again = next(iter(reader()))
    assert closed == [True]
    assert np.array(first[0]["x"]).tolist() == np.array(again[0]["x"]).tolist() == [[0.0], [0.0]]


def test_generator_loader_base_and_input_check():
    """fluid.reader.DataLoaderBase leaves iteration abstract; GeneratorLoader._check_input_array refuses ragged
    batch fields with TypeError (test_generator_dataloader, test_py_reader_error_msg)."""
    import paddle

    reader = paddle.fluid.reader
    with pytest.raises(NotImplementedError):
        iter(reader.DataLoaderBase())
    ok = reader.GeneratorLoader._check_input_array([np.arange(2), np.arange(2)])
    assert ok.shape == (2, 2)
    with pytest.raises(TypeError, match="nested lists with different lengths"):
        reader.GeneratorLoader._check_input_array([np.arange(2), np.arange(1), np.arange(3)])


def test_save_inference_model_takes_a_compiled_program(tmp_path):
    """fluid.io.save_inference_model(main_program=CompiledProgram) saves its Program with 1.8.5's warning; a
    value that is no program is a TypeError (test_inference_model_io)."""
    import paddle

    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", shape=[2], dtype="float32")
        y = fluid.layers.fc(x, 1)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    cp = fluid.CompiledProgram(main).with_data_parallel()
    with pytest.warns(UserWarning, match="CompiledProgram"):
        fluid.io.save_inference_model(str(tmp_path), ["x"], [y], exe, cp)
    prog, feeds, fetches = fluid.io.load_inference_model(str(tmp_path), exe)
    assert feeds == ["x"] and len(fetches) == 1
    with pytest.raises(TypeError, match="main_program is invalid.*str"):
        fluid.io.save_inference_model(str(tmp_path), ["x"], [y], exe, "main")


def test_dry_run_runs_no_op():
    """ExecutionStrategy._dry_run (test_parallel_executor_dry_run): no feed needed, parameters unchanged, each fetch
    None, as 1.8.5."""
    import paddle

    fluid = paddle.fluid
    main, exe, loss = _sgd_fc(fluid)
    w = np.array(fluid.global_scope().find_var("fc_0.w_0").get_tensor()).copy()
    es = fluid.ExecutionStrategy()
    es._dry_run = True
    cp = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name, exec_strategy=es,
                                                        places=[fluid.CPUPlace()] * 2)
    assert exe.run(cp) == []
    assert exe.run(cp, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[loss]) == [None]
    np.testing.assert_array_equal(np.array(fluid.global_scope().find_var("fc_0.w_0").get_tensor()), w)


def test_program_to_string_with_details_is_longer():
    """Program.to_string(with_details=True) describes each variable in full (test_program_to_string)."""
    import paddle

    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        fluid.layers.fc(fluid.layers.data("X", shape=[2, 3], dtype="float32", append_batch_size=False), size=3)
    plain, details = main.to_string(True, False), main.to_string(False, True)
    assert len(details) > len(plain) and "persistable: True" in details and "persistable" not in plain


def test_get_places_imports_and_names_its_replacement():
    """The book chapters import fluid.layers.device.get_places (deprecated since 0.15); calling it raises."""
    from paddle.fluid.layers.device import get_places

    with pytest.raises(NotImplementedError, match=r"get_places.*with_data_parallel"):
        get_places()
