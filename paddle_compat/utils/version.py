"""paddle.__version__ and paddle.version: the Paddle release whose behaviour paddle_compat follows.

We present ourselves as Paddle 2.4.2 (api.VERSION): `paddle.*` follows Paddle 2.4 (full reductions give shape
[1]) and `paddle.fluid` is still there, so scripts that branch on the version (`paddle.__version__ >= '2.5'`
for 0-D results, `require_version`) take the branch that matches what they get. The CUDA / cuDNN fields
describe the torch build we run on, as Paddle's describe its own build.
"""

from __future__ import annotations

import torch

from paddle_compat.api import VERSION
from paddle_compat.ops.registry import export

full_version = VERSION
major, minor, patch = VERSION.split(".")
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


export(VERSION, "paddle.__version__")
for _name in ("full_version", "major", "minor", "patch", "rc", "istaged", "commit", "with_mkl", "cuda_version",
              "cudnn_version", "xpu_version", "xpu_xccl_version", "cinn_version", "show", "mkl", "cuda", "cudnn",
              "xpu", "xpu_xccl", "cinn"):
    export(globals()[_name], f"paddle.version.{_name}")
