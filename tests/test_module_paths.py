"""Module paths are data (paddle_compat/_export.py): every path of real Paddle's surface imports, names that are
one object in real Paddle are one object here, and an unsupported name raises an error naming the API."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

from paddle_compat._export import SURFACE_FILES, _DATA

SURFACES = [json.load(open(os.path.join(_DATA, f), encoding="utf-8")) for f in SURFACE_FILES]
MODULES = sorted({m for s in SURFACES for m in s["modules"] if m != "paddle.Tensor"} | {
    m for s in SURFACES for m in s["submodules"]})


@pytest.mark.parametrize("module", MODULES)
def test_every_module_path_imports(module):
    importlib.import_module(module)


def _kind(path):
    mod, _, name = path.rpartition(".")
    return next(s["modules"][mod][name] for s in SURFACES if name in s["modules"].get(mod, {}))


# values such as `print_function` (real Paddle leaks `from __future__ import print_function`) are not provided
GROUPS = sorted({tuple(g) for s in SURFACES for g in s["same"] if all(_kind(p) != "value" for p in g)})


@pytest.mark.parametrize("group", GROUPS)
def test_one_object_in_paddle_is_one_object_here(group):
    objs = []
    for path in group:
        mod, _, name = path.rpartition(".")
        objs.append(getattr(importlib.import_module(mod), name))
    implemented = [o for o in objs if not getattr(o, "__paddle_unsupported__", False)]
    assert all(o is implemented[0] for o in implemented), group


# (module, name, the path of the object it must be)
SAME_AS = [
    ("paddle.fluid.layers.nn", "fc", "paddle.fluid.layers.fc"),
    ("paddle.fluid.param_attr", "ParamAttr", "paddle.fluid.ParamAttr"),
    ("paddle.fluid.dygraph.nn", "Conv2D", "paddle.fluid.dygraph.Conv2D"),
    ("paddle.fluid.framework", "Program", "paddle.fluid.Program"),
    ("paddle.nn.layer.conv", "Conv2D", "paddle.nn.Conv2D"),          # unlisted submodule: the ancestor's names
    ("paddle.tensor.math", "add", "paddle.add"),
    ("paddle.nn.functional.activation", "relu", "paddle.nn.functional.relu"),
]


@pytest.mark.parametrize("module,name,target", SAME_AS)
def test_reexported_names(module, name, target):
    tmod, _, tname = target.rpartition(".")
    assert getattr(importlib.import_module(module), name) is getattr(importlib.import_module(tmod), tname)


def test_distinct_objects_stay_distinct():
    import paddle.fluid as fluid

    assert fluid.layers.embedding is not fluid.embedding  # 1.8: layers.embedding and input.embedding differ
    assert fluid.layers.data is not fluid.data


def test_module_valued_names_and_exports_over_submodules():
    import paddle
    import paddle.fluid.layers.math_op_patch as mop

    assert mop.core is importlib.import_module("paddle.fluid.core")
    batch_module = importlib.import_module("paddle.batch")
    assert callable(paddle.batch) and paddle.batch is not batch_module  # Paddle's `from .batch import batch`


def test_unknown_names_and_modules_fail_as_python_does():
    import paddle

    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        paddle.fluid.no_such_name  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("paddle.fluid.no_such_module")


def test_fresh_interpreter_imports_nested_paths_first():
    """`import paddle.fluid.layers.nn` before anything else (the parents are synthesised on the way)."""
    code = "import paddle.fluid.layers.nn as nn, paddle.fluid as f; assert nn.fc is f.layers.fc"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_no_two_objects_exported_at_one_path():
    """Two engineers defining one name: the later import would win silently (registry.CLASHES records it)."""
    import paddle  # noqa: F401 - fills the registry
    from paddle_compat.engine.framework import registry

    assert [c[0] for c in registry.CLASHES] == []
