"""Kernels kept out of torch.compile graphs (the compiler path, engine/static/compile_backend.py).

A fused torch kernel that AOTAutograd would decompose into many small ops is faster left as it is: torch's RNN
kernels (`torch.lstm`, `torch.gru`, ...) become per-time-step ops under torch.compile, and lstm_lm's compiler row
ran at 1.12-1.20x torch eager that way; with the kernel kept it runs at 0.96x (plain torch.compile leaves
`nn.LSTM` to the eager kernel as well). Dynamo breaks the graph around a kept kernel and autograd joins the
compiled pieces to the kernel's own backward. The same holds a function of ours whose backward keeps state
(`keep`): the embedding lookup of a large table, whose gradient goes into a buffer kept per table
(engine/ops/nn_functional/input.py).

An op body calls `kernel(name)` instead of `getattr(torch, name)`: under torch.compile it gets the wrapper. The disabled
wrappers are built by `prepare()`, which the compiler path calls before it compiles: building one imports dynamo,
which costs about a second, so importing paddle never does (a wrapper built during a trace would cost one more
graph break, and is built that way only when something compiles our code without the compiler path).
"""

from __future__ import annotations

from typing import Any

import torch

# name -> the kernel: torch's fused RNN kernels by their torch name, and what `keep` adds
KEPT: dict[str, Any] = {name: getattr(torch, name) for name in ("lstm", "gru", "rnn_tanh", "rnn_relu")}
_WRAPPED: dict[str, Any] = {}


def keep(name: str, fn: Any) -> None:
    """Keep `fn` out of compiled graphs too, called as `kernel(name)`."""
    KEPT[name] = fn


def prepare() -> None:
    """Build the disabled wrapper of every kernel in KEPT (imports torch._dynamo)."""
    for name, fn in KEPT.items():
        if name not in _WRAPPED:
            _WRAPPED[name] = torch.compiler.disable(fn, recursive=False)


def kernel(name: str) -> Any:
    """The kept kernel `name` as the caller must call it: itself, or under torch.compile its wrapper that stays
    outside the graph."""
    if not torch.compiler.is_compiling():
        return KEPT[name]
    fn = _WRAPPED.get(name)
    if fn is None:
        prepare()
        fn = _WRAPPED[name]
    return fn
