"""Dygraph parameters: a `paddle.Tensor` with Paddle's parameter attributes."""

from __future__ import annotations

from typing import Any

import torch

from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export


class EagerParameter(Tensor):
    """`paddle.fluid.framework.EagerParamBase`: trainable by default, named like `linear_0.w_0`."""

    # _selected_rows_grad: an is_sparse embedding's table, whose gradient Paddle keeps as a SelectedRows
    # (Optimizer._selected_rows); unset on the others
    __slots__ = ("trainable", "optimize_attr", "regularizer", "need_clip", "do_model_average", "is_distributed",
                 "_selected_rows_grad")

    @classmethod
    def _from_tensor(cls, value: Any, name: str, trainable: bool = True, optimize_attr: dict | None = None,
                     regularizer: Any = None, need_clip: bool = True) -> "EagerParameter":
        t = value._t if isinstance(value, Tensor) else value
        t = t.detach()
        if trainable and t.is_floating_point():
            t.requires_grad_(True)
        p = cls._wrap(t)
        p.name = name
        p.persistable = True
        p.trainable = trainable
        p.optimize_attr = optimize_attr or {"learning_rate": 1.0}
        p.regularizer = regularizer
        p.need_clip = need_clip
        p.do_model_average = None
        p.is_distributed = False
        return p

    @classmethod
    def _wrap(cls, t: torch.Tensor) -> "EagerParameter":
        obj = object.__new__(cls)
        obj._t = t
        obj.name = None
        obj.persistable = True
        obj.trainable = t.requires_grad
        obj.optimize_attr = {"learning_rate": 1.0}
        obj.regularizer = None
        obj.need_clip = True
        obj.do_model_average = None
        obj.is_distributed = False
        return obj

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


def is_parameter(x: Any) -> bool:
    from paddle_compat.engine.framework.program import Parameter

    return isinstance(x, (EagerParameter, Parameter))


export(is_parameter, "paddle.fluid.io.is_parameter")
# 1.8's dygraph parameter class (`isinstance(p, fluid.framework.ParamBase)`); 2.x calls it EagerParamBase
export(EagerParameter, "paddle.fluid.framework.ParamBase", "paddle.fluid.framework.EagerParamBase")
