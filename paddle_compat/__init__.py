"""paddle_compat: PaddlePaddle's Python API (fluid 1.x, 2.x static graph and dygraph) on PyTorch.

User code imports `paddle` (the shims in shims/paddle), not this package. See README.md.
"""

import contextlib as _contextlib
import gc as _gc

__version__ = "0.1.0"


@_contextlib.contextmanager
def gc_paused():
    """Run `import paddle` (the body) with Python's cyclic garbage collector off, then freeze what exists and
    restore the collector's state.

    The import creates some thousand functions and classes on top of torch's objects. The full collections
    this allocation triggers walk every object torch holds (about 60 ms each) and free nothing: module-level
    objects live as long as the process. Paused, the import takes half the time (bench/bench_import.py).
    `gc.freeze()` then moves those objects to the permanent generation, so no later collection walks them
    again: not the full collections during a training loop, and not the one at interpreter exit (which takes
    torch's own import 0.3 s). Reference counting frees as always; objects created from here on are collected
    as always. The price: the reference cycles the import itself left unreachable (about 7000 objects, under a
    megabyte) stay allocated; collecting them first would cost the full collection this avoids."""
    was_on = _gc.isenabled()
    _gc.disable()
    try:
        yield
        _gc.freeze()
    finally:
        if was_on:
            _gc.enable()


def use_paddle_rng(flag: bool = True) -> None:
    """Draw the CPU random ops (rand / randn / randint / randperm / bernoulli / poisson / exponential_, dropout
    masks, initializers, ...) from a copy of Paddle 2.6.2's generator, so `paddle.seed(n)` gives real Paddle's
    numbers; False (the default, or PADDLE_COMPAT_RNG unset / `torch`) draws from torch's generator.
    PADDLE_COMPAT_RNG=paddle switches it on at import."""
    from paddle_compat.engine.core import paddle_rng

    paddle_rng.use_paddle_rng(flag)


def paddle_rng_enabled() -> bool:
    """Whether the random ops draw from the copy of Paddle's generator (use_paddle_rng)."""
    from paddle_compat.engine.core import paddle_rng

    return paddle_rng.ON


def set_api_level(level: str) -> None:
    """Follow Paddle `level`'s `paddle.*` semantics in this process: '2.4' (the default: full reductions, losses,
    `to_tensor(3.0)` and one-element indexing give shape [1]) or '2.6' (they give 0-D tensors, as Paddle 2.5+;
    `paddle.__version__` is then '2.6.2'). `paddle.fluid` keeps 1.8's shapes at every level. Call it before the
    first tensor is made; PADDLE_COMPAT_API_LEVEL=2.6 in the environment does the same at import.
    See docs/api_levels.md."""
    from paddle_compat.engine.core import api_level

    api_level.set_api_level(level)


def get_api_level() -> str:
    """The API level this process follows: '2.4' or '2.6' (set_api_level)."""
    from paddle_compat.engine.core import api_level

    return api_level.get_api_level()
