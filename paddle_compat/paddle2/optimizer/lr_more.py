"""paddle.optimizer.lr schedulers added in Paddle 2.5 / 2.6: LinearLR and CosineAnnealingWarmRestarts (Paddle's
recurrences, so a schedule stepped epoch by epoch matches Paddle's float by float)."""

from __future__ import annotations

import math

from paddle_compat.paddle2.optimizer.lr import LRScheduler
from paddle_compat.engine.framework.registry import export


class LinearLR(LRScheduler):
    """Learning rate * a factor going linearly from start_factor to end_factor over total_steps steps."""

    def __init__(self, learning_rate: float, total_steps: int, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        api = "paddle.optimizer.lr.LinearLR"
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(f"{api}: `start_factor` must be greater than 0 and less or equal to 1, but got "
                             f"{start_factor}")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError(f"{api}: `end_factor` must be greater than 0 and less than 1, but got {end_factor}")
        if total_steps <= 0:
            raise ValueError(f"{api}: `total_steps` must be greater than 0, but got {total_steps}")
        self.start_factor, self.end_factor, self.total_steps = start_factor, end_factor, total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        base = self.total_steps * self.start_factor
        span = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + span / (base + (self.last_epoch - 1) * span))


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the learning rate to eta_min over T_0 epochs, restarting with periods multiplied by
    T_mult (SGDR)."""

    def __init__(self, learning_rate: float, T_0: int, T_mult: int = 1, eta_min: float = 0,  # noqa: N803
                 last_epoch: int = -1, verbose: bool = False) -> None:
        api = "paddle.optimizer.lr.CosineAnnealingWarmRestarts"
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"{api}: Expected positive integer T_0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"{api}: Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = self.T_i = T_0
        self.T_mult, self.eta_min = T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch: float | None = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"paddle.optimizer.lr.CosineAnnealingWarmRestarts: Expected non-negative epoch, but "
                                 f"got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")


for _cls in (LinearLR, CosineAnnealingWarmRestarts):
    export(_cls, f"paddle.optimizer.lr.{_cls.__name__}")
