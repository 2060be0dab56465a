"""paddle.__version__ / paddle.version, paddle.sysconfig, paddle.utils (try_import, deprecated, run_check),
paddle.jit's switches and paddle.device / paddle.device.cuda (CPU behaviour here; the CUDA paths wrap
torch.cuda one to one)."""

from __future__ import annotations

import os
import warnings

import pytest


def test_version_states_paddle_2_4():
    import paddle

    assert paddle.__version__ == "2.4.2" == paddle.version.full_version
    assert (paddle.version.major, paddle.version.minor, paddle.version.patch, paddle.version.rc) == \
        ("2", "4", "2", "0")
    assert paddle.version.istaged is True
    for fn in ("cuda", "cudnn", "xpu", "xpu_xccl", "cinn", "mkl"):
        assert isinstance(getattr(paddle.version, fn)(), str)
    paddle.utils.require_version("2.0", "2.5")
    with pytest.raises(Exception, match="VersionError"):
        paddle.utils.require_version("2.5")


def test_version_show(capsys):
    import paddle

    paddle.version.show()
    out = capsys.readouterr().out.splitlines()
    assert out[:5] == ["full_version: 2.4.2", "major: 2", "minor: 4", "patch: 2", "rc: 0"]
    assert out[5].startswith("cuda: ")


def test_sysconfig_points_at_torch_headers_and_libs():
    import paddle

    assert os.path.isdir(paddle.sysconfig.get_include())
    assert os.path.isdir(paddle.sysconfig.get_lib())


def test_try_import():
    import paddle

    assert paddle.utils.try_import("json").dumps([1]) == "[1]"
    with pytest.raises(ImportError, match="pip install no_such_pkg"):
        paddle.utils.try_import("no_such_pkg.sub")
    with pytest.raises(ImportError, match="pip install opencv-python"):
        import sys

        saved = sys.modules.get("cv2")
        sys.modules["cv2"] = None  # makes the import fail
        try:
            paddle.utils.try_import("cv2")
        finally:
            if saved is None:
                del sys.modules["cv2"]
            else:
                sys.modules["cv2"] = saved


@pytest.mark.parametrize("level,since,warns,raises", [
    (0, "", False, False), (1, "", True, False), (1, "2.0.0", True, False), (1, "3.0", False, False),
    (2, "", False, True)])
def test_deprecated(level, since, warns, raises):
    import paddle

    @paddle.utils.deprecated(update_to="paddle.new_api", since=since, reason="because", level=level)
    def old(x):
        """doc"""
        return x + 1

    assert 'Please use "paddle.new_api" instead' in old.__doc__
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        if raises:
            with pytest.raises(RuntimeError, match="has been deprecated"):
                old(1)
        else:
            assert old(1) == 2
    assert any(issubclass(w.category, DeprecationWarning) for w in got) == warns


def test_deprecated_checks_arguments():
    import paddle

    with pytest.raises(ValueError, match="must start with"):
        paddle.utils.deprecated(update_to="numpy.x")
    with pytest.raises(ValueError, match="level"):
        paddle.utils.deprecated(level=3)


def test_run_check_keeps_the_mode(capsys):
    import paddle

    paddle.utils.run_check()
    out = capsys.readouterr().out
    assert "PaddlePaddle works well on 1 CPU." in out and "installed successfully" in out
    assert paddle.in_dynamic_mode()
    paddle.enable_static()
    paddle.utils.run_check()
    assert not paddle.in_dynamic_mode()


def test_jit_switches():
    import paddle
    from paddle_compat.paddle2.jit import ProgramTranslator

    paddle.jit.enable_to_static(False)
    assert ProgramTranslator().enable_to_static is False
    paddle.jit.enable_to_static(True)
    assert ProgramTranslator().enable_to_static is True
    paddle.jit.ignore_module([os])
    paddle.jit.set_code_level(100)
    paddle.jit.set_verbosity(1)
    with pytest.raises(TypeError, match="Level is not an integer"):
        paddle.jit.set_verbosity("a")


def test_device_queries():
    import paddle
    import torch

    d = paddle.device
    assert d.get_all_device_type() == ["cpu"] + (["gpu"] if torch.cuda.is_available() else [])
    assert d.get_available_device()[0] == "cpu"
    assert d.get_all_custom_device_type() == [] and d.get_available_custom_device() == []
    assert d.is_compiled_with_custom_device("npu") is False
    assert d.is_compiled_with_ipu() is False and d.is_compiled_with_cinn() is False
    assert d.is_compiled_with_distribute() is True
    assert d.cuda.device_count() == torch.cuda.device_count()
    d.cuda.empty_cache()
    with d.stream_guard(None), d.cuda.stream_guard(None):
        pass


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="CPU-only behaviour")
@pytest.mark.parametrize("call,exc,match", [
    (lambda d: d.cuda.memory_allocated(), ValueError, "paddle.device.cuda.memory_allocated is not supported in "
                                                      "CPU-only"),
    (lambda d: d.cuda.max_memory_reserved("gpu:0"), ValueError, "max_memory_reserved"),
    (lambda d: d.cuda.get_device_name(), ValueError, "get_device_properties"),
    (lambda d: d.cuda.get_device_capability(), ValueError, "get_device_properties"),
    (lambda d: d.cuda.synchronize(), ValueError, "synchronize"),
    (lambda d: d.synchronize(), RuntimeError, "not compiled with CUDA"),
    (lambda d: d.Stream(), TypeError, "paddle.device.Stream: device should be gpu"),
    (lambda d: d.cuda.Event(), TypeError, "paddle.device.Event: device should be gpu"),
    (lambda d: d.current_stream(), TypeError, "current_stream"),
])
def test_device_cuda_apis_without_cuda(call, exc, match):
    import paddle

    with pytest.raises(exc, match=match):
        call(paddle.device)


@pytest.mark.parametrize("name", ["XPUPlace", "IPUPlace"])
def test_other_devices_raise_the_listed_error(name):
    import paddle
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    fn = getattr(paddle.device, name)
    assert fn.__paddle_unsupported__
    with pytest.raises(UnsupportedAPIError, match=f"paddle.device.{name} .*do not exist under torch"):
        fn(0)


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="needs CUDA")
def test_cuda_streams_events_and_memory():
    import paddle

    d = paddle.device
    x = paddle.ones([256, 256])
    assert d.cuda.memory_allocated() > 0 and d.cuda.max_memory_allocated(0) >= d.cuda.memory_allocated("gpu:0")
    assert d.cuda.memory_reserved(paddle.CUDAPlace(0)) >= d.cuda.memory_allocated()
    props = d.cuda.get_device_properties()
    assert props.total_memory > 0 and d.cuda.get_device_name() == props.name
    assert d.cuda.get_device_capability() == (props.major, props.minor)
    s = d.Stream(priority=1)
    start, end = d.Event(enable_timing=True), d.cuda.Event(enable_timing=True)
    with d.stream_guard(s):
        assert d.current_stream() == s
        start.record()
        y = paddle.matmul(x, x)
        end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0 and end.query()
    s.synchronize()
    assert d.current_stream() != s and float(y[0, 0]) == 256.0
    prev = d.set_stream(s)
    assert d.set_stream(prev) == s
    d.synchronize()
    d.cuda.synchronize(0)


@pytest.mark.parametrize("path", ["paddle.framework.core", "paddle.base.core", "paddle.fluid.core"])
def test_core_paths_share_the_prim_switches(path):
    import importlib

    core = importlib.import_module(path)
    other = importlib.import_module("paddle.fluid.core")
    assert core.EnforceNotMet is other.EnforceNotMet
    for setter, getter in (("_set_prim_backward_enabled", "_is_bwd_prim_enabled"),
                           ("_set_prim_forward_enabled", "_is_fwd_prim_enabled")):
        assert getattr(core, getter)() is False  # Paddle 2.6.2's default
        getattr(core, setter)(True)
        assert getattr(other, getter)() is True
        getattr(core, setter)(False)


@pytest.mark.parametrize("path,name,fluid_path", [
    ("paddle.base.dygraph", "guard", "paddle.fluid.dygraph"), ("paddle.base.dygraph.base", "to_variable",
                                                              "paddle.fluid.dygraph"),
    ("paddle.base.framework", "default_main_program", "paddle.fluid.framework"), ("paddle.base", "Program",
                                                                                  "paddle.fluid"),
    ("paddle.base.unique_name", "generate", "paddle.fluid.unique_name"),
])
def test_paddle_base_is_fluid(path, name, fluid_path):
    import importlib

    assert getattr(importlib.import_module(path), name) is getattr(importlib.import_module(fluid_path), name)


def test_cpp_extension(tmp_path, monkeypatch):
    from paddle.utils.cpp_extension import CppExtension, get_build_directory, load
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    monkeypatch.setenv("PADDLE_EXTENSION_DIR", str(tmp_path / "ext"))
    assert get_build_directory() == str(tmp_path / "ext") and (tmp_path / "ext").is_dir()
    for call in (lambda: load(name="custom", sources=["op.cc"]), lambda: CppExtension(sources=["op.cc"])):
        with pytest.raises(UnsupportedAPIError, match="paddle/extension.h"):
            call()


def test_manual_program_seed_sets_the_default_programs():
    import paddle
    from paddle.framework.random import _manual_program_seed

    _manual_program_seed(1234)
    assert paddle.static.default_main_program().random_seed == 1234
    assert paddle.static.default_startup_program().random_seed == 1234
