"""Weight decay regularizers: the gradient gets `coeff * param` (L2) or `coeff * sign(param)` (L1),
recorded as Paddle does (`scale` + `sum`). 2.x's paddle.regularizer.L2Decay / L1Decay take `coeff`; 1.8's
fluid.regularizer.L2Decay(Regularizer) / L1Decay(Regularizer) are their subclasses taking `regularization_coeff`."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.framework.registry import export


class WeightDecayRegularizer:
    _kind = ""
    _arg = "coeff"

    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = float(coeff)

    def _decay(self, param: Any) -> Any:
        raise NotImplementedError

    def append(self, param: Any, grad: Any) -> Any:
        from paddle_compat.engine.ops.tensor.math import add_n

        return add_n([grad, self._decay(param)])

    def __str__(self) -> str:
        return "%s, %s=%f" % (self._kind, self._arg, self._coeff)


class L2Decay(WeightDecayRegularizer):
    _kind = "L2Decay"

    def _decay(self, param: Any) -> Any:
        from paddle_compat.engine.ops.tensor.math import scale

        return scale(param, scale=self._coeff)


class L1Decay(WeightDecayRegularizer):
    _kind = "L1Decay"

    def _decay(self, param: Any) -> Any:
        from paddle_compat.engine.ops.tensor.math import scale, sign

        return scale(sign(param), scale=self._coeff)


class _Fluid18:
    """Paddle 1.8's spelling: `regularization_coeff`."""

    _arg = "regularization_coeff"

    def __init__(self, regularization_coeff: float = 0.0) -> None:
        WeightDecayRegularizer.__init__(self, regularization_coeff)  # type: ignore[arg-type]

    @property
    def _regularization_coeff(self) -> float:
        return self._coeff  # type: ignore[attr-defined]


class L2DecayRegularizer(_Fluid18, L2Decay):
    """fluid.regularizer.L2Decay / L2DecayRegularizer."""


class L1DecayRegularizer(_Fluid18, L1Decay):
    """fluid.regularizer.L1Decay / L1DecayRegularizer."""


export(L2Decay, "paddle.regularizer.L2Decay")
export(L1Decay, "paddle.regularizer.L1Decay")
export(L2DecayRegularizer, "paddle.fluid.regularizer.L2Decay", "paddle.fluid.regularizer.L2DecayRegularizer")
export(L1DecayRegularizer, "paddle.fluid.regularizer.L1Decay", "paddle.fluid.regularizer.L1DecayRegularizer")
export(WeightDecayRegularizer, "paddle.fluid.regularizer.WeightDecayRegularizer")


def append_regularization_ops(parameters_and_grads: Any, regularization: Any = None) -> list:
    """fluid.regularizer / fluid.optimizer.append_regularization_ops (1.8.5): each gradient gets its parameter's
    regularizer (else `regularization`) added, recorded (`scale` + `sum`) in the parameter's own program with the
    optimizer role; pairs without a regularizer or gradient are returned unchanged."""
    from paddle_compat.engine.core.mode import MODE
    from paddle_compat.engine.framework.dispatch import role_guard
    from paddle_compat.engine.framework.program import ROLE_OPTIMIZE, program_guard

    out = []
    for param, grad in parameters_and_grads:
        reg = getattr(param, "regularizer", None) or regularization
        if grad is None or reg is None:
            out.append((param, grad))
        elif MODE.static:
            with program_guard(param.block.program), role_guard(ROLE_OPTIMIZE):
                out.append((param, reg.append(param, grad)))
        else:
            out.append((param, reg.append(param, grad)))
    return out


export(append_regularization_ops, "paddle.fluid.regularizer.append_regularization_ops",
       "paddle.fluid.optimizer.append_regularization_ops")
