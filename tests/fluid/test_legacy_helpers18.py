"""Helpers Paddle's own fluid-era tests import (tools/paddle_tests): fluid.layers.device.get_places (importable,
raises when called), fluid.reader.DataLoaderBase / GeneratorLoader._check_input_array, and Place._type /
_equals (values read from real 1.8.5: CUDAPlace 0, CPUPlace 1)."""

from __future__ import annotations

import numpy as np
import pytest


def test_get_places_imports_and_names_its_replacement():
    from paddle.fluid.layers.device import get_places

    from paddle_compat.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match="get_places.*with_data_parallel"):
        get_places()


def test_data_loader_base_is_abstract():
    from paddle.fluid.reader import DataLoaderBase

    loader = DataLoaderBase()
    assert loader() is loader
    for call in (loader.__iter__, loader.__next__, loader.next):
        with pytest.raises(NotImplementedError):
            call()


@pytest.mark.parametrize("fields,ok", [([np.zeros(2)] * 3, True), ([np.zeros(2), np.zeros(1), np.zeros(3)], False),
                                       ([[1, 2], [3]], False), ([[1, 2], [3, 4]], True)])
def test_check_input_array(fields, ok):
    import paddle.fluid as fluid

    if ok:
        assert fluid.reader.GeneratorLoader._check_input_array(fields).shape == np.asarray(fields).shape
    else:
        with pytest.raises(TypeError, match="Faild to convert input data to a regular ndarray"):
            fluid.reader.GeneratorLoader._check_input_array(fields)


@pytest.mark.parametrize("make,index", [("CPUPlace()", 1), ("CUDAPlace(0)", 0), ("CUDAPinnedPlace()", 2)])
def test_place_type_and_equals(make, index):
    import paddle.fluid as fluid

    place = eval(f"fluid.{make}")  # noqa: S307 - fixed table
    assert place._type() == index and place._equals(eval(f"fluid.{make}"))  # noqa: S307
    assert not place._equals(fluid.CPUPlace() if index != 1 else fluid.CUDAPlace(0))


def test_save_inference_model_takes_a_compiled_program(tmp_path):
    """1.8.5's _get_valid_program: a CompiledProgram is saved as its Program (with Paddle's warning); another type
    is a TypeError naming it."""
    import paddle

    paddle.enable_static()
    try:
        import paddle.fluid as fluid

        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            x = fluid.layers.data("x", [2])
            y = fluid.layers.fc(x, 1)
        exe = fluid.Executor(fluid.CPUPlace())
        exe.run(startup)
        with pytest.warns(UserWarning, match="The input is a CompiledProgram, this is not recommended."):
            fluid.io.save_inference_model(str(tmp_path), ["x"], [y], exe, fluid.CompiledProgram(main))
        prog, feeds, fetches = fluid.io.load_inference_model(str(tmp_path), exe)
        assert feeds == ["x"] and exe.run(prog, feed={"x": np.ones([1, 2], "float32")}, fetch_list=fetches)[0].shape \
            == (1, 1)
        with pytest.raises(TypeError, match="expected type is fluid.Program, but received <class 'int'>"):
            fluid.io.save_inference_model(str(tmp_path), ["x"], [y], exe, 3)
    finally:
        paddle.disable_static()
