"""Optimizers. One class per algorithm serves both modes:

- static `minimize(loss)`: `append_backward`, then gradient clipping, regularization and the update op are
  *recorded* (role `optimize`) with persistable accumulators (`fc_0.w_0_moment1_0`) initialized by the
  startup program and a `learning_rate_0` variable;
- dygraph `step()`: the same calls run eagerly on each parameter's `.grad`.
Subclasses only say which accumulators they need and which update op to call (`_update`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from paddle_compat.engine.core import dtype as _dt
from paddle_compat.engine.core.dist_tensor import PLAIN
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework import unique_name
from paddle_compat.engine.framework.dispatch import role_guard
from paddle_compat.engine.framework.program import ROLE_OPTIMIZE, Variable, VarType, default_main_program, program_guard
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.engine.ops import update_ops
from paddle_compat.paddle2.optimizer.clip import clip_by_param_attrs, error_clip_callback
from paddle_compat.paddle2.optimizer.regularizer import L2Decay


class Optimizer:
    _type = "optimizer"
    _accumulator_specs: tuple[tuple[str, float, bool], ...] = ()  # (name, fill, is [1]-shaped)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Paddle's accumulator-name attributes (`_velocity_acc_str = "velocity"`, `_beta1_pow_acc_str`, ...), which
        subclasses of Paddle's optimizers use as keys of `self._accumulators`."""
        super().__init_subclass__(**kwargs)
        for name, _, _ in cls.__dict__.get("_accumulator_specs", ()):
            key = name.strip("_")
            attr = f"_{key[:-4] if key.endswith('_acc') else key}_acc_str"
            if attr not in cls.__dict__:
                setattr(cls, attr, name)

    def __init__(self, learning_rate: Any = 0.001, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate should not be None")
        self._learning_rate = learning_rate
        self._parameter_list = list(parameters) if parameters is not None else None
        self._group_regularization: dict[int, Any] = {}
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            groups = self._parameter_list
            self._parameter_list = [p for gr in groups for p in gr["params"]]
            for gr in groups:  # Paddle: a group's learning_rate is a per-parameter multiplier
                wd = gr.get("weight_decay")
                reg = L2Decay(wd) if isinstance(wd, (int, float)) and not isinstance(wd, bool) else wd
                for p in gr["params"]:
                    if "learning_rate" in gr:
                        p.optimize_attr = dict(getattr(p, "optimize_attr", {}) or {},
                                               learning_rate=float(gr["learning_rate"]))
                    if reg is not None:
                        self._group_regularization[id(p)] = reg
        if MODE.static is False and self._parameter_list is None and not self._allow_no_params():
            raise AttributeError(
                f"parameters argument given to the {type(self).__name__} optimizer should not be None in dygraph "
                "mode; pass parameters=model.parameters()"
            )
        self.regularization = L2Decay(weight_decay) if isinstance(weight_decay, (int, float)) and \
            not isinstance(weight_decay, bool) else weight_decay
        self._grad_clip = grad_clip
        self._name = name
        self._accumulators: dict[str, dict[str, Any]] = {}
        self._accumulators_holder: dict[str, Any] = {}  # set_state_dict's values for accumulators made later
        self._lr_vars: dict[int, Variable] = {}
        self._lr_tensor: Tensor | None = None

    @staticmethod
    def _allow_no_params() -> bool:
        return not MODE.explicit  # a fluid script that builds its graph after creating the optimizer

    # --- learning rate -------------------------------------------------------------------------
    def _lr_scheduler(self):
        from paddle_compat.paddle2.optimizer.lr import LRScheduler

        return self._learning_rate if isinstance(self._learning_rate, LRScheduler) else None

    def get_lr(self) -> float:
        sched = self._lr_scheduler()
        if sched is not None:
            return float(sched())
        if isinstance(self._learning_rate, Variable):
            raise TypeError("get_lr: the learning rate is a static Variable; fetch it with the Executor")
        return float(self._learning_rate)

    def set_lr(self, value: float) -> None:
        if self._lr_scheduler() is not None:
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this API, because this "
                               "will lead to conflict.")
        self._learning_rate = float(value)
        for var in self._lr_vars.values():
            from paddle_compat.engine.framework.scope import global_scope

            t = global_scope()._get(var.name)
            if t is not None:
                t.fill_(float(value))

    def _global_lr(self) -> Any:
        """Static: the program's persistable lr variable. Dygraph: a float."""
        if not MODE.static:
            return self.get_lr()
        if isinstance(self._learning_rate, Variable):
            return self._learning_rate
        program = default_main_program()
        var = self._lr_vars.get(id(program))
        if var is None:
            from paddle_compat.engine.static.param import create_global_var

            sched = self._lr_scheduler()
            value = float(sched()) if sched is not None else float(self._learning_rate)
            from paddle_compat.engine.ops.common import scalar_dims

            # [1] as in Paddle 2.4; 0-D at API level 2.6, as in 2.6.2 (engine/core/api_level.py)
            var = create_global_var(list(scalar_dims()), value, "float32", persistable=True,
                                    name=unique_name.generate("learning_rate"))
            self._lr_vars[id(program)] = var
            if sched is not None:
                sched._var_name = var.name
                program.lr_sheduler = sched
        return var

    def _param_lr(self, param: Any, global_lr: Any = None) -> Any:
        """The learning rate of `param`: the global one (`global_lr` when the caller has read it) times its
        ParamAttr multiplier."""
        lr = self._global_lr() if global_lr is None else global_lr
        mult = getattr(param, "optimize_attr", {}).get("learning_rate", 1.0)
        if mult == 1.0:
            return lr
        if isinstance(lr, float):
            return lr * mult
        from paddle_compat.engine.ops.tensor.math import scale

        return scale(lr, scale=mult)

    # --- accumulators ----------------------------------------------------------------------------
    def _add_accumulator(self, name: str, param: Any, fill_value: float = 0.0, scalar: bool = False) -> Any:
        store = self._accumulators.setdefault(name, {})
        if param.name in store:
            return store[param.name]
        shape = [1] if scalar else list(param.shape)
        var_name = unique_name.generate(f"{param.name}_{name}")
        # scalar accumulators (beta pows) take the parameter's dtype, float32 for a half one (Paddle's acc_dtype)
        dtype = _dt.to_torch_dtype(param.dtype)
        if scalar and dtype in (torch.float16, torch.bfloat16):
            dtype = torch.float32
        if MODE.static:
            from paddle_compat.engine.static.param import create_global_var

            acc = create_global_var(shape, fill_value, _dt.from_torch(dtype), persistable=True, name=var_name)
        else:
            acc = Tensor._wrap(torch.full(shape, fill_value, dtype=dtype, device=param._t.device))
            acc.name = var_name
            acc.persistable = True
            if self._accumulators_holder:  # set_state_dict came before the first step (Paddle's _add_accumulator)
                if var_name not in self._accumulators_holder:
                    raise KeyError(f"{type(self).__name__}.set_state_dict: the state dict has no {var_name!r} for "
                                   f"parameter {param.name!r} (it holds {sorted(self._accumulators_holder)[:8]})")
                acc.set_value(_state_array(self._accumulators_holder[var_name]))
        store[param.name] = acc
        return acc

    def _get_accumulator(self, name: str, param: Any) -> Any:
        return self._accumulators[name][param.name]

    def _create_accumulators(self, params: list) -> None:
        for p in params:
            for name, fill, scalar in self._accumulator_fills():
                self._add_accumulator(name, p, fill, scalar)

    def _accumulator_fills(self) -> tuple[tuple[str, float, bool], ...]:
        return self._accumulator_specs

    # --- the pipeline ------------------------------------------------------------------------------
    def _regularize(self, params_grads: list) -> list:
        out = []
        for p, g in params_grads:
            reg = self._regularizer_of(p)
            if reg is not None and not self._handles_regularization(reg):
                g = reg.append(p, g)
            out.append((p, g))
        return out

    def _handles_regularization(self, reg: Any) -> bool:
        return False

    def _regularizer_of(self, param: Any) -> Any:
        """The regularizer that applies to `param`: its own (ParamAttr), its parameter group's, else the
        optimizer's (None: none)."""
        return getattr(param, "regularizer", None) or self._group_regularization.get(id(param)) or self.regularization

    def _selected_rows(self, param: Any, grad: Any = None) -> bool:
        """Whether Paddle's gradient of `param` is a SelectedRows when the update reads it. In a static program the
        gradient variable's type says so (engine/static/backward.py types an is_sparse embedding's table gradient
        SELECTED_ROWS unless the table is also used densely); in dygraph, an is_sparse embedding's table (marked
        `_selected_rows_grad` by the embedding layers). Either way only while no regularizer turns it dense (1.8.5
        and 2.6.2 add the decay as a dense tensor, and the kernel then takes the dense path)."""
        if isinstance(grad, Variable) and grad.type != VarType.SELECTED_ROWS:
            return False
        if not isinstance(grad, Variable) and not getattr(param, "_selected_rows_grad", False):
            return False
        return self._regularizer_of(param) is None

    def apply_gradients(self, params_grads: list) -> list:
        params_grads = list(params_grads)
        if MODE.static:  # Paddle's static apply_gradients orders the pass by parameter name (block.ops show it)
            params_grads.sort(key=lambda pg: pg[0].name)
        with role_guard(ROLE_OPTIMIZE):
            if self._grad_clip is not None:
                params_grads = _write_back(params_grads, self._grad_clip(params_grads))
            elif MODE.static:  # fluid.clip.set_gradient_clip: new gradient variables, p@GRAD stays the raw one
                params_grads = clip_by_param_attrs(params_grads)
            params_grads = _write_back(params_grads, self._regularize(params_grads))
            block = default_main_program().global_block() if MODE.static else None
            start = len(block.ops) if block is not None else 0
            if block is not None:
                self._global_lr()  # the learning rate first, then the accumulators (1.8.5's startup op order)
            self._create_accumulators([p for p, _ in params_grads])
            ops = self._update_all(params_grads)
            self._finish_update(params_grads)
        # static: every op the optimization pass appended (per-parameter learning-rate scales, the updates, the
        # beta-power updates), as 1.8.5's _create_optimization_pass returns its slice of the block
        return list(block.ops[start:]) if block is not None else ops

    def _update(self, param: Any, grad: Any) -> Any:
        raise NotImplementedError

    def _update_all(self, params_grads: list) -> list:
        """Every parameter's update, in order (an optimizer may run them together where that gives the same bits)."""
        return [self._update(p, g) for p, g in params_grads]

    def _finish_update(self, params_grads: list) -> None:
        """Ops Paddle appends after every parameter's update (Adamax: the beta1-power scales)."""

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None,
                 parameter_list: Any = None):
        parameters = parameters if parameters is not None else parameter_list
        if not MODE.static:
            self.step(parameters)
            return None, None
        from paddle_compat.engine.static.backward import append_backward

        params = parameters if parameters is not None else self._parameter_list
        params_grads = append_backward(loss, params, no_grad_set, callbacks=[error_clip_callback])
        with program_guard(loss.block.program, startup_program):
            ops = self.apply_gradients(params_grads)
        return ops, params_grads

    def backward(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None,
                 callbacks: Any = None):
        from paddle_compat.engine.static.backward import append_backward

        return append_backward(loss, parameters if parameters is not None else self._parameter_list, no_grad_set,
                               callbacks=[error_clip_callback] if callbacks is None else callbacks)

    # --- dygraph ----------------------------------------------------------------------------------
    def _dygraph_params(self, parameters: Any = None) -> list:
        params = list(parameters) if parameters is not None else (self._parameter_list or [])
        return [p for p in params if getattr(p, "trainable", True) and not p.stop_gradient]

    @torch.no_grad()
    def step(self, parameters: Any = None) -> None:
        params_grads = [(p, Tensor._wrap(g)) for p in self._dygraph_params(parameters)
                        if (g := p._grad_tensor()) is not None]
        sched = self._lr_scheduler()
        if sched is not None and hasattr(sched, "_advance_per_update"):  # a fluid 1.8 dygraph decay
            sched._advance_per_update()
        self.apply_gradients(params_grads)
        self._last_update_lr = self.get_lr()

    def current_step_lr(self) -> float:
        """fluid 1.8: the learning rate the last update used (dygraph; Paddle reads its lr variable), or the
        current one before any update."""
        last = getattr(self, "_last_update_lr", None)
        return last if last is not None and not MODE.static else self.get_lr()

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for p in self._parameter_list or ():
            p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    # --- state ------------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        out: dict[str, Any] = {}
        for store in self._accumulators.values():
            for acc in store.values():
                out[acc.name] = acc
        sched = self._lr_scheduler()
        if sched is not None:
            out["LR_Scheduler"] = sched.state_dict()
            if _steps_per_update(sched):  # 1.8.5: a per-step LearningRateDecay also saves its step as global_step
                step = Tensor._wrap(torch.tensor([int(sched.step_num)], dtype=torch.int32))
                step.name = "global_step"
                out["global_step"] = step
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        """Paddle's set_dict / set_state_dict: the scheduler's state (and, for a 1.8 per-step decay, its step from
        `global_step`), and the accumulators' values; accumulators not made yet (no step taken) take theirs when
        the first step makes them, as Paddle's `_accumulators_holder` does."""
        sched = self._lr_scheduler()
        if sched is not None and "LR_Scheduler" in state_dict:
            sched.set_state_dict(state_dict["LR_Scheduler"])
        if sched is not None and _steps_per_update(sched) and "global_step" in state_dict:
            step = _state_array(state_dict["global_step"]).reshape(-1)
            if step.shape != (1,):
                raise ValueError(f"{type(self).__name__}.set_state_dict: global_step must hold one value, but it "
                                 f"has shape {list(step.shape)}")
            sched.step_num = int(step[0])
        from paddle_compat.engine.static.serialization import NAME_TABLE

        self._accumulators_holder = {k: v for k, v in state_dict.items()
                                     if k not in ("LR_Scheduler", "global_step", NAME_TABLE)}
        for store in self._accumulators.values():
            for acc in store.values():
                if acc.name in state_dict:
                    acc.set_value(_state_array(state_dict[acc.name]))

    set_dict = set_state_dict


def _state_array(v: Any) -> np.ndarray:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def _steps_per_update(sched: Any) -> bool:
    """A fluid 1.8 dygraph LearningRateDecay (its step advances per update; not an epoch decay)."""
    return hasattr(sched, "_advance_per_update") and hasattr(sched, "step_num")


def _write_back(before: list, after: list) -> list:
    """Static mode: Paddle clips and regularizes `p@GRAD` in place, so a fetched `p@GRAD` is the final
    gradient. Re-point each gradient's name at its processed value (SSA rename)."""
    if not MODE.static:
        return after
    from paddle_compat.engine.framework.dispatch import rebind

    out = []
    for (p, g0), (_, g1) in zip(before, after):
        if g1 is not g0 and isinstance(g0, Variable) and isinstance(g1, Variable):
            rebind(g0, g1)
            g1 = g0
        out.append((p, g1))
    return out


class SGD(Optimizer):
    _type = "sgd"

    def _update(self, param, grad):
        return update_ops.sgd(param, grad, self._param_lr(param))


class Momentum(Optimizer):
    _type = "momentum"
    _accumulator_specs = (("velocity", 0.0, False),)

    def __init__(self, learning_rate: Any = 0.001, momentum: float = 0.9, parameters: Any = None,
                 use_nesterov: bool = False, weight_decay: Any = None, grad_clip: Any = None,
                 multi_precision: bool = False, rescale_grad: float = 1.0, name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._momentum = momentum
        self._use_nesterov = use_nesterov
        self._rescale_grad = rescale_grad

    def _handles_regularization(self, reg: Any) -> bool:
        return isinstance(reg, L2Decay)  # folded into the momentum op, as Paddle 2.x does

    def _update(self, param, grad):
        reg = self._regularizer_of(param)
        l2 = reg is not None and self._handles_regularization(reg)
        return update_ops.momentum(param, grad, self._get_accumulator("velocity", param), self._param_lr(param),
                                   mu=self._momentum, use_nesterov=self._use_nesterov,
                                   regularization_method="l2_decay" if l2 else "",
                                   regularization_coeff=reg._coeff if l2 else 0.0, rescale_grad=self._rescale_grad)

    def _update_all(self, params_grads: list) -> list:
        """Dygraph: the parameters of one dtype, learning rate and L2 coefficient in one `momentum_steps` call (the
        momentum op's kernels per tensor, the same bits). Static programs keep one momentum op per parameter, and
        Nesterov, a rescaled gradient, a subclass's own update or a parameter that is not a plain CPU float tensor
        (update_ops.plain_cpu_group) go one at a time."""
        if MODE.static or type(self)._update is not Momentum._update or self._use_nesterov or \
                self._rescale_grad != 1.0 or not isinstance(self._momentum, (int, float)):
            return super()._update_all(params_grads)
        groups: dict = {}
        glr = self._global_lr()
        for p, g in params_grads:
            lr, pt, gt = self._param_lr(p, glr), p._t, g._t
            reg = self._regularizer_of(p)
            if reg is not None and not self._handles_regularization(reg):
                reg = None  # applied to the gradient before (Optimizer._regularize)
            vt = self._get_accumulator("velocity", p)._t
            if isinstance(lr, (int, float)) and update_ops.plain_cpu_group([pt], [gt], [vt]):
                groups.setdefault((pt.dtype, float(lr), float(reg._coeff) if reg is not None else 0.0), []).append(
                    (pt, gt, vt))
            else:
                self._update(p, g)
        for (_, lr, coeff), members in groups.items():
            ps, gs, vs = map(list, zip(*members))
            update_ops.momentum_steps(ps, gs, vs, lr, float(self._momentum), coeff)
        return [p for p, _ in params_grads]


class Adam(Optimizer):
    _type = "adam"
    _scaled_epsilon = True

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False, name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode

    def _accumulator_fills(self):
        return (("moment1", 0.0, False), ("moment2", 0.0, False),
                ("beta1_pow_acc", float(self._beta1), True), ("beta2_pow_acc", float(self._beta2), True))

    def _update(self, param, grad):
        acc = self._get_accumulator
        return update_ops.adam(param, grad, acc("moment1", param), acc("moment2", param),
                               acc("beta1_pow_acc", param), acc("beta2_pow_acc", param), self._param_lr(param),
                               beta1=self._beta1, beta2=self._beta2, epsilon=self._epsilon,
                               lazy_mode=self._lazy_mode, scaled_epsilon=self._scaled_epsilon,
                               **({"selected_rows": True} if self._selected_rows(param, grad) else {}))

    def _update_all(self, params_grads: list) -> list:
        """Dygraph: the parameters of one dtype, device and learning rate in one multi-tensor `adam_steps` call,
        as the adam op runs each one (the same kernels per tensor, so the same bits; a model's step makes ~15
        calls instead of ~15 per parameter). Static programs keep one adam op per parameter (block.ops as Paddle's),
        and a subclass's own update, tensor betas, or a DTensor / sparse parameter go one at a time."""
        scalars = (self._beta1, self._beta2, self._epsilon)
        if MODE.static or type(self)._update is not Adam._update or \
                not all(isinstance(v, (int, float)) for v in scalars):
            return super()._update_all(params_grads)
        groups: dict = {}
        for p, g in params_grads:
            lr = self._param_lr(p)
            if type(p._t) in PLAIN and type(g._t) in PLAIN and not g._t.is_sparse and isinstance(lr, (int, float)) \
                    and not self._selected_rows(p):
                groups.setdefault((p._t.dtype, p._t.device, float(lr)), []).append((p, g))
            else:
                self._update(p, g)
        acc = self._get_accumulator
        for (_, _, lr), members in groups.items():
            update_ops.adam_steps([p._t for p, _ in members], [g._t for _, g in members],
                                  *([acc(name, p)._t for p, _ in members]
                                    for name in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")),
                                  lr, *map(float, scalars), self._scaled_epsilon)
        return [p for p, _ in params_grads]


class AdamW(Adam):
    """Adam with decoupled weight decay: `weight_decay` is a float coefficient (not a regularizer),
    applied where `apply_decay_param_fun(param.name)` is true (all parameters by default)."""

    _type = "adamw"

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters: Any = None, weight_decay: Any = 0.01, lr_ratio: Any = None,
                 apply_decay_param_fun: Any = None, grad_clip: Any = None, lazy_mode: bool = False,
                 multi_precision: bool = False, name: str | None = None) -> None:
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip, lazy_mode, name=name)
        if not isinstance(weight_decay, (int, float)) or isinstance(weight_decay, bool):
            coeff = getattr(weight_decay, "_coeff", None)
            if coeff is None:
                raise TypeError("paddle.optimizer.AdamW: weight_decay should be a float, but received "
                                f"{type(weight_decay).__name__}")
            weight_decay = coeff
        self._coeff = float(weight_decay)
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun

    def _update(self, param, grad):
        acc = self._get_accumulator
        with_decay = self._apply_decay_param_fun is None or bool(self._apply_decay_param_fun(param.name))
        ratio = float(self._lr_ratio(param)) if self._lr_ratio is not None else 1.0
        return update_ops.adamw(param, grad, acc("moment1", param), acc("moment2", param),
                                acc("beta1_pow_acc", param), acc("beta2_pow_acc", param), self._param_lr(param),
                                beta1=self._beta1, beta2=self._beta2, epsilon=self._epsilon, coeff=self._coeff,
                                lr_ratio=ratio, with_decay=with_decay)


class Adamax(Optimizer):
    _type = "adamax"

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon

    # Paddle's accumulator-name attributes (its fills depend on beta1, so they are not _accumulator_specs)
    _moment_acc_str, _inf_norm_acc_str, _beta1_pow_acc_str = "moment", "inf_norm", "beta1_pow_acc"

    def _accumulator_fills(self):
        return (("moment", 0.0, False), ("inf_norm", 0.0, False), ("beta1_pow_acc", float(self._beta1), True))

    def _update(self, param, grad):
        acc = self._get_accumulator
        return update_ops.adamax(param, grad, acc("moment", param), acc("inf_norm", param),
                                 acc("beta1_pow_acc", param), self._param_lr(param), beta1=self._beta1,
                                 beta2=self._beta2, epsilon=self._epsilon)

    def _finish_update(self, params_grads: list) -> None:
        # Paddle's adamax op leaves beta1^t alone; its _finish_update scales it by beta1, one `scale` op per
        # parameter after all the updates (block.ops as 1.8.5: test_optimizer's TestAdamaxOptimizer)
        from paddle_compat.engine.framework.dispatch import make_inplace, rebind
        from paddle_compat.engine.framework.registry import OPS

        scale_ = make_inplace(OPS["scale"], "scale_")
        for p, _ in params_grads:
            acc = self._get_accumulator("beta1_pow_acc", p)
            if MODE.static:  # the accumulator takes the scaled value (a user's static x.scale_() would not)
                rebind(acc, OPS["scale"].public(acc, scale=float(self._beta1)))
            else:
                scale_(acc, scale=float(self._beta1))


class Adagrad(Optimizer):
    _type = "adagrad"

    def __init__(self, learning_rate: Any, epsilon: float = 1e-06, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None, initial_accumulator_value: float = 0.0) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon, self._initial = epsilon, float(initial_accumulator_value)

    _moment_acc_str = "moment"  # Paddle's accumulator-name attribute

    def _accumulator_fills(self):
        return (("moment", self._initial, False),)

    def _update(self, param, grad):
        return update_ops.adagrad(param, grad, self._get_accumulator("moment", param), self._param_lr(param),
                                  epsilon=self._epsilon)


class Adadelta(Optimizer):
    _type = "adadelta"

    def __init__(self, learning_rate: Any = 0.001, epsilon: float = 1e-06, rho: float = 0.95, parameters: Any = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon, self._rho = epsilon, rho

    _accumulator_specs = (("_avg_squared_grad", 0.0, False), ("_avg_squared_update", 0.0, False))

    _scale_by_lr = True

    def _update(self, param, grad):
        acc = self._get_accumulator
        return update_ops.adadelta(param, grad, acc("_avg_squared_grad", param), acc("_avg_squared_update", param),
                                   self._param_lr(param), rho=self._rho, epsilon=self._epsilon,
                                   scale_by_lr=self._scale_by_lr)


class RMSProp(Optimizer):
    _type = "rmsprop"

    def __init__(self, learning_rate: Any, rho: float = 0.95, epsilon: float = 1e-06, momentum: float = 0.0,
                 centered: bool = False, parameters: Any = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._rho, self._epsilon, self._momentum, self._centered = rho, epsilon, momentum, centered

    _accumulator_specs = (("momentum", 0.0, False), ("mean_square", 0.0, False), ("mean_grad", 0.0, False))

    def _update(self, param, grad):
        acc = self._get_accumulator
        return update_ops.rmsprop(param, grad, acc("mean_square", param), acc("mean_grad", param),
                                  acc("momentum", param), self._param_lr(param), rho=self._rho, epsilon=self._epsilon,
                                  momentum=self._momentum, centered=self._centered)


class Lamb(Optimizer):
    _type = "lamb"

    def __init__(self, learning_rate: Any = 0.001, lamb_weight_decay: float = 0.01, beta1: float = 0.9,
                 beta2: float = 0.999, epsilon: float = 1e-06, parameters: Any = None, grad_clip: Any = None,
                 exclude_from_weight_decay_fn: Any = None, multi_precision: bool = False,
                 name: str | None = None) -> None:
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._wd, self._beta1, self._beta2, self._epsilon = lamb_weight_decay, beta1, beta2, epsilon
        self._exclude = exclude_from_weight_decay_fn

    def _accumulator_fills(self):
        return (("moment1", 0.0, False), ("moment2", 0.0, False),
                ("beta1_pow_acc", float(self._beta1), True), ("beta2_pow_acc", float(self._beta2), True))

    def _update(self, param, grad):
        acc = self._get_accumulator
        wd = 0.0 if (self._exclude is not None and self._exclude(param)) else self._wd
        return update_ops.lamb(param, grad, acc("moment1", param), acc("moment2", param), acc("beta1_pow_acc", param),
                               acc("beta2_pow_acc", param), self._param_lr(param), weight_decay=wd,
                               beta1=self._beta1, beta2=self._beta2, epsilon=self._epsilon,
                               bias_correction=self._bias_correction)

    _bias_correction = True


for _cls in (AdamW, Adamax, Adagrad, Adadelta, RMSProp, Lamb):
    export(_cls, f"paddle.optimizer.{_cls.__name__}")


export(Optimizer, "paddle.optimizer.Optimizer", "paddle.fluid.optimizer.Optimizer")  # one base: the fluid ones subclass it
partial("paddle.fluid.optimizer.Optimizer", "the base class of every optimizer here: 1.x's positional order, but the "
        "keyword names are 2.x's (parameters, weight_decay), as the 1.x subclasses translate parameter_list / "
        "regularization")
export(SGD, "paddle.optimizer.SGD")
export(Momentum, "paddle.optimizer.Momentum")
export(Adam, "paddle.optimizer.Adam")


# --- fluid 1.x spellings: positional order and argument names of paddle.fluid.optimizer ------------
class FluidSGD(SGD):
    def __init__(self, learning_rate: Any, parameter_list: Any = None, regularization: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, parameter_list, regularization, grad_clip, name)


class FluidMomentum(Momentum):
    def __init__(self, learning_rate: Any, momentum: float, parameter_list: Any = None, use_nesterov: bool = False,
                 regularization: Any = None, grad_clip: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, momentum, parameter_list, use_nesterov, regularization, grad_clip, name=name)

    def _handles_regularization(self, reg: Any) -> bool:
        return False  # fluid 1.x appended the regularization as separate ops


class FluidAdam(Adam):
    _scaled_epsilon = False  # the 1.8 kernel: p -= lr_t * m1 / (sqrt(m2) + eps)

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameter_list: Any = None, regularization: Any = None, grad_clip: Any = None,
                 name: str | None = None, lazy_mode: bool = False) -> None:
        super().__init__(learning_rate, beta1, beta2, epsilon, parameter_list, regularization, grad_clip, lazy_mode,
                         name=name)


for _cls, _names in ((FluidSGD, ("SGD", "SGDOptimizer")), (FluidMomentum, ("Momentum", "MomentumOptimizer")),
                     (FluidAdam, ("Adam", "AdamOptimizer"))):
    for _n in _names:
        export(_cls, f"paddle.fluid.optimizer.{_n}")


# --- fluid 1.x spellings of the other optimizers ---------------------------------------------------------------
class FluidAdagrad(Adagrad):
    def __init__(self, learning_rate: Any, epsilon: float = 1e-06, parameter_list: Any = None,
                 regularization: Any = None, grad_clip: Any = None, name: str | None = None,
                 initial_accumulator_value: float = 0.0) -> None:
        super().__init__(learning_rate, epsilon, parameter_list, regularization, grad_clip, name,
                         initial_accumulator_value)


class FluidAdamax(Adamax):
    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameter_list: Any = None, regularization: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        super().__init__(learning_rate, beta1, beta2, epsilon, parameter_list, regularization, grad_clip, name)


class FluidRMSProp(RMSProp):
    def __init__(self, learning_rate: Any, rho: float = 0.95, epsilon: float = 1e-06, momentum: float = 0.0,
                 centered: bool = False, parameter_list: Any = None, regularization: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, rho, epsilon, momentum, centered, parameter_list, regularization, grad_clip,
                         name)


class FluidAdadelta(Adadelta):
    _scale_by_lr = False  # the 1.8 kernel adds the raw update (tests: known difference, see test_optim.py)

    def __init__(self, learning_rate: Any, epsilon: float = 1.0e-6, rho: float = 0.95, parameter_list: Any = None,
                 regularization: Any = None, grad_clip: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, epsilon, rho, parameter_list, regularization, grad_clip, name)


class FluidLamb(Lamb):
    _bias_correction = False  # the 1.8 kernel
    def __init__(self, learning_rate: Any = 0.001, lamb_weight_decay: float = 0.01, beta1: float = 0.9,
                 beta2: float = 0.999, epsilon: float = 1e-6, parameter_list: Any = None, regularization: Any = None,
                 grad_clip: Any = None, exclude_from_weight_decay_fn: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, lamb_weight_decay, beta1, beta2, epsilon, parameter_list, grad_clip,
                         exclude_from_weight_decay_fn, name=name)
        self.regularization = regularization


class DecayedAdagrad(Optimizer):
    _type = "decayed_adagrad"
    _accumulator_specs = (("moment", 0.0, False),)

    def __init__(self, learning_rate: Any, decay: float = 0.95, epsilon: float = 1.0e-6, parameter_list: Any = None,
                 regularization: Any = None, grad_clip: Any = None, name: str | None = None) -> None:
        super().__init__(learning_rate, parameter_list, regularization, grad_clip, name)
        self._decay, self._epsilon = decay, epsilon

    def _update(self, param, grad):
        return update_ops.decayed_adagrad(param, grad, self._get_accumulator("moment", param), self._param_lr(param),
                                          decay=self._decay, epsilon=self._epsilon)


for _cls, _names in ((FluidAdagrad, ("Adagrad", "AdagradOptimizer")), (FluidAdamax, ("Adamax", "AdamaxOptimizer")),
                     (FluidRMSProp, ("RMSProp", "RMSPropOptimizer")),
                     (FluidAdadelta, ("Adadelta", "AdadeltaOptimizer")), (FluidLamb, ("Lamb", "LambOptimizer")),
                     (DecayedAdagrad, ("DecayedAdagrad", "DecayedAdagradOptimizer"))):
    for _n in _names:
        export(_cls, f"paddle.fluid.optimizer.{_n}")
