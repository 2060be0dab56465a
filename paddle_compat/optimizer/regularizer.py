"""Weight decay regularizers: the gradient gets `coeff * param` (L2) or `coeff * sign(param)` (L1),
recorded as Paddle does (`scale` + `sum`)."""

from __future__ import annotations

from typing import Any

from paddle_compat.ops.registry import export


class WeightDecayRegularizer:
    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = float(coeff)

    def _decay(self, param: Any) -> Any:
        raise NotImplementedError

    def append(self, param: Any, grad: Any) -> Any:
        from paddle_compat.ops.tensor.math import add_n

        return add_n([grad, self._decay(param)])

    def __str__(self) -> str:
        return f"{type(self).__name__}, coeff={self._coeff}"


class L2Decay(WeightDecayRegularizer):
    def _decay(self, param: Any) -> Any:
        from paddle_compat.ops.tensor.math import scale

        return scale(param, scale=self._coeff)


class L1Decay(WeightDecayRegularizer):
    def _decay(self, param: Any) -> Any:
        from paddle_compat.ops.tensor.math import scale, sign

        return scale(sign(param), scale=self._coeff)


export(L2Decay, "paddle.regularizer.L2Decay", "paddle.fluid.regularizer.L2Decay",
       "paddle.fluid.regularizer.L2DecayRegularizer")
export(L1Decay, "paddle.regularizer.L1Decay", "paddle.fluid.regularizer.L1Decay",
       "paddle.fluid.regularizer.L1DecayRegularizer")
