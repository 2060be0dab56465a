"""fluid top-level names: clear UnsupportedAPIError stand-ins with hints for the
parameter-server / custom-op / dataset APIs."""

from __future__ import annotations

from paddle_compat._export import unsupported_stub
from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export


def load_op_library(lib_filename):
    raise UnsupportedAPIError("paddle.fluid.load_op_library",
                              f"custom C++ operator libraries ({lib_filename!r}) are built against Paddle's C++ "
                              "OpKernel / OpRegistry ABI and cannot be loaded into the torch backend; write the op "
                              "as a Python function over paddle ops, or as a torch C++ extension "
                              "(torch.utils.cpp_extension.load) called from Python")


load_op_library.__paddle_unsupported__ = True  # type: ignore[attr-defined]
export(load_op_library, "paddle.fluid.load_op_library", "paddle.fluid.framework.load_op_library")

# The dygraph tensor class: `isinstance(x, fluid.core.VarBase)` holds for `fluid.dygraph.to_variable` results and
# layer outputs (1.8.5 lists VarBase in paddle.fluid.__all__ without binding it; we bind it there too).
export(Tensor, "paddle.fluid.core.VarBase", "paddle.fluid.VarBase")

_TRAINER_DETAIL = ("it fills Paddle's C++ trainer_desc protobuf, which Executor.train_from_dataset hands to the C++ "
                   "MultiTrainer / DistMultiTrainer / PipelineTrainer threads; paddle_compat runs "
                   "train_from_dataset / infer_from_dataset in Python and has no C++ trainer to configure (real "
                   "1.8.5 does not bind it at paddle.fluid either: it lives in paddle.fluid.trainer_desc)")
for _n in ("TrainerDesc", "MultiTrainer", "DistMultiTrainer", "PipelineTrainer"):
    export(unsupported_stub(f"paddle.fluid.{_n}", "class", _TRAINER_DETAIL), f"paddle.fluid.{_n}")
