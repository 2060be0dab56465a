"""paddle.Model (hapi): prepare / fit / evaluate / predict / save / load / summary, with Paddle's batch splitting (the first len(inputs) fields of a batch are inputs, the rest labels), its logs
(`{'loss': [value], <metric names>: ...}`) and its default callbacks (ProgBarLogger, ModelCheckpoint, and an
LRScheduler callback that steps the optimizer's scheduler after every batch). Dygraph runs the network directly;
a Model created in static mode records it into Programs (paddle2/hapi/static_adapter.py)."""

from __future__ import annotations

import inspect
import os
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.paddle2.hapi.callbacks import config_callbacks
from paddle_compat.engine.framework.registry import export, partial


def _to_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _to_numpy(x: Any) -> Any:
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def _to_tensor(x: Any) -> Any:
    from paddle_compat.engine.framework.tensor import to_tensor

    return x if isinstance(x, Tensor) else to_tensor(x)


class Model:
    def __init__(self, network: Any, inputs: Any = None, labels: Any = None) -> None:
        from paddle_compat.paddle2.nn.layer import Layer

        if not isinstance(network, Layer):
            raise TypeError(f"paddle.Model: network should be a paddle.nn.Layer, but got {type(network).__name__}")
        self.network = network
        self._inputs = self._verify_spec(inputs, True)
        self._labels = self._verify_spec(labels, False)
        self._optimizer: Any = None
        self._loss: Any = None
        self._metrics: list = []
        self.stop_training = False
        self._accumulate = 1  # fit(accumulate_grad_batches=...)
        self._amp_level, self._amp_configs, self._amp_custom_lists, self._scaler = "O0", {}, {}, None
        self.mode = "train"
        self._adapter: Any = None
        if MODE.static:
            from paddle_compat.paddle2.hapi.static_adapter import StaticAdapter

            self._adapter = StaticAdapter(self)

    def _verify_spec(self, specs: Any, is_input: bool) -> list:
        from paddle_compat.engine.static.io import InputSpec

        if specs is None:
            if not is_input:
                return []
            params = [p for p in list(inspect.signature(self.network.forward).parameters.values())
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            return [None] * max(len(params), 1)
        specs = _to_list(specs) if not isinstance(specs, dict) else list(specs.values())
        for s in specs:
            if not isinstance(s, InputSpec) and not isinstance(s, Tensor):
                raise TypeError(f"paddle.Model: inputs / labels must be InputSpec or Tensor, got {type(s).__name__}")
        return specs

    # --- setup -----------------------------------------------------------------------------------------------
    def prepare(self, optimizer: Any = None, loss: Any = None, metrics: Any = None, amp_configs: Any = None) -> None:
        from paddle_compat.paddle2.metric.metrics import Metric

        self._optimizer = optimizer
        if loss is not None and not callable(loss):
            raise TypeError("paddle.Model.prepare: 'loss' must be a sub classes of `paddle.nn.Layer` or any "
                            "callable function.")
        self._loss = loss
        self._metrics = _to_list(metrics)
        for m in self._metrics:
            if not isinstance(m, Metric):
                raise TypeError(f"paddle.Model.prepare: {type(m).__name__} is not sub class of Metric")
        self._prepare_amp(amp_configs)
        if self._adapter is not None:
            self._adapter.prepare()

    _AMP_KEYS = frozenset({"init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                           "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling", "use_fp16_guard"})

    def _prepare_amp(self, amp_configs: Any) -> None:
        """amp_configs: 'O0' / 'O1' / 'O2', or a dict with 'level', the custom white / black lists and
        GradScaler's arguments (Paddle's checks and messages). Dygraph: forward under paddle.amp.auto_cast and the
        loss scaled by a GradScaler; O2 decorates the network and optimizer when CUDA is available (as Paddle does
        when compiled with CUDA)."""
        self._amp_level, self._amp_configs, self._amp_custom_lists, self._scaler = "O0", {}, {}, None
        if not amp_configs:
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            self._amp_level = amp_configs
        else:
            level = amp_configs.get("level", "O1")
            if level not in ("O0", "O1", "O2"):
                raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
            self._amp_level = level
            keys = set(amp_configs) - {"level"}
            if not keys or level == "O0":
                return
            if "use_pure_fp16" in amp_configs:
                raise ValueError("'use_pure_fp16' is an invalid parameter, the level of mixed precision training "
                                 "only depends on 'O1' or 'O2'.")
            for name in ("custom_white_list", "custom_black_list", "custom_black_varnames"):
                if name in keys:
                    self._amp_custom_lists[name] = amp_configs[name]
                    keys.discard(name)
            if keys - self._AMP_KEYS:
                raise ValueError("Except for 'level', the keys of 'amp_configs' must be accepted by mixed precision "
                                 f"APIs, but {tuple(keys - self._AMP_KEYS)} could not be recognized.")
            if "use_fp16_guard" in keys:
                if self._adapter is None:
                    raise ValueError("'use_fp16_guard' is supported in static graph mode only.")
                keys.discard("use_fp16_guard")
            self._amp_configs = {k: amp_configs[k] for k in keys}
        if self._amp_level != "O0":
            import torch

            if self._adapter is not None and torch.cuda.is_available():
                raise UnsupportedAPIError("paddle.Model.prepare", "amp_configs in static graph mode (a CPU-only "
                                          "build ignores them, as Paddle built without CUDA does)")
            if self._amp_level == "O2" and self._adapter is None and torch.cuda.is_available():
                from paddle_compat.paddle2.amp import decorate

                self.network, self._optimizer = decorate(models=self.network, optimizers=self._optimizer,
                                                         level="O2")

    def parameters(self, *args: Any, **kwargs: Any) -> list:
        return self.network.parameters(*args, **kwargs)

    def _metrics_name(self) -> list:
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    # --- one batch ---------------------------------------------------------------------------------------------
    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        self.mode = "train"
        if self._adapter is not None:
            if not update:  # Paddle's StaticGraphAdapter asserts the same
                raise AssertionError("Does not support `update == False` in static graph mode by now.")
            return self._adapter.run("train", inputs, labels)
        self.network.train()
        from paddle_compat.paddle2.amp import GradScaler, auto_cast

        inputs, labels = [_to_tensor(x) for x in _to_list(inputs)], [_to_tensor(x) for x in _to_list(labels)]
        amp = self._amp_level != "O0"
        if amp and self._scaler is None:
            self._scaler = GradScaler(**self._amp_configs)
        with auto_cast(enable=amp, **self._amp_custom_lists, level=self._amp_level):
            outputs = self.network(*inputs)
        if self._loss is None:
            raise RuntimeError("paddle.Model.train_batch: call prepare(optimizer, loss) first")
        losses = _to_list(self._loss(*(_to_list(outputs) + labels)))
        final = losses[0]
        for l_ in losses[1:]:
            final = final + l_
        scaled = self._scaler.scale(final) if amp else final
        scaled.backward()
        if update:
            if self._optimizer is None:
                raise RuntimeError("paddle.Model.train_batch: an optimizer is needed; pass one to prepare()")
            if amp:
                self._scaler.minimize(self._optimizer, scaled)
            else:
                self._optimizer.step()
            self.network.clear_gradients()
        metrics = [self._update_metric(m, outputs, labels) for m in self._metrics]
        out = [_to_numpy(l_) for l_ in losses]
        return (out, metrics) if metrics else out

    def _update_metric(self, metric: Any, outputs: Any, labels: list) -> Any:
        outs = metric.compute(*(_to_list(outputs) + labels))
        return metric.update(*[_to_numpy(m) for m in _to_list(outs)])

    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        from paddle_compat.api import no_grad

        self.mode = "eval"
        if self._adapter is not None:
            return self._adapter.run("eval", inputs, labels)
        self.network.eval()
        inputs, labels = [_to_tensor(x) for x in _to_list(inputs)], [_to_tensor(x) for x in _to_list(labels)]
        with no_grad():
            outputs = self.network(*inputs)
            losses = _to_list(self._loss(*(_to_list(outputs) + labels))) if self._loss and labels else []
            metrics = [self._update_metric(m, outputs, labels) for m in self._metrics]
        out = [_to_numpy(l_) for l_ in losses]
        return (out, metrics) if metrics else out

    def predict_batch(self, inputs: Any) -> list:
        from paddle_compat.api import no_grad

        self.mode = "test"
        if self._adapter is not None:
            return self._adapter.run("test", inputs)
        self.network.eval()
        with no_grad():
            outputs = self.network(*[_to_tensor(x) for x in _to_list(inputs)])
        return [_to_numpy(o) for o in _to_list(outputs)]

    # --- loops -------------------------------------------------------------------------------------------------
    def _loader(self, data: Any, batch_size: int, shuffle: bool, drop_last: bool, num_workers: int) -> Any:
        from paddle_compat.paddle2.io.dataloader import DataLoader, Dataset

        if data is None:
            return None
        if isinstance(data, Dataset):
            return DataLoader(data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last,
                              num_workers=num_workers, return_list=True)
        return data

    def _len(self, loader: Any) -> Any:
        try:
            return len(loader)
        except Exception:  # noqa: BLE001 - iterable loaders have no length
            return None

    def _run_one_epoch(self, loader: Any, callbacks: Any, mode: str, num_iters: Any = None) -> dict:
        logs: dict = {}
        n_in = len(self._inputs)
        outputs = []
        for step, data in enumerate(loader):
            if num_iters is not None and step >= num_iters:
                break
            data = _to_list(data)
            batch_size = data[0].shape[0] if hasattr(data[0], "shape") else len(data[0])
            getattr(callbacks, f"on_{mode}_batch_begin")(step, logs)
            if mode == "predict":
                outs = self.predict_batch(data[:n_in])
                outputs.append(outs)
            else:
                args = [data[:n_in], data[n_in:]]
                if mode == "train":  # fit's accumulate_grad_batches: step the optimizer every k batches and last
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == self._len(loader))
                outs = getattr(self, f"{mode}_batch")(*args)
                if self._metrics and self._loss:
                    metrics = [[float(np.asarray(l_).reshape(-1)[0]) for l_ in outs[0]]]
                elif self._loss:
                    metrics = [[float(np.asarray(l_).reshape(-1)[0]) for l_ in outs]]
                else:
                    metrics = []
                for m in self._metrics:
                    metrics.extend(_to_list(m.accumulate()))
                for k, v in zip(self._metrics_name(), metrics):
                    logs[k] = v
            logs["step"] = step
            logs["batch_size"] = batch_size
            getattr(callbacks, f"on_{mode}_batch_end")(step, logs)
        if mode == "predict":
            logs["outputs"] = outputs
        return logs

    def fit(self, train_data: Any = None, eval_data: Any = None, batch_size: int = 1, epochs: int = 1,
            eval_freq: int = 1, log_freq: int = 10, save_dir: str | None = None, save_freq: int = 1,
            verbose: int = 2, drop_last: bool = False, shuffle: bool = True, num_workers: int = 0,
            callbacks: Any = None, accumulate_grad_batches: int = 1, num_iters: int | None = None) -> None:
        if train_data is None:
            raise ValueError("paddle.Model.fit: train_data must be given!")
        train_loader = self._loader(train_data, batch_size, shuffle, drop_last, num_workers)
        eval_loader = self._loader(eval_data, batch_size, False, False, num_workers)
        steps = self._len(train_loader)
        if num_iters is not None and steps is not None:
            steps = min(steps, num_iters)
        cbks = config_callbacks(callbacks, self, batch_size, epochs, steps, log_freq, verbose, save_freq, save_dir,
                                self._metrics_name())
        self._accumulate = accumulate_grad_batches
        self.stop_training = False
        cbks.on_train_begin()
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            for m in self._metrics:
                m.reset()
            logs = self._run_one_epoch(train_loader, cbks, "train", num_iters)
            cbks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                self._evaluate(eval_loader, cbks, log_freq, verbose)
            if self.stop_training:
                break
        cbks.on_train_end(logs)

    def _evaluate(self, loader: Any, cbks: Any, log_freq: int, verbose: int, num_iters: Any = None) -> dict:
        steps = self._len(loader)
        for m in self._metrics:
            m.reset()
        cbks.on_eval_begin({"steps": steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval", num_iters)
        cbks.on_eval_end(logs)
        return {k: logs[k] for k in self._metrics_name() if k in logs}

    def evaluate(self, eval_data: Any, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                 num_workers: int = 0, callbacks: Any = None, num_iters: int | None = None) -> dict:
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        cbks = config_callbacks(callbacks, self, batch_size, None, self._len(loader), log_freq, verbose, 1, None,
                                self._metrics_name(), mode="eval")
        return self._evaluate(loader, cbks, log_freq, verbose, num_iters)

    def predict(self, test_data: Any, batch_size: int = 1, num_workers: int = 0, stack_outputs: bool = False,
                verbose: int = 1, callbacks: Any = None) -> list:
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        steps = self._len(loader)
        cbks = config_callbacks(callbacks, self, batch_size, None, steps, 2, verbose, 1, None, [], mode="predict")
        cbks.on_predict_begin({"steps": steps, "metrics": []})
        logs = self._run_one_epoch(loader, cbks, "predict")
        outputs = [list(o) for o in zip(*logs["outputs"])] if logs["outputs"] else []
        if stack_outputs:
            outputs = [np.vstack(o) for o in outputs]
        cbks.on_predict_end(logs)
        return outputs

    # --- persistence -------------------------------------------------------------------------------------------
    def save(self, path: str, training: bool = True) -> None:
        from paddle_compat.engine.static.checkpoint_files import write_files
        from paddle_compat.engine.static.serialization import dumps

        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        if self._adapter is not None:
            self._adapter.save(path, training)
            return
        if not training:  # Paddle: paddle.jit.save of the network with the Model's input specs
            from paddle_compat.paddle2.jit import save as jit_save

            if not self._inputs or any(s is None for s in self._inputs):
                raise ValueError("paddle.Model.save(training=False): the Model needs `inputs` (InputSpec) to save "
                                 "an inference model")
            jit_save(self.network, path, self._inputs)
            return
        files = [(path + ".pdparams", dumps(self.network.state_dict()))]
        if self._optimizer is not None:
            files.append((path + ".pdopt", dumps(self._optimizer.state_dict())))
        write_files(files)  # one checkpoint: never a new .pdparams beside an old .pdopt

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        from paddle_compat.engine.static.checkpoint_files import check_files
        from paddle_compat.engine.static.serialization import load

        base = path[:-9] if path.endswith(".pdparams") else path
        if not os.path.exists(base + ".pdparams"):
            raise ValueError(f"paddle.Model.load: {base}.pdparams is not found")
        if self._adapter is not None:
            self._adapter.load(base, skip_mismatch, reset_optimizer)
            return
        use_opt = self._optimizer is not None and not reset_optimizer and os.path.exists(base + ".pdopt")
        check_files([base + ".pdparams"] + ([base + ".pdopt"] if use_opt else []), "paddle.Model.load")
        params = load(base + ".pdparams")
        if skip_mismatch:
            own = self.network.state_dict()
            params = {k: v for k, v in params.items() if k in own and list(own[k].shape) == list(v.shape)}
        self.network.set_state_dict(params)
        if self._optimizer is not None and not reset_optimizer and os.path.exists(base + ".pdopt"):
            self._optimizer.set_state_dict(load(base + ".pdopt"))

    def summary(self, input_size: Any = None, dtype: Any = None) -> dict:
        from paddle_compat.paddle2.hapi.summary import summary

        if input_size is None:
            if not self._inputs or self._inputs[0] is None:
                raise ValueError("paddle.Model.summary: input_size must be given when the Model has no inputs")
            input_size = [tuple(s.shape) for s in self._inputs]
            if len(input_size) == 1:
                input_size = input_size[0]
        return summary(self.network, input_size, dtype)


export(Model, "paddle.Model", "paddle.hapi.Model")
partial("paddle.Model", "amp_configs in static graph mode raise UnsupportedAPIError where CUDA is available (a CPU "
                        "build ignores them, as Paddle built without CUDA does); under paddle.distributed.launch each process "
                        "trains alone (no DataParallel wrapping or sharded loading)")
