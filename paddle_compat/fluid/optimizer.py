"""The fluid 1.8 optimizers beyond the common ones, and the 2.x classes that share their algorithms:

- Ftrl, LarsMomentum, Dpsgd: update ops as Paddle 1.8's kernels (kept quirks: fluid's Ftrl passes l1 as the l2
  attribute; Dpsgd draws one Gaussian noise scalar per update, from the Executor's generator here, where Paddle
  seeds with time(NULL));
- ModelAverage (fluid, static) / paddle.incubate.ModelAverage: the average_accumulates op after every update,
  `apply()` swaps the averaged parameters in, `restore()` puts the trained ones back;
- ExponentialMovingAverage (fluid and paddle.static): `update()` records ema = decay * ema + (1 - decay) * param
  (decay = min(decay, (t + 1) / (t + 10)) with thres_steps), `apply()` writes the bias-corrected ema
  (ema / (1 - decay^step), stored back into the ema variable, as Paddle's apply program does) into the parameters;
- LookaheadOptimizer (fluid, static) / paddle.incubate.LookAhead: every k updates of the inner optimizer,
  slow = fast = alpha * fast + (1 - alpha) * slow; fluid's slow weights start at the initial parameters (its
  startup program copies them), 2.x's at the parameters after the first update;
- RecomputeOptimizer: the inner optimizer's update (recomputation only saves memory; autograd keeps the
  activations here, so the numbers are the same and no memory is saved);
- DGCMomentumOptimizer, PipelineOptimizer: clear UnsupportedAPIError (see their docstrings)."""

from __future__ import annotations

import contextlib
from typing import Any

import torch

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.core.runtime import RUNTIME
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import role_guard
from paddle_compat.engine.framework.program import (ROLE_OPTIMIZE, Program, Variable, default_main_program,
                                             default_startup_program, program_guard)
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export, op, partial
from paddle_compat.paddle2.optimizer.optimizer import Optimizer
from paddle_compat.engine.ops.update_ops import _lr

# ------------------------------------------------------------------------------------------------ update ops


@op("ftrl", role=ROLE_OPTIMIZE, differentiable=False)
def ftrl(param, grad, squared_accum, linear_accum, learning_rate, l1=0.0, l2=0.0, lr_power=-0.5):
    """FTRL-proximal: linear += g - (new_sq^-p - sq^-p) / lr * param; param = (l1 * sign(linear) - linear) /
    (new_sq^-p / lr + 2 * l2) where |linear| > l1, else 0; sq = new_sq (p = lr_power)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        new_sq = squared_accum + grad * grad

        def pw(t):
            return t.sqrt() if lr_power == -0.5 else t.pow(-lr_power)

        linear_accum.add_(grad - (pw(new_sq) - pw(squared_accum)) / lr * param)
        x = l1 * linear_accum.sign() - linear_accum
        y = pw(new_sq) / lr + 2 * l2
        param.copy_(torch.where(linear_accum.abs() > l1, x / y, torch.zeros_like(param)))
        squared_accum.copy_(new_sq)
    return param


@op("lars_momentum", role=ROLE_OPTIMIZE, differentiable=False)
def lars_momentum(param, grad, velocity, learning_rate, mu=0.9, lars_coeff=0.001, lars_weight_decay=0.0005):
    """Layer-wise adaptive rate: local_lr = lr * coeff * |p| / (|g| + decay * |p|) when both norms are > 0;
    v = mu * v + local_lr * (g + decay * p); p -= v."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        pn, gn = param.norm(), grad.norm()
        local = torch.where((pn > 0) & (gn > 0), lr * lars_coeff * pn / (gn + lars_weight_decay * pn),
                            torch.as_tensor(lr, dtype=param.dtype, device=param.device))
        velocity.mul_(mu).add_(local * (grad + lars_weight_decay * param))
        param.sub_(velocity)
    return param


@op("dpsgd", role=ROLE_OPTIMIZE, differentiable=False, random=True)
def dpsgd(param, grad, learning_rate, clip=0.9, batch_size=0.999, sigma=1e-8, seed=0):
    """Differentially private SGD: the gradient scaled to L2 norm <= clip, plus one N(0, sigma) noise value
    divided by batch_size: p -= lr * (g / max(1, |g| / clip) + noise / batch_size)."""
    lr = _lr(learning_rate)
    with torch.no_grad():
        norm = float(grad.double().norm())
        scale = norm / clip if norm > clip else 1.0
        noise = float(torch.randn((), generator=RUNTIME.generator, dtype=torch.float64)) * sigma
        param.sub_(lr * (grad / scale + noise / batch_size))
    return param


_MAX_NUM_ACCUMULATES = 16384


@op("average_accumulates", role=ROLE_OPTIMIZE, differentiable=False)
def average_accumulates(param, sum_1, sum_2, sum_3, num_accumulates, old_num_accumulates, num_updates,
                        average_window, max_average_window, min_average_window):
    """Paddle's kernel; its outputs are its inputs, so each step sees the previous one's result: sum_1 += param;
    every 16384 updates sum_2 += sum_1, sum_1 = 0; when the window is full (num_accumulates >= min and
    >= min(max, num_updates * rate)) sum_3 = sum_1 + sum_2, sum_1 = sum_2 = 0, old_num_accumulates =
    num_accumulates, num_accumulates = 0."""
    if min_average_window > max_average_window:
        raise ValueError("average_accumulates: min_average_window shouldn't be larger than max_average_window")
    with torch.no_grad():
        n_upd = int(num_updates.reshape(-1)[0]) + 1
        n_acc = int(num_accumulates.reshape(-1)[0]) + 1
        sum_1.add_(param)
        if n_upd % _MAX_NUM_ACCUMULATES == 0:
            sum_2.add_(sum_1)
            sum_1.zero_()
        if n_acc >= min_average_window and n_acc >= min(max_average_window, n_upd * average_window):
            sum_3.copy_(sum_1 + sum_2)
            sum_1.zero_()
            sum_2.zero_()
            old_num_accumulates.fill_(n_acc)
            n_acc = 0
        num_updates.fill_(n_upd)
        num_accumulates.fill_(n_acc)
    return sum_1


# ------------------------------------------------------------------------------------------------ helpers


def _set(target: Any, value: Any) -> None:
    """target = value: an SSA rename in a static program; an in-place copy in dygraph (parameters stay
    trainable)."""
    if isinstance(target, Variable):
        P("paddle.assign")(value, output=target)
    else:
        with torch.no_grad():
            target._t.copy_(value._t if isinstance(value, Tensor) else torch.as_tensor(value))


def _named(value: Variable, name: str) -> Variable:
    """A new persistable variable `name` holding `value` (static: it is written to the scope after the run)."""
    from paddle_compat.engine.framework.dispatch import rebind

    block = value.block
    var = Variable(block, name, value.shape, value.dtype, persistable=True, stop_gradient=True)
    block.vars[name] = var
    rebind(var, value)
    return var


def _persistable(name: str, shape: list, dtype: Any, value: float = 0.0) -> Any:
    from paddle_compat.engine.static.param import create_global_var

    return create_global_var(list(shape), value, dtype, persistable=True, name=name)


def _averaged_params(parameters: Any) -> list:
    if parameters is not None:
        return list(parameters)
    return [p for p in default_main_program().global_block().all_parameters()
            if getattr(p, "do_model_average", True) is not False]


class _SwapPrograms:
    """apply() / restore() through two small programs run by the executor (static), or eagerly (dygraph)."""

    def _build_swap(self, params: list, apply_fn) -> None:
        self._backups = {}
        self.apply_program, self.restore_program = Program(), Program()
        with program_guard(self.apply_program):
            clones = [self._clone(p) for p in params]
            for p, c in zip(params, clones):
                self._backups[p.name] = _named(P("paddle.assign")(c), unique_name.generate(f"{p.name}.backup")).name
            apply_fn(params, clones)
        with program_guard(self.restore_program):
            for p in params:
                _set(self._clone(p), self._clone_name(self._backups[p.name], p.shape, p.dtype))

    def _clone(self, v: Any) -> Any:
        return self._clone_name(v.name, v.shape, v.dtype)

    @staticmethod
    def _clone_name(name: str, shape: Any, dtype: Any) -> Any:
        """The persistable variable `name` in the current program (its value comes from the scope)."""
        block = default_main_program().global_block()
        return block.vars.get(name) or block.create_var(name=name, shape=shape, dtype=dtype, persistable=True)

    def _run(self, executor: Any, program: Program) -> None:
        if executor is None:
            from paddle_compat.engine.static.executor import Executor

            executor = Executor()
        executor.run(program)

    @contextlib.contextmanager
    def apply(self, executor: Any = None, need_restore: bool = True):
        """Swap the averaged values into the parameters for the block; put the trained ones back after it."""
        if MODE.static:
            self._run(executor, self.apply_program)
        else:
            self._apply_dygraph()
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor: Any = None) -> None:
        if MODE.static:
            self._run(executor, self.restore_program)
        else:
            for p in self._params:
                _set(p, self._eager_backup[p.name])


# ------------------------------------------------------------------------------------------------ ModelAverage


class _ModelAverage(Optimizer, _SwapPrograms):
    """Averages each parameter over a sliding window of updates (Paddle's average_accumulates)."""

    _static_only = False

    def __init__(self, average_window_rate: float, parameters: Any = None, min_average_window: int = 10000,
                 max_average_window: int = 10000, name: str | None = None, regularization: Any = None) -> None:
        if not MODE.static and self._static_only:
            raise Exception("In dygraph, don't support ModelAverage.")
        super().__init__(0.0, parameters, regularization, None, name)
        self.average_window = average_window_rate
        self.min_average_window = min_average_window
        self.max_average_window = max_average_window
        self._params = _averaged_params(parameters) if MODE.static else list(parameters or [])
        self._state: dict[str, list] = {}
        if MODE.static:
            with role_guard(ROLE_OPTIMIZE):
                for p in self._params:
                    self._accumulate(p)
            self._build_swap(self._params, self._apply_ops)

    def _counters(self, p: Any) -> list:
        st = self._state.get(p.name)
        if st is None:
            mk = self._add_accumulator
            st = [mk("sum_1", p), mk("sum_2", p), mk("sum_3", p)]
            for nm in ("num_accumulates", "old_num_accumulates", "num_updates"):
                vname = unique_name.generate(f"{p.name}_{nm}")
                if MODE.static:
                    st.append(_persistable(vname, [1], "int64"))
                else:
                    t = Tensor._wrap(torch.zeros([1], dtype=torch.int64, device=p._t.device))
                    t.name = vname
                    st.append(t)
            self._state[p.name] = st
        return st

    def _accumulate(self, p: Any) -> Any:
        return average_accumulates(p, *self._counters(p), float(self.average_window), int(self.max_average_window),
                                   int(self.min_average_window))

    @staticmethod
    def _average(sums: list, counts: list, dtype: Any) -> Any:
        total = P("paddle.add_n")(list(sums))
        n = P("paddle.cast")(P("paddle.add_n")(list(counts)), dtype)
        return P("paddle.divide")(total, n)

    def _apply_ops(self, params: list, clones: list) -> None:
        for p, c in zip(params, clones):
            st = [self._clone(v) for v in self._state[p.name]]
            _set(c, self._average(st[:3], st[3:5], p.dtype))

    def _apply_dygraph(self) -> None:
        self._eager_backup = {p.name: Tensor._wrap(p._t.detach().clone()) for p in self._params}
        for p in self._params:
            st = self._state.get(p.name)
            if st is not None:
                _set(p, self._average(st[:3], st[3:5], p.dtype))

    @torch.no_grad()
    def step(self) -> None:
        """Dygraph: accumulate every trainable parameter that has a gradient (call after the update)."""
        for p in self._params:
            if getattr(p, "trainable", True) and p._grad_tensor() is not None:
                self._accumulate(p)

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None):
        if not MODE.static:
            self.step()
        return None, None


class FluidModelAverage(_ModelAverage):
    """fluid.optimizer.ModelAverage (static only): create it after `minimize`; it averages every parameter
    whose ParamAttr does not set do_model_average=False."""

    _static_only = True

    def __init__(self, average_window_rate, min_average_window=10000, max_average_window=10000,
                 regularization=None, name=None):
        super().__init__(average_window_rate, None, min_average_window, max_average_window, name, regularization)


class ModelAverage(_ModelAverage):
    """paddle.incubate.ModelAverage(average_window_rate, parameters=None, min_average_window=10000,
    max_average_window=10000, name=None): static (records the accumulation where it is created) and dygraph
    (`step()` after the optimizer's)."""

    def __init__(self, average_window_rate, parameters=None, min_average_window=10000, max_average_window=10000,
                 name=None):
        super().__init__(average_window_rate, parameters, min_average_window, max_average_window, name)


FluidModelAverage.__name__ = FluidModelAverage.__qualname__ = "ModelAverage"
export(FluidModelAverage, "paddle.fluid.optimizer.ModelAverage")
export(ModelAverage, "paddle.incubate.ModelAverage", "paddle.incubate.optimizer.ModelAverage")


# ------------------------------------------------------------------------------------------------ EMA


class ExponentialMovingAverage(_SwapPrograms):
    """fluid.optimizer.ExponentialMovingAverage / paddle.static.ExponentialMovingAverage(decay=0.999,
    thres_steps=None, name=None) (static only): create it after `minimize`, call `update()`, evaluate inside
    `with ema.apply(exe):`."""

    _STEP = "@EMA_STEP_COUNTER@"
    _integer_thres = False

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        if not MODE.static:
            raise Exception("In dygraph, don't support ExponentialMovingAverage.")
        self._decay = decay
        self._thres_steps = thres_steps
        self._name = name if name is not None else ""
        self._decay_var = self._decay_value()
        self._params = _averaged_params(None)
        with role_guard(ROLE_OPTIMIZE):
            self._ema = {p.name: _persistable(unique_name.generate(self._name + p.name + "_ema"), p.shape, p.dtype)
                         for p in self._params}
        self._build_swap(self._params, self._apply_ops)

    def _decay_value(self) -> Any:
        var = _persistable("scheduled_ema_decay_rate", [1], "float32", float(self._decay))
        t = self._thres_steps
        if t is not None:
            decay = P("paddle.full")([1], float(self._decay), "float32")
            if self._integer_thres and not t.dtype.torch.is_floating_point:
                # Paddle 1.8's `(t + 1.0) / (t + 10.0)` keeps an integer counter's dtype (integer division), and
                # `decay_t < decay` compares with the decay cast to that dtype
                decay_t = P("paddle.floor_divide")(P("paddle.scale")(t, bias=1.0), P("paddle.scale")(t, bias=10.0))
                smaller = P("paddle.less_than")(decay_t, P("paddle.full")([1], int(self._decay), t.dtype))
            else:
                t = P("paddle.cast")(t, "float32")
                decay_t = P("paddle.divide")(P("paddle.scale")(t, bias=1.0), P("paddle.scale")(t, bias=10.0))
                smaller = P("paddle.less_than")(decay_t, decay)
            _set(var, P("paddle.where")(smaller, P("paddle.cast")(decay_t, "float32"), decay))
        return var

    def update(self) -> None:
        """Record ema = decay * ema + (1 - decay) * param for every parameter (and the step counter)."""
        from paddle_compat.fluid.lr_decay import autoincreased_step_counter

        autoincreased_step_counter(self._STEP)
        with role_guard(ROLE_OPTIMIZE):
            one_minus = P("paddle.scale")(self._decay_var, scale=-1.0, bias=1.0)
            for p in self._params:
                ema = self._ema[p.name]
                _set(ema, P("paddle.add")(P("paddle.multiply")(ema, self._decay_var),
                                          P("paddle.multiply")(p, one_minus)))

    def _apply_ops(self, params: list, clones: list) -> None:
        step = P("paddle.cast")(self._clone_name(self._STEP, [1], "int64"), "float32")
        decay_pow = P("paddle.pow")(self._clone(self._decay_var), step)
        started = P("paddle.cast")(P("paddle.greater_than")(step, P("paddle.zeros")([1], "float32")), "float32")
        denom = P("paddle.scale")(P("paddle.multiply")(decay_pow, started), scale=-1.0, bias=1.0)
        for p, c in zip(params, clones):
            ema = self._clone(self._ema[p.name])
            _set(ema, P("paddle.divide")(ema, denom))
            _set(c, ema)


class FluidExponentialMovingAverage(ExponentialMovingAverage):
    _integer_thres = True


FluidExponentialMovingAverage.__name__ = FluidExponentialMovingAverage.__qualname__ = "ExponentialMovingAverage"
export(FluidExponentialMovingAverage, "paddle.fluid.optimizer.ExponentialMovingAverage")
export(ExponentialMovingAverage, "paddle.static.ExponentialMovingAverage")


# ------------------------------------------------------------------------------------------------ Lookahead


class LookAhead(Optimizer):
    """paddle.incubate.LookAhead(inner_optimizer, alpha=0.5, k=5, name=None): the inner optimizer updates the fast
    weights; every k updates slow = fast = alpha * fast + (1 - alpha) * slow (slow starts at the parameters after
    the first update). Static (`minimize`) and dygraph (`step`)."""

    _slow_from_startup = False  # fluid 1.8: the startup program copies the initial parameters into slow

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None):
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert 0.0 <= alpha <= 1.0, "alpha should be larger or equal to 0.0, and less or equal than 1.0"
        assert isinstance(k, int) and k > 0, "k should be a positive integer"
        self.inner_optimizer = inner_optimizer
        params = inner_optimizer._parameter_list
        super().__init__(alpha, params, None, None, name)
        self.alpha, self.k = alpha, k
        self.type = "lookahead"
        self._step_var: Any = None
        self._slow: dict[str, Any] = {}

    def _counter(self, name: str) -> Any:
        if self._step_var is None:
            if MODE.static:
                self._step_var = _persistable(name, [1], "int32")
            else:
                self._step_var = Tensor._wrap(torch.zeros([1], dtype=torch.int32))
        P("paddle.increment")(self._step_var, 1.0)
        return self._step_var

    def _slow_var(self, p: Any, step: Any) -> Any:
        slow = self._slow.get(p.name)
        if slow is None:
            if MODE.static and self._slow_from_startup:
                slow = _persistable(p.name + "@SLOW", p.shape, p.dtype)
                startup = default_startup_program()
                with program_guard(startup):
                    sv = startup.global_block().create_var(name=slow.name, shape=p.shape, dtype=p.dtype,
                                                           persistable=True)
                    _set(sv, startup.global_block().vars[p.name])
            else:
                slow = self._add_accumulator("slow", p)
            self._slow[p.name] = slow
        if not self._slow_from_startup:  # 2.x: slow takes the parameters after the first update
            first = P("paddle.cast")(P("paddle.equal")(step, P("paddle.ones")([1], "int32")), p.dtype)
            _set(slow, P("paddle.add")(P("paddle.multiply")(first, p),
                                       P("paddle.multiply")(P("paddle.scale")(first, scale=-1.0, bias=1.0), slow)))
        return slow

    def _blend(self, params: list, step: Any) -> None:
        k = P("paddle.full")([1], self.k, "int32")
        sync = P("paddle.equal")(P("paddle.remainder")(step, k), P("paddle.zeros")([1], "int32"))
        for p in params:
            slow = self._slow_var(p, step)
            on = P("paddle.cast")(sync, p.dtype)
            off = P("paddle.scale")(on, scale=-1.0, bias=1.0)
            mixed = P("paddle.add")(P("paddle.scale")(p, scale=self.alpha),
                                    P("paddle.scale")(slow, scale=1.0 - self.alpha))
            new_p = P("paddle.add")(P("paddle.multiply")(on, mixed), P("paddle.multiply")(off, p))
            new_slow = P("paddle.add")(P("paddle.multiply")(on, mixed), P("paddle.multiply")(off, slow))
            _set(p, new_p)
            _set(slow, new_slow)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        if not MODE.static:
            self.step()
            return None, None
        out = self.inner_optimizer.minimize(loss, startup_program=startup_program, parameters=parameters,
                                            no_grad_set=no_grad_set)
        block = loss.block.program.global_block()
        params = [p for p in block.all_parameters()] if self._slow_from_startup else \
            [p for p, _ in (out[1] or [])]
        with program_guard(loss.block.program, startup_program), role_guard(ROLE_OPTIMIZE):
            step = self._counter("lookahead_step" if self._slow_from_startup
                                 else unique_name.generate("lookahead_step"))
            self._blend(params, step)
        return out

    @torch.no_grad()
    def step(self) -> None:
        self.inner_optimizer.step()
        step = self._counter("lookahead_step")
        self._blend([p for p in self._parameter_list or [] if getattr(p, "trainable", True)], step)

    def clear_grad(self, set_to_zero: bool = True) -> None:
        self.inner_optimizer.clear_grad(set_to_zero)

    clear_gradients = clear_grad


class LookaheadOptimizer(LookAhead):
    """fluid.optimizer.LookaheadOptimizer(inner_optimizer, alpha=0.5, k=5) (static only)."""

    _slow_from_startup = True

    def __init__(self, inner_optimizer, alpha=0.5, k=5):
        if not MODE.static:
            raise Exception("In dygraph, don't support LookaheadOptimizer.")
        super().__init__(inner_optimizer, alpha, k)

    def minimize(self, loss, startup_program=None):
        return super().minimize(loss, startup_program)


export(LookAhead, "paddle.incubate.LookAhead", "paddle.incubate.optimizer.LookAhead")
export(LookaheadOptimizer, "paddle.fluid.optimizer.LookaheadOptimizer")


# ------------------------------------------------------------------------------------------------ the others


class Ftrl(Optimizer):
    """fluid.optimizer.Ftrl(learning_rate, l1=0.0, l2=0.0, lr_power=-0.5, ...): accumulators `squared` and
    `linear`. As Paddle 1.8's layer does, the op receives l1 as its l2 too."""

    _accumulator_specs = (("squared", 0.0, False), ("linear", 0.0, False))

    def __init__(self, learning_rate, l1=0.0, l2=0.0, lr_power=-0.5, parameter_list=None, regularization=None,
                 grad_clip=None, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        super().__init__(learning_rate, parameter_list, regularization, grad_clip, name)
        self._l1, self._l2, self._lr_power = l1, l2, lr_power

    def _update(self, param, grad):
        return ftrl(param, grad, self._get_accumulator("squared", param), self._get_accumulator("linear", param),
                    self._param_lr(param), l1=float(self._l1), l2=float(self._l1), lr_power=float(self._lr_power))


class LarsMomentum(Optimizer):
    """fluid.optimizer.LarsMomentum(learning_rate, momentum, lars_coeff=0.001, lars_weight_decay=0.0005, ...)."""

    _accumulator_specs = (("velocity", 0.0, False),)

    def __init__(self, learning_rate, momentum, lars_coeff=0.001, lars_weight_decay=0.0005, parameter_list=None,
                 regularization=None, grad_clip=None, name=None):
        assert learning_rate is not None
        assert momentum is not None
        super().__init__(learning_rate, parameter_list, regularization, grad_clip, name)
        self._momentum, self._lars_coeff, self._lars_weight_decay = momentum, float(lars_coeff), \
            float(lars_weight_decay)

    def _update(self, param, grad):
        return lars_momentum(param, grad, self._get_accumulator("velocity", param), self._param_lr(param),
                             mu=float(self._momentum), lars_coeff=self._lars_coeff,
                             lars_weight_decay=self._lars_weight_decay)


class Dpsgd(Optimizer):
    """fluid.optimizer.Dpsgd(learning_rate=0.001, clip=0.9, batch_size=0.999, sigma=1e-8, parameter_list=None)."""

    def __init__(self, learning_rate=0.001, clip=0.9, batch_size=0.999, sigma=1e-8, parameter_list=None):
        for v in (learning_rate, clip, batch_size, sigma):
            assert v is not None
        super().__init__(learning_rate, parameter_list)
        self._clip, self._batch_size, self._sigma = clip, batch_size, sigma

    def _update(self, param, grad):
        return dpsgd(param, grad, self._param_lr(param), clip=float(self._clip), batch_size=float(self._batch_size),
                     sigma=float(self._sigma))


class RecomputeOptimizer(Optimizer):
    """fluid.optimizer.RecomputeOptimizer(optimizer): `_set_checkpoints(vars)` then minimize. Paddle recomputes
    the forward between checkpoints during backward to save memory; the gradients are the same, and here they
    are exactly the inner optimizer's (autograd keeps the activations: no memory is saved)."""

    def __init__(self, optimizer):
        if not MODE.static:
            raise Exception("In dygraph, don't support RecomputeOptimizer.")
        self._optimizer = optimizer
        self._checkpoints = None
        self._learning_rate = optimizer._learning_rate

    def _set_checkpoints(self, checkpoints):
        if not isinstance(checkpoints, (list, tuple)) or not all(isinstance(c, Variable) for c in checkpoints):
            raise TypeError("_checkpoints should be a list of Variable or a list of String")
        self._checkpoints = list(checkpoints)

    def load(self, stat_dict):
        raise NotImplementedError("load function is not supported by Recompute Optimizer for now")

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None, callbacks=None):
        if self._checkpoints is None:
            raise AssertionError("You should call _set_checkpoints first")
        from paddle_compat.engine.framework.program import program_guard
        from paddle_compat.paddle2.optimizer.clip import error_clip_callback
        from paddle_compat.engine.static.backward import append_backward

        with program_guard(loss.block.program, startup_program):
            return append_backward(loss, parameter_list, no_grad_set,
                                   callbacks=[error_clip_callback] if callbacks is None else callbacks,
                                   checkpoints=self._checkpoints)

    def apply_gradients(self, params_grads):
        return self._optimizer.apply_gradients(params_grads)

    def apply_optimize(self, loss, startup_program, params_grads):
        with program_guard(loss.block.program, startup_program):
            return self._optimizer.apply_gradients(params_grads)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        params_grads = self.backward(loss, startup_program, parameter_list, no_grad_set)
        return self.apply_optimize(loss, startup_program, params_grads), params_grads


class DGCMomentumOptimizer:
    """Deep gradient compression exists to shrink the all-reduce traffic of multi-GPU training; Paddle 1.8
    implements it only in CUDA builds (its CPU build raises at construction) with NCCL sparse all-gather ops."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise UnsupportedAPIError("paddle.fluid.optimizer.DGCMomentumOptimizer",
                                  "deep gradient compression (top-k sparsified all-reduce over NCCL) is not "
                                  "implemented; use fluid.optimizer.Momentum (the same update without "
                                  "compression)")


class PipelineOptimizer:
    """Paddle 1.8's pipeline training splits the program by device_guard into sections run by a C++
    PipelineTrainer through Executor.train_from_dataset."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise UnsupportedAPIError("paddle.fluid.optimizer.PipelineOptimizer",
                                  "pipeline-parallel sections (device_guard + PipelineTrainer) are not "
                                  "implemented; train with the inner optimizer, or data parallelism "
                                  "(CompiledProgram.with_data_parallel)")


for _cls, _names in ((Ftrl, ("Ftrl", "FtrlOptimizer")), (LarsMomentum, ("LarsMomentum", "LarsMomentumOptimizer")),
                     (Dpsgd, ("Dpsgd", "DpsgdOptimizer")), (RecomputeOptimizer, ("RecomputeOptimizer",)),
                     (DGCMomentumOptimizer, ("DGCMomentumOptimizer",)),
                     (PipelineOptimizer, ("PipelineOptimizer",))):
    for _n in _names:
        export(_cls, f"paddle.fluid.optimizer.{_n}")
for _cls in (DGCMomentumOptimizer, PipelineOptimizer):
    _cls.__paddle_unsupported__ = True  # type: ignore[attr-defined]
partial("paddle.fluid.optimizer.RecomputeOptimizer", "numerically the inner optimizer; no activation memory is "
                                                     "saved (autograd keeps the activations)")
