"""Parameter initializers (fluid.initializer.* and paddle.nn.initializer.*).

Each initializer names the registry op that fills a parameter (uniform_random, gaussian_random,
truncated_gaussian_random, fill_constant, assign_value) and its attributes. In static mode the op is
recorded into the startup program under the parameter's name, as Paddle does; in dygraph it runs at once.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from paddle_compat.engine.framework.registry import export


# paddle.nn.initializer.set_global_initializer (paddle2/nn/initializer.py): used when a ParamAttr names no initializer
GLOBAL_INITIALIZER: dict[str, Any] = {"weight": None, "bias": None}


def compute_fans(shape: list[int]) -> tuple[int, int]:
    """Paddle's fan computation: [in, out] for 2-D weights, [out_c, in_c, *k] for conv weights."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    rf = int(np.prod(shape[2:]))
    return shape[1] * rf, shape[0] * rf


class Initializer:
    def _fill(self, shape: list[int], dtype: Any, name: str | None):
        raise NotImplementedError

    def _program_seed(self) -> int:
        """The sampler's seed: a seed of 0 becomes, on first use, the random_seed of the program the parameter is
        initialized in (the current main program: the startup program in static mode, the default main program in
        dygraph), as Paddle's initializers do (`if self._seed == 0: self._seed = block.program.random_seed`). A
        nonzero seed draws from a fresh generator seeded with it, so parameters of one shape then start equal."""
        if not self.seed:
            from paddle_compat.engine.framework.program import default_main_program

            self.seed = int(default_main_program().random_seed or 0)
        return self.seed

    # fluid 1.8's initializers prepend their op to the block (`block._prepend_op`); 2.x's append it
    _prepend = True

    def __call__(self, param: Any, block: Any = None) -> Any:
        """Paddle's `init(var, block)`: (re)initialize an existing variable. In static mode the op goes into `block`,
        by default the global block of the current main program (2.4 / 2.6 `_check_block`), so an initializer called
        on a model's parameter (`trunc_normal_(self.pos_embed)`) redraws it at every run of the main program, as in
        Paddle. fluid's 1.8 initializers put it first in the block (tests/api2x/cases_static26_names.py)."""
        from paddle_compat.engine.core.mode import MODE

        if MODE.static:
            from paddle_compat.engine.framework.dispatch import rebind
            from paddle_compat.engine.framework.program import Block, default_main_program, program_guard

            if block is not None and not isinstance(block, Block):
                raise TypeError(f"{type(self).__name__}: block should be a static Block (e.g. "
                                f"program.global_block()), but received {type(block).__name__}")
            block = block if block is not None else default_main_program().global_block()
            own = block.vars.get(param.name)
            with program_guard(block.program):
                out = self._fill(list(param.shape), param.dtype, None if own is not None else param.name)
            if own is None:  # a variable of another program (the startup one holds no parameters): declared here
                out.persistable = True
                own = out
            else:
                before = own.node
                rebind(own, out)
                if self._prepend and before is not None:
                    _to_front(block.graph, own, before)
            return own
        value = self._fill(list(param.shape), param.dtype, None)
        param._t = value._t.to(param._t.device).requires_grad_(param._t.requires_grad)
        return param


def _to_front(graph: Any, var: Any, before: Any) -> None:
    """fluid 1.8's prepend: the initializer op (with the constants it reads) moves before the block's first op.
    Every op that read the variable's fed / scope value (its placeholder) then reads the initialized one; a
    variable some op already wrote keeps that op's value, as the prepended op runs before it."""
    node = var.node
    first = next(n for n in graph.nodes if n.op not in ("placeholder", "get_attr"))
    if first is not node:
        for n in [*node.all_input_nodes, node]:
            if n.op != "placeholder":
                first.prepend(n)
    if before.op == "placeholder":
        before.replace_all_uses_with(node, delete_user_cb=lambda u: u is not node)
    else:
        var.node = before
    var.block.program._bump()


class ConstantInitializer(Initializer):
    def __init__(self, value: float = 0.0, force_cpu: bool = False) -> None:
        self.value = value

    def _fill(self, shape, dtype, name):
        from paddle_compat.engine.ops.tensor.creation import fill_constant

        return fill_constant(shape, dtype, float(self.value), name=name)


class UniformInitializer(Initializer):
    def __init__(self, low: float = -1.0, high: float = 1.0, seed: int = 0, diag_num: int = 0,
                 diag_step: int = 0, diag_val: float = 1.0) -> None:
        self.low, self.high, self.seed = low, high, seed

    def _fill(self, shape, dtype, name):
        from paddle_compat.engine.ops.tensor.creation import uniform

        return uniform(shape, dtype, min=self.low, max=self.high, seed=self._program_seed(), name=name)


class NormalInitializer(Initializer):
    def __init__(self, loc: float = 0.0, scale: float = 1.0, seed: int = 0) -> None:
        self.loc, self.scale, self.seed = loc, scale, seed

    def _fill(self, shape, dtype, name):
        from paddle_compat.engine.ops.tensor.creation import gaussian_random

        return gaussian_random(shape, mean=self.loc, std=self.scale, seed=self._program_seed(), dtype=dtype,
                               name=name)


class TruncatedNormalInitializer(NormalInitializer):
    def _fill(self, shape, dtype, name):
        from paddle_compat.engine.ops.tensor.creation import truncated_gaussian_random

        return truncated_gaussian_random(shape, mean=self.loc, std=self.scale, seed=self._program_seed(),
                                         dtype=dtype, name=name)


class XavierInitializer(Initializer):
    def __init__(self, uniform: bool = True, fan_in: float | None = None, fan_out: float | None = None,
                 seed: int = 0) -> None:
        self.uniform, self.fan_in, self.fan_out, self.seed = uniform, fan_in, fan_out, seed

    def _fill(self, shape, dtype, name):
        fi, fo = compute_fans(shape)
        fi = self.fan_in if self.fan_in is not None else fi
        fo = self.fan_out if self.fan_out is not None else fo
        if self.uniform:
            limit = math.sqrt(6.0 / float(fi + fo))
            return UniformInitializer(-limit, limit, self._program_seed())._fill(shape, dtype, name)
        return NormalInitializer(0.0, math.sqrt(2.0 / float(fi + fo)), self._program_seed())._fill(shape, dtype,
                                                                                                  name)


class MSRAInitializer(Initializer):
    def __init__(self, uniform: bool = True, fan_in: float | None = None, seed: int = 0,
                 negative_slope: float = 0.0, nonlinearity: str = "relu") -> None:
        self.uniform, self.fan_in, self.seed = uniform, fan_in, seed
        self.gain_sq = 2.0 / (1 + negative_slope ** 2) if nonlinearity == "leaky_relu" else 2.0

    def _fill(self, shape, dtype, name):
        fi = self.fan_in if self.fan_in is not None else compute_fans(shape)[0]
        if self.uniform:
            limit = math.sqrt(3.0 * self.gain_sq / float(fi))
            return UniformInitializer(-limit, limit, self._program_seed())._fill(shape, dtype, name)
        return NormalInitializer(0.0, math.sqrt(self.gain_sq / float(fi)), self._program_seed())._fill(shape, dtype,
                                                                                                      name)


class NumpyArrayInitializer(Initializer):
    def __init__(self, value: Any) -> None:
        self.value = np.asarray(value)

    def _fill(self, shape, dtype, name):
        """The array as it is: a parameter declared with another shape takes the array's shape (Paddle 1.8.5 and
        2.6.2 in both modes: the assign_value op writes the array's shape; nothing compares it with the
        parameter's)."""
        from paddle_compat.engine.ops.tensor.creation import assign_value

        return assign_value(self.value, dtype=dtype, name=name)


# 2.x spellings (paddle.nn.initializer)
class Constant(ConstantInitializer):
    _prepend = False


class Uniform(UniformInitializer):
    _prepend = False

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        super().__init__(low, high)


class Normal(NormalInitializer):
    _prepend = False

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        super().__init__(mean, std)


class TruncatedNormal(TruncatedNormalInitializer):
    _prepend = False

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        super().__init__(mean, std)


class XavierUniform(XavierInitializer):
    _prepend = False

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, name: str | None = None) -> None:
        super().__init__(True, fan_in, fan_out)


class XavierNormal(XavierInitializer):
    _prepend = False

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, name: str | None = None) -> None:
        super().__init__(False, fan_in, fan_out)


class KaimingUniform(MSRAInitializer):
    _prepend = False

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 name: str | None = None) -> None:
        super().__init__(True, fan_in, 0, negative_slope, nonlinearity)


class KaimingNormal(MSRAInitializer):
    _prepend = False

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 name: str | None = None) -> None:
        super().__init__(False, fan_in, 0, negative_slope, nonlinearity)


class Assign(NumpyArrayInitializer):
    _prepend = False

    def __init__(self, value: Any, name: str | None = None) -> None:
        if hasattr(value, "numpy"):
            value = value.numpy()
        super().__init__(value)


_FLUID = {
    "Constant": ConstantInitializer, "ConstantInitializer": ConstantInitializer,
    "Uniform": UniformInitializer, "UniformInitializer": UniformInitializer,
    "Normal": NormalInitializer, "NormalInitializer": NormalInitializer,
    "TruncatedNormal": TruncatedNormalInitializer, "TruncatedNormalInitializer": TruncatedNormalInitializer,
    "Xavier": XavierInitializer, "XavierInitializer": XavierInitializer,
    "MSRA": MSRAInitializer, "MSRAInitializer": MSRAInitializer,
    "NumpyArrayInitializer": NumpyArrayInitializer,
}
for _n, _c in _FLUID.items():
    export(_c, f"paddle.fluid.initializer.{_n}")
for _c in (Constant, Uniform, Normal, TruncatedNormal, XavierUniform, XavierNormal, KaimingUniform, KaimingNormal,
           Assign):
    export(_c, f"paddle.nn.initializer.{_c.__name__}")
export(Initializer, "paddle.nn.initializer.Initializer", "paddle.fluid.initializer.Initializer")
