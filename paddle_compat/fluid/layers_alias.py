"""The fluid.layers names Paddle 1.8 took over from its 2.0-alpha tensor API (acos, addmm, arange, clamp, flip, full,
index_select, roll, ...), with 1.8's signatures (`input` / `dim` / `dims` / `out=` spellings) mapped onto our
paddle.* ops, plus cos_sim, mish, mean_iou and the decoding aliases. One op, one definition: every name here calls
the registry op its 2.x counterpart uses. `out=` (1.8's in-place output) is accepted only as None."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.core.mode import legacy_creation
from paddle_compat.engine.framework.argcheck import require_tensor
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.lookup import F, P
from paddle_compat.engine.framework.registry import alias, export, op


def _no_out(api: str, out: Any) -> None:
    if out is not None:
        raise InvalidArgumentError(f"fluid.layers.{api}: `out=` (writing into an existing variable) is not "
                                   "supported; use the returned variable")


def addcmul(input, tensor1, tensor2, value=1.0, out=None, name=None):  # noqa: A002
    _no_out("addcmul", out)
    return P("add")(input, P("scale")(P("multiply")(tensor1, tensor2), float(value)))


def addmm(input, x, y, alpha=1.0, beta=1.0, name=None):  # noqa: A002
    return P("addmm")(input, x, y, beta=beta, alpha=alpha)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):  # noqa: A002
    return P("allclose")(input, other, rtol, atol, equal_nan)


@legacy_creation
def arange(start, end, step=1, dtype=None, name=None):
    return P("arange")(start, end, step, dtype)


def clamp(input, min=None, max=None, output=None, name=None):  # noqa: A002
    _no_out("clamp", output)
    return P("clip")(input, min, max)


def cross(input, other, dim=None):  # noqa: A002
    return P("cross")(input, other) if dim is None else P("cross")(input, other, axis=dim)


def elementwise_equal(x, y, name=None):
    return P("equal")(x, y)


def flip(input, dims, name=None):  # noqa: A002
    return P("flip")(input, dims)


@legacy_creation
def full(shape, fill_value, out=None, dtype=None, device=None, stop_gradient=True, name=None):
    _no_out("full", out)
    return P("full")(shape, fill_value, dtype)


def full_like(input, fill_value, out=None, dtype=None, device=None, stop_gradient=True, name=None):  # noqa: A002
    _no_out("full_like", out)
    return P("full_like")(input, fill_value, dtype)


def index_select(input, index, dim=0):  # noqa: A002
    return P("index_select")(input, index, axis=dim)


def interpolate(input, out_shape=None, scale=None, name=None, resample="BILINEAR", actual_shape=None,  # noqa: A002
                align_corners=True, align_mode=1, data_format="NCHW"):
    return P("fluid.layers.image_resize")(input, out_shape, scale, name, resample, actual_shape, align_corners,
                                          align_mode, data_format)


def kron(x, y, out=None, name=None):
    _no_out("kron", out)
    return P("kron")(x, y)


@legacy_creation
def linspace(start, stop, num, dtype):
    return P("linspace")(start, stop, num, dtype)


def log1p(x, out=None, name=None):
    _no_out("log1p", out)
    return P("log1p")(x)


def log_softmax(input, axis=None, dtype=None, name=None):  # noqa: A002
    return F("log_softmax")(input, -1 if axis is None else axis, dtype)


def logsumexp(x, dim=None, keepdim=False, out=None, name=None):
    _no_out("logsumexp", out)
    return P("logsumexp")(x, dim, keepdim)


def meshgrid(input, name=None):  # noqa: A002
    return P("meshgrid")(*input)


def mish(x, threshold=20, name=None):
    """x * tanh(softplus(x)), softplus(x) = x above threshold (Paddle 1.8's kernel)."""
    return P("multiply")(x, P("tanh")(F("softplus")(x, 1.0, float(threshold))))


def nonzero(input, as_tuple=False):  # noqa: A002
    return P("nonzero")(input, as_tuple)


@legacy_creation
def randint(low, high=None, shape=None, out=None, dtype=None, device=None, stop_gradient=True, seed=0, name=None):
    _no_out("randint", out)
    return P("randint")(low, high, [1] if shape is None else shape, dtype)


@legacy_creation
def randn(shape, out=None, dtype=None, device=None, stop_gradient=True, name=None):
    _no_out("randn", out)
    return P("randn")(shape, dtype)


@legacy_creation
def randperm(n, out=None, dtype="int64", device=None, stop_gradient=True, seed=0):
    _no_out("randperm", out)
    return P("randperm")(n, dtype)


def roll(input, shifts, dims=None):  # noqa: A002
    return P("roll")(input, shifts, axis=dims)


def scatter_nd_add(ref, index, updates, name=None):
    return P("scatter_nd_add")(ref, index, updates)


def trace(input, offset=0, dim1=0, dim2=1, out=None, name=None):  # noqa: A002
    _no_out("trace", out)
    return P("trace")(input, offset, dim1, dim2)


def is_empty(x, cond=None):
    _no_out("is_empty", cond)
    return P("is_empty")(x)


def cos_sim(X, Y):  # noqa: N803
    """Row-wise cosine similarity [N, 1]; Y may be one row, compared with every row of X."""
    dot = P("sum")(P("multiply")(X, Y), axis=1, keepdim=True)
    xn = P("sqrt")(P("sum")(P("multiply")(X, X), axis=1, keepdim=True))
    yn = P("sqrt")(P("sum")(P("multiply")(Y, Y), axis=1, keepdim=True))
    return P("divide")(dot, P("multiply")(xn, yn))


def _mean_iou_infer(input, label, num_classes):  # noqa: A002
    from paddle_compat.engine.core import dtype as _dt

    i32 = _dt.to_dtype("int32")
    return [Spec((1,), _dt.to_dtype("float32")), Spec((num_classes,), i32), Spec((num_classes,), i32)]


@op("mean_iou", differentiable=False, infer=_mean_iou_infer)
def _mean_iou(input, label, num_classes):  # noqa: A002
    """Paddle's kernel: a match counts as correct for its class; a miss as wrong for both the predicted and the
    true class; the mean is over the classes seen (correct + wrong > 0)."""
    import torch

    p, lab = input.reshape(-1).long(), label.reshape(-1).long()
    hit = p == lab
    correct = torch.bincount(p[hit], minlength=num_classes)[:num_classes]
    wrong = (torch.bincount(p[~hit], minlength=num_classes) + torch.bincount(lab[~hit], minlength=num_classes))
    wrong = wrong[:num_classes]
    seen = (correct + wrong) > 0
    iou = correct.float() / (correct + wrong).clamp(min=1).float()
    mean = iou[seen].sum() / seen.sum().clamp(min=1)
    return mean.reshape(1), wrong.to(torch.int32), correct.to(torch.int32)


def mean_iou(input, label, num_classes):  # noqa: A002
    """-> (mean_iou [1] float32, out_wrong [num_classes] int32, out_correct [num_classes] int32)."""
    require_tensor(input, "paddle.fluid.layers.mean_iou", "input", 0)
    return _mean_iou(input, label, int(num_classes))


_DIRECT = {  # 1.8 name -> the 2.x public name with the same positional signature
    "acos": "paddle.acos", "asin": "paddle.asin", "atan": "paddle.atan", "bmm": "paddle.bmm",
    "diag_embed": "paddle.nn.functional.diag_embed", "dist": "paddle.dist", "dot": "paddle.dot",
    "erf": "paddle.erf", "index_sample": "paddle.index_sample", "multiplex": "paddle.multiplex",
    "stanh": "paddle.stanh", "t": "paddle.t", "temporal_shift": "paddle.nn.functional.temporal_shift",
    "unfold": "paddle.nn.functional.unfold", "unstack": "paddle.unstack", "scatter_nd": "paddle.scatter_nd",
    "tril": "paddle.tril", "triu": "paddle.triu", "log_loss": "paddle.nn.functional.log_loss",
    "dice_loss": "paddle.nn.functional.dice_loss", "npair_loss": "paddle.nn.functional.npair_loss",
    "shard_index": "paddle.shard_index", "gather_tree": "paddle.nn.functional.gather_tree",
    "BeamSearchDecoder": "paddle.nn.BeamSearchDecoder", "dynamic_decode": "paddle.nn.dynamic_decode",
}


def _register() -> None:
    for name, target in _DIRECT.items():
        alias(target, f"paddle.fluid.layers.{name}")
    for fn in (addcmul, addmm, allclose, arange, clamp, cross, elementwise_equal, flip, full, full_like, index_select,
               interpolate, kron, linspace, log1p, log_softmax, logsumexp, meshgrid, mish, nonzero, randint, randn,
               randperm, roll, scatter_nd_add, trace, is_empty, cos_sim, mean_iou):
        export(fn, f"paddle.fluid.layers.{fn.__name__}")


_register()
