"""paddle.autograd: PyLayer / PyLayerContext on torch.autograd.Function, backward, jacobian / hessian (dygraph,
Paddle 2.6's lazily indexed Jacobian objects) and saved_tensors_hooks."""

from __future__ import annotations

from typing import Any, Sequence

import torch

from paddle_compat.engine.core import autograd_engine
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.tensor import Tensor, autograd_errors
from paddle_compat.engine.framework.registry import export

_G = "paddle.autograd."


# ------------------------------------------------------------------------------------------------ PyLayer
class PyLayerContext:
    """The `ctx` of a PyLayer's forward / backward: save_for_backward / saved_tensor, and any attribute."""

    def __init__(self) -> None:
        self.container: tuple = ()
        self.not_inplace_tensors: tuple = ()
        self.non_differentiable: tuple = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        self.container = tensors

    def saved_tensor(self) -> tuple:
        return self.container

    def mark_not_inplace(self, *args: Any) -> None:
        self.not_inplace_tensors = args

    def mark_non_differentiable(self, *args: Any) -> None:
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


def _wrap_all(x: Any) -> Any:
    return Tensor._wrap(x) if isinstance(x, torch.Tensor) else x


class _Function(torch.autograd.Function):
    """Runs a PyLayer: forward / backward are the user's, over paddle Tensors."""

    @staticmethod
    def forward(tctx, layer, pctx, treedef, *flat):  # noqa: ANN001 - torch's protocol
        n_args, keys = treedef
        vals = [_wrap_all(v) for v in flat]
        out = layer.forward(pctx, *vals[:n_args], **dict(zip(keys, vals[n_args:])))
        single = not isinstance(out, (tuple, list))
        outs = (out,) if single else tuple(out)
        tctx.pctx, tctx.layer = pctx, layer
        pctx._single = single
        tctx.is_tensor_in = [isinstance(v, torch.Tensor) for v in flat]
        tctx.is_tensor_out = [isinstance(o, Tensor) for o in outs]
        raw = tuple(o._t if isinstance(o, Tensor) else o for o in outs)
        nd = {id(t._t) for t in pctx.non_differentiable if isinstance(t, Tensor)}
        marked = [r for r in raw if isinstance(r, torch.Tensor) and id(r) in nd]
        if marked:
            tctx.mark_non_differentiable(*marked)
        tctx.set_materialize_grads(pctx.materialize_grads)
        return raw

    @staticmethod
    def backward(tctx, *grads):  # noqa: ANN001
        pctx, layer = tctx.pctx, tctx.layer
        gs = [Tensor._wrap(g) if isinstance(g, torch.Tensor) else None
              for g, is_t in zip(grads, tctx.is_tensor_out) if is_t]
        res = layer.backward(pctx, *gs)
        res = (res,) if not isinstance(res, (tuple, list)) else tuple(res)
        n_in = sum(tctx.is_tensor_in)
        if len(res) != n_in:
            raise ValueError(f"{type(layer).__name__ if not isinstance(layer, type) else layer.__name__}.backward: "
                             f"the number of returned gradients ({len(res)}) should equal the number of Tensor "
                             f"inputs of forward ({n_in})")
        it = iter(res)
        out = []
        for is_t in tctx.is_tensor_in:
            if not is_t:
                out.append(None)
                continue
            g = next(it)
            out.append(g._t if isinstance(g, Tensor) else g)
        return (None, None, None, *out)


class PyLayer:
    """Subclass with @staticmethod forward(ctx, *args, **kwargs) and backward(ctx, *grads); call `apply`."""

    @staticmethod
    def forward(ctx: PyLayerContext, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx: PyLayerContext, *args: Any) -> Any:
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if MODE.static:
            raise NotImplementedError(f"{cls.__name__}.apply: PyLayer runs in dygraph mode; in a static program use "
                                      "paddle.static.nn.static_pylayer")
        keys = tuple(kwargs)
        flat = [a._t if isinstance(a, Tensor) else a for a in list(args) + [kwargs[k] for k in keys]]
        pctx = PyLayerContext()
        raw = _Function.apply(cls, pctx, (len(args), keys), *flat)
        outs = tuple(_wrap_all(r) for r in raw)
        for o in outs:
            if isinstance(o, Tensor):
                o.stop_gradient = not o._t.requires_grad
        return outs[0] if pctx._single else outs


def once_differentiable(backward: Any) -> Any:
    """Run a PyLayer backward without recording a graph (no double backward through it)."""

    def wrapper(ctx: Any, *args: Any) -> Any:
        with torch.no_grad():
            return backward(ctx, *args)

    return wrapper


# ------------------------------------------------------------------------------------------------ backward
def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool = False) -> None:
    """Accumulate the gradients of `tensors` (seeded by grad_tensors, default ones) into the leaves' .grad."""
    api = _G + "backward"
    ts = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    if not ts or not all(isinstance(t, Tensor) for t in ts):
        raise TypeError(f"{api}: tensors must be a Tensor or a non-empty list of Tensors")
    if len({id(t) for t in ts}) != len(ts):
        raise ValueError(f"{api}: The argument 'tensors' of paddle.autograd.backward contains duplicate "
                         "paddle.Tensor object.")
    gs = [] if grad_tensors is None else list(grad_tensors) if isinstance(grad_tensors, (list, tuple)) \
        else [grad_tensors]
    if any(g is not None and not isinstance(g, Tensor) for g in gs):
        raise TypeError(f"{api}: The argument 'grad_tensors' of paddle.autograd.backward is invalid, it can be "
                        "'None', 'paddle.Tensor' or 'list[None/paddle.Tensor]'.")
    if gs and len(gs) != len(ts):
        raise ValueError(f"{api}: The length of grad_tensors ({len(gs)}) must be equal to tensors ({len(ts)})")
    if not isinstance(retain_graph, bool):
        raise TypeError(f"{api}: retain_graph must be True or False")
    seeds = [torch.ones_like(t._t) if not gs or gs[i] is None else gs[i]._t for i, t in enumerate(ts)]
    autograd_errors(api, autograd_engine.backward, [t._t for t in ts], seeds, retain_graph=retain_graph)


# ------------------------------------------------------------------------------------------ jacobian / hessian
def _as_tensor(y: Any) -> torch.Tensor:
    return y._evaluate_all()._t if isinstance(y, Jacobian) else y._t


class Jacobian:
    """The Jacobian of ys w.r.t. xs (one Tensor each), Paddle 2.6's object: `J[:]` / `J[i, j]` index the matrix
    (evaluated on first use, row by row, differentiably so a Jacobian of it is a Hessian), `J.shape` is
    [ys.shape[0:1] + xs.shape[0:1]] (batched: [batch] + ys.shape[1:2] + xs.shape[1:2]), and arithmetic or any
    Tensor attribute works on the evaluated matrix."""

    def __init__(self, ys: Any, xs: Any, is_batched: bool = False) -> None:
        nd = lambda t: len(t.shape)  # noqa: E731
        lo, hi = (1, 2) if is_batched else (0, 1)
        for what, t in (("xs", xs), ("ys", ys)):
            if not lo <= nd(t) <= hi:
                raise ValueError(f"{_G}jacobian: {what}.ndim should be {lo} or {hi} when is_batched={is_batched} but "
                                 f"got {nd(t)}")
        self._ys, self._xs, self.is_batched = ys, xs, is_batched
        ys_shape, xs_shape = list(ys.shape), list(xs.shape)
        self.shape = ([xs_shape[0]] + ys_shape[1:2] + xs_shape[1:2]) if is_batched else ys_shape[0:1] + xs_shape[0:1]
        self._full: Tensor | None = None

    def _evaluate_all(self) -> Any:
        if self._full is None and _is_static(self._xs):
            self._full = _static_jacobian(self)
        if self._full is None:
            y, x = _as_tensor(self._ys), self._xs._t
            if self.is_batched:
                yf = y.reshape(y.shape[0], -1)
                rows = [torch.autograd.grad(yf[:, k].sum(), x, retain_graph=True, create_graph=True,
                                            allow_unused=True)[0] for k in range(yf.shape[1])]
                rows = [torch.zeros_like(x) if r is None else r for r in rows]
                full = torch.stack([r.reshape(r.shape[0], -1) for r in rows], 1)  # [B, M, N]
            else:
                yf = y.reshape(-1)
                rows = [torch.autograd.grad(yf[k], x, retain_graph=True, create_graph=True, allow_unused=True)[0]
                        for k in range(yf.shape[0])]
                rows = [torch.zeros_like(x) if r is None else r for r in rows]
                full = torch.stack([r.reshape(-1) for r in rows], 0) if rows else x.new_zeros([0, x.numel()])
            self._full = Tensor._wrap(full.reshape(self.shape))
        return self._full

    def __getitem__(self, indexes: Any) -> Tensor:
        if len(self.shape) == 0:
            raise IndexError("0-D tensor can not be indexed.")
        if indexes is Ellipsis or (isinstance(indexes, tuple) and any(i is Ellipsis for i in indexes)):
            raise IndexError("Ellipsis index currently is not supported.")
        return self._evaluate_all()[indexes]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_ys", "_xs", "_full", "shape", "is_batched"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(shape={self.shape}, is_batched={self.is_batched})"


def _is_static(x: Any) -> bool:
    from paddle_compat.engine.framework.program import Variable

    return isinstance(x, Variable)


def _static_jacobian(jac: Jacobian) -> Any:
    """The matrix as ops of the static program: one `paddle.static.gradients` per row of the flattened ys (as
    Paddle 2.6's static Jacobian), stacked; gradients of it (a Hessian) record double backward."""
    from paddle_compat.engine.ops.tensor.manipulation import reshape, stack
    from paddle_compat.engine.static.backward import gradients

    ys = jac._ys._evaluate_all() if isinstance(jac._ys, Jacobian) else jac._ys
    xs = jac._xs
    if jac.is_batched:
        yf = reshape(ys, [0, -1])
        m = yf.shape[1]
    else:
        yf = reshape(ys, [-1])
        m = yf.shape[0]
    if m is None or m < 0:
        raise ValueError(f"{_G}jacobian: in a static program the number of ys elements (per sample when batched) "
                         f"must be known, but ys.shape is {list(ys.shape)}")
    rows = []
    for k in range(m):
        (g,) = gradients([yf[:, k] if jac.is_batched else yf[k]], [xs])
        rows.append(reshape(g, [0, -1]) if jac.is_batched else reshape(g, [-1]))
    full = stack(rows, 1 if jac.is_batched else 0)
    return reshape(full, [0 if d is None or d < 0 else d for d in jac.shape])


def _binary(op: str) -> Any:
    def method(self: Jacobian, other: Any) -> Any:
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), op)(rhs)

    method.__name__ = op
    return method


for _op in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__", "__floordiv__", "__matmul__",
            "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(Jacobian, _op, _binary(_op))
Jacobian.__div__ = Jacobian.__truediv__
Jacobian.__hash__ = object.__hash__


class Hessian(Jacobian):
    """The Jacobian of a Jacobian (paddle.autograd.hessian's result)."""


def _numel(t: Any) -> int:
    """Element count from the shape (a static Variable's numel() is an op); an unknown batch dim counts as 1."""
    n = 1
    for d in t.shape:
        n *= max(int(d), 1)
    return n


def _check_batch_axis(api: str, batch_axis: Any) -> bool:
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"{api}: batch_axis should be None or 0, but got {batch_axis}.")
    return batch_axis is not None


def jacobian(ys: Any, xs: Any, batch_axis: int | None = None) -> Any:
    """Jacobian(s) of ys w.r.t. xs; a tuple of ys and / or xs gives (nested) tuples, as Paddle."""
    batched = _check_batch_axis(_G + "jacobian", batch_axis)
    seq = lambda v: isinstance(v, Sequence) and not isinstance(v, Tensor)  # noqa: E731
    if seq(ys) and seq(xs):
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if seq(ys):
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if seq(xs):
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys: Any, xs: Any, batch_axis: int | None = None) -> Any:
    """Hessian of a scalar ys (batched: one scalar per sample) w.r.t. xs (a tuple gives a tuple of tuples)."""
    api = _G + "hessian"
    if batch_axis is None:
        if _numel(ys) > 1:
            raise ValueError(f"{api}: Only support ys.numel()({_numel(ys)})==1 when batch_axis is None.")
        ys = ys.reshape([])
    elif isinstance(batch_axis, int):
        if _numel(ys) > max(ys.shape[0], 1):
            raise ValueError(f"{api}: Only support ys[0].numel()({_numel(ys)})==1 when batch_axis is int")
        if batch_axis != 0:
            raise ValueError(f"{api}: Only support batch_axis=0 yet.")
        ys = ys.reshape([-1])
    else:
        raise ValueError(f"{api}: batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if not isinstance(first, tuple):
        out = jacobian(first, xs, batch_axis)
        out.__class__ = Hessian
        return out
    out = tuple(jacobian(j, xs, batch_axis) for j in first)
    for row in out:
        for h in row:
            h.__class__ = Hessian
    return out


# ------------------------------------------------------------------------------------------ saved tensor hooks
class saved_tensors_hooks:  # noqa: N801 - Paddle's name
    """Within the block, every tensor autograd saves for backward goes through pack_hook(Tensor) -> anything,
    and comes back through unpack_hook(anything) -> Tensor when backward needs it."""

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> None:
        def pack(t: torch.Tensor) -> Any:
            return self.pack_hook(Tensor._wrap(t))

        def unpack(obj: Any) -> torch.Tensor:
            out = self.unpack_hook(obj)
            if not isinstance(out, Tensor):
                raise TypeError(f"{_G}saved_tensors_hooks: unpack_hook should return a Tensor, but returned "
                                f"{type(out).__name__}")
            return out._t

        self._ctx = torch.autograd.graph.saved_tensors_hooks(pack, unpack)
        self._ctx.__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._ctx.__exit__(*exc)


for _obj in (PyLayer, PyLayerContext, backward, jacobian, hessian, saved_tensors_hooks):
    export(_obj, _G + _obj.__name__)
export(once_differentiable, "paddle.autograd.py_layer.once_differentiable")
export(Jacobian, "paddle.autograd.autograd.Jacobian")
export(Hessian, "paddle.autograd.autograd.Hessian")
