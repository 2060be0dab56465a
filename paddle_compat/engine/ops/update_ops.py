"""Optimizer update ops and gradient clipping ops: one body each, shared by dygraph `step()` and static
`minimize()`. Update ops change the parameter and accumulators in place (Paddle's `ParamOut = Param`)."""

from __future__ import annotations

import functools
import math
import struct
import threading

import torch

from paddle_compat.engine.core import native
from paddle_compat.engine.core.dist_tensor import PLAIN, is_dtensor
from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.program import ROLE_OPTIMIZE
from paddle_compat.engine.ops.common import check_clip_bounds, lr_value as _lr, require_kernel_dtype, scalar_operand
from paddle_compat.engine.framework.registry import op


def _param_spec(param, grad=None, *args, **kwargs):
    """Shape inference of an update op: it updates `param` in place and returns it, so its output is `param`'s
    shape and dtype. An explicit rule because running the body on meta tensors is slow (the first meta call of a
    Python scalar op costs torch ~1 s of one-time set-up; issue 15 item 1); the one check it did, a gradient of
    another shape, stays."""
    from paddle_compat.engine.framework.infer import Spec

    ps, gs = getattr(param, "shape", None), getattr(grad, "shape", None)
    if ps is not None and gs is not None and (
            len(ps) != len(gs) or any(a >= 0 and b >= 0 and a != b for a, b in zip(ps, gs))):
        raise InvalidArgumentError(f"the parameter {getattr(param, 'name', '')!r} (shape {list(ps)}) and its gradient "
                                   f"(shape {list(gs)}) should have the same shape")
    return Spec(tuple(param.shape), param.dtype)


@op("sgd", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def sgd(param, grad, learning_rate):
    """p -= lr * g with Paddle's two roundings (the product, then the difference; its CPU kernel has no fused
    multiply-add, which torch's `add_(alpha=)` / `addcmul_` use)."""
    # grad mode switched off directly: torch.no_grad's context costs as much as the update of a small parameter
    # (a program's update ops run once per parameter per step)
    prev = torch.is_grad_enabled()
    torch._C._set_grad_enabled(False)
    try:
        _sub_scaled_(param, grad, learning_rate)
    finally:
        torch._C._set_grad_enabled(prev)
    return param


def _sub_scaled_(param: torch.Tensor, t: torch.Tensor, lr) -> None:
    """param -= lr * t, the product rounded, then the difference (Paddle's CPU kernels). On CPU without a
    parameter-sized temporary: addcmul(p, t, one, value=-lr) is round(p + round(-lr * t)) whether or not torch
    fuses its last multiply-add (a product by one is exact); glibc would fault a large temporary in afresh at
    every step (a 4M-element parameter: some 4000 page faults per update)."""
    if plain_cpu_group([param], [t]):
        param.addcmul_(t, _ScratchCPU.consts(param.dtype)[1], value=-float(lr))  # lr: a number or a [1] / 0-d tensor
    else:
        param.sub_(torch.mul(t, _lr(lr)))


@op("momentum", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def momentum(param, grad, velocity, learning_rate, mu=0.9, use_nesterov=False, regularization_method="",
             regularization_coeff=0.0, rescale_grad=1.0):
    lr = _lr(learning_rate)
    with torch.no_grad():
        g = grad * rescale_grad if rescale_grad != 1.0 else grad
        if regularization_method == "l2_decay":
            g = g + regularization_coeff * param
        velocity.mul_(mu).add_(g)
        if use_nesterov:
            param.sub_((g + mu * velocity) * lr)
        else:
            _sub_scaled_(param, velocity, lr)
    return param


def momentum_steps(params: list, grads: list, velocities: list, lr: float, mu: float, l2_coeff: float = 0.0) -> None:
    """The momentum op (no Nesterov, rescale_grad 1, Paddle 2.x's L2 decay folded in when `l2_coeff`) for many
    contiguous CPU tensors of one dtype in a few multi-tensor calls: g + coeff * p, v = mu * v + g, p -= lr * v, the
    same kernels per tensor as `momentum` and `_sub_scaled_`, so the same bits (tests/ops/test_optimizer_bits.py),
    without the per-parameter Python of a model's ~150 updates. Where it applies (a `plain_cpu_group` whose written
    tensors overlap nothing, mu and the coefficient plain numbers) the native `momentum_update` does the same
    operations in one call and one pass over each tensor (engine/core/native/_views.cpp;
    tests/test_native_kernels.py), else these calls run."""
    if not params:
        return
    with torch.no_grad():  # mu and the coefficient as 0-d tensors: no 0-d copy of them per parameter, the same bits
        if _MOMENTUM is not None and _exact_float(mu) and _exact_float(l2_coeff) and \
                _MOMENTUM(params, grads, velocities, float(lr), float(mu), float(l2_coeff)):
            return  # the calls below in one pass per tensor (engine/core/native), where it applies: the same bits
        if l2_coeff:  # round(g + round(coeff * p)), as the op's `g + coeff * param`
            decayed = torch._foreach_mul(params, scalar_operand(l2_coeff, params[0]))
            torch._foreach_add_(decayed, grads)
            grads = decayed
        torch._foreach_mul_(velocities, scalar_operand(mu, params[0]))
        torch._foreach_add_(velocities, grads)
        sub_scaled_all_(params, velocities, lr)


_MOMENTUM = native.function("momentum_update")


def _exact_float(x) -> bool:
    """Whether float(x) is x's value exactly: a Python float, or an int a double holds (torch rounds either to the
    tensors' dtype the same way)."""
    return type(x) is float or (type(x) is int and -(1 << 53) <= x <= 1 << 53)


def plain_cpu_group(*lists: list) -> bool:
    """Whether every tensor of these equal-length lists is a plain strided CPU float tensor of the first one's dtype
    and of its list-mate's shape, any strides (what momentum_steps / sub_scaled_all_ take: elementwise kernels,
    as `_sub_scaled_`'s)."""
    first = lists[0]
    if not first or first[0].dtype not in _FLOATS:
        return False
    dtype = first[0].dtype
    for i, p in enumerate(first):
        for t in (p, *(ts[i] for ts in lists[1:])):
            if type(t) not in PLAIN or not t.is_cpu or t.dtype != dtype or t.layout is not torch.strided or \
                    t.shape != p.shape:
                return False
    return True


def sub_scaled_all_(params: list, ts: list, lr) -> None:
    """p -= lr * t for every (p, t) of a `plain_cpu_group`: `_sub_scaled_`'s kernel (the product rounded, then the
    difference) in one multi-tensor call, without the parameter-sized temporaries of `p - lr * t`."""
    one = _ScratchCPU.consts(params[0].dtype)[1]
    torch._foreach_addcmul_(params, ts, [one] * len(params), value=-float(lr))


@op("adam", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def adam(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1=0.9, beta2=0.999,
         epsilon=1e-08, lazy_mode=False, scaled_epsilon=True, selected_rows=False):
    """Paddle's adam kernel: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t);
    p -= lr_t * m1 / (sqrt(m2) + eps * sqrt(1 - b2^t)); the pow accumulators start at b1 and b2.
    Paddle 1.8 (fluid) adds the plain eps instead: `scaled_epsilon=False`. The rounding is the CPU kernel's
    (`adam_steps`).
    `selected_rows`: the gradient is a SelectedRows in Paddle (an is_sparse embedding's table with no
    regularizer): its kernel (1.8.5 and 2.6.2 alike) writes b1^t * b1 to the pow accumulators before it reads
    them, so step t is corrected with b^(t+1), and with `lazy_mode` only the rows the gradient holds move
    (here: the rows whose gradient is not all zero). See tests/zoo18 cases sparse_opt_Adam* and
    tests/fluid/cases_sr18.py train_adam."""
    if selected_rows:
        return _adam_selected_rows(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1,
                                   beta2, epsilon, lazy_mode, scaled_epsilon)
    tensors = (param, grad, moment1, moment2, beta1_pow, beta2_pow)
    if type(beta1) in _NUMBERS and type(beta2) in _NUMBERS and all(type(t) in PLAIN for t in tensors) \
            and _ScratchCPU.takes(param, grad, moment1, moment2):
        # the common case, kept short (a fluid program runs one adam op per parameter): adam_steps for one tensor
        _adam_one(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, float(beta1), float(beta2),
                  float(epsilon), scaled_epsilon)
        return param
    if isinstance(beta1, torch.Tensor) or isinstance(beta2, torch.Tensor) or any(map(_partial, tensors)):
        # betas fed as tensors, or a distributed tensor holding partial sums
        lr = _lr(learning_rate)
        with torch.no_grad():
            moment1.mul_(beta1).add_(grad * (1 - beta1))
            moment2.mul_(beta2).add_(grad * grad * (1 - beta2))
            corr2 = torch.sqrt(1 - beta2_pow)
            denom = moment2.sqrt().add_(epsilon * corr2 if scaled_epsilon else epsilon)
            param.sub_(lr * corr2 / (1 - beta1_pow) * (moment1 / denom))
            beta1_pow.mul_(beta1)
            beta2_pow.mul_(beta2)
        return param
    adam_steps([param], [grad], [moment1], [moment2], [beta1_pow], [beta2_pow], learning_rate, float(beta1),
               float(beta2), float(epsilon), scaled_epsilon)
    return param


def _adam_selected_rows(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1, beta2, epsilon,
                        lazy_mode, scaled_epsilon):
    """adam for a SelectedRows gradient (see `adam`): the pows advanced first, the dense update, the pows left at
    b^(t+1); lazy_mode puts back the rows the gradient does not hold."""
    with torch.no_grad():
        beta1_pow.mul_(beta1)
        beta2_pow.mul_(beta2)
        after = (beta1_pow.clone(), beta2_pow.clone())
        keep = None
        if lazy_mode and param.dim() > 0:
            absent = ~(grad != 0).reshape(grad.shape[0], -1).any(dim=1)
            keep = [(t, t[absent].clone()) for t in (param, moment1, moment2)]
        adam.__paddle_op__.impl(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1=beta1,
                                beta2=beta2, epsilon=epsilon, scaled_epsilon=scaled_epsilon)
        for t, rows in keep or ():
            t[absent] = rows
        beta1_pow.copy_(after[0])
        beta2_pow.copy_(after[1])
    return param


def _partial(t) -> bool:
    """A DTensor with a Partial placement (its local values are not its values)."""
    return is_dtensor(t) and any(p.is_partial() for p in t.placements)


def _local(t):
    """The tensor an elementwise update writes: a DTensor's local shard (same storage), else t."""
    return t.to_local() if is_dtensor(t) else t


def _in(dtype: torch.dtype, x: float) -> float:
    """x rounded to `dtype` (the kernel's T: float32 or float64), as a Python float."""
    return _F32.unpack(_F32.pack(x))[0] if dtype == torch.float32 else x


_F32 = struct.Struct("f")


def adam_steps(params, grads, m1, m2, b1p, b2p, learning_rate, beta1: float, beta2: float, epsilon: float,
               scaled_epsilon: bool) -> None:
    """Adam on lists of parameters (one step each; `adam` and fuse_all_optimizer_ops' fused_adam), rounded as
    Paddle's CPU kernels (float32 / float64 T):
    - moments in T, each product rounded, then the sum: m1 = b1 m1 + (1 - b1) g, m2 = b2 m2 + ((1 - b2) g) g,
      with 1 - b computed in T (torch's add_(alpha=) / addcmul_ would fuse the multiply-add);
    - 2.x (phi AdamDenseKernel and its jit reference loop): lr_t = lr * (sqrt(1 - b2^t) / (1 - b1^t)) and
      eps * sqrt(1 - b2^t) in double, rounded to T; the update p + (-lr_t) * (m1 / (sqrt(m2) + eps_t)) in
      double (the loop's `sqrt` is the double one), rounded to T once;
    - 1.8 (`scaled_epsilon` False, Eigen's AdamFunctor): p - lr_t * (m1 / (sqrt(m2) + eps)) in T.
    Checked against 2.6.2 and 1.8.5 (tests/ops/test_optimizer_bits.py).

    Contiguous CPU tensors go one at a time, in slices of at most `_SCRATCH` elements, through a small
    per-thread scratch buffer and fewer kernels (`_ScratchCPU`); the others (CUDA, strided) through torch's
    multi-tensor kernels. Same roundings, same bits. On CPU the multi-tensor kernels are a loop over the tensors,
    and they allocate parameter-sized temporaries (several live at once) that glibc serves from fresh pages and
    returns, so a step page-faulted and zeroed them all again (a 784x200 parameter: 107 page faults and 460 us a
    step; through the scratch 250 us, none)."""
    if not params:
        return
    if any(is_dtensor(t) for ts in (params, grads, m1, m2, b1p, b2p) for t in ts):
        params, grads, m1, m2, b1p, b2p = ([_local(t) for t in ts] for ts in (params, grads, m1, m2, b1p, b2p))
    dt = params[0].dtype
    c1, c2, eps = _adam_consts(dt, beta1, beta2, epsilon)
    with torch.no_grad():
        # the per-parameter scalars in Python doubles (the kernel's double arithmetic, each rounding to T as its
        # own): a few reads instead of a dozen one-element tensor ops per call
        n = len(params)
        pows_t = torch.cat([t.reshape(1) for t in b1p + b2p]) if n > 1 else None
        pows = pows_t.tolist() if pows_t is not None else [b1p[0].item(), b2p[0].item()]
        pdt = pows_t.dtype if pows_t is not None else b1p[0].dtype
        lr = _in(dt, float(learning_rate))
        lr_t, eps_t = zip(*(_corrected(dt, pdt, lr, eps, b1, b2, scaled_epsilon)
                            for b1, b2 in zip(pows[:n], pows[n:])))
        # contiguous CPU tensors one at a time through the scratch path (on CPU torch's multi-tensor kernels are a
        # loop over the tensors, each with more kernels); the others (CUDA, strided) with the multi-tensor kernels
        one = [i for i, p in enumerate(params) if _ScratchCPU.takes(p, grads[i], m1[i], m2[i])]
        for i in one:
            _ScratchCPU.step(params[i], grads[i], m1[i], m2[i], beta1, beta2, c1, c2, lr_t[i], eps_t[i],
                             scaled_epsilon)
        if len(one) < n:
            taken = set(one)
            rest = [i for i in range(n) if i not in taken]
            _foreach_adam(*([ts[i] for i in rest] for ts in (params, grads, m1, m2)), beta1, beta2, c1, c2,
                          [lr_t[i] for i in rest], [eps_t[i] for i in rest], scaled_epsilon)
        if n == 1:
            b1p[0].mul_(beta1)
            b2p[0].mul_(beta2)
        else:
            torch._foreach_mul_(b1p, beta1)
            torch._foreach_mul_(b2p, beta2)


_NUMBERS = (float, int)


def _adam_one(p, g, m1, m2, b1p, b2p, learning_rate, beta1: float, beta2: float, epsilon: float,
              scaled_epsilon: bool) -> None:
    """adam_steps([p], [g], ...) for plain tensors that _ScratchCPU takes: the same scalars, the same kernels."""
    if torch.is_grad_enabled():
        with torch.no_grad():
            return _adam_one(p, g, m1, m2, b1p, b2p, learning_rate, beta1, beta2, epsilon, scaled_epsilon)
    dt = p.dtype
    c1, c2, eps = _adam_consts(dt, beta1, beta2, epsilon)
    lr_t, eps_t = _corrected(dt, b1p.dtype, _in(dt, float(learning_rate)), eps, b1p.item(), b2p.item(),
                             scaled_epsilon)
    _ScratchCPU.step(p, g, m1, m2, beta1, beta2, c1, c2, lr_t, eps_t, scaled_epsilon)
    b1p.mul_(beta1)
    b2p.mul_(beta2)


def _corrected(dt: torch.dtype, pdt: torch.dtype, lr: float, eps: float, b1_pow: float, b2_pow: float,
               scaled_epsilon: bool) -> tuple[float, float]:
    """One parameter's lr_t = lr * (sqrt(1 - b2^t) / (1 - b1^t)) and epsilon (eps * sqrt(1 - b2^t) in 2.x's form),
    in Python doubles, each rounded to T (`dt`); 1 - b^t in the accumulators' dtype `pdt`. lr and eps in T."""
    om1, om2 = _in(pdt, 1.0 - b1_pow), _in(pdt, 1.0 - b2_pow)
    corr2 = math.sqrt(om2)
    return _in(dt, lr * (corr2 / om1)), (_in(dt, eps * corr2) if scaled_epsilon else eps)


@functools.lru_cache(maxsize=64)
def _adam_consts(dt: torch.dtype, beta1: float, beta2: float, epsilon: float) -> tuple[float, float, float]:
    """1 - beta1 and 1 - beta2 computed in T, and epsilon in T (adam_steps)."""
    return _in(dt, 1.0 - _in(dt, beta1)), _in(dt, 1.0 - _in(dt, beta2)), _in(dt, epsilon)


def _foreach_adam(params, grads, m1, m2, beta1, beta2, c1, c2, lr_t, eps_t, scaled_epsilon) -> None:
    """adam_steps' moments and parameter update over lists, with torch's multi-tensor kernels."""
    torch._foreach_mul_(m1, beta1)
    torch._foreach_add_(m1, torch._foreach_mul(grads, c1))
    torch._foreach_mul_(m2, beta2)
    g2 = torch._foreach_mul(grads, c2)
    torch._foreach_mul_(g2, grads)
    torch._foreach_add_(m2, g2)
    if scaled_epsilon:
        r = [m.to(torch.float64, copy=True) for m in m1]  # copies also of float64 moments
        den = [m.to(torch.float64, copy=True) for m in m2]
        torch._foreach_sqrt_(den)
        torch._foreach_add_(den, eps_t)
        torch._foreach_div_(r, den)
        torch._foreach_mul_(r, [-v for v in lr_t])
        torch._foreach_add_(r, [p.double() for p in params])
        torch._foreach_copy_(params, r)
    else:
        den = torch._foreach_sqrt(m2)
        torch._foreach_add_(den, eps_t)
        r = torch._foreach_div(m1, den)
        torch._foreach_mul_(r, lr_t)
        torch._foreach_sub_(params, r)


_FLOATS = (torch.float32, torch.float64)
# elements per slice of a large tensor's update (1 MiB of float32; the double path's two buffers 4 MiB)
_SCRATCH = 1 << 18


class _ScratchCPU:
    """adam_steps for one contiguous CPU parameter, in slices of at most _SCRATCH elements (the memory it
    keeps is bounded whatever the model), temporaries written into scratch buffers kept per thread, dtype and role
    (data-parallel replicas may update from several threads).

    Fewer passes over memory than _foreach_adam, same roundings: `torch.addcmul(s, t, one, value=v)` is
    round(round(v * t) + s) and `torch.addcmul(zero, t1, t2, value=v)` is round(round(v * t1) * t2) whether or not
    torch's kernel contracts its last multiply and add into a fused multiply-add (a product by one, or a sum with
    zero, is exact). So m1 = b1 m1 + (c1 g) and m2 = b2 m2 + ((c2 g) g) take two kernels each, and p - lr_t r one.
    A large update is bound by memory bandwidth: 20 passes over the tensors instead of 29 (1.8), 14 instead of 20
    (2.x). Checked against _foreach_adam bit for bit (tests/ops/test_optimizer_bits.py)."""

    _tls = threading.local()

    @staticmethod
    def takes(p, *others) -> bool:
        return (p.is_cpu and p.dtype in _FLOATS and p.is_contiguous()
                and all(t.dtype == p.dtype and t.shape == p.shape and t.is_contiguous() for t in others))

    @classmethod
    def _state(cls) -> dict:
        st = getattr(cls._tls, "state", None)
        if st is None:
            st = cls._tls.state = {}
        return st

    @classmethod
    def _view(cls, dtype: torch.dtype, k: int, shape: torch.Size, n: int) -> torch.Tensor:
        """Scratch buffer k of `dtype` (_SCRATCH elements, made once per thread) viewed as `shape` (n elements);
        the views are kept too, one per shape (bounded: a model's parameter shapes)."""
        st = cls._state()
        v = st.get((dtype, k, shape))
        if v is None:
            buf = st.get((dtype, k))
            if buf is None:
                buf = st[(dtype, k)] = torch.empty(_SCRATCH, dtype=dtype)
            if len(st) > 4096:
                st.clear()
                st[(dtype, k)] = buf
            v = st[(dtype, k, shape)] = buf[:n].view(shape)
        return v

    @classmethod
    def consts(cls, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
        st = cls._state()
        c = st.get(dtype)
        if c is None:
            c = st[dtype] = (torch.zeros((), dtype=dtype), torch.ones((), dtype=dtype))
        return c

    @classmethod
    def step(cls, p, g, a, b, beta1, beta2, c1, c2, lr_t, eps_t, scaled_epsilon) -> None:
        n = p.numel()
        if n <= _SCRATCH:  # one slice: the tensors as they are, the scratch viewed in their shape
            cls._slice(p, g, a, b, n, beta1, beta2, c1, c2, lr_t, eps_t, scaled_epsilon)
            return
        p, g, a, b = (t.view(-1) for t in (p, g, a, b))
        for lo in range(0, n, _SCRATCH):
            hi = min(lo + _SCRATCH, n)
            cls._slice(p[lo:hi], g[lo:hi], a[lo:hi], b[lo:hi], hi - lo, beta1, beta2, c1, c2, lr_t, eps_t,
                       scaled_epsilon)

    @classmethod
    def _slice(cls, ps, gs, as_, bs, n, beta1, beta2, c1, c2, lr_t, eps_t, scaled_epsilon) -> None:
        zero, one = cls.consts(ps.dtype)
        w = cls._view(ps.dtype, 0, ps.shape, n)
        torch.mul(gs, c1, out=w)
        torch.addcmul(w, as_, one, value=beta1, out=as_)  # m1 = b1 m1 + c1 g
        torch.addcmul(zero, gs, gs, value=c2, out=w)
        torch.addcmul(w, bs, one, value=beta2, out=bs)  # m2 = b2 m2 + (c2 g) g
        if scaled_epsilon:
            d = cls._view(torch.float64, 1, ps.shape, n)
            d.copy_(bs)
            d.sqrt_()
            d.add_(eps_t)
            torch.div(as_, d, out=d)
            torch.addcmul(ps, d, one, value=-lr_t, out=d)  # p + (-lr_t) (m1 / den), in double
            ps.copy_(d)
        else:
            torch.sqrt(bs, out=w)
            w.add_(eps_t)
            torch.div(as_, w, out=w)
            torch.addcmul(ps, w, one, value=-lr_t, out=ps)  # p - lr_t (m1 / den)


@op("clip_by_global_norm", role=ROLE_OPTIMIZE, differentiable=False)
def clip_by_global_norm(grads, clip_norm):
    """Scale every gradient by clip_norm / max(global_norm, clip_norm)."""
    grads = list(grads)
    if not grads:
        return []
    sq = torch.stack([g.float().pow(2).sum() for g in grads]).sum()
    global_norm = torch.sqrt(sq)
    scale = clip_norm / torch.clamp(global_norm, min=clip_norm)
    return [g * scale.to(g.dtype) for g in grads]


@op("clip_by_norm", role=ROLE_OPTIMIZE, differentiable=False)
def clip_by_norm(x, max_norm, name=None):
    """x * max_norm / max(||x||_2, max_norm). Paddle registers the kernel for float32 on CPU (float32 and float16
    on GPU) and checks max_norm > 0 (2.6.2's infermeta)."""
    if not max_norm > 0:
        raise InvalidArgumentError(f"clip_by_norm: max_norm should be greater than 0. Received max_norm is "
                                   f"{float(max_norm):f}.")
    kernels = ("float32", "float16") if x.device.type in ("cuda", "meta") else ("float32",)
    require_kernel_dtype("clip_by_norm", "clip_by_norm", x.dtype, kernels, x.device.type.upper())
    norm = torch.sqrt((x * x).sum())
    return x * (max_norm / torch.clamp(norm, min=max_norm))


@op("clip", role=ROLE_OPTIMIZE, differentiable=False)
def clip_by_value(x, min=None, max=None, name=None):  # noqa: A002
    check_clip_bounds("clip", min, max)
    return torch.clamp(x, min=min, max=max)


@op("adamw", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def adamw(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, beta1=0.9, beta2=0.999,
          epsilon=1e-08, coeff=0.01, lr_ratio=1.0, with_decay=True, lazy_mode=False):
    """Decoupled weight decay first (p -= lr * lr_ratio * coeff * p), then Paddle's adam step at lr * lr_ratio."""
    lr = _lr(learning_rate) * lr_ratio
    with torch.no_grad():
        if with_decay and coeff:
            param.sub_(param * (lr * coeff))
    return adam.__paddle_op__.impl(param, grad, moment1, moment2, beta1_pow, beta2_pow, lr, beta1=beta1,
                                   beta2=beta2, epsilon=epsilon)


@op("adamax", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def adamax(param, grad, moment, inf_norm, beta1_pow, learning_rate, beta1=0.9, beta2=0.999, epsilon=1e-08):
    """m = b1 m + (1-b1) g; u = max(b2 u + eps, |g|); p -= lr / (1 - b1^t) * m / u (b1^t *= b1 is a separate
    `scale` op, as Paddle's: optimizer.Adamax._finish_update)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        moment.mul_(beta1).add_(grad * (1 - beta1))
        torch.maximum(inf_norm * beta2 + epsilon, grad.abs(), out=inf_norm)
        param.sub_((lr / (1 - beta1_pow)) * moment / inf_norm)
    return param


@op("adagrad", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def adagrad(param, grad, moment, learning_rate, epsilon=1e-06):
    """moment += g^2; p -= lr * g / (sqrt(moment) + eps)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        moment.add_(grad * grad)
        param.sub_(lr * grad / (torch.sqrt(moment) + epsilon))
    return param


@op("adadelta", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def adadelta(param, grad, avg_squared_grad, avg_squared_update, learning_rate, rho=0.95, epsilon=1e-06,
             scale_by_lr=True):
    """E[g^2] = rho E[g^2] + (1-rho) g^2; d = -sqrt((E[dx^2] + eps) / (E[g^2] + eps)) g;
    E[dx^2] = rho E[dx^2] + (1-rho) d^2; p += lr * d (Paddle 2.x scales by the learning rate; 1.8's kernel
    does not: `scale_by_lr=False`)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        avg_squared_grad.mul_(rho).add_(grad * grad * (1 - rho))
        update = -torch.sqrt((avg_squared_update + epsilon) / (avg_squared_grad + epsilon)) * grad
        avg_squared_update.mul_(rho).add_(update * update * (1 - rho))
        param.add_(update * lr if scale_by_lr else update)
    return param


@op("rmsprop", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def rmsprop(param, grad, mean_square, mean_grad, moment, learning_rate, rho=0.95, epsilon=1e-06, momentum=0.0,
            centered=False):
    """ms = rho ms + (1-rho) g^2; mom = momentum mom + lr g / sqrt(ms [- mg^2] + eps); p -= mom."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        mean_square.mul_(rho).add_(grad * grad * (1 - rho))
        if centered:
            mean_grad.mul_(rho).add_(grad * (1 - rho))
            denom = torch.sqrt(mean_square - mean_grad * mean_grad + epsilon)
        else:
            denom = torch.sqrt(mean_square + epsilon)
        moment.mul_(momentum).add_(lr * grad / denom)
        param.sub_(moment)
    return param


@op("lamb", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def lamb(param, grad, moment1, moment2, beta1_pow, beta2_pow, learning_rate, weight_decay=0.01, beta1=0.9,
         beta2=0.999, epsilon=1e-06, bias_correction=True):
    """r = m_hat / (sqrt(v_hat) + eps) + wd p; p -= lr * (||p|| / ||r||) * r (trust ratio 1 when a norm is 0).
    Paddle 1.8's kernel uses the raw moments (`bias_correction=False`)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        moment1.mul_(beta1).add_(grad * (1 - beta1))
        moment2.mul_(beta2).add_(grad * grad * (1 - beta2))
        m_hat = moment1 / (1 - beta1_pow) if bias_correction else moment1
        v_hat = moment2 / (1 - beta2_pow) if bias_correction else moment2
        r = m_hat / (torch.sqrt(v_hat) + epsilon) + weight_decay * param
        p_norm, r_norm = param.norm(), r.norm()
        trust = torch.where((p_norm > 0) & (r_norm > 0), p_norm / r_norm, torch.ones_like(p_norm))
        param.sub_(lr * trust * r)
        if bias_correction:  # 1.8 neither reads nor advances the pow accumulators
            beta1_pow.mul_(beta1)
            beta2_pow.mul_(beta2)
    return param


@op("decayed_adagrad", role=ROLE_OPTIMIZE, differentiable=False, infer=_param_spec)
def decayed_adagrad(param, grad, moment, learning_rate, decay=0.95, epsilon=1e-06):
    """moment = decay * moment + (1 - decay) * g^2; p -= lr * g / (sqrt(moment) + eps)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        moment.mul_(decay).add_(grad * grad * (1 - decay))
        param.sub_(lr * grad / (torch.sqrt(moment) + epsilon))
    return param
