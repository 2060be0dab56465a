"""paddle.__version__ and paddle.version: the Paddle release whose behaviour paddle_compat follows.

We present ourselves as the release of the API level (engine/core/api_level.py): Paddle 2.4.2 by default (`paddle.*`
follows Paddle 2.4, full reductions give shape [1], and `paddle.fluid` is still there), Paddle 2.6.2 at level 2.6
(0-D results). Scripts that branch on the version (`paddle.__version__ >= '2.5'` for 0-D results,
`require_version`) so take the branch that matches what they get. The CUDA / cuDNN fields describe the torch build
we run on, as Paddle's describe its own build.
"""

from __future__ import annotations

import sys

import torch

from paddle_compat.engine.core import api_level
from paddle_compat.engine.framework.registry import EXPORTS, export

full_version = api_level.version()
major, minor, patch = full_version.split(".")
rc = "0"
istaged = True
commit = "paddle_compat"  # no Paddle commit was built: the marker tells the two apart
with_mkl = "ON" if torch.backends.mkl.is_available() else "OFF"
cuda_version = torch.version.cuda or "False"
xpu_version = "False"
xpu_xccl_version = "False"
cinn_version = "False"


def _cudnn_string() -> str:
    v = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    if not v:
        return "False"
    # cuDNN 8 encodes major*1000 + minor*100 + patch; cuDNN 9 major*10000 + minor*100 + patch
    div = 10000 if v >= 90000 else 1000
    return f"{v // div}.{v % div // 100}.{v % 100}"


cudnn_version = _cudnn_string()


def show() -> None:
    """Print the version fields (Paddle's format)."""
    if istaged:
        print("full_version:", full_version)
        print("major:", major)
        print("minor:", minor)
        print("patch:", patch)
        print("rc:", rc)
    else:
        print("commit:", commit)
    print("cuda:", cuda_version)
    print("cudnn:", cudnn_version)
    print("xpu:", xpu_version)
    print("xpu_xccl:", xpu_xccl_version)
    print("cinn:", cinn_version)


def mkl() -> str:
    return with_mkl


def cuda() -> str:
    """The CUDA version of the build ('False' for a CPU build)."""
    return cuda_version


def cudnn() -> str:
    return cudnn_version


def xpu() -> str:
    return xpu_version


def xpu_xccl() -> str:
    return xpu_xccl_version


def cinn() -> str:
    return cinn_version


export(full_version, "paddle.__version__")
for _name in ("full_version", "major", "minor", "patch", "rc", "istaged", "commit", "with_mkl", "cuda_version",
              "cudnn_version", "xpu_version", "xpu_xccl_version", "cinn_version", "show", "mkl", "cuda", "cudnn",
              "xpu", "xpu_xccl", "cinn"):
    export(globals()[_name], f"paddle.version.{_name}")


def _follow_level() -> None:
    """paddle_compat.set_api_level changed the level: the version fields follow, here, in the registry and in the
    `paddle` / `paddle.version` modules already imported."""
    global full_version, major, minor, patch
    full_version = api_level.version()
    major, minor, patch = full_version.split(".")
    fields = {"full_version": full_version, "major": major, "minor": minor, "patch": patch}
    EXPORTS["paddle"]["__version__"] = full_version
    EXPORTS["paddle.version"].update(fields)
    if "paddle" in sys.modules:
        sys.modules["paddle"].__dict__["__version__"] = full_version
    if "paddle.version" in sys.modules:
        sys.modules["paddle.version"].__dict__.update(fields)


api_level.LEVEL_HOOKS.append(_follow_level)
