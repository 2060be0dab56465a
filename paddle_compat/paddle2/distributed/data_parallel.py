"""`paddle.DataParallel` (and fluid 1.x `fluid.dygraph.DataParallel`): dygraph data parallelism.

Semantics follow Paddle 2.4's EagerReducer, which are torch DDP's:
- at construction, parameters and buffers are broadcast from trainer 0 (sync_params_buffers);
- gradients are averaged over trainers during `loss.backward()`: forward marks its outputs, and when the
  backward pass reaches them an end-of-backward callback all-reduces every trainable parameter's gradient,
  bucketed (comm_buffer_size MB; the first bucket last_comm_buffer_size MB as in Paddle), divided by nranks;
- `no_sync()` skips that (gradient accumulation); `scale_loss` / `apply_collective_grads` are the deprecated
  no-ops of 2.x (so fluid 1.8 scripts that call them still get the mean);
- `state_dict` / `set_state_dict` are the wrapped layer's: keys have no prefix (checkpoints load in both).
A parameter that got no gradient on some trainer counts as zero there (find_unused_parameters's
behaviour; with it off Paddle raises, which would stall the other trainers). One trainer: the wrapped layer
runs as is (Paddle warns that it "will return to single-card operation").
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import torch

from paddle_compat.engine.core.mode import MODE
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.parallel import collective


class _SyncMarker(torch.autograd.Function):
    """Identity on a forward output; its backward schedules the gradient all-reduce at the end of backward."""

    @staticmethod
    def forward(ctx: Any, owner: Any, x: torch.Tensor) -> torch.Tensor:
        ctx.owner = owner
        return x.view_as(x)

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple[None, torch.Tensor]:
        ctx.owner._schedule_sync()
        return None, g


class DataParallel(Layer):
    """paddle.DataParallel(layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
    find_unused_parameters=False, group=None)"""

    def __init__(self, layers: Layer, strategy: Any = None, comm_buffer_size: int = 25,
                 last_comm_buffer_size: int = 1, find_unused_parameters: bool = False, group: Any = None) -> None:
        if MODE.static:
            raise AssertionError("It's not supported to construct DataParallel in static graph mode.")
        if not isinstance(layers, Layer):
            raise TypeError(f"paddle.DataParallel: layers should be a paddle.nn.Layer, but received "
                            f"{type(layers).__name__}")
        super().__init__(layers.full_name() + "_data_parallel")
        self._layers = layers
        self.__dict__.update(find_unused_parameters=find_unused_parameters, grad_need_sync=True, group=group,
                             _strategy=strategy, _sync_queued=False,
                             comm_buffer_size=int(comm_buffer_size * 1024 * 1024),
                             last_comm_buffer_size=int(last_comm_buffer_size * 1024 * 1024))
        self.__dict__["_nranks"] = collective.world_size() if group is None else group.nranks
        if self._nranks > 1:
            self._broadcast_state()
        else:
            import warnings

            warnings.warn("The program will return to single-card operation. Please check 1, whether you use "
                          "spawn or fleetrun to start the program. 2, Whether it is a multi-card program. 3, Is "
                          "the current environment multi-card.", stacklevel=2)

    # --- state broadcast and gradient sync --------------------------------------------------------------
    def _pg(self) -> Any:
        return None if self.group is None else self.group.process_group

    @torch.no_grad()
    def _broadcast_state(self) -> None:
        ts = [t._t for t in self._layers.parameters() + self._layers.buffers() if isinstance(t, Tensor)]
        src = 0 if self.group is None else self.group.ranks[0]
        collective.broadcast_(ts, src=src, group=self._pg())

    def _trainable(self) -> list:
        seen, out = set(), []
        for p in self._layers.parameters():
            if isinstance(p, Tensor) and id(p) not in seen and getattr(p, "trainable", True) and \
                    p._t.requires_grad and not getattr(p, "no_sync", False):
                seen.add(id(p))
                out.append(p)
        return out

    def _schedule_sync(self) -> None:
        if self._sync_queued:
            return
        self.__dict__["_sync_queued"] = True
        torch.autograd.Variable._execution_engine.queue_callback(self._sync_grads)

    @torch.no_grad()
    def _sync_grads(self) -> None:
        self.__dict__["_sync_queued"] = False
        params = self._trainable()
        grads = []
        for p in params:
            if p._t.grad is None:
                p._t.grad = torch.zeros_like(p._t)
            grads.append(p._t.grad)
        # Paddle's groups: the last gradients produced (the first layers) go in a small bucket; sizes in bytes
        n = self._nranks
        for g in grads:
            g.div_(n)
        collective.all_reduce_(grads, "sum", bucket_bytes=max(self.comm_buffer_size, 1), group=self._pg())

    # --- Layer API ----------------------------------------------------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        outputs = self._layers(*inputs, **kwargs)
        if self._nranks > 1 and self.grad_need_sync and torch.is_grad_enabled():
            outputs = self._mark(outputs)
        return outputs

    def _mark(self, out: Any) -> Any:
        if isinstance(out, Tensor):
            if out._t.requires_grad and out._t.is_floating_point():
                return Tensor._wrap(_SyncMarker.apply(self, out._t))
            return out
        if type(out) in (list, tuple):
            return type(out)(self._mark(o) for o in out)
        if isinstance(out, dict):
            return {k: self._mark(v) for k, v in out.items()}
        return out

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Skip the gradient all-reduce inside (accumulate locally); the next synced backward averages all."""
        old = self.grad_need_sync
        self.__dict__["grad_need_sync"] = False
        try:
            yield
        finally:
            self.__dict__["grad_need_sync"] = old

    def scale_loss(self, loss: Any) -> Any:
        """Deprecated in 2.0: gradients are averaged by the all-reduce, so the loss is returned as is."""
        return loss

    def apply_collective_grads(self) -> None:
        """Deprecated in 2.0: the gradients were already averaged during backward."""
        return None

    def state_dict(self, destination: dict | None = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True) -> dict:
        return self._layers.state_dict(destination=destination, include_sublayers=include_sublayers,
                                       structured_name_prefix=structured_name_prefix)

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True) -> Any:
        return self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict


export(DataParallel, "paddle.DataParallel", "paddle.fluid.dygraph.DataParallel")
