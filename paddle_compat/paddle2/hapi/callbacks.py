"""paddle.callbacks: Callback, ProgBarLogger, ModelCheckpoint, LRScheduler, EarlyStopping."""

from __future__ import annotations

import numbers
import os
import warnings
from typing import Any

import numpy as np

from paddle_compat.paddle2.hapi.progressbar import ProgressBar
from paddle_compat.engine.framework.registry import export


class Callback:
    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict = {}

    def set_params(self, params: dict) -> None:
        self.params = params

    def set_model(self, model: Any) -> None:
        self.model = model

    def on_train_begin(self, logs: Any = None) -> None: ...
    def on_train_end(self, logs: Any = None) -> None: ...
    def on_eval_begin(self, logs: Any = None) -> None: ...
    def on_eval_end(self, logs: Any = None) -> None: ...
    def on_predict_begin(self, logs: Any = None) -> None: ...
    def on_predict_end(self, logs: Any = None) -> None: ...
    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None: ...
    def on_epoch_end(self, epoch: int, logs: Any = None) -> None: ...
    def on_train_batch_begin(self, step: int, logs: Any = None) -> None: ...
    def on_train_batch_end(self, step: int, logs: Any = None) -> None: ...
    def on_eval_batch_begin(self, step: int, logs: Any = None) -> None: ...
    def on_eval_batch_end(self, step: int, logs: Any = None) -> None: ...
    def on_predict_batch_begin(self, step: int, logs: Any = None) -> None: ...
    def on_predict_batch_end(self, step: int, logs: Any = None) -> None: ...


class CallbackList:
    def __init__(self, callbacks: list) -> None:
        self.callbacks = list(callbacks)

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("on_"):
            raise AttributeError(name)

        def call(*a: Any) -> None:
            for c in self.callbacks:
                getattr(c, name)(*a)

        return call

    def set_model(self, model: Any) -> None:
        for c in self.callbacks:
            c.set_model(model)

    def set_params(self, params: dict) -> None:
        for c in self.callbacks:
            c.set_params(params)


class ProgBarLogger(Callback):
    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        super().__init__()
        self.epochs: Any = None
        self.steps: Any = None
        self.progbar: Any = None
        self.verbose, self.log_freq = verbose, log_freq

    def _is_print(self) -> bool:
        return bool(self.verbose)

    def on_train_begin(self, logs: Any = None) -> None:
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is the average value "
                  "of previous steps.")

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print("Epoch %d/%d" % (epoch + 1, self.epochs))
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)

    def _updates(self, logs: dict, mode: str) -> None:
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def on_train_batch_end(self, step: int, logs: Any = None) -> None:
        self.train_step += 1
        if self._is_print() and self.train_step % self.log_freq == 0:
            if self.steps is None or self.train_step < self.steps:
                self._updates(logs or {}, "train")

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs: Any = None) -> None:
        self.eval_steps = (logs or {}).get("steps", None)
        self.eval_metrics = (logs or {}).get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._is_print():
            print("Eval begin...")

    def on_eval_batch_end(self, step: int, logs: Any = None) -> None:
        logs = logs or {}
        self.eval_step += 1
        self.evaled_samples += logs.get("batch_size", 1)
        if self._is_print() and self.eval_step % self.log_freq == 0:
            if self.eval_steps is None or self.eval_step < self.eval_steps:
                self._updates(logs, "eval")

    def on_eval_end(self, logs: Any = None) -> None:
        if self._is_print():
            self._updates(logs or {}, "eval")
            print("Eval samples: %d" % self.evaled_samples)

    def on_predict_begin(self, logs: Any = None) -> None:
        self.test_steps = (logs or {}).get("steps", None)
        self.test_metrics = (logs or {}).get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._is_print():
            print("Predict begin...")

    def on_predict_batch_end(self, step: int, logs: Any = None) -> None:
        logs = logs or {}
        self.test_step += 1
        self.tested_samples += logs.get("batch_size", 1)
        if self._is_print() and self.test_step % self.log_freq == 0:
            if self.test_steps is None or self.test_step < self.test_steps:
                self._updates(logs, "test")

    def on_predict_end(self, logs: Any = None) -> None:
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:  # else the last batch_end printed it
                self._updates(logs or {}, "test")
            print("Predict samples: %d" % self.tested_samples)


class ModelCheckpoint(Callback):
    def __init__(self, save_freq: int = 1, save_dir: str | None = None) -> None:
        super().__init__()
        self.save_freq, self.save_dir = save_freq, save_dir

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        self.epoch = epoch

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self.save_dir and self.model is not None and epoch % self.save_freq == 0:
            path = os.path.join(self.save_dir, str(epoch))
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs: Any = None) -> None:
        if self.save_dir and self.model is not None:
            path = os.path.join(self.save_dir, "final")
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


class LRScheduler(Callback):
    """Steps the optimizer's LRScheduler after every batch (by_step) or every epoch (by_epoch)."""

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step, self.by_epoch = by_step, by_epoch

    def _sched(self) -> Any:
        from paddle_compat.paddle2.optimizer.lr import LRScheduler as Sched

        opt = getattr(self.model, "_optimizer", None)
        lr = getattr(opt, "_learning_rate", None)
        return lr if isinstance(lr, Sched) else None

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        s = self._sched()
        if self.by_epoch and s is not None:
            s.step()

    def on_train_batch_end(self, step: int, logs: Any = None) -> None:
        s = self._sched()
        if self.by_step and s is not None:
            s.step()


class EarlyStopping(Callback):
    """Stop fit when the monitored eval value has not improved (by more than min_delta) for `patience` evaluations
    (Paddle counts the evaluation that sets the best value, so patience=0 stops after the first); with
    save_best_model, fit's save_dir gets `best_model` each time the value improves."""

    def __init__(self, monitor: str = "loss", mode: str = "auto", patience: int = 0, verbose: int = 1,
                 min_delta: float = 0, baseline: float | None = None, save_best_model: bool = True) -> None:
        super().__init__()
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        self.min_delta, self.save_best_model = abs(min_delta), save_best_model
        self.wait_epoch, self.best_weights, self.stopped_epoch = 0, None, 0
        self.save_dir = None  # fit's save_dir (config_callbacks)
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        if mode == "min" or (mode == "auto" and "acc" not in monitor):
            self.monitor_op, self.min_delta = np.less, -self.min_delta
        else:
            self.monitor_op = np.greater

    def on_train_begin(self, logs: Any = None) -> None:
        self.wait_epoch = 0  # NOTE: stopped_epoch is not reset (Paddle counts evaluations across fits)
        self.best_value = self.baseline if self.baseline is not None else \
            (np.inf if self.monitor_op == np.less else -np.inf)

    def on_eval_end(self, logs: Any = None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.", stacklevel=2)
            return
        current = logs[self.monitor]
        if isinstance(current, (list, tuple)):
            current = current[0]
        elif not isinstance(current, numbers.Number):
            return
        best = os.path.join(self.save_dir, "best_model") if self.save_best_model and self.save_dir else None
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value, self.wait_epoch = current, 0
            if best:
                self.model.save(best)
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print("Epoch %d: Early stopping." % (self.stopped_epoch + 1))
                if best:
                    print("Best checkpoint has been saved at %s" % os.path.abspath(best))
        self.stopped_epoch += 1


def config_callbacks(callbacks: Any, model: Any, batch_size: Any, epochs: Any, steps: Any, log_freq: int,
                     verbose: int, save_freq: int, save_dir: Any, metrics: list, mode: str = "train") -> CallbackList:
    cbks = list(callbacks or [])
    if not any(isinstance(k, ProgBarLogger) for k in cbks) and verbose:
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = cbks + [ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = cbks + [LRScheduler()]
    lst = CallbackList(cbks)
    lst.set_model(model)
    lst.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
                    "metrics": metrics, "save_dir": save_dir})
    return lst


for _cls in (Callback, ProgBarLogger, ModelCheckpoint, LRScheduler, EarlyStopping):
    export(_cls, f"paddle.callbacks.{_cls.__name__}", f"paddle.hapi.callbacks.{_cls.__name__}")
