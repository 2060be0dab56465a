"""Learning-rate schedulers (paddle.optimizer.lr). The base class holds Paddle's step protocol: the
optimizer reads `scheduler()` (dygraph) or the Executor copies it into the lr variable before each run
(static); the user calls `step()`."""

from __future__ import annotations

from typing import Any

from paddle_compat.ops.registry import export


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
