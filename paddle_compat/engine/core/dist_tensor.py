"""Whether a torch value is a distributed tensor (torch.distributed.tensor.DTensor), without importing
torch.distributed: a process that never made one has not imported the module, and then no value is one. The hot
paths that treat DTensors apart (engine/core/eigen_reduce.py, engine/ops/update_ops.py) and the auto-parallel API
(paddle2/distributed/auto_parallel.py) share it. PLAIN: the types of a torch tensor that is no subclass (no DTensor, no
__torch_function__ type), for the fast paths that test `type(t) in PLAIN` (eigen_reduce, autograd_engine,
the dygraph Adam)."""

from __future__ import annotations

import sys
from typing import Any

import torch

PLAIN = (torch.Tensor, torch.nn.Parameter)


def is_dtensor(t: Any) -> bool:
    mod = sys.modules.get("torch.distributed.tensor")
    return mod is not None and isinstance(t, mod.DTensor)
