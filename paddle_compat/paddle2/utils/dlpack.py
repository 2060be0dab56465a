"""paddle.utils.dlpack: to_dlpack / from_dlpack over torch's DLPack support (torch.utils.dlpack).

As Paddle 2.6's: `to_dlpack(x)` takes a Tensor (a LoDTensor in static mode) and gives a "dltensor" PyCapsule
sharing its memory; `from_dlpack(capsule)` takes only a PyCapsule (consumed once) and, in dygraph mode, gives a
new Tensor holding a copy (Paddle passes the decoded tensor through `paddle.to_tensor`), with bool data decoded
as uint8; in static mode a LoDTensor.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.utils.dlpack as _tdl

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.registry import export


def to_dlpack(x: Any) -> Any:
    from paddle_compat.engine.core.mode import in_dynamic_mode
    from paddle_compat.engine.framework.lod import LoDTensor
    from paddle_compat.engine.framework.tensor import Tensor

    allowed = (Tensor, LoDTensor) if in_dynamic_mode() else (LoDTensor,)
    if not isinstance(x, allowed):
        what = "paddle.Tensor" if in_dynamic_mode() else "LoDTensor"
        raise TypeError(f"The type of 'x' in to_dlpack must be {what}, but received {type(x)}.")
    return _tdl.to_dlpack(x._t.detach().contiguous())


def from_dlpack(dlpack: Any) -> Any:
    from paddle_compat.engine.core.mode import in_dynamic_mode
    from paddle_compat.engine.framework.lod import LoDTensor
    from paddle_compat.engine.framework.tensor import to_tensor

    t = type(dlpack)
    if not (t.__module__ == "builtins" and t.__name__ == "PyCapsule"):
        raise TypeError(f"The type of 'dlpack' in from_dlpack must be PyCapsule object, but received {t}.")
    try:
        out = _tdl.from_dlpack(dlpack)
    except (RuntimeError, ValueError, TypeError) as e:
        raise InvalidArgumentError("from_dlpack received an invalid capsule. Note that a DLPack tensor can be "
                                   f"consumed only once. ({e})") from e
    if out.dtype == torch.bool:
        out = out.to(torch.uint8)
    if in_dynamic_mode():
        return to_tensor(out)
    return LoDTensor._from_torch(out.clone())


export(to_dlpack, "paddle.utils.dlpack.to_dlpack")
export(from_dlpack, "paddle.utils.dlpack.from_dlpack")
