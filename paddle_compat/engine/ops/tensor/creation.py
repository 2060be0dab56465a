"""Creation and random ops: fill_constant, assign, the random initializer ops, and their 2.x spellings."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.api_level import LEVEL
from paddle_compat.engine.core import paddle_rng as _prng
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.ops.common import current_device, require_kernel_dtype, runs_on_cpu, shape_list
from paddle_compat.engine.framework.registry import alias, export, op


def _dtype_or_default(dtype: Any) -> torch.dtype:
    return _dt.to_dtype(dtype).torch if dtype is not None else _dt.default_float().torch


@op("fill_constant", differentiable=False)
def fill_constant(shape, dtype, value, name=None):
    v = value.reshape(()).item() if isinstance(value, torch.Tensor) else value
    dev = RUNTIME.device  # current_device(), without its call on the Executor's path
    return torch.full(shape_list(shape), v, dtype=dtype if type(dtype) is torch.dtype else _dtype_or_default(dtype),
                      device=dev if dev is not None else current_device())


@op("fill_any_like", differentiable=False, helper="full_like")
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
    from paddle_compat.engine.framework.dispatch import write_result
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    if isinstance(x, (Tensor, Variable)):
        out = assign_tensor(x)
    else:
        # a Python scalar becomes shape [1] (Paddle 2.x wraps int / float / bool in a list); numpy 0-D stays 0-D.
        # Paddle 2.6 wraps a numpy scalar (np.float32(3)) too: [1] at API level 2.6
        scalar = isinstance(x, (bool, int, float)) or (LEVEL.zero_d and isinstance(x, np.generic))
        arr = np.asarray([x] if scalar else x)
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        out = assign_value(arr)
    if output is None:
        return out
    return write_result(output, out, "paddle.assign(output=)", strict=False)


export(assign, "paddle.assign", "paddle.fluid.layers.assign")


@op("cast", exports=("paddle.cast", "paddle.Tensor.astype", "paddle.Tensor.cast"))
def cast(x, dtype):
    return x.to(_dt.to_dtype(dtype).torch)


def astype(self, dtype):
    """Tensor.astype: the cast op; on a static Variable its output is `tmp_N`, as Paddle's math_op_patch names it
    (1.8, 2.4 and 2.6; paddle.cast gives cast_N.tmp_0)."""
    if not MODE.static:
        return cast(self, dtype)
    from paddle_compat.engine.framework import unique_name
    from paddle_compat.engine.framework.dispatch import layer_helper, rename_result

    name = unique_name.generate("tmp")
    with layer_helper("cast", name):  # no cast_N name is drawn (paddle.cast after it is still cast_0)
        out = cast(self, dtype)
    return rename_result(out, name) if getattr(out, "node", None) is not None else out


export(astype, "paddle.Tensor.astype")  # exported after the op: this wins


# --- random -----------------------------------------------------------------------------------
def _gen() -> torch.Generator | None:
    return RUNTIME.generator


def _seeded(seed: int) -> torch.Generator | None:
    if seed:
        g = torch.Generator(device=current_device())
        g.manual_seed(int(seed))
        return g
    return _gen()


def draw_uniform(shape: list, dtype: torch.dtype, lo: Any, hi: Any, seed: int = 0) -> torch.Tensor:
    """A new tensor of U(lo, hi) draws on the current device: Paddle's own stream under use_paddle_rng, else
    torch's (an op seed's own generator when `seed` is set)."""
    if _prng.ON:
        return _prng.t_uniform(shape, dtype, lo, hi, seed, current_device())
    out = torch.empty(shape, dtype=dtype, device=current_device())
    return out.uniform_(float(lo), float(hi), generator=_seeded(seed))


def draw_normal(shape: list, dtype: torch.dtype, mean: Any, std: Any, seed: int = 0) -> torch.Tensor:
    """A new tensor of mean + std * N(0, 1) draws on the current device, as draw_uniform (normal_fill_)."""
    if _prng.ON:
        return _prng.t_gaussian(shape, dtype, mean, std, seed, current_device())
    return normal_fill_(torch.empty(shape, dtype=dtype, device=current_device()), mean, std, _seeded(seed))


@op("uniform_random", exports=("paddle.uniform", "paddle.fluid.layers.uniform_random"), random=True,
    differentiable=False)
def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None):  # noqa: A002
    return draw_uniform(shape_list(shape), _dtype_or_default(dtype), min, max, seed)


def normal_fill_(out: torch.Tensor, mean: Any, std: Any, generator: Any) -> torch.Tensor:
    """out filled with mean + std * z, z ~ N(0, 1): Paddle's kernels compute that form, so a negative std samples
    N(mean, |std|) (mirrored about mean) where torch's normal_ rejects it."""
    mean, std = float(mean), float(std)
    if std >= 0 or std != std:
        return out.normal_(mean, std, generator=generator)
    return out.normal_(mean, -std, generator=generator).neg_().add_(2 * mean)


@op("gaussian_random", random=True, differentiable=False)
def gaussian_random(shape, mean=0.0, std=1.0, seed=0, dtype="float32", name=None):
    return draw_normal(shape_list(shape), _dtype_or_default(dtype), mean, std, seed)


export(gaussian_random, "paddle.fluid.layers.gaussian_random")


@op("truncated_gaussian_random", random=True, differentiable=False)
def truncated_gaussian_random(shape, mean=0.0, std=1.0, seed=0, dtype="float32", name=None):
    out = torch.empty(shape_list(shape), dtype=_dtype_or_default(dtype), device=current_device())
    # Paddle truncates at two standard deviations (mean + std * z, z in [-2, 2]: a negative std mirrors)
    m, sd = float(mean), abs(float(std))
    torch.nn.init.trunc_normal_(out, m, sd, m - 2 * sd, m + 2 * sd, generator=_seeded(seed))
    return out.neg_().add_(2 * m) if float(std) < 0 else out


# --- python/paddle/tensor/creation.py (2.x spellings) ---------------------------------------------
export(full_like, "paddle.full_like")


def _scalar(v: Any) -> Any:
    return v.reshape(()).item() if isinstance(v, torch.Tensor) else v


def _dtype_or_float32(dtype: Any) -> torch.dtype:
    """Paddle 2.4's full / zeros / ones / eye / linspace default to float32, not to get_default_dtype()."""
    return _dt.to_dtype(dtype).torch if dtype is not None else torch.float32


def _fill_constant_helper(args: dict) -> str:
    """OpDef.helper of paddle.full / zeros / ones: Paddle 2.x generates the name `fill_constant` twice per call (its
    output is `fill_constant_1.tmp_0`, then `fill_constant_3.tmp_0`)."""
    from paddle_compat.engine.framework import unique_name

    unique_name.generate("fill_constant")
    return "fill_constant"


@op("fill_constant_2x", exports=("paddle.full",), differentiable=False, helper=_fill_constant_helper,
    paddle_type="fill_constant")
def full(shape, fill_value, dtype=None, name=None):
    return torch.full(shape_list(shape, "paddle.full"), _scalar(fill_value), dtype=_dtype_or_float32(dtype),
                      device=current_device())


def _filled(value: float, api: str):
    def body(shape, dtype=None, name=None):
        d = _dtype_or_default(dtype) if api == "empty" else _dtype_or_float32(dtype)
        return torch.full(shape_list(shape, f"paddle.{api}"), value, dtype=d, device=current_device())

    return body


def _filled_like(value: float):
    def body(x, dtype=None, name=None):
        return torch.full_like(x, value, dtype=_dt.to_torch_dtype(dtype) or x.dtype)

    return body


# 2.x name -> fill value; `empty` / `empty_like` are zero-filled (Paddle leaves them uninitialized)
for _name, _value in {"zeros": 0, "ones": 1, "empty": 0}.items():
    globals()[_name] = op(f"{_name}_2x", exports=(f"paddle.{_name}",), differentiable=False,
                          helper=_fill_constant_helper if _name != "empty" else None,
                          paddle_type="fill_constant" if _name != "empty" else "empty")(_filled(_value, _name))
    globals()[f"{_name}_like"] = op(f"{_name}_like", exports=(f"paddle.{_name}_like",), differentiable=False,
                                    helper="full_like" if _name != "empty" else None,
                                    paddle_type="fill_any_like" if _name != "empty" else None)(_filled_like(_value))


def _arange_dtype(start, end, step, dtype) -> Any:
    """paddle.arange's dtype (a paddle dtype). dtype=None: int64 in Paddle 2.4, even for float bounds; at API level
    2.6, Paddle 2.5+'s rule: the default float dtype when a bound (after arange(n) became arange(0, n)) is a float
    number or a float tensor, else int64."""
    from paddle_compat.engine.ops.tensor._helpers import is_tensorlike

    if dtype is not None:
        return _dt.to_dtype(dtype)
    if LEVEL.zero_d:
        for v in (start, end, step):
            dt = getattr(v, "dtype", None)
            if (not (_dt.to_dtype(dt).torch.is_floating_point or _dt.to_dtype(dt).torch.is_complex)
                    if dt is not None and (isinstance(v, torch.Tensor) or is_tensorlike(v))
                    else isinstance(v, (int, np.integer))):
                continue
            return _dt.default_float()
    return _dt.int64


def _range_infer(start=0, end=None, step=1, dtype=None, name=None):
    """Tensor bounds (static mode: start / end / step are variables) make the length data-dependent (-1)."""
    from paddle_compat.engine.framework.infer import Spec
    from paddle_compat.engine.framework.registry import OPS
    from paddle_compat.engine.ops.tensor._helpers import default_infer, is_tensorlike

    if not any(is_tensorlike(v) for v in (start, end, step)):
        return default_infer(OPS["range"], (start, end, step, dtype), {})
    return Spec((-1,), _arange_dtype(*((0, start) if end is None else (start, end)), step, dtype))


def _arange_compose(start=0, end=None, step=1, dtype=None, name=None):
    """paddle.arange of numbers in a Program as Paddle 2.4 / 2.6 record it: each bound a fill_constant of shape [1]
    (named as paddle.full's: fill_constant_1.tmp_0, ...), then the range op over them, whose length is known."""
    from paddle_compat.engine.framework.dispatch import _is_var, record_op
    from paddle_compat.engine.framework.registry import OPS

    if any(_is_var(v) for v in (start, end, step)):
        return NotImplemented
    if end is None:
        start, end = 0, start
    spec = _range_infer(start, end, step, dtype)  # the checks and the length, from the numbers
    d = _arange_dtype(start, end, step, dtype)
    fill = OPS["fill_constant_2x"].public
    bounds = [fill([1], v if d.torch.is_floating_point else int(v), d) for v in (start, end, step)]
    out = record_op(OPS["range"], tuple(bounds), {"dtype": d, "name": name})
    out._shape = tuple(spec.shape)
    return out


@op("range", exports=("paddle.arange",), differentiable=False, infer=_range_infer, compose=_arange_compose)
def arange(start=0, end=None, step=1, dtype=None, name=None):
    """Paddle 2.4: dtype=None means int64 even for float bounds, which are truncated (fill_constant into the
    dtype), so arange(0.5, 3.0) is [0, 1, 2]; pass dtype='float32' for a float range. At API level 2.6 a float bound
    makes it float (`_arange_dtype`)."""
    if end is None:
        start, end = 0, start
    d = _arange_dtype(start, end, step, dtype).torch
    start, end, step = _scalar(start), _scalar(end), _scalar(step)
    if not (d.is_floating_point or d.is_complex):
        start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise ValueError("paddle.arange: step must not be 0")
    return torch.arange(start, end, step, dtype=d, device=current_device())


@op("linspace", exports=("paddle.linspace",), differentiable=False)
def linspace(start, stop, num, dtype=None, name=None):
    d = _dtype_or_float32(dtype)
    if runs_on_cpu():  # Paddle's CPU kernel (1.8.5: float / double only; 2.4 and 2.6.2 add int32 / int64)
        require_kernel_dtype("paddle.linspace", "linspace", d, ("float32", "float64", "int32", "int64"), "CPU")
    if not isinstance(num, torch.Tensor) and int(num) <= 0:
        raise InvalidArgumentError(f"paddle.linspace: num should be larger than 0, but received num is "
                                   f"{int(_scalar(num))}")
    out = torch.linspace(float(_scalar(start)), float(_scalar(stop)), int(_scalar(num)), dtype=torch.float64,
                         device=current_device())
    return out.to(d) if d.is_floating_point else out.round().to(d)


@op("eye", exports=("paddle.eye",), differentiable=False)
def eye(num_rows, num_columns=None, dtype=None, name=None):
    n, m = _scalar(num_rows), None if num_columns is None else _scalar(num_columns)
    for k, v, raw in (("num_rows", n, num_rows), ("num_columns", m, num_columns)):
        python_float = isinstance(v, (bool, float, np.floating)) and not isinstance(raw, torch.Tensor)
        if v is not None and (python_float or int(v) < 0):
            raise TypeError(f"paddle.eye: {k} should be a non-negative int, but received {v!r}")
    n = int(n)
    m = n if m is None else int(m)
    d = _dtype_or_float32(dtype)
    if runs_on_cpu():  # Paddle's CPU kernel (1.8.5, 2.4, 2.6.2): no bool, int8 / int16 / uint8, bfloat16, complex
        require_kernel_dtype("paddle.eye", "eye", d, ("float16", "float32", "float64", "int32", "int64"), "CPU")
    return torch.eye(n, m, dtype=d, device=current_device())


@op("diag_v2", exports=("paddle.diag",))
def diag(x, offset=0, padding_value=0, name=None):
    if x.dim() == 1:
        out = torch.diag(x, offset)
        if padding_value != 0:
            mask = torch.diag(torch.ones_like(x, dtype=torch.bool), offset)
            out = torch.where(mask, out, torch.full_like(out, padding_value))
        return out
    if x.dim() == 2:
        return torch.diagonal(x, offset).clone()
    raise InvalidArgumentError(f"paddle.diag: x must be 1-D or 2-D, got shape {list(x.shape)}")  # C++ check in Paddle


def _tri(fn):
    def body(x, diagonal=0, name=None):
        if x.dim() < 2:
            raise ValueError(f"the rank of x must be at least 2, got shape {list(x.shape)}")
        return fn(x, diagonal)

    return body


tril = op("tril", exports=("paddle.tril", "paddle.Tensor.tril"))(_tri(torch.tril))
triu = op("triu", exports=("paddle.triu", "paddle.Tensor.triu"))(_tri(torch.triu))


@op("meshgrid")
def _meshgrid(tensors, name=None):
    return list(torch.meshgrid(*tensors, indexing="ij"))


def meshgrid(*args, **kwargs):
    """paddle.meshgrid(x, y) or meshgrid([x, y]): a list of N-D grids ("ij" indexing)."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    return _meshgrid(list(args), **kwargs)


export(meshgrid, "paddle.meshgrid")


# --- more of python/paddle/tensor/creation.py (2.x) ------------------------------------------------
@op("logspace", exports=("paddle.logspace",), differentiable=False)
def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """base ** linspace(start, stop, num), computed in float64 and cast to dtype (default: get_default_dtype())."""
    d = _dtype_or_default(dtype)
    exps = torch.linspace(float(_scalar(start)), float(_scalar(stop)), int(_scalar(num)), dtype=torch.float64,
                          device=current_device())
    out = torch.pow(torch.tensor(float(_scalar(base)), dtype=torch.float64), exps)
    return out.to(d) if d.is_floating_point else out.to(d)


def _indices(fn, api):
    def body(row, col=None, offset=0, dtype="int64"):
        col = row if col is None else col
        for k, v in (("row", row), ("col", col)):
            if not isinstance(v, int) or v < 0:
                raise TypeError(f"{api}: {k} should be a non-negative int, but got {v!r}")
        if not isinstance(offset, int):
            raise TypeError(f"{api}: offset should be an int, but got {offset!r}")
        return fn(row, col, offset, dtype=_dt.to_dtype(dtype).torch, device=current_device())

    return body


tril_indices = op("tril_indices", exports=("paddle.tril_indices",), differentiable=False)(
    _indices(torch.tril_indices, "paddle.tril_indices"))
triu_indices = op("triu_indices", exports=("paddle.triu_indices",), differentiable=False)(
    _indices(torch.triu_indices, "paddle.triu_indices"))


@op("complex", exports=("paddle.complex",))
def complex(real, imag, name=None):  # noqa: A001 - Paddle's name
    if real.dtype not in (torch.float32, torch.float64) or imag.dtype != real.dtype:
        raise TypeError(f"paddle.complex: real and imag must both be float32 or float64, but got "
                        f"{str(real.dtype)[6:]} and {str(imag.dtype)[6:]}")
    real, imag = torch.broadcast_tensors(real, imag)
    return torch.complex(real, imag)


@op("polar", exports=("paddle.polar", "paddle.Tensor.polar"))
def polar(abs, angle, name=None):  # noqa: A002 - Paddle's names
    return torch.polar(abs, angle)


@op("vander", exports=("paddle.vander", "paddle.Tensor.vander"))
def vander(x, n=None, increasing=False, name=None):
    if x.dim() != 1:
        raise ValueError(f"paddle.vander: x must be a 1-D tensor, but got shape {list(x.shape)}")
    if n is not None and n < 0:
        raise ValueError(f"paddle.vander: n must be non-negative, but got {n}")
    return torch.vander(x, N=n, increasing=increasing)


@op("diagflat", exports=("paddle.diagflat", "paddle.Tensor.diagflat"))
def diagflat(x, offset=0, name=None):
    return torch.diagflat(x, int(offset))


@op("combinations", exports=("paddle.combinations", "paddle.Tensor.combinations"))
def combinations(x, r=2, with_replacement=False, name=None):
    if x.dim() != 1:
        raise TypeError(f"paddle.combinations: x must be a 1-D tensor, but got shape {list(x.shape)}")
    if not isinstance(r, int) or r < 0:
        raise ValueError(f"paddle.combinations: r must be a non-negative int, but got {r!r}")
    if r == 0:
        return x.new_empty([0])
    return torch.combinations(x, r, with_replacement).reshape(-1, r)


alias("paddle.nn.functional.diag_embed", "paddle.diag_embed", "paddle.Tensor.diag_embed")
