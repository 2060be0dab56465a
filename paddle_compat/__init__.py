"""paddle_compat: PaddlePaddle's Python API (fluid 1.x, 2.x static graph and dygraph) on PyTorch.

User code imports `paddle` (the shims in shims/paddle), not this package. See README.md.
"""

from paddle_compat._allocator import configure as _configure_allocator

_configure_allocator()  # before anything imports torch: torch reads it once

__version__ = "0.1.0"
