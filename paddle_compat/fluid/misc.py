"""Smaller fluid 1.8 names: the parameter-server dispatchers HashName / RoundRobin (fluid.transpiler; DistributeTranspilerConfig.split_method)."""

from __future__ import annotations

from typing import Any


from paddle_compat.engine.framework.registry import export


class PSDispatcher:
    """Assigns variables to parameter-server endpoints."""

    def __init__(self, pserver_endpoints: list) -> None:
        self._eps = pserver_endpoints
        self._step = 0

    @property
    def eps(self) -> list:
        return self._eps

    def reset(self) -> None:
        self._step = 0

    def dispatch(self, varlist: list) -> list:
        raise NotImplementedError("Interface has not been implemented.")


def _name(var: Any) -> str:
    n = var.name
    return n() if callable(n) else n


class HashName(PSDispatcher):
    """Endpoint = hash(variable name) % number of endpoints (Python's str hash, so per process, as in Paddle)."""

    def _hash_block(self, block_str: str, total: int) -> int:
        return hash(block_str) % total

    def dispatch(self, varlist: list) -> list:
        return [self._eps[self._hash_block(_name(v), len(self._eps))] for v in varlist]


class RoundRobin(PSDispatcher):
    """Endpoints in turn, continuing from the last dispatch until reset()."""

    def dispatch(self, varlist: list) -> list:
        out = []
        for _ in varlist:
            out.append(self._eps[self._step])
            self._step = (self._step + 1) % len(self._eps)
        return out


for _cls in (HashName, RoundRobin, PSDispatcher):
    export(_cls, f"paddle.fluid.transpiler.{_cls.__name__}")
# 1.8.5 lists HashName / RoundRobin in paddle.fluid.__all__ without binding them there: bind the working classes.
export(HashName, "paddle.fluid.HashName")
export(RoundRobin, "paddle.fluid.RoundRobin")


def calc_gradient(targets: Any, inputs: Any, target_gradients: Any = None, no_grad_set: Any = None) -> Any:
    """fluid.backward.calc_gradient: fluid.backward.gradients, but one input's gradient comes back alone (not in a
    list), as Paddle 1.8 returns it."""
    from paddle_compat.engine.static.backward import gradients

    outs = gradients(targets, inputs, target_gradients, no_grad_set)
    return outs[0] if len(outs) == 1 else outs


def _set_eager_deletion_mode(threshold: float, fraction: float, fast_mode: bool) -> None:
    """fluid.core._set_eager_deletion_mode: sets FLAGS_eager_delete_tensor_gb, FLAGS_memory_fraction_of_eager_deletion
    and FLAGS_fast_eager_deletion_mode, as Paddle's binding does (torch frees unused tensors itself)."""
    from paddle_compat.engine.core.flags import set_flags

    set_flags({"FLAGS_eager_delete_tensor_gb": float(threshold),
               "FLAGS_memory_fraction_of_eager_deletion": float(fraction),
               "FLAGS_fast_eager_deletion_mode": bool(fast_mode)})


export(calc_gradient, "paddle.fluid.backward.calc_gradient")
export(_set_eager_deletion_mode, "paddle.fluid.core._set_eager_deletion_mode")
