"""fluid.layers.py_func / paddle.static.py_func: a Python function as an op of a static program.

At run time `func` gets the inputs as LoDTensors (as in Paddle) and returns numpy arrays / LoDTensors (one or a
list), which fill the `out` variables the script declared (their shapes and dtypes). With `backward_func`, the
gradient is backward_func(inputs, outputs, output gradients - less skip_vars_in_backward_input) returning one
gradient (or None) per input; without it no gradient flows through, as in Paddle."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.infer import Spec
from paddle_compat.engine.framework.registry import export, op

_FUNCS: list = []  # the registered Python functions, by id (Paddle's PyFuncRegistry)


def _register(fn: Any) -> int:
    _FUNCS.append(fn)
    return len(_FUNCS) - 1


def _to_lod(t: torch.Tensor) -> Any:
    from paddle_compat.engine.framework.lod import LoDTensor

    return LoDTensor._from_torch(t.detach().cpu().clone())


def _to_torch(rets: Any, specs: tuple, like: torch.Tensor, api: str) -> list:
    rets = list(rets) if isinstance(rets, (list, tuple)) else ([] if rets is None else [rets])
    if len(rets) != len(specs):
        raise InvalidArgumentError(f"{api}: the function returned {len(rets)} value(s) for {len(specs)} output(s)")
    out = []
    for r, (_shape, dtype) in zip(rets, specs):
        a = np.array(r) if not isinstance(r, np.ndarray) else r
        out.append(torch.from_numpy(np.ascontiguousarray(a)).to(device=like.device, dtype=_dt.to_torch_dtype(dtype)))
    return out


class _PyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fid, bid, skip, specs, *xs):  # noqa: ANN001
        outs = _to_torch(_FUNCS[fid](*[_to_lod(x) for x in xs]), specs, xs[0] if xs else torch.zeros(0),
                         "fluid.layers.py_func")
        ctx.bid, ctx.skip, ctx.n_in = bid, skip, len(xs)
        ctx.save_for_backward(*xs, *outs)
        if bid < 0:
            for o in outs:
                ctx.mark_non_differentiable(o)
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grads):  # noqa: ANN001
        saved = ctx.saved_tensors
        args = [_to_lod(t) for t, s in zip(saved, ctx.skip) if not s] + [_to_lod(g) for g in grads]
        rets = _FUNCS[ctx.bid](*args)
        rets = list(rets) if isinstance(rets, (list, tuple)) else [rets]
        ins = saved[:ctx.n_in]
        if len(rets) != len(ins):
            raise InvalidArgumentError(f"fluid.layers.py_func: backward_func returned {len(rets)} gradient(s) for "
                                       f"{len(ins)} input(s)")
        out = [None if r is None else torch.from_numpy(np.ascontiguousarray(np.array(r))).to(x.device, x.dtype)
               for r, x in zip(rets, ins)]
        return (None, None, None, None, *out)


def _infer(xs, fid, bid, skip, specs):
    return [Spec(tuple(shape), _dt.to_dtype(dtype)) for shape, dtype in specs]


@op("py_func", infer=_infer)
def _py_func(xs, fid, bid, skip, specs):
    return list(_PyFunc.apply(fid, bid, skip, specs, *xs))


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    from paddle_compat.engine.core.mode import MODE
    from paddle_compat.engine.framework.dispatch import rebind
    from paddle_compat.engine.framework.program import Variable

    api = "fluid.layers.py_func"
    if not MODE.static:
        raise InvalidArgumentError(f"{api}: it is an op of static programs (Paddle 1.8 has no dygraph py_func); "
                                   "call the Python function directly in dygraph mode")
    xs = [] if x is None else ([x] if isinstance(x, Variable) else list(x))
    outs = [] if out is None else ([out] if isinstance(out, Variable) else list(out))
    for o in outs:
        if not o.shape:
            raise ValueError("Output shapes of py_func op should be provided by users manually")
    skip_names = set()
    if backward_func is not None and skip_vars_in_backward_input is not None:
        sv = skip_vars_in_backward_input
        for v in [sv] if isinstance(sv, Variable) else list(sv):
            if v.name not in {t.name for t in xs + outs}:
                raise ValueError(f"Variable {v.name} is not found in forward inputs and outputs")
            skip_names.add(v.name)
    skip = tuple(t.name in skip_names for t in xs + outs)
    specs = tuple((tuple(o.shape), o.dtype.name) for o in outs)
    fid = _register(func)
    bid = _register(backward_func) if backward_func is not None else -1
    res = _py_func(xs, fid, bid, skip, specs)
    res = res if isinstance(res, (list, tuple)) else [res]
    for o, r in zip(outs, res):
        o.stop_gradient = backward_func is None
        rebind(o, r)
    return out


export(py_func, "paddle.fluid.layers.py_func", "paddle.static.py_func", "paddle.static.nn.py_func")
