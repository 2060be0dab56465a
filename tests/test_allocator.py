"""paddle_compat turns on torch's huge-page allocation of large CPU buffers (issue 15 item 3) only where it acts."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from paddle_compat._allocator import THP_VAR, thp_available

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("mode, available", [
    ("[always] madvise never\n", True),
    ("always [madvise] never\n", True),
    ("always madvise [never]\n", False),
    (None, False),  # no sysfs file (not Linux, or a container without it)
])
def test_thp_available_reads_the_kernel_mode(tmp_path, mode, available):
    path = tmp_path / "enabled"
    if mode is not None:
        path.write_text(mode)
    assert thp_available(str(path)) is available


@pytest.mark.parametrize("preset, first, expected", [
    (None, "import paddle", "1" if thp_available() else None),
    ("0", "import paddle", "0"),  # the user's choice stands
    (None, "import torch; import paddle", None),  # torch read it already: leave the environment alone
], ids=["default", "user-set", "torch-first"])
def test_import_sets_the_variable_only_where_it_acts(preset, first, expected):
    env = {k: v for k, v in os.environ.items() if k != THP_VAR}
    if preset is not None:
        env[THP_VAR] = preset
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "shims")])
    code = f"{first}; import os; print(repr(os.environ.get({THP_VAR!r})))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr(expected)
