"""paddle.sysconfig: where a C++ extension finds headers and libraries. paddle_compat builds on torch, so
these are torch's (torch.utils.cpp_extension builds custom operators here)."""

from __future__ import annotations

import os

import torch

from paddle_compat.engine.framework.registry import export


def get_include() -> str:
    """The directory of the C++ headers an extension compiles against (torch's include directory)."""
    return os.path.join(os.path.dirname(torch.__file__), "include")


def get_lib() -> str:
    """The directory of the libraries an extension links against (torch's lib directory)."""
    return os.path.join(os.path.dirname(torch.__file__), "lib")


export(get_include, "paddle.sysconfig.get_include")
export(get_lib, "paddle.sysconfig.get_lib")
