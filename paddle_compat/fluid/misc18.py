"""Smaller fluid 1.8 names: the Bilinear initializer (also paddle.nn.initializer.Bilinear) and the
parameter-server dispatchers HashName / RoundRobin (fluid.transpiler; DistributeTranspilerConfig.split_method)."""

from __future__ import annotations

from typing import Any

import numpy as np

from paddle_compat.ops.registry import export
from paddle_compat.static.initializer import Initializer


def bilinear_weights(shape: list) -> np.ndarray:
    """Paddle's upsampling kernel for a [C_out, C_in, K, K] filter. The row coordinate is (i / K) % K with true
    division, as Paddle computes it under Python 3 (not an integer row index)."""
    if len(shape) != 4:
        raise ValueError("the length of shape must be 4.")
    if shape[2] != shape[3]:
        raise ValueError("shape[2] must be equal to shape[3].")
    size = shape[3]
    f = np.ceil(size / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    x = i % size
    y = (i / size) % size
    return ((1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))).astype("float32").reshape(shape)


class BilinearInitializer(Initializer):
    """Initializes a conv2d_transpose filter [C, C, K, K] as bilinear interpolation (for upsampling)."""

    def _fill(self, shape, dtype, name):
        from paddle_compat.ops.tensor.creation import assign_value

        if int(np.prod(shape)) > 1024 * 1024:
            raise ValueError("The size of input is too big. ")
        return assign_value(bilinear_weights(list(shape)), dtype=dtype, name=name)


class Bilinear(BilinearInitializer):
    """paddle.nn.initializer.Bilinear()."""


export(BilinearInitializer, "paddle.fluid.initializer.Bilinear", "paddle.fluid.initializer.BilinearInitializer")
export(Bilinear, "paddle.nn.initializer.Bilinear")


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
