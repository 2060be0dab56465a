"""fluid.dygraph learning-rate decays (Paddle 1.8, paddle/fluid/dygraph/learning_rate_scheduler.py), which the
fluid.layers decay functions also return in dygraph mode.

Step decays (`LearningRateDecay` and its subclasses) advance by themselves: each optimizer update takes the
rate at `step_num` (`step()`) and then moves `step_num` on by `step_size`, as Paddle's `__call__` does; a user
subclass only writes `step()`. Epoch decays (`StepDecay`, `MultiStepDecay`, `LambdaDecay`) change when the
script calls `epoch()`. Both are paddle.optimizer.lr schedulers to our optimizers (`d()` is the current rate).
Rates are computed in Python floats (Paddle: float32 variables), so they agree to float32 rounding.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from paddle_compat.engine.framework.registry import export
from paddle_compat.paddle2.optimizer.lr import LRScheduler
from paddle_compat.paddle2.optimizer.lr import ReduceOnPlateau as _ReduceOnPlateau


def _num(v: Any) -> float:
    return float(v.numpy().reshape(-1)[0]) if hasattr(v, "numpy") else float(v)


class LearningRateDecay(LRScheduler):
    def __init__(self, begin: int = 0, step: int = 1, dtype: str = "float32") -> None:
        self.step_num, self.step_size, self.dtype = begin, step, dtype
        self.last_epoch, self.verbose, self._var_name = begin, False, None
        self._last: float | None = None

    def step(self) -> Any:  # noqa: D401 - Paddle's protocol: the rate at step_num
        raise NotImplementedError("fluid.dygraph.LearningRateDecay: subclasses must implement step()")

    def create_lr_var(self, lr: float) -> Any:
        from paddle_compat.engine.framework.tensor import to_tensor

        return to_tensor([float(lr)], dtype=self.dtype)

    def _call18(self) -> float:
        """Paddle 1.8's __call__: the rate at step_num, then advance."""
        lr = _num(self.step())
        self.step_num += self.step_size
        return lr

    def _advance_per_update(self) -> None:
        self._last = self._call18()

    def __call__(self) -> float:
        return self._last if self._last is not None else _num(self.step())

    @property
    def last_lr(self) -> float:
        return self()

    @last_lr.setter
    def last_lr(self, value: float) -> None:
        self._last = float(value)

    def get_lr(self) -> float:
        return self()

    def state_keys(self) -> None:
        self.keys = ["step_num"]  # 1.8.5's LearningRateDecay._state_keys (the optimizer adds global_step)


def _div(step_num: int, decay_steps: float, staircase: bool) -> float:
    r = step_num / decay_steps
    return math.floor(r) if staircase else r


class _Formula(LearningRateDecay):
    """A decay given by a formula of step_num (the keyword arguments are the formula's parameters)."""

    formula: Callable[..., float]

    def __init__(self, begin: int, step: int, dtype: str, **params: Any) -> None:
        super().__init__(begin, step, dtype)
        self.__dict__.update(params)
        self._params = params

    def step(self) -> float:
        return type(self).formula(self.step_num, **self._params)


class _StepRateDecay(_Formula):
    """Exponential, natural-exp and inverse-time decay share 1.8's arguments."""

    def __init__(self, learning_rate, decay_steps, decay_rate, staircase=False, begin=0, step=1, dtype="float32"):
        super().__init__(begin, step, dtype, learning_rate=learning_rate, decay_steps=decay_steps,
                         decay_rate=decay_rate, staircase=staircase)


class ExponentialDecay(_StepRateDecay):
    @staticmethod
    def formula(n, learning_rate, decay_steps, decay_rate, staircase):
        return learning_rate * decay_rate ** _div(n, decay_steps, staircase)


class NaturalExpDecay(_StepRateDecay):
    @staticmethod
    def formula(n, learning_rate, decay_steps, decay_rate, staircase):
        return learning_rate * math.exp(-decay_rate * _div(n, decay_steps, staircase))


class InverseTimeDecay(_StepRateDecay):
    @staticmethod
    def formula(n, learning_rate, decay_steps, decay_rate, staircase):
        return learning_rate / (1 + decay_rate * _div(n, decay_steps, staircase))


class PolynomialDecay(_Formula):
    def __init__(self, learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False, begin=0, step=1,
                 dtype="float32"):
        super().__init__(begin, step, dtype, learning_rate=learning_rate, decay_steps=decay_steps,
                         end_learning_rate=end_learning_rate, power=power, cycle=cycle)

    @staticmethod
    def formula(n, learning_rate, decay_steps, end_learning_rate, power, cycle):
        steps = decay_steps * max(math.ceil(n / decay_steps), 1) if cycle else decay_steps
        n = n if cycle else min(n, decay_steps)
        return (learning_rate - end_learning_rate) * (1 - n / steps) ** power + end_learning_rate


class PiecewiseDecay(_Formula):
    def __init__(self, boundaries, values, begin, step=1, dtype="float32"):
        super().__init__(begin, step, dtype, boundaries=list(boundaries), values=list(values))

    @staticmethod
    def formula(n, boundaries, values):
        return next((v for b, v in zip(boundaries, values) if n < b), values[len(values) - 1])


class NoamDecay(_Formula):
    def __init__(self, d_model, warmup_steps, begin=1, step=1, dtype="float32", learning_rate=1.0):
        super().__init__(begin, step, dtype, d_model=d_model, warmup_steps=warmup_steps, learning_rate=learning_rate)

    @staticmethod
    def formula(n, d_model, warmup_steps, learning_rate):
        return learning_rate * d_model ** -0.5 * min(n ** -0.5, warmup_steps ** -1.5 * n)


class CosineDecay(_Formula):
    def __init__(self, learning_rate, step_each_epoch, epochs, begin=0, step=1, dtype="float32"):
        super().__init__(begin, step, dtype, learning_rate=learning_rate, step_each_epoch=step_each_epoch,
                         epochs=epochs)

    @staticmethod
    def formula(n, learning_rate, step_each_epoch, epochs):
        return learning_rate * 0.5 * (math.cos(math.floor(n / step_each_epoch) * math.pi / epochs) + 1)


class LinearLrWarmup(LearningRateDecay):
    """ratio * step_num while warming up (Paddle 1.8's kernel leaves start_lr out), then the base rate; a decay
    base is called - and so advances - on every step, warm-up ones included, as in Paddle."""

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, begin=1, step=1, dtype="float32"):
        super().__init__(begin, step, dtype)
        if not isinstance(learning_rate, (int, float, LearningRateDecay)):
            raise TypeError("the type of learning_rate should be [int, float or LearningRateDecay], the current "
                            f"type is {learning_rate}")
        if not end_lr > start_lr:
            raise ValueError(f"end_lr {end_lr} must be greater than start_lr {start_lr}")
        self.learning_rate, self.warmup_steps, self.start_lr, self.end_lr = learning_rate, warmup_steps, start_lr, end_lr
        self.lr_ratio_before_warmup = (float(end_lr) - float(start_lr)) / float(warmup_steps)

    def step(self) -> float:
        base = self.learning_rate._call18() if isinstance(self.learning_rate, LearningRateDecay) else self.learning_rate
        return self.lr_ratio_before_warmup * self.step_num if self.step_num < self.warmup_steps else base

    def __call__(self) -> float:  # before any update: the first rate, without advancing a decay base
        if self._last is not None:
            return self._last
        if self.step_num < self.warmup_steps:
            return self.lr_ratio_before_warmup * self.step_num
        return self.learning_rate() if isinstance(self.learning_rate, LearningRateDecay) else self.learning_rate


class _EpochDecay(LRScheduler):
    """Paddle 1.8's _LearningRateEpochDecay: the rate changes when the script calls epoch()."""

    def __init__(self, learning_rate: float, dtype: str = "float32") -> None:
        if not isinstance(learning_rate, (int, float)):
            raise TypeError(f"The type of 'learning_rate' must be 'float, int', but received {type(learning_rate)}.")
        if learning_rate < 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}")
        self.base_lr, self.dtype, self.epoch_num = float(learning_rate), dtype, -1
        self.verbose, self._var_name = False, None
        self.epoch()

    def epoch(self, epoch: int | None = None) -> None:
        self.epoch_num = self.epoch_num + 1 if epoch is None else int(epoch)
        self.last_epoch = self.epoch_num
        self.last_lr = float(self.get_lr())

    def step(self, epoch: Any = None) -> None:
        self.epoch(epoch)

    @property
    def learning_rate(self) -> float:  # 1.8.5's attribute for the current rate (a key of its state dict)
        return self.last_lr

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        self.last_lr = float(_num(value) if hasattr(value, "numpy") else value)

    def state_keys(self) -> None:
        self.keys = ["epoch_num", "learning_rate"]  # 1.8.5's _LearningRateEpochDecay._state_keys


class StepDecay(_EpochDecay):
    def __init__(self, learning_rate, step_size, decay_rate=0.1):
        if not isinstance(step_size, int) or decay_rate >= 1.0:
            raise ValueError("StepDecay: step_size must be an int and decay_rate < 1.0")
        self.step_size, self.decay_rate = step_size, decay_rate
        super().__init__(learning_rate)

    def get_lr(self) -> float:
        return self.base_lr * self.decay_rate ** (self.epoch_num // self.step_size)


class MultiStepDecay(_EpochDecay):
    def __init__(self, learning_rate, milestones, decay_rate=0.1):
        if not all(a < b for a, b in zip(milestones, milestones[1:])) or decay_rate >= 1.0:
            raise ValueError("MultiStepDecay: milestones must be increasing and decay_rate < 1.0")
        self.milestones, self.decay_rate = list(milestones), decay_rate
        super().__init__(learning_rate)

    def get_lr(self) -> float:
        passed = next((i for i, m in enumerate(self.milestones) if self.epoch_num < m), len(self.milestones))
        return self.base_lr * self.decay_rate ** passed


class LambdaDecay(_EpochDecay):
    def __init__(self, learning_rate, lr_lambda):
        if not callable(lr_lambda):
            raise TypeError(f"The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but received "
                            f"{type(lr_lambda)}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.epoch_num)


class ReduceLROnPlateau(_ReduceOnPlateau):
    """fluid.dygraph.ReduceLROnPlateau (1.8 argument names: decay_rate, eps); the script calls step(loss)."""

    def __init__(self, learning_rate, mode="min", decay_rate=0.1, patience=10, verbose=False, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8, dtype="float32"):
        super().__init__(learning_rate, mode=mode, factor=decay_rate, patience=patience, threshold=threshold,
                         threshold_mode=threshold_mode, cooldown=cooldown, min_lr=min_lr, epsilon=eps,
                         verbose=verbose)


class BackwardStrategy:
    """fluid.dygraph.BackwardStrategy (1.7/1.8): `sort_sum_gradient` only fixes the order in which Paddle summed
    gradients of a variable used several times; torch's autograd gives the same sums."""

    def __init__(self) -> None:
        self.sort_sum_gradient = False


for _cls in (LearningRateDecay, ExponentialDecay, NaturalExpDecay, InverseTimeDecay, PolynomialDecay, PiecewiseDecay,
             NoamDecay, CosineDecay, LinearLrWarmup, StepDecay, MultiStepDecay, LambdaDecay, ReduceLROnPlateau,
             BackwardStrategy):
    export(_cls, f"paddle.fluid.dygraph.{_cls.__name__}")
# Not in that module's __all__, but model code subclasses it from there (dygraph/transformer, PaddleNLP).
export(LearningRateDecay, "paddle.fluid.dygraph.learning_rate_scheduler.LearningRateDecay")
