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

    def __call__(self, param: Any, block: Any = None) -> Any:
        """Paddle's `init(var, block)`: (re)initialize an existing parameter."""
        from paddle_compat.engine.core.mode import MODE

        if MODE.static:
            from paddle_compat.engine.framework.program import default_startup_program, program_guard

            with program_guard(default_startup_program()):
                out = self._fill(list(param.shape), param.dtype, param.name)
            out.persistable = True
            return out
        value = self._fill(list(param.shape), param.dtype, None)
        param._t = value._t.to(param._t.device).requires_grad_(param._t.requires_grad)
        return param


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
    pass


class Uniform(UniformInitializer):
    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        super().__init__(low, high)


class Normal(NormalInitializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        super().__init__(mean, std)


class TruncatedNormal(TruncatedNormalInitializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        super().__init__(mean, std)


class XavierUniform(XavierInitializer):
    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, name: str | None = None) -> None:
        super().__init__(True, fan_in, fan_out)


class XavierNormal(XavierInitializer):
    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, name: str | None = None) -> None:
        super().__init__(False, fan_in, fan_out)


class KaimingUniform(MSRAInitializer):
    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 name: str | None = None) -> None:
        super().__init__(True, fan_in, 0, negative_slope, nonlinearity)


class KaimingNormal(MSRAInitializer):
    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 name: str | None = None) -> None:
        super().__init__(False, fan_in, 0, negative_slope, nonlinearity)


class Assign(NumpyArrayInitializer):
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
