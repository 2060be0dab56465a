"""torch.autograd.grad / backward without their Python-side import of sympy.

torch's `_make_grads` checks each given gradient's shape with `torch.fx.experimental.symbolic_shapes`, whose
import pulls in sympy and mpmath (about 490 modules): the first backward of every process paid about 0.5 s and
35 MiB of resident memory for it (issue 15: a first run, and the memory of a static training step). For plain
tensors whose gradients have their outputs' shapes, that check has nothing to find, so these functions call
the autograd engine directly, as torch.autograd.grad / backward do after it; anything else (a tensor subclass
or mode with __torch_function__, a DTensor, a shape that differs, a complex mismatch, a torch without the
engine entry point) goes through torch's own functions and their errors.
"""

from __future__ import annotations

from typing import Sequence

import torch

from paddle_compat.engine.core.dist_tensor import PLAIN as _PLAIN

_ENGINE = getattr(getattr(torch.autograd, "graph", None), "_engine_run_backward", None)


def _direct(outputs: Sequence[torch.Tensor], grads: Sequence[torch.Tensor], inputs: Sequence[torch.Tensor]) -> bool:
    """Whether torch's checks of (outputs, grads) pass without running them: plain tensors, same shapes."""
    if _ENGINE is None or len(outputs) != len(grads):
        return False
    for o, g in zip(outputs, grads):
        if type(o) not in _PLAIN or type(g) not in _PLAIN or o.shape != g.shape \
                or o.dtype.is_complex != g.dtype.is_complex:
            return False
    return all(type(i) in _PLAIN for i in inputs) and not torch.overrides.has_torch_function((*outputs, *inputs))


def grad(outputs: Sequence[torch.Tensor], inputs: Sequence[torch.Tensor], grad_outputs: Sequence[torch.Tensor],
         retain_graph: bool | None = None, create_graph: bool = False, allow_unused: bool = True) -> tuple:
    """torch.autograd.grad(outputs, inputs, grad_outputs, ...), grad_outputs given for every output (retain_graph
    None: create_graph's value, as torch's)."""
    outputs, inputs, grad_outputs = tuple(outputs), tuple(inputs), tuple(grad_outputs)
    if inputs and _direct(outputs, grad_outputs, inputs):
        keep = bool(create_graph) if retain_graph is None else bool(retain_graph)
        return _ENGINE(outputs, grad_outputs, keep, bool(create_graph), inputs, bool(allow_unused),
                       accumulate_grad=False)
    return torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
                               allow_unused=allow_unused)


def backward(tensors: Sequence[torch.Tensor], grad_tensors: Sequence[torch.Tensor], retain_graph: bool = False) -> None:
    """torch.autograd.backward(tensors, grad_tensors, retain_graph): accumulates into the leaves' .grad."""
    tensors, grad_tensors = tuple(tensors), tuple(grad_tensors)
    if _direct(tensors, grad_tensors, ()):
        _ENGINE(tensors, grad_tensors, bool(retain_graph), False, (), allow_unreachable=True, accumulate_grad=True)
    else:
        torch.autograd.backward(tensors, grad_tensors, retain_graph=retain_graph)
