"""Creation and random ops: fill_constant, assign, the random initializer ops, and their 2.x spellings."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.core import dtype as _dt
from paddle_compat.core.runtime import RUNTIME
from paddle_compat.ops.common import current_device, shape_list
from paddle_compat.ops.registry import export, op


def _dtype_or_default(dtype: Any) -> torch.dtype:
    return _dt.to_dtype(dtype).torch if dtype is not None else _dt.default_float().torch


@op("fill_constant", differentiable=False)
def fill_constant(shape, dtype, value, name=None):
    v = value.reshape(()).item() if isinstance(value, torch.Tensor) else value
    return torch.full(shape_list(shape), v, dtype=_dtype_or_default(dtype), device=current_device())


@op("fill_any_like", differentiable=False)
def full_like(x, fill_value, dtype=None, name=None):
    v = fill_value.reshape(()).item() if isinstance(fill_value, torch.Tensor) else fill_value
    return torch.full_like(x, v, dtype=_dt.to_torch_dtype(dtype) or x.dtype)


def full_like_scalar(x: Any, value: Any) -> Any:
    """The left operand of a reflected operator (`2 - x`): a Tensor of x's shape and dtype, or value itself."""
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        return value
    if isinstance(value, float) and not x.dtype.torch.is_floating_point:
        return full_like(x, value, dtype=_dt.default_float())
    return full_like(x, value)


@op("assign", exports=("paddle.clone", "paddle.Tensor.clone"))
def assign_tensor(x, name=None):
    return x.clone()


@op("assign_value", differentiable=False)
def assign_value(value, dtype=None, name=None):
    arr = np.asarray(value)
    t = torch.from_numpy(np.array(arr, copy=True))
    if dtype is not None:
        t = t.to(_dt.to_dtype(dtype).torch)
    return t.to(current_device())


def assign(x: Any, output: Any = None) -> Any:
    """paddle.assign / fluid.layers.assign: copy a Tensor, Variable or numpy array (into `output`)."""
    from paddle_compat.framework.dispatch import rebind
    from paddle_compat.framework.program import Variable
    from paddle_compat.framework.tensor import Tensor

    if isinstance(x, (Tensor, Variable)):
        out = assign_tensor(x)
    else:
        arr = np.asarray(x)
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        out = assign_value(arr)
    if output is None:
        return out
    if isinstance(output, Variable):
        rebind(output, out)
    else:
        output._t = out._t
    return output


export(assign, "paddle.assign", "paddle.fluid.layers.assign")


@op("cast", exports=("paddle.cast", "paddle.Tensor.astype", "paddle.Tensor.cast"))
def cast(x, dtype):
    return x.to(_dt.to_dtype(dtype).torch)


# --- random -----------------------------------------------------------------------------------
def _gen() -> torch.Generator | None:
    return RUNTIME.generator


def _seeded(seed: int) -> torch.Generator | None:
    if seed:
        g = torch.Generator(device=current_device())
        g.manual_seed(int(seed))
        return g
    return _gen()


@op("uniform_random", exports=("paddle.uniform", "paddle.fluid.layers.uniform_random"), random=True,
    differentiable=False)
def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None):  # noqa: A002
    out = torch.empty(shape_list(shape), dtype=_dtype_or_default(dtype), device=current_device())
    return out.uniform_(float(min), float(max), generator=_seeded(seed))


@op("gaussian_random", random=True, differentiable=False)
def gaussian_random(shape, mean=0.0, std=1.0, seed=0, dtype="float32", name=None):
    out = torch.empty(shape_list(shape), dtype=_dtype_or_default(dtype), device=current_device())
    return out.normal_(float(mean), float(std), generator=_seeded(seed))


export(gaussian_random, "paddle.fluid.layers.gaussian_random")


@op("truncated_gaussian_random", random=True, differentiable=False)
def truncated_gaussian_random(shape, mean=0.0, std=1.0, seed=0, dtype="float32", name=None):
    out = torch.empty(shape_list(shape), dtype=_dtype_or_default(dtype), device=current_device())
    # Paddle truncates at two standard deviations
    torch.nn.init.trunc_normal_(out, float(mean), float(std), float(mean) - 2 * float(std),
                                float(mean) + 2 * float(std), generator=_seeded(seed))
    return out
