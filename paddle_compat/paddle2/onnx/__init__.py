"""`paddle.onnx.export(layer, path, input_spec)`: writes `path + '.onnx'` through torch's ONNX exporter (the
TorchScript one: torch.onnx.export(dynamo=False)) where the `onnx` package is installed
(`pip install 'paddle_compat[onnx]'`); without it, Paddle's ImportError with the extra named.

Paddle converts its own static program with paddle2onnx; we trace the layer's eval forward instead, so the file
holds torch's ONNX ops for the same computation (checked numerically against the layer in tests). The layer's
parameters become the graph's initializers; input dims given as -1 / None in the InputSpec are dynamic axes.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import torch

from paddle_compat.engine.core.errors import InvalidArgumentError
from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export as _export

_API = "paddle.onnx.export"


class _Traced(torch.nn.Module):
    """The layer as a torch Module over torch tensors, its parameters registered so they export as initializers."""

    def __init__(self, layer: Any) -> None:
        super().__init__()
        self._layer = layer
        self._swapped: list = []
        for i, p in enumerate(layer.parameters()):
            param = torch.nn.Parameter(p._t.detach(), requires_grad=False)
            self.register_parameter(f"p{i}", param)
            self._swapped.append((p, p._t))
            p._t = param  # the forward reads the registered Parameter (same storage)

    def restore(self) -> None:
        for p, t in self._swapped:
            p._t = t

    def forward(self, *ts: torch.Tensor) -> Any:
        out = self._layer(*[Tensor._wrap(t) for t in ts])
        outs = out if isinstance(out, (list, tuple)) else [out]
        return tuple(o._t if isinstance(o, Tensor) else o for o in outs)


def _example(spec: Any, i: int) -> tuple[torch.Tensor, str, dict]:
    from paddle_compat.engine.core import dtype as _dt

    if isinstance(spec, Tensor):
        return spec._t.detach(), getattr(spec, "name", None) or f"x{i}", {}
    shape = getattr(spec, "shape", None)
    if shape is None:
        raise InvalidArgumentError(f"{_API}: input_spec[{i}] should be a paddle.static.InputSpec or a Tensor, but "
                                   f"received {type(spec).__name__}")
    name = getattr(spec, "name", None) or f"x{i}"
    dynamic = {d: f"{name}_dim{d}" for d, s in enumerate(shape) if s is None or s < 0}
    dims = [1 if (s is None or s < 0) else int(s) for s in shape]
    torch_dtype = _dt.to_torch_dtype(spec.dtype)
    value = torch.zeros(dims, dtype=torch_dtype) if not torch_dtype.is_floating_point else torch.rand(dims).to(
        torch_dtype)
    return value, name, dynamic


def export(layer: Any, path: str, input_spec: Any = None, opset_version: int = 9, **configs: Any) -> None:
    """Export `layer` (a paddle.nn.Layer) to `path + '.onnx'`; `input_spec` lists the forward's inputs."""
    file_prefix = os.path.basename(path)
    if file_prefix == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in Windows "
                         f"system], but the file_prefix is empty in received path: {path}")
    if importlib.util.find_spec("onnx") is None:
        raise ImportError(f"{_API} needs the `onnx` package, which is not installed: pip install "
                          "'paddle_compat[onnx]' (Paddle itself needs paddle2onnx here)")
    if input_spec is None:
        raise InvalidArgumentError(f"{_API}: input_spec is required (the shapes and dtypes of the forward's inputs)")
    specs = list(input_spec) if isinstance(input_spec, (list, tuple)) else [input_spec]
    examples, names, dynamic = [], [], {}
    for i, spec in enumerate(specs):
        value, name, axes = _example(spec, i)
        examples.append(value)
        names.append(name)
        if axes:
            dynamic[name] = axes
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    was_training = getattr(layer, "training", False)
    layer.eval()
    module = _Traced(layer)
    try:
        with torch.no_grad():
            n_out = len(module(*examples))
            outputs = [f"output_{k}" for k in range(n_out)]
            torch.onnx.export(module, tuple(examples), path + ".onnx", opset_version=int(opset_version),
                              input_names=names, output_names=outputs, dynamic_axes=dynamic or None, dynamo=False)
    finally:
        module.restore()
        if was_training:
            layer.train()


_export(export, "paddle.onnx.export")
