"""Late lookup of the public registry functions the layers call.

Layers call ops through their public exports (`paddle.nn.functional.conv2d`, `paddle.flatten`), looked up
when the layer runs: the functional ops are owned elsewhere and may be added after this package is
imported. A name with no implementation raises UnsupportedAPIError naming both the layer and the op.
"""

from __future__ import annotations

from typing import Any, Callable

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.engine.framework import registry


def api(full: str, user: str = "") -> Callable[..., Any]:
    mod, _, attr = full.rpartition(".")
    fn = registry.EXPORTS.get(mod, {}).get(attr)
    if fn is None:
        raise UnsupportedAPIError(full, f"needed by {user}" if user else "not implemented yet")
    return fn


def F(name: str, user: str = "") -> Callable[..., Any]:  # noqa: N802 - reads like `F.relu`
    return api(f"paddle.nn.functional.{name}", user)


def P(name: str, user: str = "") -> Callable[..., Any]:  # noqa: N802
    return api(f"paddle.{name}", user)


def has(full: str) -> bool:
    mod, _, attr = full.rpartition(".")
    return attr in registry.EXPORTS.get(mod, {})
