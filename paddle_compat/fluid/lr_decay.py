"""fluid.layers learning-rate decay (1.8). Static mode: the lr is a variable computed each run from a global step
counter (`autoincreased_step_counter`, a persistable int64 incremented at the start of every run), so
`optimizer(learning_rate=fluid.layers.exponential_decay(...))` decays as in Paddle. Dygraph mode: a
fluid.dygraph decay object (fluid/dygraph_lr.py), advanced by every optimizer update, as Paddle 1.8 returns."""

from __future__ import annotations

import math
from typing import Any

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.fluid import dygraph_lr as D
from paddle_compat.engine.ops.control_flow import P, Switch
from paddle_compat.engine.framework.registry import export

LR_COUNTER = "@LR_DECAY_COUNTER@"


def autoincreased_step_counter(counter_name=None, begin=1, step=1):
    """A persistable int64 [1] counter: `begin` on the first run, + `step` per run (shared by name)."""
    from paddle_compat.engine.framework.program import default_main_program
    from paddle_compat.engine.static.param import create_global_var

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


def _dygraph(cls: type, *args: Any, **kwargs: Any) -> Any:
    """In dygraph mode: Paddle 1.8's fluid.dygraph decay object; in static mode None (the caller records its ops)."""
    return None if MODE.static else cls(*args, **kwargs)


def _f32(v):
    return P("paddle.fluid.layers.fill_constant")([1], "float32", float(v))


def _lr_times(learning_rate, factor):
    if isinstance(learning_rate, (int, float)):
        return P("paddle.scale")(factor, scale=float(learning_rate))
    return P("paddle.multiply")(factor, learning_rate)


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    d = _dygraph(D.ExponentialDecay, learning_rate, decay_steps, decay_rate, staircase)
    if d is not None:
        return d
    div = P("paddle.scale")(_step(), scale=1.0 / decay_steps)
    if staircase:
        div = P("paddle.floor")(div)
    return _lr_times(learning_rate, P("paddle.pow")(_f32(decay_rate), div))


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    d = _dygraph(D.NaturalExpDecay, learning_rate, decay_steps, decay_rate, staircase)
    if d is not None:
        return d
    div = P("paddle.scale")(_step(), scale=1.0 / decay_steps)
    if staircase:
        div = P("paddle.floor")(div)
    return _lr_times(learning_rate, P("paddle.exp")(P("paddle.scale")(div, scale=-float(decay_rate))))


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    d = _dygraph(D.InverseTimeDecay, learning_rate, decay_steps, decay_rate, staircase)
    if d is not None:
        return d
    div = P("paddle.scale")(_step(), scale=1.0 / decay_steps)
    if staircase:
        div = P("paddle.floor")(div)
    return _lr_times(learning_rate, P("paddle.reciprocal")(P("paddle.scale")(div, scale=float(decay_rate), bias=1.0)))


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
    d = _dygraph(D.PolynomialDecay, learning_rate, decay_steps, end_learning_rate, power, cycle)
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
    d = _dygraph(D.PiecewiseDecay, boundaries, values, 0)
    if d is not None:
        return d
    step = _step()
    from paddle_compat.engine.static.param import create_global_var

    lr = create_global_var([1], 0.0, "float32", persistable=True, name="learning_rate")
    with Switch() as switch:
        for b, v in zip(boundaries, values):
            with switch.case(P("paddle.less_than")(step, _f32(b))):
                P("paddle.assign")(_f32(v), output=lr)
        with switch.default():
            P("paddle.assign")(_f32(values[-1]), output=lr)
    return lr


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    d = _dygraph(D.NoamDecay, d_model, warmup_steps, learning_rate=learning_rate)
    if d is not None:
        return d
    step = _step(begin=1)
    a = P("paddle.pow")(step, -0.5)
    b = P("paddle.scale")(step, scale=float(warmup_steps) ** -1.5)
    return P("paddle.scale")(P("paddle.minimum")(a, b), scale=float(learning_rate) * float(d_model) ** -0.5)


def cosine_decay(learning_rate, step_each_epoch, epochs):
    d = _dygraph(D.CosineDecay, learning_rate, step_each_epoch, epochs)
    if d is not None:
        return d
    epoch = P("paddle.floor")(P("paddle.scale")(_step(), scale=1.0 / step_each_epoch))
    c = P("paddle.cos")(P("paddle.scale")(epoch, scale=math.pi / epochs))
    return P("paddle.scale")(c, scale=0.5 * learning_rate, bias=0.5 * learning_rate)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    """start_lr -> end_lr linearly over warmup_steps, then learning_rate (a float or a decay variable)."""
    if not MODE.static:
        return _dygraph(D.LinearLrWarmup, learning_rate, warmup_steps, start_lr, end_lr)
    from paddle_compat.engine.static.param import create_global_var

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


for _fn in (autoincreased_step_counter, exponential_decay, natural_exp_decay, inverse_time_decay, polynomial_decay,
            piecewise_decay, noam_decay, cosine_decay, linear_lr_warmup):
    export(_fn, f"paddle.fluid.layers.{_fn.__name__}")
export(autoincreased_step_counter, "paddle.optimizer.lr.autoincreased_step_counter")  # 2.x moved it there
# Private in Paddle, imported by published model code (PaddleCV/image_classification/utils/optimizer.py).
export(_step, "paddle.fluid.layers.learning_rate_scheduler._decay_step_counter")
