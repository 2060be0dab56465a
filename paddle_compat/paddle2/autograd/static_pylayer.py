"""paddle.static.nn.static_pylayer: forward_fn as one op of a static program, with backward_fn as its
gradient. The op body runs forward_fn (and, for the gradient, backward_fn) on paddle Tensors in dygraph mode
inside a torch.autograd.Function, so both may use any paddle op; without backward_fn no gradient flows."""

from __future__ import annotations

from typing import Any

import torch

from paddle_compat.engine.core.mode import dygraph_guard
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export, op

_API = "paddle.static.nn.static_pylayer"
_FUNCS: list = []  # (forward_fn, backward_fn) by id: op attributes stay plain ints
_KIND: dict = {}  # id -> list / tuple / None (a single Variable): what forward_fn returned when recorded


def _seq(out: Any) -> list:
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _check_tensors(vals: list, what: str) -> list:
    for v in vals:
        if v is not None and not isinstance(v, Tensor):
            raise TypeError(f"{_API}: {what} should return Tensors (a nest of Variables), but returned "
                            f"{type(v).__name__}")
    return vals


class _StaticPyLayer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fid, *xs):  # noqa: ANN001
        fwd, bwd = _FUNCS[fid]
        with dygraph_guard():
            out = fwd(*[Tensor._wrap(x) for x in xs])
        _KIND[fid] = type(out) if isinstance(out, (list, tuple)) else None
        outs = _check_tensors(_seq(out), "forward_fn")
        ctx.fid, ctx.n_in = fid, len(xs)
        raw = tuple(o._t for o in outs)
        if bwd is None:
            ctx.mark_non_differentiable(*raw)
        return raw

    @staticmethod
    def backward(ctx, *grads):  # noqa: ANN001
        _, bwd = _FUNCS[ctx.fid]
        with dygraph_guard():
            res = _check_tensors(_seq(bwd(*[Tensor._wrap(g) for g in grads])), "backward_fn")
        if len(res) != ctx.n_in:
            raise ValueError(f"{_API}: backward_fn returned {len(res)} gradient(s) for the {ctx.n_in} Variable "
                             "input(s) of forward_fn")
        return (None, *[None if r is None else r._t for r in res])


@op("pylayer")
def pylayer_op(inputs, fid):
    return list(_StaticPyLayer.apply(fid, *inputs))


def static_pylayer(forward_fn: Any, inputs: Any, backward_fn: Any = None, name: Any = None) -> Any:
    """Returns forward_fn(*inputs) (a Variable, or a list / tuple as forward_fn returns)."""
    from paddle_compat.engine.core.mode import MODE

    if not MODE.static:
        raise RuntimeError(f"{_API}: This API can only be used under static graph mode (use paddle.autograd.PyLayer "
                           "in dygraph mode)")
    if not callable(forward_fn) or (backward_fn is not None and not callable(backward_fn)):
        raise TypeError(f"{_API}: forward_fn and backward_fn should be callable")
    ins = list(inputs)
    _FUNCS.append((forward_fn, backward_fn))
    res = pylayer_op(ins, len(_FUNCS) - 1)
    outs = res if isinstance(res, (list, tuple)) else [res]
    if backward_fn is None:
        for o in outs:
            o.stop_gradient = True
    kind = _KIND[len(_FUNCS) - 1]  # set when recording ran the body to infer the output specs
    return kind(outs) if kind is not None else outs[0]


export(static_pylayer, "paddle.static.nn.static_pylayer")
