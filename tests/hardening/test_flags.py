"""Paddle's global flags: set_flags / get_flags accept exactly Paddle's table with Paddle's errors; the flags
scripts set either act through torch or warn that they have no effect (engine/core/flags.py)."""

from __future__ import annotations

import warnings

import pytest
import torch

from ._common import G18, G26, check_error, run_script


@pytest.fixture(autouse=True)
def restore_flags():
    from paddle_compat.engine.core import flags

    saved, warned = dict(flags.SET), set(flags._WARNED)
    threads = torch.get_num_threads()
    cudnn = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
    yield
    flags.SET.clear()
    flags.SET.update(saved)
    flags._WARNED.clear()
    flags._WARNED.update(warned)
    torch.set_num_threads(threads)
    torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = cudnn


# (case, call, golden record, message regex)
ERRORS = [
    ("set_unknown", lambda p: p.set_flags({"FLAGS_no_such_flag": 1}), G26["set_flags_unknown"],
     r"^Flag FLAGS_no_such_flag cannot set its value through this function\.$"),
    ("set_unknown_fluid", lambda p: p.fluid.set_flags({"FLAGS_no_such_flag": 1}), G18["set_flags_unknown"],
     r"cannot set its value"),
    ("set_wrong_type", lambda p: p.set_flags({"FLAGS_paddle_num_threads": 2.5}), G26["set_flags_type"],
     r"set_flags: FLAGS_paddle_num_threads is a int flag, but received float 2\.5"),
    ("set_wrong_type_fluid", lambda p: p.fluid.set_flags({"FLAGS_check_nan_inf": "yes"}), G18["set_flags_type"],
     r"FLAGS_check_nan_inf is a bool flag, but received str 'yes'"),
    ("set_not_dict", lambda p: p.set_flags(["FLAGS_check_nan_inf"]), G26["set_flags_not_dict"],
     r"flags in set_flags should be a dict"),
    ("get_unknown", lambda p: p.get_flags("FLAGS_no_such_flag"), G26["get_flags_unknown"],
     r"^Flag FLAGS_no_such_flag cannot get its value through this function\.$"),
    ("get_unknown_fluid", lambda p: p.fluid.get_flags(["FLAGS_no_such_flag"]), G18["get_flags_unknown"],
     r"cannot get its value"),
    ("get_wrong_type", lambda p: p.get_flags(3), G26["get_flags_type"],
     r"Flags in get_flags should be a list, tuple or string"),
]


@pytest.mark.parametrize("call,rec,pattern", [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_flag_errors_as_paddle(call, rec, pattern):
    import paddle

    with pytest.raises(Exception) as ei:
        call(paddle)
    check_error(ei.value, rec, pattern)


def test_get_and_set_round_trip_with_paddle_types():
    import paddle

    assert paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_eager_delete_tensor_gb"]) == {
        "FLAGS_check_nan_inf": False, "FLAGS_eager_delete_tensor_gb": 0.0}
    paddle.set_flags({"FLAGS_eager_delete_tensor_gb": 0, "FLAGS_fuse_parameter_groups_size": 3})
    got = paddle.get_flags(("FLAGS_eager_delete_tensor_gb", "FLAGS_fuse_parameter_groups_size"))
    assert got == {"FLAGS_eager_delete_tensor_gb": 0.0, "FLAGS_fuse_parameter_groups_size": 3}
    assert type(got["FLAGS_eager_delete_tensor_gb"]) is float
    # CUDA-build flags exist too (scripts set them on any machine)
    assert paddle.fluid.get_flags("FLAGS_cudnn_deterministic") == {"FLAGS_cudnn_deterministic": False}


# flag -> (value, check that torch follows it)
ACTING = {
    "FLAGS_paddle_num_threads": (1, lambda: torch.get_num_threads() == 1),
    "FLAGS_cudnn_deterministic": (True, lambda: torch.backends.cudnn.deterministic
                                  and not torch.backends.cudnn.benchmark),
    "FLAGS_cudnn_exhaustive_search": (True, lambda: torch.backends.cudnn.benchmark),
}


@pytest.mark.parametrize("name", list(ACTING))
def test_flags_that_act_through_torch(name):
    import paddle

    value, check = ACTING[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.set_flags({name: value})
    assert check()
    assert paddle.get_flags(name)[name] == value


def test_fuse_flags_reach_the_gradient_buckets():
    import paddle
    from paddle_compat.engine.parallel.reduce import buckets

    grads = [torch.zeros(2), torch.zeros(3), torch.zeros(4)]
    assert buckets(grads) == [[0], [1], [2]]  # Paddle's default FLAGS_fuse_parameter_groups_size=1
    paddle.set_flags({"FLAGS_fuse_parameter_groups_size": 2})
    assert buckets(grads) == [[0, 1], [2]]


@pytest.mark.parametrize("name,value", [("FLAGS_fraction_of_gpu_memory_to_use", 0.5),
                                        ("FLAGS_eager_delete_tensor_gb", 1.0), ("FLAGS_use_mkldnn", True),
                                        ("FLAGS_allocator_strategy", "naive_best_fit"), ("FLAGS_benchmark", True)])
def test_accepted_flags_without_effect_warn_once(name, value):
    import paddle
    from paddle_compat.engine.core.flags import IgnoredFlagWarning

    with pytest.warns(IgnoredFlagWarning, match=rf"{name}=.* has no effect under paddle_compat: \w"):
        paddle.set_flags({name: value})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.set_flags({name: value})  # once per flag
    assert paddle.get_flags(name)[name] == value


def test_default_values_and_honoured_flags_do_not_warn():
    import paddle

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paddle.set_flags({"FLAGS_eager_delete_tensor_gb": 0.0, "FLAGS_fraction_of_gpu_memory_to_use": 0.92,
                          "FLAGS_cpu_deterministic": True, "FLAGS_use_mkldnn": False})


def test_environment_flags_are_read_at_import():
    code = ("import warnings, torch, paddle\n"
            "print(paddle.get_flags(['FLAGS_check_nan_inf', 'FLAGS_paddle_num_threads']), torch.get_num_threads())\n")
    r = run_script(code, {"FLAGS_check_nan_inf": "true", "FLAGS_paddle_num_threads": "2",
                          "FLAGS_eager_delete_tensor_gb": "-1", "FLAGS_use_pinned_memory": "banana"})
    assert r.returncode == 0, r.stderr
    assert "{'FLAGS_check_nan_inf': True, 'FLAGS_paddle_num_threads': 2} 2" in r.stdout
    assert "FLAGS_eager_delete_tensor_gb=-1.0 (environment) is accepted but has no effect" in r.stderr
    assert "FLAGS_use_pinned_memory='banana' is not a valid bool; FLAGS_use_pinned_memory keeps its default" \
        in r.stderr
