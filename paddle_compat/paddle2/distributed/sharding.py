"""`paddle.distributed.sharding`: group_sharded_parallel (ZeRO stages 'os' / 'os_g' / 'p_g_os') and
save_group_sharded_model.

Sharding splits the optimizer states, gradients and parameters over the trainers to save memory; each step
computes what data parallelism computes (gradients averaged over the trainers, the same update everywhere).
Here the wrapped model is data parallel over the trainers (paddle.DataParallel when there are several) and the
optimizer keeps its whole state: the numbers of sharded training, the memory of data parallelism. Paddle 2.6.2
runs it on GPU / XPU only; here it runs on CPU too. The wrappers keep Paddle's attributes (`model._layer`,
`optimizer._optim`) so save_group_sharded_model writes `model.pdmodel` / `model.pdopt` as Paddle does."""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export, partial

_S = "paddle.distributed.sharding"


class GroupShardedStage(Layer):
    """The model of group_sharded_parallel: `_layer` is the user's layer; forward runs it data parallel."""

    def __init__(self, layer: Layer, level: str) -> None:
        super().__init__()
        from paddle_compat.engine.core.launch_env import env_world_size

        self._layer, self._level = layer, level
        self._dp = None
        if env_world_size() > 1:
            from paddle_compat.paddle2.distributed.data_parallel import DataParallel

            self._dp = DataParallel(layer)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return (self._dp or self._layer)(*args, **kwargs)

    def state_dict(self, *args: Any, **kwargs: Any) -> Any:
        return self._layer.state_dict(*args, **kwargs)

    def set_state_dict(self, *args: Any, **kwargs: Any) -> Any:
        return self._layer.set_state_dict(*args, **kwargs)


class GroupShardedOptimizer:
    """The optimizer of group_sharded_parallel: `_optim` is the user's optimizer; every call goes to it."""

    def __init__(self, optim: Any) -> None:
        self.__dict__["_optim"] = optim

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_optim"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._optim, name, value)


def group_sharded_parallel(model, optimizer, level, scaler=None, group=None, offload=False, sync_buffers=False,
                           buffer_max_size=2 ** 23, segment_size=2 ** 20, sync_comm=False, dp_group=None,
                           exclude_layer=None):
    """(model, optimizer, scaler) for sharded data-parallel training at `level` ('os', 'os_g' or 'p_g_os')."""
    from paddle_compat.paddle2.optimizer.optimizer import Optimizer

    assert isinstance(model, Layer), "The model must be the instance of paddle.nn.Layer."
    assert isinstance(optimizer, Optimizer), "The optimizer must be the instance of paddle.optimizer.Optimizer " \
                                             "or MixPrecisionOptimizer for main grad."
    assert level in ["os", "os_g", "p_g_os"], "The level must be os, os_g or p_g_os."
    return GroupShardedStage(model, level), GroupShardedOptimizer(optimizer), scaler


def save_group_sharded_model(model, output, optimizer=None):
    """`output/model.pdmodel` (the layer's state dict) and, with the optimizer, `output/model.pdopt`."""
    assert not os.path.isfile(output), f"Saving directory ({output}) should be a directory, not a file"
    if not isinstance(model, GroupShardedStage):
        raise ValueError("Please use the layer which is wrapped with group_sharded_parallel.")
    os.makedirs(output, exist_ok=True)
    P("paddle.save")(model._layer.state_dict(), os.path.join(output, "model.pdmodel"))
    if optimizer is not None:
        assert hasattr(optimizer, "_optim"), "Please use the optimizer which is wrapped with group_sharded_parallel."
        P("paddle.save")(optimizer._optim.state_dict(), os.path.join(output, "model.pdopt"))


for _fn in (group_sharded_parallel, save_group_sharded_model):
    export(_fn, f"{_S}.{_fn.__name__}", f"{_S}.group_sharded.{_fn.__name__}")
partial(f"{_S}.group_sharded_parallel", "the numbers of sharded training over data parallelism; the optimizer "
                                        "states, gradients and parameters are not split (no memory saved)")
