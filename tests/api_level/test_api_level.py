"""paddle_compat.set_api_level / PADDLE_COMPAT_API_LEVEL (engine/core/api_level.py): accepted values and errors, the
version paddle reports at each level, switching after `import paddle` (and paddle.fluid), threads. The shapes
themselves are tests/api_level/test_level26.py's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(code: str, level: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PADDLE_COMPAT_API_LEVEL"}
    env.update(OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "shims")]))
    if level is not None:
        env["PADDLE_COMPAT_API_LEVEL"] = level
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("value, level", [("2.4", "2.4"), ("2.4.2", "2.4"), ("2.6", "2.6"), ("2.6.2", "2.6"),
                                          (2.6, "2.6")])
def test_accepted_values(value, level):
    from paddle_compat.engine.core import api_level

    assert api_level.normalize(value) == level


@pytest.mark.parametrize("value", ["2.5", "3.0", "", "latest", None, 2])
def test_unknown_level_lists_the_accepted_ones(value):
    import paddle_compat

    with pytest.raises(ValueError, match=r"paddle_compat.set_api_level: unknown API level .*accepted levels are "
                                         r"'2.4', '2.6'"):
        paddle_compat.set_api_level(value)


def test_unknown_level_in_the_environment_fails_the_import_clearly():
    r = _run("import paddle", level="2.7")
    assert r.returncode != 0
    assert "the environment variable PADDLE_COMPAT_API_LEVEL: unknown API level '2.7'; accepted levels are " \
           "'2.4', '2.6'" in r.stderr


def test_default_level_and_version():
    import paddle

    import paddle_compat

    assert paddle_compat.get_api_level() == "2.4"
    assert paddle.__version__ == "2.4.2" == paddle.version.full_version


def test_switching_after_tensors_exist_is_refused():
    import paddle

    import paddle_compat

    x = paddle.ones([2])
    paddle_compat.set_api_level("2.4")  # the level in force: nothing to change
    with pytest.raises(ValueError, match=r"tensors already exist under API level '2.4'; set the level before the "
                                         r"first tensor is made \(or start the process with "
                                         r"PADDLE_COMPAT_API_LEVEL=2.6\)"):
        paddle_compat.set_api_level("2.6")
    assert paddle_compat.get_api_level() == "2.4"
    assert x.sum().shape == [1]


SWITCH = """
import threading
import paddle
import paddle.fluid as fluid
from paddle.fluid.layers import reduce_mean as early_reduce_mean  # bound before the switch
import paddle_compat
paddle_compat.set_api_level("2.6")
print(paddle_compat.get_api_level(), paddle.__version__, paddle.version.full_version, paddle.version.minor)
paddle.version.show()
paddle.utils.require_version("2.5")
x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
print(x.sum().shape, x[0, 1].shape, paddle.to_tensor(3.0).shape)
with fluid.dygraph.guard():
    print(fluid.layers.reduce_sum(x).shape, fluid.layers.mean(x).shape)
out = []
t = threading.Thread(target=lambda: out.append(paddle.to_tensor([1.0, 2.0]).sum().shape))
t.start(); t.join()
print(out[0])
"""


def test_switching_after_import_paddle_and_fluid():
    r = _run(SWITCH)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.splitlines()
    assert lines[0] == "2.6 2.6.2 2.6.2 6"
    assert lines[1:6] == ["full_version: 2.6.2", "major: 2", "minor: 6", "patch: 2", "rc: 0"]
    assert lines[-3:] == ["[] [] []", "[1] [1]", "[]"]


def test_environment_sets_the_level_and_version():
    r = _run("import paddle, paddle_compat; paddle.utils.require_version('2.6.2');"
             "print(paddle_compat.get_api_level(), paddle.__version__, paddle.mean(paddle.ones([3])).shape)",
             level="2.6")
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split() == ["2.6", "2.6.2", "[]"]


def test_back_to_2_4_before_any_tensor_unwraps_fluid():
    r = _run("import paddle, paddle.fluid as fluid, paddle_compat; paddle_compat.set_api_level('2.4');"
             "print(paddle.__version__, hasattr(fluid.layers.reduce_sum, '__paddle_legacy_shapes__'),"
             "paddle.to_tensor(1.0).shape)", level="2.6")
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split() == ["2.4.2", "False", "[1]"]
