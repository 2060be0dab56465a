"""paddle.vision's image backend: get_image_backend / set_image_backend ('pil', 'cv2' or 'tensor') and
image_load. The datasets read it when their `backend` argument is None."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.core.optional import require

_BACKENDS = ("pil", "cv2", "tensor")
_state = {"backend": "pil"}


def _check(backend: Any, api: str) -> None:
    if backend not in _BACKENDS:
        raise ValueError(f"{api}: Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")


def set_image_backend(backend: str) -> None:
    _check(backend, "paddle.vision.set_image_backend")
    _state["backend"] = backend


def get_image_backend() -> str:
    return _state["backend"]


def image_load(path: str, backend: str | None = None) -> Any:
    """A PIL image ('pil') or a BGR numpy array ('cv2', OpenCV's imread); None for 'tensor', as in Paddle."""
    backend = _state["backend"] if backend is None else backend
    _check(backend, "paddle.vision.image_load")
    if backend == "pil":
        return require("PIL.Image", "paddle.vision.image_load(backend='pil')").open(path)
    if backend == "cv2":
        return require("cv2", "paddle.vision.image_load(backend='cv2')").imread(path)
    return None


def dataset_backend(backend: str | None) -> str:
    """A dataset's backend argument: the global one when None; only 'pil' / 'cv2'."""
    if backend is None:
        backend = get_image_backend()
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend


for _fn in (set_image_backend, get_image_backend, image_load):
    export(_fn, f"paddle.vision.{_fn.__name__}", f"paddle.vision.image.{_fn.__name__}")
