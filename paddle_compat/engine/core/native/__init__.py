"""The optional native fast path for dygraph view ops (issue 29): `MODULE` is the built extension, or None.

`_views.cpp` does the common call of reshape, transpose, unsqueeze, slice and basic `x[...]` of a plain
`paddle.Tensor` in C (its preconditions checked there, ATen called directly, our Tensor built there), and returns
None for everything else, where the pure-Python path runs unchanged. It also holds `hard_swish_grad` and
`hard_sigmoid_grad`, Paddle's hard_swish and hard_sigmoid gradients in one pass each over torch's intra-op threads
(engine/ops/common._HardSwish / _HardSigmoid; the Python forms compute the same bits in nine and four passes, on
MobileNetV3 12% and 1% of a training step), `batch_norm_stats_update`, batch norm's running-statistics update in
one call (engine/ops/nn_functional/norm.train_batch_norm; the Python form's eleven small ops per layer), and
`momentum_update`, the Momentum optimizer's update of many parameters in one call and one pass over each tensor
(engine/ops/update_ops.momentum_steps; its torch path makes three or five passes), and `max_pool2d`, torch's
max_pool2d_with_indices (values and indices, the same bits) vectorized along output rows (engine/ops/nn_functional/
pooling.max_pool2d_with_indices: 4-8x torch's NCHW kernel on a 2x2 or 3x3 pool). `make setup`
builds it with torch's cpp_extension flags and -fopenmp where the compiler has it (tools/build_native.py). It is not used (MODULE is None, one debug-level log line) when it was
never built, failed to import (e.g. built against another torch: an undefined symbol), was built for another torch
version, or when the environment sets PADDLE_COMPAT_NATIVE=0. The layers that own the objects its checks read
pass them in: engine/framework/dispatch.py (Tensor, MODE, AMP_OP_DTYPES, INT_GRAD) and
engine/ops/tensor/indexing.py (the 0-D shape rule).

torch.compile (dynamo) cannot trace into a C function: user code compiled with it that calls these ops gets a graph
break there (the results stay right; torch warns). paddle_compat itself compiles only recorded static graphs, whose
nodes call the op bodies, not these functions; PADDLE_COMPAT_NATIVE=0 keeps such user code in one graph.
"""

from __future__ import annotations

import logging
import os
from types import ModuleType

import torch

_log = logging.getLogger(__name__)

DISABLED = os.environ.get("PADDLE_COMPAT_NATIVE", "1").strip().lower() in ("0", "false", "off", "no")


def _load() -> ModuleType | None:
    if DISABLED:
        _log.debug("native view ops disabled by PADDLE_COMPAT_NATIVE=0")
        return None
    try:
        from paddle_compat.engine.core.native import _views
    except Exception as e:  # noqa: BLE001 - not built, or built against another torch: the pure-Python path
        _log.debug("native view ops not used: %s", e)
        return None
    if getattr(_views, "TORCH_VERSION", None) != torch.__version__:
        _log.debug("native view ops not used: built for torch %s, running %s", getattr(_views, "TORCH_VERSION", "?"),
                   torch.__version__)
        return None
    try:
        _views.configure(probe=torch.empty(2, 3, 5))
    except Exception as e:  # noqa: BLE001
        _log.debug("native view ops not used: %s", e)
        return None
    return _views


MODULE = _load()


def function(name: str):
    """The native function `name`, or None without the module."""
    return getattr(MODULE, name, None) if MODULE is not None else None
