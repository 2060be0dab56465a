"""paddle_compat: PaddlePaddle's Python API (fluid 1.x, 2.x static graph and dygraph) on PyTorch.

User code imports `paddle` (the shims in shims/paddle), not this package. See README.md.
"""

__version__ = "0.1.0"


def use_paddle_rng(flag: bool = True) -> None:
    """Draw the CPU random ops (rand / randn / randint / randperm / bernoulli / poisson / exponential_, dropout
    masks, initializers, ...) from a copy of Paddle 2.6.2's generator, so `paddle.seed(n)` gives real Paddle's
    numbers; False (the default, or PADDLE_COMPAT_RNG unset / `torch`) draws from torch's generator.
    PADDLE_COMPAT_RNG=paddle switches it on at import."""
    from paddle_compat.core import paddle_rng

    paddle_rng.use_paddle_rng(flag)


def paddle_rng_enabled() -> bool:
    """Whether the random ops draw from the copy of Paddle's generator (use_paddle_rng)."""
    from paddle_compat.core import paddle_rng

    return paddle_rng.ON
