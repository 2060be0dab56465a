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
