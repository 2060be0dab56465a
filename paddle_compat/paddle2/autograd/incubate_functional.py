"""`paddle.incubate.autograd`'s functional API as Paddle 2.6.2: vjp and jvp (by the double-backward trick; in
dygraph and, through paddle.static.gradients, in static programs), and the Jacobian / Hessian matrices of a function (inputs flattened and concatenated; with
is_batched=True the first axis is the batch: shapes (B, N, M)).

As Paddle, the inputs are first separated from the caller's graph (a copy that keeps the gradient path when the
input needs one, a detached leaf otherwise), gradients are taken with create_graph=True (so a Hessian is the
Jacobian of a Jacobian row), and an input the outputs do not depend on gets a zero gradient. A Jacobian is
computed in full on first indexing and cached.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from paddle_compat.engine.framework.registry import EXPORTS, export

_API = "paddle.incubate.autograd."


def _p() -> Any:
    return EXPORTS["paddle"]


def _is_seq(xs: Any) -> bool:
    return isinstance(xs, (list, tuple))


def _as_tensors(xs: Any) -> tuple:
    return tuple(xs) if _is_seq(xs) else (xs,)


def _separate(xs: Any) -> Any:
    def one(x: Any) -> Any:
        if x is None:
            return None
        if not x.stop_gradient:
            return _p()["assign"](x)
        x = x.detach()
        x.stop_gradient = False
        return x

    return tuple(one(x) for x in xs) if _is_seq(xs) else one(xs)


def _check_inputs(api: str, func: Any, xs: Any, v: Any = None) -> None:
    from paddle_compat.engine.core.mode import MODE
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    kind = Variable if MODE.static else Tensor
    if not callable(func):
        raise TypeError(f"{api}: Expected 'fun' is Callable, but got {type(func)}.")
    if not (isinstance(xs, kind) or (_is_seq(xs) and all(isinstance(x, kind) for x in xs))):
        raise TypeError(f"{api}: Expected 'xs' is a Tensor|Sequence[Tensor], but got {type(xs)}.")
    if v is not None and not (isinstance(v, kind) or (_is_seq(v) and all(isinstance(e, kind) for e in v))):
        raise TypeError(f"{api}: Expected 'v' is Tensor|Sequence[Tensor]|None, but got {type(v)}.")


def _check_v_shape(v: Any, refs: Any) -> None:
    if v is None:
        return
    v, refs = _as_tensors(v), _as_tensors(refs)
    if len(refs) != len(v):
        raise RuntimeError(f"The argument v is a tuple of invalid length:should be {len(refs)} but got {len(v)}.")
    for i, (e, r) in enumerate(zip(v, refs)):
        if e.shape != r.shape:
            raise RuntimeError(f"The v[{i}] has invalid shape: should be {r.shape} but got {e.shape}.")


def _grad(ys: Any, xs: Any, v: Any = None) -> Any:
    """paddle.grad with create_graph=True and allow_unused=True; None gradients become zeros; a single Tensor
    `xs` gets a single Tensor."""
    from paddle_compat.engine.core.mode import MODE

    p = _p()
    if MODE.static:  # paddle.static.gradients (ours keeps the graph for a later gradient of these)
        from paddle_compat.engine.static.backward import gradients

        grads = gradients(list(_as_tensors(ys)), list(_as_tensors(xs)),
                          None if v is None else list(_as_tensors(v)))
    else:
        grads = p["grad"](list(_as_tensors(ys)), list(_as_tensors(xs)), None if v is None else list(_as_tensors(v)),
                          create_graph=True, allow_unused=True)
    out = []
    for g, x in zip(grads, _as_tensors(xs)):
        if g is None:
            g = p["zeros_like"](x)
            g.stop_gradient = x.stop_gradient
        out.append(g)
    return tuple(out) if _is_seq(xs) else out[0]


def vjp(func: Callable, xs: Any, v: Any = None) -> tuple:
    """(func(xs), v^T J): the vector-Jacobian product, v defaulting to ones."""
    _check_inputs(_API + "vjp", func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = func(*xs) if _is_seq(xs) else func(xs)
    _check_v_shape(v, ys)
    return ys, _grad(ys, xs, v)


def jvp(func: Callable, xs: Any, v: Any = None) -> tuple:
    """(func(xs), J v): the Jacobian-vector product, v defaulting to ones (two reverse passes)."""
    _check_inputs(_API + "jvp", func, xs, v)
    xs, v = _separate(xs), _separate(v)
    ys = func(*xs) if _is_seq(xs) else func(xs)
    _check_v_shape(v, xs)
    p = _p()

    def zeros_with_grad(t: Any) -> Any:
        z = p["zeros_like"](t)
        z.stop_gradient = False
        return z

    ys_grad = tuple(zeros_with_grad(y) for y in ys) if _is_seq(ys) else zeros_with_grad(ys)
    xs_grad = _grad(ys, xs, ys_grad)
    return ys, _grad(xs_grad, ys_grad, v)


class Jacobian:
    """The Jacobian matrix of `func` at `xs`: shape (N, M) for N output and M input elements, or (B, N, M) with
    is_batched=True; index it like a Tensor (`J[:]`, `J[0, :]`)."""

    def __init__(self, func: Callable, xs: Any, is_batched: bool = False) -> None:
        _check_inputs(_API + type(self).__name__, func, xs)
        self._xs = _separate(xs)
        self._ys = func(*_as_tensors(self._xs))
        self._batched = bool(is_batched)
        self._flat_xs = self._flatten(_as_tensors(self._xs))
        self._flat_ys = self._flatten(_as_tensors(self._ys))
        self._full: Any = None

    def _flatten(self, ts: Sequence) -> Any:
        p = _p()
        if self._batched:
            return p["concat"]([t.reshape((t.shape[0], -1)) for t in ts], 1)
        return p["concat"]([t.reshape((-1,)) for t in ts])

    @property
    def shape(self) -> tuple:
        """The shape of the flattened Jacobian matrix."""
        if self._batched:
            return (self._flat_xs.shape[0], self._flat_ys.shape[1], self._flat_xs.shape[1])
        return (self._flat_ys.shape[0], self._flat_xs.shape[0])

    def _matrix(self) -> Any:
        if self._full is None:
            rows = [self._flatten(_as_tensors(_grad(self._flat_ys[:, i] if self._batched else self._flat_ys[i],
                                                     self._xs)))
                    for i in range(self.shape[1] if self._batched else self.shape[0])]
            self._full = _p()["stack"](rows, axis=1 if self._batched else 0)
        return self._full

    def __getitem__(self, indexes: Any) -> Any:
        return self._matrix()[indexes]


class Hessian:
    """The Hessian matrix of a scalar-valued `func` at `xs` (the Jacobian of its gradient): shape (M, M), or
    (B, M, M) with is_batched=True."""

    def __init__(self, func: Callable, xs: Any, is_batched: bool = False) -> None:
        def jac_func(*xs: Any) -> Any:
            jac = Jacobian(func, xs, is_batched=is_batched)
            if (is_batched and jac.shape[1] != 1) or (not is_batched and jac.shape[0] != 1):
                raise RuntimeError("The function given to Hessian shoud return as single element Tensor or batched "
                                   "single element Tensor.")
            return jac[:, 0, :] if is_batched else jac[0, :]

        self.symbolic = Jacobian(jac_func, xs, is_batched=is_batched)

    def __getitem__(self, indexes: Any) -> Any:
        return self.symbolic[indexes]

    @property
    def shape(self) -> tuple:
        """The shape of the flattened Hessian matrix."""
        return self.symbolic.shape


for _obj in (vjp, jvp, Jacobian, Hessian):
    export(_obj, _API + _obj.__name__, f"paddle.incubate.autograd.functional.{_obj.__name__}")
