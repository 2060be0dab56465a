"""fluid top-level names: clear UnsupportedAPIError stand-ins with hints for the
parameter-server / custom-op / dataset APIs."""

from __future__ import annotations



from paddle_compat.core.errors import UnsupportedAPIError
from paddle_compat.ops.registry import export


def load_op_library(lib_filename):
    raise UnsupportedAPIError("paddle.fluid.load_op_library",
                              f"custom C++ operator libraries ({lib_filename!r}) are built against Paddle's C++ "
                              "OpKernel / OpRegistry ABI and cannot be loaded into the torch backend; write the op "
                              "as a Python function over paddle ops, or as a torch C++ extension "
                              "(torch.utils.cpp_extension.load) called from Python")


load_op_library.__paddle_unsupported__ = True  # type: ignore[attr-defined]
export(load_op_library, "paddle.fluid.load_op_library")
