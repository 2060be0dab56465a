"""fluid.layers learning-rate decay (1.8). Static mode: the lr is a variable computed each run from a global step
counter (`autoincreased_step_counter`, a persistable int64 incremented at the start of every run), so
`optimizer(learning_rate=fluid.layers.exponential_decay(...))` decays as in Paddle. Dygraph mode: a
`DygraphDecay18` scheduler with the formulas of Paddle 1.8's fluid.dygraph decays (numbers in Python floats),
advanced by every optimizer update."""

from __future__ import annotations

import math

from typing import Any, Callable

from paddle_compat.core.errors import UnsupportedAPIError
from paddle_compat.core.mode import MODE
from paddle_compat.ops.control_flow import P, Switch
from paddle_compat.ops.registry import export
from paddle_compat.optimizer.lr import LRScheduler

LR_COUNTER = "@LR_DECAY_COUNTER@"


def autoincreased_step_counter(counter_name=None, begin=1, step=1):
    """A persistable int64 [1] counter: `begin` on the first run, + `step` per run (shared by name)."""
    from paddle_compat.framework.program import default_main_program
    from paddle_compat.static.param import create_global_var

    if not MODE.static:
        raise UnsupportedAPIError("paddle.fluid.layers.autoincreased_step_counter", "it is a static-graph op")
    name = counter_name or "@STEP_COUNTER@"
    block = default_main_program().global_block()
    if name in block.vars:
        return block.vars[name]
    counter = create_global_var([1], float(begin - 1), "int64", persistable=True, name=name)
    P("paddle.increment")(counter, float(step))
    counter.stop_gradient = True
    return counter


def _step(begin=0):
    c = autoincreased_step_counter(LR_COUNTER, begin=begin, step=1)
    return P("paddle.cast")(c, "float32")


class DygraphDecay18(LRScheduler):
    """What a fluid.layers decay returns in dygraph mode (Paddle 1.8's fluid.dygraph LearningRateDecay): `value(d)`
    gives the rate at `step_num`, which starts at `begin` and advances by `step_size` with every optimizer update
    (the optimizer calls `_advance_per_update` before applying one). `d()` is the rate of the last update."""

    def __init__(self, name: str, value: Callable[["DygraphDecay18"], float], begin: int = 0, step: int = 1,
                 first: float | None = None) -> None:
        self._name, self._value = name, value
        self.step_num, self.step_size = begin, step
        # the rate before any update (`first` where evaluating `value` has side effects)
        self.base_lr = self.last_lr = float(value(self) if first is None else first)
        self.last_epoch, self.verbose, self._var_name = begin, False, None

    def _call18(self) -> float:
        """Paddle 1.8's LearningRateDecay.__call__: the rate at step_num, then advance."""
        lr = float(self._value(self))
        self.step_num += self.step_size
        return lr

    def _advance_per_update(self) -> None:
        self.last_lr = self._call18()

    def step(self, epoch: Any = None) -> float:  # Paddle 1.8: the rate at step_num, without advancing
        return float(self._value(self))

    def get_lr(self) -> float:
        return self.last_lr

    def state_keys(self) -> None:
        self.keys = ["step_num", "last_lr"]

    def __repr__(self) -> str:
        return f"{self._name}(step_num={self.step_num}, lr={self.last_lr})"


def _div(d: DygraphDecay18, decay_steps: float, staircase: bool) -> float:
    r = d.step_num / decay_steps
    return math.floor(r) if staircase else r


def _dygraph(api: str, value: Callable[[DygraphDecay18], float], begin: int = 0) -> DygraphDecay18 | None:
    """In dygraph mode: the 1.8 decay object for `api`; in static mode None (the caller records its ops)."""
    return None if MODE.static else DygraphDecay18(api, value, begin)


def _f32(v):
    return P("paddle.fluid.layers.fill_constant")([1], "float32", float(v))


def _lr_times(learning_rate, factor):
    if isinstance(learning_rate, (int, float)):
        return P("paddle.scale")(factor, scale=float(learning_rate))
    return P("paddle.multiply")(factor, learning_rate)


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    d = _dygraph("ExponentialDecay", lambda d: learning_rate * decay_rate ** _div(d, decay_steps, staircase))
    if d is not None:
        return d
    div = P("paddle.scale")(_step(), scale=1.0 / decay_steps)
    if staircase:
        div = P("paddle.floor")(div)
    return _lr_times(learning_rate, P("paddle.pow")(_f32(decay_rate), div))


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    d = _dygraph("NaturalExpDecay",
                 lambda d: learning_rate * math.exp(-decay_rate * _div(d, decay_steps, staircase)))
    if d is not None:
        return d
    div = P("paddle.scale")(_step(), scale=1.0 / decay_steps)
    if staircase:
        div = P("paddle.floor")(div)
    return _lr_times(learning_rate, P("paddle.exp")(P("paddle.scale")(div, scale=-float(decay_rate))))


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    d = _dygraph("InverseTimeDecay",
                 lambda d: learning_rate / (1 + decay_rate * _div(d, decay_steps, staircase)))
    if d is not None:
        return d
    div = P("paddle.scale")(_step(), scale=1.0 / decay_steps)
    if staircase:
        div = P("paddle.floor")(div)
    return _lr_times(learning_rate, P("paddle.reciprocal")(P("paddle.scale")(div, scale=float(decay_rate), bias=1.0)))


def _polynomial18(learning_rate, decay_steps, end_learning_rate, power, cycle):
    def value(d):
        step, steps = d.step_num, decay_steps
        if cycle:
            steps = decay_steps * (max(math.ceil(step / decay_steps), 1))
        else:
            step = min(step, decay_steps)
        return (learning_rate - end_learning_rate) * (1 - step / steps) ** power + end_learning_rate
    return value


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
    d = _dygraph("PolynomialDecay", _polynomial18(learning_rate, decay_steps, end_learning_rate, power, cycle))
    if d is not None:
        return d
    step = _step()
    if cycle:
        div = P("paddle.ceil")(P("paddle.scale")(step, scale=1.0 / decay_steps))
        div = P("paddle.maximum")(div, _f32(1.0))  # step 0: one full cycle
        steps = P("paddle.scale")(div, scale=float(decay_steps))
    else:
        steps = _f32(decay_steps)
        step = P("paddle.minimum")(step, steps)
    frac = P("paddle.scale")(P("paddle.divide")(step, steps), scale=-1.0, bias=1.0)
    return P("paddle.scale")(P("paddle.pow")(frac, float(power)), scale=float(learning_rate - end_learning_rate),
                             bias=float(end_learning_rate))


def piecewise_decay(boundaries, values):
    if len(values) - len(boundaries) != 1:
        raise ValueError("fluid.layers.piecewise_decay: len(values) - len(boundaries) should be 1")
    d = _dygraph("PiecewiseDecay",
                 lambda d: next((v for b, v in zip(boundaries, values) if d.step_num < b), values[-1]))
    if d is not None:
        return d
    step = _step()
    from paddle_compat.static.param import create_global_var

    lr = create_global_var([1], 0.0, "float32", persistable=True, name="learning_rate")
    with Switch() as switch:
        for b, v in zip(boundaries, values):
            with switch.case(P("paddle.less_than")(step, _f32(b))):
                P("paddle.assign")(_f32(v), output=lr)
        with switch.default():
            P("paddle.assign")(_f32(values[-1]), output=lr)
    return lr


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    d = _dygraph("NoamDecay", lambda d: learning_rate * d_model ** -0.5 * min(
        d.step_num ** -0.5, warmup_steps ** -1.5 * d.step_num), begin=1)
    if d is not None:
        return d
    step = _step(begin=1)
    a = P("paddle.pow")(step, -0.5)
    b = P("paddle.scale")(step, scale=float(warmup_steps) ** -1.5)
    return P("paddle.scale")(P("paddle.minimum")(a, b), scale=float(learning_rate) * float(d_model) ** -0.5)


def cosine_decay(learning_rate, step_each_epoch, epochs):
    d = _dygraph("CosineDecay", lambda d: learning_rate * 0.5 * (
        math.cos(math.floor(d.step_num / step_each_epoch) * math.pi / epochs) + 1))
    if d is not None:
        return d
    epoch = P("paddle.floor")(P("paddle.scale")(_step(), scale=1.0 / step_each_epoch))
    c = P("paddle.cos")(P("paddle.scale")(epoch, scale=math.pi / epochs))
    return P("paddle.scale")(c, scale=0.5 * learning_rate, bias=0.5 * learning_rate)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    """start_lr -> end_lr linearly over warmup_steps, then learning_rate (a float or a decay variable)."""
    if not MODE.static:
        return _linear_lr_warmup18(learning_rate, warmup_steps, start_lr, end_lr)
    from paddle_compat.static.param import create_global_var

    step = _step()
    lr = create_global_var([1], 0.0, "float32", persistable=True, name="learning_rate_warmup")
    lr_var = _f32(learning_rate) if isinstance(learning_rate, (int, float)) else learning_rate
    with Switch() as switch:
        with switch.case(P("paddle.less_than")(step, _f32(warmup_steps))):
            warm = P("paddle.scale")(step, scale=(end_lr - start_lr) / float(warmup_steps), bias=float(start_lr))
            P("paddle.assign")(warm, output=lr)
        with switch.default():
            P("paddle.assign")(lr_var, output=lr)
    return lr


def _linear_lr_warmup18(learning_rate, warmup_steps, start_lr, end_lr):
    """Paddle 1.8's dygraph LinearLrWarmup (begin=1): ratio * step_num while warming up (its kernel leaves out
    start_lr), then the base rate; a decay base advances on every update, warm-up ones included."""
    if not isinstance(learning_rate, (int, float, DygraphDecay18)):
        raise TypeError("the type of learning_rate should be [int, float or LearningRateDecay], the current type is "
                        f"{learning_rate}")
    if not end_lr > start_lr:
        raise ValueError(f"end_lr {end_lr} must be greater than start_lr {start_lr}")
    ratio = (float(end_lr) - float(start_lr)) / float(warmup_steps)

    def value(d):
        base = learning_rate._call18() if isinstance(learning_rate, DygraphDecay18) else learning_rate
        return ratio * d.step_num if d.step_num < warmup_steps else base

    base0 = learning_rate.last_lr if isinstance(learning_rate, DygraphDecay18) else learning_rate
    return DygraphDecay18("LinearLrWarmup", value, begin=1, first=ratio if 1 < warmup_steps else base0)


for _fn in (autoincreased_step_counter, exponential_decay, natural_exp_decay, inverse_time_decay, polynomial_decay,
            piecewise_decay, noam_decay, cosine_decay, linear_lr_warmup):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
