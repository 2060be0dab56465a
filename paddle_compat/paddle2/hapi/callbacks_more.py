"""paddle.callbacks ReduceLROnPlateau, VisualDL and WandbCallback (Paddle's hapi callbacks). VisualDL and
WandbCallback log through their packages; without the package installed they raise Paddle's ImportError
(try_import) naming what to pip install."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from paddle_compat.paddle2.hapi.callbacks import Callback
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.core.optional import try_import


def _local_rank() -> int:
    from paddle_compat.paddle2.distributed.env import ParallelEnv

    return ParallelEnv().local_rank


class ReduceLROnPlateau(Callback):
    """Multiply the optimizer's (float) learning rate by `factor` when the monitored eval value has not improved
    by min_delta for `patience` evaluations (then wait `cooldown` evaluations), never below min_lr."""

    def __init__(self, monitor: str = "loss", factor: float = 0.1, patience: int = 10, verbose: int = 1,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("paddle.callbacks.ReduceLROnPlateau: ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor, self.min_lr, self.min_delta = factor, min_lr, min_delta
        self.patience, self.verbose, self.cooldown = patience, verbose, cooldown
        self.cooldown_counter = self.wait = 0
        self.best: float = 0
        self.mode = mode
        self.monitor_op: Any = None
        self.epoch = 0
        self._reset()

    def _reset(self) -> None:
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to auto mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._reset()

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_eval_end(self, logs: dict | None = None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        try:
            lr = self.model._optimizer._learning_rate
            if not isinstance(lr, float):
                warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.")
                return
        except Exception as e:  # noqa: BLE001 - Paddle warns and carries on
            warnings.warn(f"There are something wrong when get learning_rate from optimizer: {e}.")
            return
        current = logs[self.monitor]
        if isinstance(current, (list, tuple)):
            current = current[0]
        elif not isinstance(current, numbers.Number):
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer._learning_rate = new_lr
                    if self.verbose > 0 and _local_rank() == 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


class _ScalarLogger(Callback):
    """What VisualDL and WandbCallback share: train metrics per step, eval metrics per epoch, on rank 0."""

    def _is_write(self) -> bool:
        return _local_rank() == 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        self.train_step += 1
        if self._is_write():
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs: dict | None = None) -> None:
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def _scalars(self, logs: dict, mode: str) -> dict:
        out = {}
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs:
                v = logs[k]
                if isinstance(v, (list, tuple)):
                    out[f"{mode}/{k}"] = v[0]
                elif isinstance(v, numbers.Number):
                    out[f"{mode}/{k}"] = v
        return out

    def _step_of(self, mode: str) -> int:
        return self.train_step if mode == "train" else self.epoch


class VisualDL(_ScalarLogger):
    """Write train / eval metrics to a VisualDL log directory (needs the visualdl package)."""

    def __init__(self, log_dir: str) -> None:
        super().__init__()
        self.log_dir = log_dir
        self.epochs = self.steps = None
        self.epoch = 0

    def _updates(self, logs: dict, mode: str) -> None:
        if not self._is_write():
            return
        if not hasattr(self, "writer"):
            self.writer = try_import("visualdl").LogWriter(self.log_dir)
        step = self._step_of(mode)
        for tag, value in self._scalars(logs, mode).items():
            self.writer.add_scalar(tag=tag, step=step, value=value)

    def on_train_end(self, logs: dict | None = None) -> None:
        if hasattr(self, "writer"):
            self.writer.close()
            delattr(self, "writer")

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self._is_write():
            self._updates(logs or {}, "eval")
            if not hasattr(self, "_is_fit") and hasattr(self, "writer"):
                self.writer.close()
                delattr(self, "writer")


class WandbCallback(_ScalarLogger):
    """Log train / eval metrics to Weights & Biases (needs the wandb package)."""

    def __init__(self, project: str | None = None, entity: str | None = None, name: str | None = None,
                 dir: str | None = None, mode: str | None = None, job_type: str | None = None,  # noqa: A002
                 **kwargs: Any) -> None:
        super().__init__()
        self.wandb = try_import("wandb", "You want to use `wandb` which is not installed yet install it with `pip "
                                         "install wandb`")
        self.wandb_args = {"project": project, "name": name, "entity": entity, "dir": dir, "mode": mode,
                           "job_type": job_type, **kwargs}
        self._run = None
        _ = self.run

    @property
    def run(self) -> Any:
        if self._is_write() and self._run is None:
            if self.wandb.run is not None:
                warnings.warn("There is a wandb run already in progress and newly created instances of "
                              "`WandbCallback` will reuse this run. If this is not desired , call `wandb.finish()` "
                              "before instantiating `WandbCallback`.")
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs: dict | None = None) -> None:
        super().on_train_begin(logs)
        if self._is_write():
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def _updates(self, logs: dict, mode: str) -> None:
        if not self._is_write():
            return
        metrics = {"train/step" if mode == "train" else "epoch": self._step_of(mode)}
        metrics.update(self._scalars(logs, mode))
        self.run.log(metrics)

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._is_write():
            self.run.finish()

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self._is_write():
            self._updates(logs or {}, "eval")
            if not hasattr(self, "_is_fit") and self._run is not None:
                self.run.finish()


for _cls in (ReduceLROnPlateau, VisualDL, WandbCallback):
    export(_cls, f"paddle.callbacks.{_cls.__name__}", f"paddle.hapi.callbacks.{_cls.__name__}")
