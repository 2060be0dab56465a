"""Learning-rate schedulers (paddle.optimizer.lr). The base class holds Paddle's step protocol: the
optimizer reads `scheduler()` (dygraph) or the Executor copies it into the lr variable before each run
(static); the user calls `step()`."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.framework.registry import export


class LRScheduler:
    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int)):
            raise TypeError(f"The type of learning rate must be float, but received {type(learning_rate)}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name: str | None = None
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        if epoch is None:
            self.last_epoch += 1
        else:
            self.last_epoch = int(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def get_lr(self) -> float:
        raise NotImplementedError

    def state_keys(self) -> None:
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict[str, Any]:
        self.state_keys()
        return {k: getattr(self, k) for k in self.keys}

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.state_keys()
        for k in self.keys:
            if k in state_dict:
                setattr(self, k, state_dict[k])

    set_dict = set_state_dict


export(LRScheduler, "paddle.optimizer.lr.LRScheduler")


# --- the schedulers (Paddle 2.x formulas; `last_epoch` counts step() calls) ---------------------------------
import math  # noqa: E402


class NoamDecay(LRScheduler):
    def __init__(self, d_model: float, warmup_steps: int, learning_rate: float = 1.0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        a = 1 if self.last_epoch == 0 else self.last_epoch ** -0.5
        b = self.warmup_steps ** -1.5 * self.last_epoch
        return self.base_lr * (self.d_model ** -0.5) * min(a, b)


class PiecewiseDecay(LRScheduler):
    def __init__(self, boundaries: list, values: list, last_epoch: int = -1, verbose: bool = False) -> None:
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseDecay: len(values) ({len(values)}) must be len(boundaries) + 1 "
                             f"({len(boundaries) + 1})")
        self.boundaries, self.values = list(boundaries), list(values)
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for i, b in enumerate(self.boundaries):
            if self.last_epoch < b:
                return self.values[i]
        return self.values[-1]


class NaturalExpDecay(LRScheduler):
    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    def __init__(self, learning_rate: float, decay_steps: int, end_lr: float = 0.0001, power: float = 1.0,
                 cycle: bool = False, last_epoch: int = -1, verbose: bool = False) -> None:
        if decay_steps <= 0:
            raise ValueError("PolynomialDecay: decay_steps must be > 0")
        self.decay_steps, self.end_lr, self.power, self.cycle = decay_steps, end_lr, power, cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            div = math.ceil(float(epoch) / float(steps)) or 1
            steps = steps * div
        else:
            epoch = min(epoch, steps)
        return (self.base_lr - self.end_lr) * ((1 - float(epoch) / float(steps)) ** self.power) + self.end_lr


class LinearWarmup(LRScheduler):
    def __init__(self, learning_rate: Any, warmup_steps: int, start_lr: float, end_lr: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int, LRScheduler)):
            raise TypeError(f"LinearWarmup: learning_rate should be a float or an LRScheduler, got "
                            f"{type(learning_rate).__name__}")
        self.learning_rate = learning_rate
        if not (isinstance(warmup_steps, int) and warmup_steps > 0):  # Paddle 2.4's assertion
            raise AssertionError(f"paddle.optimizer.lr.LinearWarmup: 'warmup_steps' must be a positive integer, but "
                                 f"received {warmup_steps!r}")
        self.warmup_steps, self.start_lr, self.end_lr = warmup_steps, start_lr, end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict[str, Any]:
        d = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            d["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return d

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler) and "LinearWarmup_LR" in state_dict:
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return float(self.learning_rate)


class ExponentialDecay(LRScheduler):
    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** self.last_epoch)


class MultiStepDecay(LRScheduler):
    def __init__(self, learning_rate: float, milestones: list, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not all(a < b for a, b in zip(milestones, milestones[1:])):
            raise ValueError("MultiStepDecay: the elements of milestones must be incremented")
        if gamma >= 1.0:
            raise ValueError("MultiStepDecay: gamma should be < 1.0.")
        self.milestones, self.gamma = list(milestones), gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        for i, m in enumerate(self.milestones):
            if self.last_epoch < m:
                return self.base_lr * (self.gamma ** i)
        return self.base_lr * (self.gamma ** len(self.milestones))


class StepDecay(LRScheduler):
    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(step_size, int):
            raise TypeError(f"StepDecay: the type of 'step_size' must be 'int', but received {type(step_size)}")
        if gamma >= 1.0:
            raise ValueError("StepDecay: gamma should be < 1.0.")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class LambdaDecay(LRScheduler):
    def __init__(self, learning_rate: float, lr_lambda: Any, last_epoch: int = -1, verbose: bool = False) -> None:
        if not callable(lr_lambda):
            raise TypeError(f"LambdaDecay: lr_lambda should be a function, but received {type(lr_lambda)}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    def __init__(self, learning_rate: float, lr_lambda: Any, last_epoch: int = -1, verbose: bool = False) -> None:
        if not callable(lr_lambda):
            raise TypeError(f"MultiplicativeDecay: lr_lambda should be a function, but received {type(lr_lambda)}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        """base_lr * lr_lambda(1) * ... * lr_lambda(last_epoch), recomputed as Paddle does: get_lr() is pure (the
        PaddleTest idiom calls it after step()) and step(epoch) may jump."""
        lr = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            lr *= self.lr_lambda(epoch)
        return lr


class CosineAnnealingDecay(LRScheduler):
    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0, last_epoch: int = -1,  # noqa: N803
                 verbose: bool = False) -> None:
        if not isinstance(T_max, int) or T_max <= 0:
            raise ValueError(f"CosineAnnealingDecay: T_max must be a positive int, got {T_max!r}")
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e, T = self.last_epoch, self.T_max
        if e == 0:
            return self.base_lr
        if (e - 1 - T) % (2 * T) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / T)) / 2
        return ((1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T))
                * (self.last_lr - self.eta_min) + self.eta_min)

    def _get_closed_form_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2

    def step(self, epoch: int | None = None) -> None:
        if epoch is None:
            super().step()
            return
        self.last_epoch = int(epoch)
        self.last_lr = self._get_closed_form_lr()


class OneCycleLR(LRScheduler):
    def __init__(self, max_learning_rate: float, total_steps: int, divide_factor: float = 25.0,
                 end_learning_rate: float = 0.0001, phase_pct: float = 0.3, anneal_strategy: str = "cos",
                 three_phase: bool = False, last_epoch: int = -1, verbose: bool = False) -> None:
        if total_steps <= 0:
            raise ValueError("OneCycleLR: total_steps should be greater than 0")
        if not 0 <= phase_pct <= 1:
            raise ValueError("OneCycleLR: phase_pct should be between 0 and 1")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"OneCycleLR: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}")
        self.total_steps = total_steps
        initial = max_learning_rate / float(divide_factor)
        if three_phase:
            self._steps = [0, float(phase_pct * total_steps) - 1, float(2 * phase_pct * total_steps) - 2,
                           total_steps - 1]
            self._lrs = [initial, max_learning_rate, initial, end_learning_rate]
        else:
            self._steps = [0, float(phase_pct * total_steps) - 1, total_steps - 1]
            self._lrs = [initial, max_learning_rate, end_learning_rate]
        self._cos = anneal_strategy == "cos"
        super().__init__(initial, last_epoch, verbose)

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._cos:
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> float:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: tried to step {step} times, but total_steps is {self.total_steps}")
        for i in range(len(self._steps) - 1):
            start, end = self._steps[i], self._steps[i + 1]
            if step <= end or i == len(self._steps) - 2:
                pct = (step - start) / (end - start) if end != start else 1.0
                return self._anneal(self._lrs[i], self._lrs[i + 1], pct)
        return self._lrs[-1]


class CyclicLR(LRScheduler):
    def __init__(self, base_learning_rate: float, max_learning_rate: float, step_size_up: int,
                 step_size_down: int | None = None, mode: str = "triangular", exp_gamma: float = 1.0,
                 scale_fn: Any = None, scale_mode: str = "cycle", last_epoch: int = -1, verbose: bool = False) -> None:
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("CyclicLR: mode should be 'triangular', 'triangular2' or 'exp_range'")
        down = step_size_up if step_size_down is None else step_size_down
        self.max_lr, self.cycle_size = max_learning_rate, step_size_up + down
        self.step_up_pct = step_size_up / self.cycle_size
        if scale_fn is None:
            self.scale_fn = {"triangular": lambda x: 1.0, "triangular2": lambda x: 1 / (2.0 ** (x - 1)),
                             "exp_range": lambda x: exp_gamma ** x}[mode]
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        else:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        it = self.last_epoch
        cycle = 1 + it // self.cycle_size
        pct = 1.0 + it / self.cycle_size - cycle
        scale = pct / self.step_up_pct if pct <= self.step_up_pct else (1 - pct) / (1 - self.step_up_pct)
        height = (self.max_lr - self.base_lr) * scale
        return self.base_lr + height * self.scale_fn(cycle if self.scale_mode == "cycle" else it)


class ReduceOnPlateau(LRScheduler):
    def __init__(self, learning_rate: float, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: float = 0,
                 epsilon: float = 1e-8, verbose: bool = False) -> None:
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceOnPlateau: mode {mode!r} is unknown!")
        if factor >= 1.0:
            raise ValueError("ReduceOnPlateau: new_lr = origin_lr * gamma and gamma should be < 1.0.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"ReduceOnPlateau: threshold mode {threshold_mode!r} is unknown!")
        if not isinstance(learning_rate, (float, int)):
            raise TypeError(f"The type of learning rate must be float, but received {type(learning_rate)}")
        self.mode, self.factor, self.patience, self.threshold = mode, factor, patience, threshold
        self.threshold_mode, self.cooldown, self.min_lr, self.epsilon = threshold_mode, cooldown, min_lr, epsilon
        self.cooldown_counter, self.best, self.num_bad_epochs = 0, None, 0
        self.last_epoch, self.base_lr, self.last_lr = 0, float(learning_rate), float(learning_rate)
        self.verbose = verbose
        self._var_name = None

    def state_keys(self) -> None:
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        self.last_epoch = self.last_epoch + 1 if epoch is None else int(epoch)
        if hasattr(metrics, "numpy"):
            import numpy as np

            arr = np.asarray(metrics.numpy())
            if arr.size != 1:
                raise ValueError(f"ReduceOnPlateau.step: metrics should be a 1-element Tensor, got shape {arr.shape}")
            current = float(arr.reshape(()))
        elif isinstance(metrics, (int, float)) or type(metrics).__module__ == "numpy":
            current = float(metrics)
        else:
            raise TypeError(f"ReduceOnPlateau.step: metrics must be a number or a 1-element Tensor, got {type(metrics)}")
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
        else:
            if self.best is None or self._is_better(current, self.best):
                self.best, self.num_bad_epochs = current, 0
            else:
                self.num_bad_epochs += 1
            if self.num_bad_epochs > self.patience:
                self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
                new_lr = max(self.last_lr * self.factor, self.min_lr)
                if self.last_lr - new_lr > self.epsilon:
                    self.last_lr = new_lr
                    if self.verbose:
                        print(f"Epoch {self.last_epoch}: ReduceOnPlateau set learning rate to {self.last_lr}.")

    def _is_better(self, current: float, best: float) -> bool:
        if self.mode == "min":
            return current < (best - best * self.threshold if self.threshold_mode == "rel" else best - self.threshold)
        return current > (best + best * self.threshold if self.threshold_mode == "rel" else best + self.threshold)


for _cls in (NoamDecay, PiecewiseDecay, NaturalExpDecay, InverseTimeDecay, PolynomialDecay, LinearWarmup,
             ExponentialDecay, MultiStepDecay, StepDecay, LambdaDecay, MultiplicativeDecay, CosineAnnealingDecay,
             OneCycleLR, CyclicLR, ReduceOnPlateau):
    export(_cls, f"paddle.optimizer.lr.{_cls.__name__}")
