"""fluid.layers.load (layers.io.load): an op that reads one tensor file in Paddle's LoDTensor format (what
fluid.io.save_vars / save_params write, one file per variable) into `out` every time the program runs."""

from __future__ import annotations

import os

import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError, NotFoundError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.static.layer_helper import bind_output
from paddle_compat.engine.framework.dispatch import layer_helper
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.ops.common import current_device
from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.static.io import tensor_from_bytes


@op("load", differentiable=False,
    infer=lambda file_path, shape, dtype, load_as_fp16: Spec(tuple(shape), _dt.to_dtype(
        "float16" if load_as_fp16 else dtype)))
def load_op(file_path, shape, dtype, load_as_fp16):
    if not os.path.exists(file_path):
        raise NotFoundError(f"fluid.layers.load: cannot open {file_path!r} to load")
    with open(file_path, "rb") as f:
        arr, _ = tensor_from_bytes(f.read())
    t = torch.from_numpy(arr.copy()).to(current_device())
    return t.half() if load_as_fp16 else t


def load(out, file_path, load_as_fp16=None):
    """Fill `out` (a Variable, usually persistable) from `file_path` when the program runs; load_as_fp16 converts
    to float16. In dygraph the file is read at once into `out`."""
    if not isinstance(file_path, str):
        raise InvalidArgumentError(f"fluid.layers.load: file_path must be a str, got {type(file_path).__name__}")
    with layer_helper("load"):
        value = load_op(file_path, [int(d) for d in out.shape], out.dtype.name, bool(load_as_fp16))
    if MODE.static:
        bind_output(out, value)
    else:
        out._t = value._t
    return out


export(load, "paddle.fluid.layers.load", "paddle.fluid.layers.io.load")
