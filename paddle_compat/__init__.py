"""paddle_compat: PaddlePaddle's Python API (fluid 1.x, 2.x static graph and dygraph) on PyTorch.

User code imports `paddle` (the shims in shims/paddle), not this package. See README.md.
"""

__version__ = "0.1.0"
