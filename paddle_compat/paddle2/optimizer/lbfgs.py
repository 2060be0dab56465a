"""paddle.optimizer.LBFGS: limited-memory BFGS with an optional strong-Wolfe line search. Paddle's
implementation is the same algorithm as torch.optim.LBFGS (two-loop recursion, first step min(1, 1/|g|_1) * lr,
the same line search and stopping tests), so the iterations run in torch.optim.LBFGS on the parameters' tensors.
Like Paddle's, step() takes a closure that clears the gradients, computes the loss, calls backward and returns
the loss; weight_decay and grad_clip are accepted and, as in Paddle, not applied."""

from __future__ import annotations

from typing import Any, Callable

import torch

from paddle_compat.engine.framework.tensor import Tensor
from paddle_compat.engine.framework.registry import export
from paddle_compat.paddle2.optimizer.optimizer import Optimizer


class LBFGS(Optimizer):
    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        api = "paddle.optimizer.LBFGS"
        if isinstance(parameters, Tensor):
            raise TypeError(f"{api}: parameters argument given to the optimizer should be an iterable of Tensors or "
                            f"dicts, but got {type(parameters).__name__}")
        if line_search_fn not in (None, "strong_wolfe"):
            raise RuntimeError(f"{api}: only 'strong_wolfe' is supported, but got line_search_fn={line_search_fn!r}")
        self.learning_rate, self.max_iter = learning_rate, max_iter
        self.max_eval = max_eval if max_eval is not None else max_iter * 5 // 4
        self.tolerance_grad, self.tolerance_change = tolerance_grad, tolerance_change
        self.history_size, self.line_search_fn = history_size, line_search_fn
        super().__init__(learning_rate=1.0, parameters=parameters, weight_decay=weight_decay, grad_clip=grad_clip,
                         name=name)
        self._params = list(self._parameter_list or [])
        self._torch = torch.optim.LBFGS([p._t for p in self._params], lr=learning_rate, max_iter=max_iter,
                                        max_eval=self.max_eval, tolerance_grad=tolerance_grad,
                                        tolerance_change=tolerance_change, history_size=history_size,
                                        line_search_fn=line_search_fn)

    @property
    def state(self) -> dict:
        return self._torch.state[self._torch.param_groups[0]["params"][0]] if self._params else {}

    def step(self, closure: Callable[[], Any]) -> Any:
        """Run up to max_iter iterations, re-evaluating the closure as the line search needs; returns the loss
        of the closure's first evaluation."""
        if closure is None or not callable(closure):
            raise TypeError("paddle.optimizer.LBFGS.step: closure (clear gradients, compute the loss, backward, "
                            "return the loss) is required")
        first: list = []

        def torch_closure() -> Any:
            loss = closure()
            if not first:
                first.append(loss)
            return loss._t if isinstance(loss, Tensor) else loss

        self._torch.step(torch_closure)
        return first[0]

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None) -> Any:
        raise NotImplementedError("LBFGS optimizer does not use this way to minimize loss. Please refer 'Examples' "
                                  "of LBFGS() for usage.")

    def state_dict(self) -> dict:
        return {"state": {k: (Tensor._wrap(v) if isinstance(v, torch.Tensor) else v) for k, v in self.state.items()}}


export(LBFGS, "paddle.optimizer.LBFGS")
