"""paddle.nn.initializer additions of Paddle 2.x: Bilinear (also fluid.initializer.Bilinear), Dirac, Orthogonal,
calculate_gain and set_global_initializer. Each initializer fills through a registry op, so it records into
the startup program in static mode as the others in engine/static/initializer.py do."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from paddle_compat.engine.framework.registry import export, op
from paddle_compat.engine.static import initializer as _init
from paddle_compat.engine.static.initializer import Initializer, NumpyArrayInitializer

_I = "paddle.nn.initializer."


class Bilinear(Initializer):
    """The bilinear-upsampling kernel for a transposed-convolution weight [C_out, C_in, k, k]. As Paddle's
    code, the row coordinate is (i / k) % k with true division, so it is fractional within a row."""

    def _fill(self, shape, dtype, name):
        if len(shape) != 4:
            raise ValueError(f"{_I}Bilinear: the length of shape must be 4, but got shape {list(shape)}")
        if shape[2] != shape[3]:
            raise ValueError(f"{_I}Bilinear: shape[2] must be equal to shape[3], but got shape {list(shape)}")
        if math.prod(shape) > 1024 * 1024:
            raise ValueError(f"{_I}Bilinear: The size of input is too big ({list(shape)}).")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(math.prod(shape), dtype=np.float64)
        x, y = i % size, i / size % size
        weight = ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype("float32").reshape(shape)
        return NumpyArrayInitializer(weight)._fill(shape, dtype, name)


class Dirac(Initializer):
    """Identity-preserving convolution weights [C_out, C_in, *k]: 1 at the kernel centre of channel j of each
    of `groups` output groups, 0 elsewhere."""

    _prepend = False  # a 2.x initializer: its op is appended (engine/static/initializer.py)

    def __init__(self, groups: int = 1, name: str | None = None) -> None:
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(f"{_I}Dirac: 'groups' must be a positive integer, but got {groups}")
        self._groups = groups

    def _fill(self, shape, dtype, name):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"{_I}Dirac: Only Tensor with 3/4/5 dimensions can be initialized by Dirac, but got "
                             f"shape {list(shape)}")
        if shape[0] % self._groups:
            raise ValueError(f"{_I}Dirac: Tensor 0-dimension ({shape[0]}) must be divisible by groups "
                             f"({self._groups})")
        weight = np.zeros(shape, dtype="float32")
        per_group = shape[0] // self._groups
        centre = tuple(d // 2 for d in shape[2:])
        for g in range(self._groups):
            for j in range(min(per_group, shape[1])):
                weight[(g * per_group + j, j) + centre] = 1.0
        return NumpyArrayInitializer(weight)._fill(shape, dtype, name)


@op("orthogonal_init", random=True, differentiable=False)
def orthogonal_init(shape, gain=1.0, dtype="float32", name=None):
    """Q of the QR decomposition of a [max(r, c), min(r, c)] standard-normal matrix (signs fixed by R's
    diagonal), transposed when rows < cols, reshaped to `shape` and scaled by gain."""
    from paddle_compat.engine.core import dtype as _dt
    from paddle_compat.engine.ops.common import current_device
    from paddle_compat.engine.ops.tensor.creation import _gen

    rows, cols = shape[0], math.prod(shape[1:])
    normal = torch.empty(max(rows, cols), min(rows, cols), dtype=torch.float64, device=current_device())
    normal.normal_(generator=_gen())
    q, r = torch.linalg.qr(normal, mode="reduced")
    q = q * torch.sign(torch.diagonal(r))
    if rows < cols:
        q = q.t()
    return (q.reshape(list(shape)) * gain).to(_dt.to_dtype(dtype).torch)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix of the parameter's shape flattened to [rows, prod(rest)], times gain."""

    _prepend = False  # a 2.x initializer: its op is appended (engine/static/initializer.py)

    def __init__(self, gain: float = 1.0, name: str | None = None) -> None:
        if gain is None:
            raise ValueError(f"{_I}Orthogonal: gain should not be None")
        self._gain = gain

    def _fill(self, shape, dtype, name):
        if len(shape) < 2:
            raise ValueError(f"{_I}Orthogonal: Only Tensor with 2 or more dimensions can be initialized by "
                             f"Orthogonal, but got shape {list(shape)}")
        return orthogonal_init([int(s) for s in shape], float(self._gain), dtype, name=name)


_GAINS = {"sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1, "conv1d_transpose": 1,
          "conv2d_transpose": 1, "conv3d_transpose": 1, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain of an activation (leaky_relu's from its negative slope `param`, default 0.01)."""
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity in _GAINS:
        return _GAINS[nonlinearity]
    raise ValueError(f"{_I}calculate_gain: nonlinearity function {nonlinearity} is not suppported now.")


def set_global_initializer(weight_init: Any, bias_init: Any = None) -> None:
    """Initializers for every parameter created afterwards whose ParamAttr names none (they win over a
    layer's own default); None for both restores the defaults."""
    for what, init in (("weight_init", weight_init), ("bias_init", bias_init)):
        if init is not None and not isinstance(init, Initializer):
            raise TypeError(f"{_I}set_global_initializer: {what} should be an Initializer or None, but received "
                            f"{type(init).__name__}")
    _init.GLOBAL_INITIALIZER["weight"] = weight_init
    _init.GLOBAL_INITIALIZER["bias"] = bias_init


export(Bilinear, _I + "Bilinear", "paddle.fluid.initializer.Bilinear", "paddle.fluid.initializer.BilinearInitializer")
export(Dirac, _I + "Dirac")
export(Orthogonal, _I + "Orthogonal")
export(calculate_gain, _I + "calculate_gain")
export(set_global_initializer, _I + "set_global_initializer")
