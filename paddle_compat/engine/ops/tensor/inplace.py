"""In-place Tensor variants of composed APIs (`x.multiply_(y)`, `x.fill_(v)`, `x.zero_()`, ...), and Tensor
methods Paddle has for functions defined elsewhere. Ops with their own `inplace=` (tanh_, reshape_, scatter_,
clip_, scale_, ...) are declared at the op; these wrap a public function with `make_inplace_api`."""

from __future__ import annotations

from paddle_compat.engine.framework.registry import METHODS, OPS, export
from paddle_compat.engine.ops.tensor import attribute, creation, linalg, manipulation, math, random, search
from paddle_compat.engine.ops.tensor._helpers import make_inplace_api

# in-place name -> the function whose result replaces x
COMPOSED = {
    "multiply_": math.multiply, "divide_": math.divide, "mod_": math.mod,
    "floor_divide_": math.floor_divide, "pow_": math.pow, "cumsum_": math.cumsum, "addmm_": math.addmm,
    "transpose_": manipulation.transpose, "tril_": creation.tril, "triu_": creation.triu, "t_": manipulation.t,
    "neg_": math.neg, "cast_": creation.cast,
}
for _name, _fn in COMPOSED.items():
    export(make_inplace_api(_fn, _name), f"paddle.{_name}", f"paddle.Tensor.{_name}")
# floor_mod is mod / remainder (one object in Paddle); Tensor.reverse is paddle.flip (reverse's 2.x home)
export(METHODS["mod_"], "paddle.floor_mod_", "paddle.Tensor.floor_mod_", "paddle.remainder_",
       "paddle.Tensor.remainder_")
export(math.mod, "paddle.Tensor.floor_mod")
export(OPS["flip"].public, "paddle.Tensor.reverse")
export(make_inplace_api(OPS["sigmoid"].public, "sigmoid_"), "paddle.Tensor.sigmoid_")


def _fill(x, value):
    return creation.full_like(x, value)


def _zero(x):
    return creation.full_like(x, 0)


def _uniform(x, min=-1.0, max=1.0, seed=0, name=None):  # noqa: A002
    return creation.uniform(list(x.shape), x.dtype, min, max, seed)


export(make_inplace_api(_fill, "fill_"), "paddle.Tensor.fill_")
export(make_inplace_api(_zero, "zero_"), "paddle.Tensor.zero_")
export(make_inplace_api(_uniform, "uniform_"), "paddle.Tensor.uniform_")

# Tensor methods for functions that are not methods at their definition
for _name in ("add_n", "diag", "multiplex", "shard_index", "stack", "rank", "multinomial"):
    _op = {"add_n": "sum", "diag": "diag_v2"}.get(_name, _name)
    export(OPS[_op].public, f"paddle.Tensor.{_name}")
_ = (attribute, linalg, random, search)  # their ops must be registered first
