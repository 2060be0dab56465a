"""`paddle.distributed.to_static` and `Strategy` (Paddle 2.6.2's auto-parallel "static" front).

Paddle converts the layer into distributed static programs (train / eval / predict) run by its auto-parallel
Engine. Here, as for `paddle.jit.to_static` (README "Semantics we chose"), `DistModel` runs the layer eagerly: its
distributed parameters are DTensors (auto_parallel.py), so every rank computes the same global numbers Paddle's
programs compute. What it returns follows Paddle: in "train" mode a call updates the parameters and returns the
loss, in "eval" the loss, in "predict" a dict {"out0": first output, ...}; values are numpy arrays (Paddle's
Engine fetches with return_numpy=True). The loader it returns iterates the same batches as the dygraph loader
(`dist_loader()` or `iter(dist_loader)`).

Strategy: `gradient_merge` (k_steps, avg) is applied (parameters update every k calls, gradients summed or
averaged). `sharding`, `pipeline` and `fused_passes` choose how Paddle lays the same computation out over devices
(optimizer-state partitioning, micro-batch schedule, fused kernels): the numbers do not change, and here they are
recorded but do not change the eager run (docs/coverage.md says so).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework.registry import export, partial

NOT_FOUND = "not_found"

_DEFAULTS: dict[str, dict[str, Any]] = {
    "base": {"auto_mode": "semi", "gradient_scale": True, "use_cache": True, "return_numpy": True,
             "all_ranks": False, "split_data": True, "seed": None, "reinit": False},
    "sharding": {"enable": False, "stage": 1, "degree": 8, "enable_overlap": False, "param_comm_stream_num": 1,
                 "grad_comm_stream_num": 1, "param_bucket_size_numel": 1, "grad_bucket_size_numel": 1,
                 "enable_hierarchical_comm": False, "partition_algor": "greedy_even", "enable_tuning": False,
                 "tuning_range": []},
    "gradient_merge": {"enable": False, "k_steps": 1, "avg": True},
    "pipeline": {"enable": False, "schedule_mode": "1F1B", "micro_batch_size": 1, "accumulate_steps": 1,
                 "generation_batch_size": 1, "enable_send_recv_overlap": False, "job_schedule_profiler_start": -1,
                 "job_schedule_profiler_stop": -1},
}


class _BaseConfig:
    """One category of options (Paddle's auto_parallel BaseConfig): attributes with defaults, a dict's values
    over them, `to_dict()`, `get()` and Paddle's `{"name":"value",}` string."""

    def __init__(self, category: str, config_dict: dict | None = None) -> None:
        self._category = category
        self._config_dict = None
        if config_dict is not None:
            if not isinstance(config_dict, dict):
                raise ValueError(f"Expected a dictionary. But received: {config_dict}")
            self._config_dict = config_dict
        for field, default in _DEFAULTS[category].items():
            setattr(self, field, copy.deepcopy(default))
        if self._config_dict:
            self.from_dict(self._config_dict)

    def from_dict(self, config_dict: dict) -> None:
        for field in _DEFAULTS[self._category]:
            value = config_dict.get(field, NOT_FOUND)
            if value != NOT_FOUND:
                setattr(self, field, value)

    def to_dict(self) -> dict:
        out = {f: getattr(self, f) for f in _DEFAULTS[self._category]}
        for field, value in self.__dict__.items():
            if isinstance(value, _BaseConfig):
                out[field] = value.to_dict()
        return out

    def get(self, k: str, d: Any = None) -> Any:
        return self.to_dict().get(k, d)

    def __repr__(self) -> str:
        return "{" + "".join(f'"{k}":"{v}",' for k, v in self.to_dict().items()) + "}"

    def __deepcopy__(self, memo: dict) -> "_BaseConfig":
        result = self.__class__.__new__(self.__class__)
        memo[id(self)] = result
        for k, v in self.__dict__.items():
            setattr(result, k, copy.deepcopy(v, memo))
        return result


class _FusePasses:
    """`Strategy.fused_passes`: enable, gemm_epilogue, dropout_add."""

    def __init__(self, config_dict: dict | None = None) -> None:
        self.enable = False
        self.gemm_epilogue = False
        self.dropout_add = False
        for key, value in (config_dict or {}).items():
            if not hasattr(self, key):
                raise ValueError(f"Unknown fuse pass {key}")
            setattr(self, key, value)


class Strategy(_BaseConfig):
    """`paddle.distributed.Strategy(config=None)`: sharding, fused_passes, gradient_merge and pipeline options for
    `to_static`; `config` is a dict of categories (e.g. {"sharding": {"enable": True, "stage": 2}})."""

    def __init__(self, config: dict | None = None) -> None:
        if config is not None and not isinstance(config, dict):
            raise ValueError(f"Expected a dictionary. But received: {config}")
        self._config_dict = copy.deepcopy(config) if config is not None else {}
        super().__init__("base", self._config_dict)
        self._sharding = _BaseConfig("sharding", self._config_dict.get("sharding"))
        self._gradient_merge = _BaseConfig("gradient_merge", self._config_dict.get("gradient_merge"))
        self._pipeline = _BaseConfig("pipeline", self._config_dict.get("pipeline"))
        self._fused_passes = _FusePasses(self._config_dict.get("fused_passes"))

    sharding = property(lambda self: self._sharding, doc="enable, stage (1/2/3), degree, ...")
    gradient_merge = property(lambda self: self._gradient_merge, doc="enable, k_steps, avg")
    fused_passes = property(lambda self: self._fused_passes, doc="enable, gemm_epilogue, dropout_add")
    pipeline = property(lambda self: self._pipeline, doc="enable, schedule_mode, micro_batch_size, ...")


class DistributedDataLoader:
    """The loader `to_static` returns: the dygraph loader's dataset and batch size; `loader()` and `iter(loader)`
    give the batches (lists of Tensors)."""

    def __init__(self, dataset: Any, batch_size: int, loader: Any) -> None:
        from paddle_compat.paddle2.io.dataloader import DataLoader

        self.dataset = dataset
        self.batch_size = batch_size
        kw = {}
        sampler = getattr(loader, "batch_sampler", None)
        if sampler is not None:
            kw["batch_sampler"] = sampler
        else:
            kw["batch_size"] = batch_size
        collate = getattr(loader, "collate_fn", None)
        if collate is not None:
            kw["collate_fn"] = collate
        self._dataloader = DataLoader(dataset, return_list=True, **kw)

    def __len__(self) -> int:
        return len(self._dataloader)

    def __iter__(self):
        return iter(self._dataloader)

    def __call__(self):
        return iter(self._dataloader)


def _numpy(x: Any) -> Any:
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


class DistModel:
    """What `to_static` returns: train / eval / predict the layer with Paddle's DistModel interface."""

    def __init__(self, layer: Any, loader: Any, loss: Any = None, optimizer: Any = None, strategy: Any = None,
                 metrics: Any = None) -> None:
        if strategy is not None and not isinstance(strategy, Strategy):
            raise TypeError(f"paddle.distributed.to_static: strategy must be a paddle.distributed.Strategy, got "
                            f"{type(strategy).__name__}")
        from paddle_compat.paddle2.distributed.auto_parallel import _replicate_dense_params

        _replicate_dense_params(layer)
        self._layer = layer
        self._loss = loss
        self._optimizer = optimizer
        self._strategy = strategy or Strategy()
        self._mode: str | None = None
        self._prepared = {"train": optimizer is not None and loss is not None, "eval": loss is not None,
                          "predict": True}
        self._n_inputs = self._count_inputs(loader)
        self._merge_count = 0
        if self._prepared["train"]:
            self.train()
        elif self._prepared["eval"]:
            self.eval()
        else:
            self.predict()
        batch_size = getattr(getattr(loader, "batch_sampler", None), "batch_size", None) or 1
        self.dist_loader = DistributedDataLoader(loader.dataset, batch_size, loader)

    @staticmethod
    def _count_inputs(loader: Any) -> int | None:
        """Paddle's Engine reads the dataset's first sample as (inputs, labels)."""
        try:
            inputs, _labels = loader.dataset[0]
        except Exception:  # noqa: BLE001 - other sample layouts: every argument but the last is an input
            return None
        return len(inputs) if isinstance(inputs, (list, tuple)) else 1

    def _set_mode(self, mode: str, what: str) -> None:
        if not self._prepared[mode]:
            raise RuntimeError(f"The model for {what} has not been prepared.")
        self._mode = mode
        if mode == "train":
            self._layer.train()
        else:
            self._layer.eval()

    def train(self) -> None:
        self._set_mode("train", "training")

    def eval(self) -> None:
        self._set_mode("eval", "evaluation")

    def predict(self) -> None:
        self._set_mode("predict", "prediction")

    def _validate_mode(self, mode: str | None) -> str:
        if mode is None and self._mode is None:
            raise ValueError("Please set the mode or call train()/eval()/predict() first.")
        mode = mode or self._mode
        if mode not in ("train", "eval", "predict"):
            raise ValueError("mode can only be 'train', 'eval' or 'predict'.")
        return mode

    def _no_program(self, what: str, mode: str | None) -> Any:
        self._validate_mode(mode)
        raise UnsupportedAPIError(f"paddle.distributed.DistModel.{what}",
                                  "DistModel runs the layer eagerly on torch DTensors; there is no static program")

    def dist_main_program(self, mode: str | None = None) -> Any:
        return self._no_program("dist_main_program", mode)

    def dist_startup_program(self, mode: str | None = None) -> Any:
        return self._no_program("dist_startup_program", mode)

    def serial_main_program(self, mode: str | None = None) -> Any:
        return self._no_program("serial_main_program", mode)

    def serial_startup_program(self, mode: str | None = None) -> Any:
        return self._no_program("serial_startup_program", mode)

    def __call__(self, *args: Any) -> Any:
        from paddle_compat.engine.framework.tensor import Tensor, to_tensor

        if self._mode is None:
            raise ValueError("Please call train()/eval()/predict() first.")
        if self._mode == "train" and (self._optimizer is None or self._loss is None):
            raise ValueError("Please set optimizer and loss function before training.")
        if self._mode == "eval" and self._loss is None:
            raise ValueError("Please set loss function before evaluation.")
        data = [a if isinstance(a, Tensor) else to_tensor(np.asarray(a)) for a in args]
        n = self._n_inputs if self._n_inputs is not None else (len(data) if self._mode == "predict"
                                                                else len(data) - 1)
        expected = n if self._mode == "predict" else None
        if expected is not None and len(data) != expected or self._mode != "predict" and len(data) <= n:
            raise ValueError("The input data and feed_list are not consistent. The model takes "
                             f"{n} input(s){'' if self._mode == 'predict' else ' and the labels'}, got {len(data)}")
        inputs, labels = data[:n], data[n:]
        if self._mode == "predict":
            import torch

            with torch.no_grad():
                outs = self._layer(*inputs)
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            return {f"out{i}": _numpy(o) for i, o in enumerate(outs)}
        outs = self._layer(*inputs)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        loss = self._loss(*(outs + labels))
        if self._mode == "train":
            gm = self._strategy.gradient_merge
            k = int(gm.k_steps) if gm.enable else 1
            (loss / k if k > 1 and gm.avg else loss).backward()
            self._merge_count += 1
            if self._merge_count % k == 0:
                self._optimizer.step()
                self._optimizer.clear_grad()
        return _numpy(loss)

    def state_dict(self, mode: str = "all") -> dict:
        """{name: tensor}: the parameters ("param"), the optimizer's states ("opt") or both ("all"), by their
        Paddle names (as the program's state dict); distributed tensors stay distributed."""
        if mode not in ("opt", "param", "all"):
            raise ValueError(f"mode must be one of 'opt', 'param', 'all', got {mode!r}")
        out: dict = {}
        if mode in ("param", "all"):
            for p in self._layer.parameters():
                out[p.name] = p
            for _, b in self._layer.named_buffers():
                if b.persistable:
                    out[b.name] = b
        if mode in ("opt", "all") and self._optimizer is not None:
            opt = getattr(self._optimizer, "_inner_opt", self._optimizer)
            for store in opt._accumulators.values():
                for acc in store.values():
                    out[acc.name] = acc
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        """Copy the values of `state_dict` (by name) into the model's parameters and optimizer states."""
        from paddle_compat.paddle2.distributed.auto_parallel import _is_dtensor

        cur = self.state_dict()
        for k, v in state_dict.items():
            if k not in cur:
                continue
            dst = cur[k]
            src = v._t if hasattr(v, "_t") else np.asarray(v)
            import torch

            with torch.no_grad():
                if _is_dtensor(dst._t):
                    if not _is_dtensor(src):
                        src = torch.as_tensor(src)
                        from paddle_compat.paddle2.distributed.auto_parallel import _make_dtensor, _mesh_of, _placements

                        src = _make_dtensor(src.to(dst._t.dtype), _mesh_of(dst._t), _placements(dst), "set_state_dict")
                    dst._t.copy_(src.redistribute(dst._t.device_mesh, dst._t.placements))
                else:
                    if _is_dtensor(src):
                        src = src.full_tensor()
                    dst._t.copy_(torch.as_tensor(src).to(dst._t.dtype))


def to_static(layer: Any, loader: Any = None, loss: Any = None, optimizer: Any = None, strategy: Any = None):
    """(DistModel, DistributedDataLoader) for `layer` and the dygraph `loader`."""
    if loader is None:
        raise ValueError("paddle.distributed.to_static: loader (the paddle.io.DataLoader of the dygraph run) is "
                         "needed to build the DistributedDataLoader")
    model = DistModel(layer, loader, loss, optimizer, strategy)
    return model, model.dist_loader


export(Strategy, "paddle.distributed.Strategy")
export(to_static, "paddle.distributed.to_static")
partial("paddle.distributed.to_static", "the DistModel runs the layer eagerly on torch DTensors (no static program: "
        "dist_main_program() and the other program getters raise); every rank reads every batch (no data-parallel "
        "split of the loader)")
partial("paddle.distributed.Strategy", "gradient_merge is applied; sharding, pipeline and fused_passes are kept but "
        "change nothing (they lay out the same computation; the numbers are the same)")
