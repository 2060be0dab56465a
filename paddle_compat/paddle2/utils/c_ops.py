"""`paddle._C_ops` / `paddle._legacy_C_ops`: Paddle's raw C++ operator bindings.

Model zoos import these modules at import time (PaddleDetection's ppdet/modeling/ops.py does
`import paddle._legacy_C_ops as C_ops`, falling back to `paddle._C_ops`) and call them only inside the functions
of a few detection ops. Their calling convention (positional tensors then flattened attribute name / value pairs,
and per-release signatures generated from ops.yaml) is not part of the public API, so paddle_compat does not
provide them: the modules import, and every name in them is a function that raises UnsupportedAPIError naming
`paddle._C_ops.<op>` and the public API to call instead.
"""

from __future__ import annotations

from typing import Any, Callable


def module_getattr(module: str) -> Callable[[str], Any]:
    """A module-level `__getattr__` for `module` (paddle._C_ops or paddle._legacy_C_ops)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        from paddle_compat._export import unsupported_stub

        return unsupported_stub(
            f"{module}.{name}", "function",
            f"the raw C++ operator bindings are not provided; call the public API (e.g. paddle.{name} or "
            f"paddle.vision.ops.{name}) instead")

    return __getattr__
