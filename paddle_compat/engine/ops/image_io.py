"""read_file / decode_jpeg (paddle.vision.ops): a file's bytes as a uint8 tensor, and a JPEG decoded from one.

Paddle decodes JPEG with nvjpeg on GPU only (its CPU kernel raises Unimplemented); here decode_jpeg works on
any device through Pillow (the optional `paddle_compat[vision]` extra), which decodes with libjpeg: pixels can
differ from nvjpeg's by a level where the two IDCTs round differently."""

from __future__ import annotations

import io

import numpy as np
import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.registry import op

_MODES = ("unchanged", "gray", "rgb")


def _u8_spec(*shape):
    from paddle_compat.engine.core import dtype as _dt
    from paddle_compat.engine.framework.infer import Spec

    return Spec(tuple(shape), _dt.to_dtype("uint8"))


@op("read_file", differentiable=False, infer=lambda filename: _u8_spec(-1))
def _read_file(filename):
    with open(filename, "rb") as f:
        data = f.read()
    return torch.from_numpy(np.frombuffer(data, dtype=np.uint8).copy())


@op("decode_jpeg", differentiable=False, infer=lambda x, mode="unchanged": _u8_spec(-1, -1, -1))
def _decode_jpeg(x, mode="unchanged"):
    from paddle_compat.engine.core.optional import require

    image = require("PIL.Image", "paddle.vision.ops.decode_jpeg")
    if mode not in _MODES:
        raise InvalidArgumentError(f"paddle.vision.ops.decode_jpeg: mode should be one of {_MODES}, got {mode!r}")
    if x.dtype != torch.uint8 or x.dim() != 1:
        raise InvalidArgumentError("paddle.vision.ops.decode_jpeg: x should be the 1-D uint8 tensor of a JPEG "
                                   f"file's bytes (read_file), got {x.dim()}-D {x.dtype}")
    img = image.open(io.BytesIO(x.detach().cpu().numpy().tobytes()))
    if mode == "gray":
        img = img.convert("L")
    elif mode == "rgb" or img.mode != "L":
        img = img.convert("RGB")
    arr = np.asarray(img)
    arr = np.array(arr[None] if arr.ndim == 2 else arr.transpose(2, 0, 1))
    return torch.from_numpy(arr).to(x.device)
