"""`paddle.utils.cpp_extension`: Paddle's custom C++ / CUDA operators are written against Paddle's C++ API
(`paddle/extension.h`, PD_BUILD_OP) and linked with libpaddle, which torch cannot load: compiling or loading
them raises UnsupportedAPIError naming what to use instead. `get_build_directory` answers as Paddle does."""

from __future__ import annotations

import os

from paddle_compat._export import unsupported_stub
from paddle_compat.engine.framework.registry import export

_C = "paddle.utils.cpp_extension"


def get_build_directory(verbose: bool = False) -> str:
    """PADDLE_EXTENSION_DIR, else ~/.cache/paddle_extensions (created), as Paddle."""
    root = os.environ.get("PADDLE_EXTENSION_DIR")
    if root is None:
        root = os.path.join(os.path.expanduser("~/.cache"), "paddle_extensions")
    os.makedirs(root, exist_ok=True)
    if verbose:
        print(f"Compiling user custom op, it will cost a few seconds.....\nroot extensions directory: {root}")
    return root


export(get_build_directory, f"{_C}.get_build_directory", f"{_C}.extension_utils.get_build_directory")
_NO_PADDLE_OPS = ("custom operators written against Paddle's C++ API (paddle/extension.h) need libpaddle; write the "
                  "op with torch.utils.cpp_extension, or in Python with paddle.autograd.PyLayer")
for _n in ("load", "setup", "CppExtension", "CUDAExtension", "BuildExtension"):
    export(unsupported_stub(f"{_C}.{_n}", "function", _NO_PADDLE_OPS), f"{_C}.{_n}", f"{_C}.cpp_extension.{_n}")
