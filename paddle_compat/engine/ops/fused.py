"""Ops that only BuildStrategy passes create (paddle_compat/engine/passes/*). None is exported to users.

Each fused body computes exactly what the unfused chain computes, with the same torch kernels in the same
order, so a pass is numerically invisible (bit-identical on CPU). What fusion buys here: one graph node
instead of two or three (less per-op Python work), and temporaries that die inside the body can be
written in place when autograd allows it (the output of an add is not saved by its backward, and relu /
tanh / sigmoid save their *result*, so `relu_(x + y)` is as differentiable as `relu(x + y)`).

Backward comes from torch autograd over the fused body, like every other forward op (engine/static/backward.py).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable

import numpy as np
import torch
import torch.nn.functional as F

from paddle_compat.engine.core import eigen_reduce
from paddle_compat.engine.core.buffer_pool import pool_active, pooled_empty
from paddle_compat.engine.ops.common import broadcast_align, lr_value as _lr, scalar_shape
from paddle_compat.engine.ops.update_ops import momentum_steps, plain_cpu_group, sub_scaled_all_
from paddle_compat.engine.framework.registry import op

# ------------------------------------------------------------------------------------------------
# activations known to the fusion passes: name -> (out-of-place fn, in-place fn or None)
# An in-place fn is only listed when autograd saves the op's *result* (or nothing), never its input.


def _scale_fn(attrs: dict) -> Callable[[torch.Tensor], torch.Tensor]:
    s, b = attrs.get("scale", 1.0), attrs.get("bias", 0.0)
    after = attrs.get("bias_after_scale", True)

    def f(t: torch.Tensor) -> torch.Tensor:
        out = t * s + b if after else (t + b) * s
        return out.to(t.dtype) if out.dtype != t.dtype else out

    return f


def _gelu_fn(attrs: dict) -> Callable[[torch.Tensor], torch.Tensor]:
    approx = "tanh" if attrs.get("approximate") else "none"
    return lambda t: F.gelu(t, approximate=approx)


ACTIVATIONS: dict[str, tuple[Callable[[dict], Callable], Callable | None]] = {
    "relu": (lambda a: torch.relu, torch.relu_),
    "tanh": (lambda a: torch.tanh, torch.tanh_),
    "sigmoid": (lambda a: torch.sigmoid, torch.sigmoid_),
    "scale": (_scale_fn, None),
    "gelu": (_gelu_fn, None),
}


def _act(name: str, attrs: dict | None) -> Callable[[torch.Tensor], torch.Tensor]:
    try:
        return ACTIVATIONS[name][0](attrs or {})
    except KeyError:
        raise ValueError(f"fused op: unsupported activation {name!r}; expected one of {sorted(ACTIVATIONS)}") \
            from None


def _act_maybe_inplace(name: str, attrs: dict | None, t: torch.Tensor, fresh: bool) -> torch.Tensor:
    """Apply the activation; in place on `t` when `t` is a temporary of this body and autograd allows it."""
    ip = ACTIVATIONS.get(name, (None, None))[1]
    if fresh and ip is not None and not torch.compiler.is_compiling():  # inductor plans its own buffers
        if _lean_act_ok(t):  # memory_optimize's plan runs with a buffer pool: the gradient goes into it
            return _ActInplaceLean.apply(t, name)
        return ip(t)
    return _act(name, attrs)(t)


def _add(x: torch.Tensor, y: torch.Tensor, axis: int) -> torch.Tensor:
    return torch.add(x, broadcast_align(x, y, axis))


# ------------------------------------------------------------------------------------------------
@op("fused_elemwise_activation")
def fused_elemwise_activation(x, y, functor_list=("relu", "elementwise_add"), axis=-1, act_attrs=None,
                              save_intermediate_out=False):
    """Paddle's fused_elemwise_activation. functor_list [act, "elementwise_add"] = act(x + y);
    ["elementwise_add", act] = x + act(y). `act_attrs` carries the activation's attributes (scale, gelu)."""
    f0, f1 = functor_list
    if f1 == "elementwise_add":  # act(x + y): the sum is a temporary, so a result-saving act runs in place
        return _act_maybe_inplace(f0, act_attrs, _add(x, y, axis), fresh=True)
    if f0 == "elementwise_add":
        return _add(x, _act(f1, act_attrs)(y), axis)
    raise ValueError(f"fused_elemwise_activation: unsupported functor_list {functor_list!r}")


@op("fused_bn_act", is_test_attr="is_test")
def fused_bn_act(x, running_mean, running_var, weight=None, bias=None, is_test=False, momentum=0.9,
                 epsilon=1e-05, data_format="NCHW", use_global_stats=False, act_type="relu", act_attrs=None):
    """batch_norm followed by an activation (Paddle's fused_batch_norm_act)."""
    from paddle_compat.engine.ops.nn_functional.norm import batch_norm_op

    y = batch_norm_op.__paddle_op__.impl(x, running_mean, running_var, weight, bias, is_test, momentum, epsilon,
                                          data_format, use_global_stats)
    return _act_maybe_inplace(act_type, act_attrs, y, fresh=True)


@op("fused_bn_add_activation", is_test_attr="is_test")
def fused_bn_add_activation(x, z, running_mean, running_var, weight=None, bias=None, is_test=False, momentum=0.9,
                            epsilon=1e-05, data_format="NCHW", use_global_stats=False, act_type="relu",
                            axis=-1, bn_first=True, act_attrs=None):
    """act(batch_norm(x) + z) (Paddle's fused_bn_add_activation); bn_first=False means act(z + bn(x))."""
    from paddle_compat.engine.ops.nn_functional.norm import batch_norm_op

    y = batch_norm_op.__paddle_op__.impl(x, running_mean, running_var, weight, bias, is_test, momentum, epsilon,
                                          data_format, use_global_stats)
    s = _add(y, z, axis) if bn_first else _add(z, y, axis)
    return _act_maybe_inplace(act_type, act_attrs, s, fresh=True)


@op("fused_gemm_epilogue")
def fused_gemm_epilogue(x, y, bias, kind="matmul_v2", gemm_attrs=None, axis=-1, activation="none",
                        act_attrs=None):
    """act(gemm(x, y) + bias) with the gemm of `kind` (matmul_v2 or fluid's mul) and its attributes."""
    from paddle_compat.engine.framework.registry import OPS

    out = OPS[kind].impl(x, y, **(gemm_attrs or {}))
    out = _add(out, bias, axis)
    if activation in (None, "none", "identity"):
        return out
    return _act_maybe_inplace(activation, act_attrs, out, fresh=True)


# ------------------------------------------------------------------------------------------------
# sync_batch_norm: a batch_norm whose batch statistics can be reduced across replicas.
class _SyncBNContext(threading.local):
    """The runtime hook the data-parallel runner sets: `callback(local_sum, local_sqsum, local_count)`
    returns the global (sum, sqsum, count) over all replicas (e.g. an all-reduce). None: local statistics,
    which is exactly batch_norm."""

    callback: Callable[[torch.Tensor, torch.Tensor, torch.Tensor], tuple] | None = None


SYNC_BN = _SyncBNContext()


@contextlib.contextmanager
def sync_bn_callback(callback: Callable | None):
    """Within the block, sync_batch_norm nodes reduce their statistics with `callback` (this thread only)."""
    old = SYNC_BN.callback
    SYNC_BN.callback = callback
    try:
        yield
    finally:
        SYNC_BN.callback = old


@op("sync_batch_norm", is_test_attr="is_test")
def sync_batch_norm(x, running_mean, running_var, weight=None, bias=None, is_test=False, momentum=0.9,
                    epsilon=1e-05, data_format="NCHW", use_global_stats=False):
    """batch_norm with statistics from SYNC_BN.callback when one is set (training only); without a
    callback it *is* batch_norm (same body, so the rewrite is bit-identical on one place)."""
    from paddle_compat.engine.ops.nn_functional.norm import batch_norm_op, normalize_with_batch_stats

    cb = SYNC_BN.callback
    if cb is None or is_test or use_global_stats:
        return batch_norm_op.__paddle_op__.impl(x, running_mean, running_var, weight, bias, is_test, momentum,
                                                epsilon, data_format, use_global_stats)
    channel_axis = 1 if data_format in ("NCHW", "NCL", "NC", "NCDHW") else x.dim() - 1
    axes = [i for i in range(x.dim()) if i != channel_axis]
    shape = [1] * x.dim()
    shape[channel_axis] = x.shape[channel_axis]
    count = torch.tensor(float(x.numel() // x.shape[channel_axis]), dtype=x.dtype, device=x.device)
    s, sq, n = cb(x.sum(dim=axes), (x * x).sum(dim=axes), count)
    mean = s / n
    return normalize_with_batch_stats(x, mean, sq / n - mean * mean, shape, running_mean, running_var, weight, bias,
                                      momentum, epsilon)


# ------------------------------------------------------------------------------------------------
# in-place variants used by enable_inplace: (x, *args) -> result written into x when legal at run time.
def _inplace_ok(x: torch.Tensor, y: Any) -> bool:
    """Run-time guard: the result must have x's shape and dtype (no broadcast into x, no promotion).
    That x's buffer may be reused at all is the pass's decision (engine/passes/enable_inplace.py)."""
    if isinstance(y, torch.Tensor):
        xs, ys = x.shape, y.shape
        if ys != xs:  # y must broadcast into x without growing it
            if len(ys) > len(xs) or not all(b in (1, a) for a, b in zip(xs[len(xs) - len(ys):], ys)):
                return False
        # the same dtype never promotes: torch.result_type (a few us) only when the dtypes differ
        return y.dtype == x.dtype or torch.result_type(x, y) == x.dtype
    if isinstance(y, (int, float)):
        return torch.result_type(x, y) == x.dtype
    return True


def _binary_inplace(name: str, fn_: str, fn: Callable) -> Callable:
    method = getattr(torch.Tensor, fn_)  # looked up once: the body runs on every call of the program

    def body(x, y, axis=-1, name=None):
        if isinstance(y, torch.Tensor):
            if axis != -1 and axis is not None:
                y = broadcast_align(x, y, axis)
            # the common case first: same dtype, y's shape a suffix of x's (a bias) or x's own
            if y.dtype == x.dtype and (y.shape == x.shape or y.shape == x.shape[x.dim() - y.dim():]):
                return method(x, y)
        if _inplace_ok(x, y):
            return method(x, y)
        return fn(x, y)

    body.__name__ = body.__qualname__ = f"{name}_inplace"
    return body


def _unary_inplace(name: str, fn_: Callable, fn: Callable) -> Callable:
    def body(x, name=None):
        return fn_(x) if _inplace_ok(x, None) else fn(x)

    body.__name__ = body.__qualname__ = f"{name}_inplace"
    return body


def _scale_inplace(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    s = scale.reshape(()) if isinstance(scale, torch.Tensor) else scale
    if act or isinstance(s, torch.Tensor) or not x.is_floating_point() or not _inplace_ok(x, None):
        from paddle_compat.engine.framework.registry import OPS

        return OPS["scale"].impl(x, scale, bias, bias_after_scale, act)
    if s == 1.0:  # x * 1.0 is x, bit for bit (the scale op's body skips it too)
        return x.add_(bias)
    if bias_after_scale:
        return x.mul_(s).add_(bias)
    return x.add_(bias).mul_(s)


def _gelu_inplace(x, approximate=False, name=None):
    """gelu into x's buffer (torch's own in-place kernel, the same bits). GELU's backward reads its input, so the
    rewrite gives it x only in a plan without a backward (engine/passes/enable_inplace.py, condition 4)."""
    if not (x.is_floating_point() and _inplace_ok(x, None)):
        from paddle_compat.engine.framework.registry import OPS

        return OPS["gelu"].impl(x, approximate)
    return torch._C._nn.gelu_(x, approximate="tanh" if approximate else "none")


def _fused_elemwise_inplace(x, y, functor_list=("relu", "elementwise_add"), axis=-1, act_attrs=None,
                            save_intermediate_out=False):
    """fused_elemwise_activation accumulating into x's buffer: act(x += y) or x += act(y)."""
    f0, f1 = functor_list
    other = y if f1 == "elementwise_add" else _act(f1, act_attrs)(y)
    other = broadcast_align(x, other, axis)
    if not _inplace_ok(x, other):
        return fused_elemwise_activation.__paddle_op__.impl(x, y, functor_list, axis, act_attrs)
    s = x.add_(other)
    return _act_maybe_inplace(f0, act_attrs, s, fresh=True) if f1 == "elementwise_add" else s


# op type -> in-place body. The first argument's buffer is the one reused.
INPLACE_BODIES: dict[str, Callable] = {
    "elementwise_add": _binary_inplace("elementwise_add", "add_", torch.add),
    "elementwise_sub": _binary_inplace("elementwise_sub", "sub_", torch.sub),
    "elementwise_mul": _binary_inplace("elementwise_mul", "mul_", torch.mul),
    "relu": _unary_inplace("relu", torch.relu_, torch.relu),
    "tanh": _unary_inplace("tanh", torch.tanh_, torch.tanh),
    "sigmoid": _unary_inplace("sigmoid", torch.sigmoid_, torch.sigmoid),
    "scale": _scale_inplace,
    "gelu": _gelu_inplace,
    "fused_elemwise_activation": _fused_elemwise_inplace,
}


# ------------------------------------------------------------------------------------------------
# multi-tensor optimizer updates (fuse_all_optimizer_ops). Same arithmetic as engine/ops/update_ops.py,
# one torch._foreach kernel per step over all parameters.
@op("fused_sgd", differentiable=False, role="optimize")
def fused_sgd(params, grads, learning_rate):
    """p -= lr * g for every (p, g), as `sgd` does one at a time and with its kernels (the product, then the
    difference), so the fusion changes no bit; one kernel call for all."""
    params, grads = list(params), list(grads)
    with torch.no_grad():
        if plain_cpu_group(params, grads):  # no temporaries: a model's worth of them is faulted in at every step
            sub_scaled_all_(params, grads, _lr(learning_rate))
        else:
            torch._foreach_sub_(params, torch._foreach_mul(grads, _lr(learning_rate)))
    return params


@op("fused_momentum", differentiable=False, role="optimize")
def fused_momentum(params, grads, velocities, learning_rate, mu=0.9, use_nesterov=False, regularization_method="",
                   regularization_coeff=0.0, rescale_grad=1.0):
    params, grads, vel = list(params), list(grads), list(velocities)
    lr = _lr(learning_rate)
    if not use_nesterov and rescale_grad == 1.0 and regularization_method in ("", "l2_decay") and \
            plain_cpu_group(params, grads, vel):  # the same kernels without parameter-sized temporaries
        momentum_steps(params, grads, vel, lr, mu, regularization_coeff if regularization_method else 0.0)
        return params
    with torch.no_grad():
        g = torch._foreach_mul(grads, rescale_grad) if rescale_grad != 1.0 else grads
        if regularization_method == "l2_decay":
            g = torch._foreach_add(g, torch._foreach_mul(params, regularization_coeff))
        torch._foreach_mul_(vel, mu)
        torch._foreach_add_(vel, g)
        if use_nesterov:
            t = torch._foreach_add(g, torch._foreach_mul(vel, mu))
            torch._foreach_sub_(params, torch._foreach_mul(t, lr))
        else:
            torch._foreach_sub_(params, torch._foreach_mul(vel, lr))
    return params


@op("fused_adam", differentiable=False, role="optimize")
def fused_adam(params, grads, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1=0.9, beta2=0.999,
               epsilon=1e-08, lazy_mode=False, scaled_epsilon=True):
    """`adam` for all parameters at once: its multi-tensor body (update_ops.adam_steps), so the same bits."""
    from paddle_compat.engine.ops.update_ops import _partial, adam, adam_steps

    params, grads, m1, m2 = list(params), list(grads), list(moment1), list(moment2)
    b1p, b2p = list(beta1_pow), list(beta2_pow)
    if isinstance(beta1, torch.Tensor) or isinstance(beta2, torch.Tensor) or \
            len({(p.dtype, p.device) for p in params}) > 1 or any(map(_partial, params + grads)):
        for i in range(len(params)):
            adam.__paddle_op__.impl(params[i], grads[i], m1[i], m2[i], b1p[i], b2p[i], learning_rate, beta1, beta2,
                                    epsilon, lazy_mode, scaled_epsilon)
        return params
    adam_steps(params, grads, m1, m2, b1p, b2p, learning_rate, float(beta1), float(beta2), float(epsilon),
               scaled_epsilon)
    return params


# ------------------------------------------------------------------------------------------------
@op("depthwise_conv2d")
def depthwise_conv2d(x, weight, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW",
                     fuse_relu_before_depthwise_conv=False):
    """conv2d with groups == input channels; fuse_relu_before_depthwise_conv applies relu to the input
    first (Paddle's attribute of the same name, set by fuse_relu_depthwise_conv)."""
    from paddle_compat.engine.ops.nn_functional.conv import conv2d_op

    if fuse_relu_before_depthwise_conv:
        x = torch.relu(x)
    return conv2d_op.__paddle_op__.impl(x, weight, stride, padding, dilation, groups, data_format)


# buffer reuse of dead gradients (memory_optimize): the same arithmetic as sgd / fused_sgd, with the
# product `grad * lr` written into the gradient's own buffer instead of a new temporary.
@op("sgd_reuse_grad", differentiable=False, role="optimize")
def sgd_reuse_grad(param, grad, learning_rate):
    with torch.no_grad():
        param.sub_(grad.mul_(_lr(learning_rate)))
    return param


@op("fused_sgd_reuse_grad", differentiable=False, role="optimize")
def fused_sgd_reuse_grad(params, grads, learning_rate):
    params, grads = list(params), list(grads)
    with torch.no_grad():
        torch._foreach_mul_(grads, _lr(learning_rate))
        torch._foreach_sub_(params, grads)
    return params


@op("sum_addto")
def sum_addto(inputs, name=None):
    """add_n accumulated into the first input's buffer (enable_addto): out = x0; out += x1; ..."""
    if isinstance(inputs, torch.Tensor):
        return inputs
    out = inputs[0]
    rest = inputs[1:]
    if not rest or not all(_inplace_ok(out, t) for t in rest):
        from paddle_compat.engine.framework.registry import OPS

        return OPS["sum"].impl(inputs)
    for t in rest:
        out = out.add_(t)
    return out


# Below this many elements the memory-lean bodies run torch's own op: a Python autograd.Function costs about
# 10 us a call, more than the buffer it saves is worth (memory_optimize's savings are activation-sized
# buffers). Same values either way (see the bodies).
LEAN_MIN_NUMEL = 1 << 15


def _plain(t: torch.Tensor) -> bool:
    """Dense row-major, or a broadcast value (stride 0 everywhere, as mean's lean gradient)."""
    return t.is_contiguous() or not any(t.stride())


def _pooled_result(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor | None:
    """A buffer from the running plan's pool (engine/core/buffer_pool.py) for the elementwise result of a and b, or
    None (no pool running, a small result, or operands whose result torch would not lay out row-major: the
    buffer is contiguous, and a later reduction over another layout could sum in another order)."""
    if not pool_active() or a.dtype != b.dtype or not (_plain(a) and _plain(b)):
        return None
    if torch.is_grad_enabled() and (a.requires_grad or b.requires_grad):
        return None  # a backward recording its own graph (create_graph, double grad): `out=` is not differentiable
    # numpy's rule, not torch.broadcast_shapes, which imports sympy (0.5 s, 35 MiB) on a process's first call
    shape = a.shape if a.shape == b.shape else np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    return pooled_empty(shape, a.dtype, a.device)


class _MeanExpandGrad(torch.autograd.Function):
    """mean over all elements (0-D; the ops reshape it), whose backward hands out the gradient as a stride-0 view
    (g / numel expanded to x's shape) instead of materializing an x-sized buffer of equal values.
    Same value per element as torch's mean backward (one division of g by numel)."""

    @staticmethod
    def forward(ctx, x):
        ctx.shape = x.shape
        ctx.numel = x.numel()
        return eigen_reduce.reduce_full(x, "mean")  # 0-D: the ops below give it their shape

    @staticmethod
    def backward(ctx, g):
        return (g.reshape(()) / ctx.numel).expand(ctx.shape)


@op("mean_expand_grad")
def mean_expand_grad(x, name=None):
    """fluid.layers.mean with a memory-lean backward (memory_optimize); forward identical to `mean`."""
    if x.requires_grad and torch.is_grad_enabled() and x.is_floating_point() and x.numel() >= LEAN_MIN_NUMEL:
        return _MeanExpandGrad.apply(x).reshape(1)
    from paddle_compat.engine.framework.registry import OPS

    return OPS["mean"].impl(x)


@op("reduce_mean_expand_grad")
def reduce_mean_expand_grad(x, axis=None, keepdim=False, name=None):
    """paddle.mean (reduce_mean) with mean_expand_grad's memory-lean backward for a full reduction
    (memory_optimize); forward identical to `reduce_mean`, other reductions run it as is."""
    if axis is None and not keepdim and x.requires_grad and torch.is_grad_enabled() and x.is_floating_point() \
            and x.numel() >= LEAN_MIN_NUMEL:
        return scalar_shape(_MeanExpandGrad.apply(x))
    from paddle_compat.engine.framework.registry import OPS

    return OPS["reduce_mean"].impl(x, axis, keepdim)


class _ActInplaceLean(torch.autograd.Function):
    """relu_ / tanh_ / sigmoid_ of a dead temporary (enable_inplace) whose backward writes the input gradient
    into a pooled buffer. Same kernels as torch's autograd: the in-place forward, and the backward formulas
    of derivatives.yaml over the saved result (threshold_backward(g, y, 0), tanh_backward, sigmoid_backward)."""

    @staticmethod
    def forward(ctx, x, kind):
        ctx.kind = kind
        _ACT_INPLACE[kind](x)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        out = _pooled_result(g, y)
        fn = _ACT_BACKWARD[ctx.kind]
        return (fn.default(g, *_ACT_BACKWARD_ARGS[ctx.kind](y)) if out is None
                else fn.grad_input(g, *_ACT_BACKWARD_ARGS[ctx.kind](y), grad_input=out)), None


_ACT_INPLACE = {"relu": torch.relu_, "tanh": torch.tanh_, "sigmoid": torch.sigmoid_}
_ACT_BACKWARD = {"relu": torch.ops.aten.threshold_backward, "tanh": torch.ops.aten.tanh_backward,
                 "sigmoid": torch.ops.aten.sigmoid_backward}
_ACT_BACKWARD_ARGS = {"relu": lambda y: (y, 0), "tanh": lambda y: (y,), "sigmoid": lambda y: (y,)}


def _lean_act_ok(x: torch.Tensor) -> bool:
    """_ActInplaceLean applies: a plan's pool is running and x is a large differentiated temporary."""
    return pool_active() and x.requires_grad and torch.is_grad_enabled() and not x.is_leaf \
        and not x._is_view() and x.is_floating_point() and x.numel() >= LEAN_MIN_NUMEL


def _act_inplace_lean(kind: str) -> Callable:
    plain = INPLACE_BODIES[kind]

    def body(x, name=None):
        return _ActInplaceLean.apply(x, kind) if _lean_act_ok(x) else plain(x)

    body.__name__ = body.__qualname__ = f"{kind}_inplace_lean"
    return body


# op type -> in-place body whose gradient buffer comes from the plan's pool (memory_optimize, after
# enable_inplace chose the node)
LEAN_INPLACE_BODIES: dict[str, Callable] = {k: _act_inplace_lean(k) for k in _ACT_INPLACE}


class _MulLeanGrad(torch.autograd.Function):
    """x * y whose backward finishes the broadcast (reduced) gradient before allocating the full-size
    one: torch's MulBackward forms both products first, then the engine reduces, so two input-sized
    temporaries live at once. Same formulas (grad * other, reduced with sum_to as autograd does)."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        out = _pooled_result(x, y)
        return torch.mul(x, y) if out is None else torch.mul(x, y, out=out)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        small_first = y.numel() < x.numel()
        grads = [None, None]
        for i in ((1, 0) if small_first else (0, 1)):
            if ctx.needs_input_grad[i]:
                other, mine = (y, x) if i == 0 else (x, y)
                out = _pooled_result(g, other)
                t = g * other if out is None else torch.mul(g, other, out=out)
                grads[i] = t.sum_to_size(mine.shape) if t.shape != mine.shape else t
                del t
        return grads[0], grads[1]


@op("elementwise_mul_lean_grad")
def elementwise_mul_lean_grad(x, y, axis=-1, name=None):
    """elementwise_mul with the memory-lean backward (memory_optimize); forward identical."""
    if isinstance(y, torch.Tensor) and isinstance(x, torch.Tensor):
        y = broadcast_align(x, y, axis)
        if torch.is_grad_enabled() and (x.requires_grad or y.requires_grad) and x.dtype == y.dtype \
                and x.is_floating_point() and max(x.numel(), y.numel()) >= LEAN_MIN_NUMEL:
            return _MulLeanGrad.apply(x, y)
    return torch.mul(x, y)


FUSED_OPTIMIZERS = {"sgd": "fused_sgd", "momentum": "fused_momentum", "adam": "fused_adam"}
