"""paddle.distribution: probability distributions, transforms and KL divergence, with Paddle's formulas.

The math of every method is a torch function run as one registry op (base.call): dygraph runs it at once, static
mode records it, so a distribution built from Variables works in a static program as in Paddle. Scalar
parameters become shape-[1] tensors (Paddle 2.4; 2.6 makes them 0-D), so their batch_shape is (1,) and what
they compute has shape [1] where Paddle 2.6 gives 0-D (values agree). Goldens: tests/goldens/distribution26
(tools/oracle/distribution26_cases.py); sampling is checked by its statistics.
"""

from paddle_compat.paddle2.distribution import base, continuous, discrete, kl, transform, transformed  # noqa: E402,F401
