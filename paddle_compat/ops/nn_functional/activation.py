"""Activation ops. One table for the argument-free ones; the rest are written out."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from paddle_compat.ops.registry import op

# Paddle op type -> (torch body, exports)
SIMPLE = {
    "relu": (torch.relu, ("paddle.nn.functional.relu", "paddle.fluid.layers.relu", "paddle.Tensor.relu")),
    "tanh": (torch.tanh, ("paddle.tanh", "paddle.nn.functional.tanh", "paddle.fluid.layers.tanh",
                          "paddle.Tensor.tanh")),
    "sigmoid": (torch.sigmoid, ("paddle.nn.functional.sigmoid", "paddle.fluid.layers.sigmoid",
                                "paddle.Tensor.sigmoid")),
}


def _simple_body(fn):
    def body(x, name=None):
        return fn(x)

    return body


for _type, (_fn, _exports) in SIMPLE.items():
    _ip = {"relu": "relu_", "tanh": "tanh_"}.get(_type)
    globals()[_type] = op(_type, exports=_exports, inplace=_ip)(_simple_body(_fn))


@op("softmax", exports=("paddle.nn.functional.softmax",), inplace="softmax_")
def softmax(x, axis=-1, dtype=None, name=None):
    from paddle_compat.ops.common import tdtype

    d = tdtype(dtype)
    return torch.softmax(x if d is None else x.to(d), dim=axis)


@op("gelu", exports=("paddle.nn.functional.gelu",))
def gelu(x, approximate=False, name=None):
    return F.gelu(x, approximate="tanh" if approximate else "none")


@op("leaky_relu", exports=("paddle.nn.functional.leaky_relu",))
def leaky_relu(x, negative_slope=0.01, name=None):
    return F.leaky_relu(x, negative_slope)


_ACTS = {
    "relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "softmax": lambda t: torch.softmax(t, -1),
    "gelu": F.gelu, "leaky_relu": F.leaky_relu, "relu6": F.relu6, "elu": F.elu, "softplus": F.softplus,
    "softsign": F.softsign, "swish": F.silu, "hard_swish": F.hardswish, "hard_sigmoid": F.hardsigmoid,
    "log_softmax": lambda t: torch.log_softmax(t, -1), "abs": torch.abs, "exp": torch.exp,
    "square": torch.square, "sqrt": torch.sqrt,
}


def apply_act(t: torch.Tensor, act: str | None) -> torch.Tensor:
    """Inside an op body: apply an activation given by its Paddle name."""
    if not act:
        return t
    try:
        return _ACTS[act](t)
    except KeyError:
        raise ValueError(f"unsupported activation {act!r}; expected one of {sorted(_ACTS)}") from None


def act_layer(x, act: str | None):
    """Outside op bodies (fluid adapters): record / run the activation as its own Paddle op."""
    if not act:
        return x
    from paddle_compat.ops.registry import OPS

    if act not in OPS:
        raise ValueError(f"unsupported activation {act!r}")
    return OPS[act].public(x)
