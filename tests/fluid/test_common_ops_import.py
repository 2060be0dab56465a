"""paddle.common_ops_import (1.8: the fluid names Paddle's op modules import from one place) binds the same
objects as their fluid paths; paddle.check_import_scipy checks only on Windows."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("name,path", [
    ("LayerHelper", "paddle.fluid.layer_helper"), ("ParamAttr", "paddle.fluid.param_attr"),
    ("Variable", "paddle.fluid.framework"), ("in_dygraph_mode", "paddle.fluid.framework"),
    ("Constant", "paddle.fluid.initializer"), ("VarDesc", "paddle.fluid.core"),
    ("check_variable_and_dtype", "paddle.fluid.data_feeder"), ("fill_constant", "paddle.fluid.layers"),
])
def test_same_object_as_fluid(name, path):
    import importlib

    import paddle.common_ops_import as coi

    assert getattr(coi, name) is getattr(importlib.import_module(path), name)


def test_check_import_scipy_only_checks_windows():
    import paddle

    assert paddle.check_import_scipy("posix") is None
