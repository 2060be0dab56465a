"""Optional packages: paddle.utils.try_import, and `require`, which names the pip package (and our extra) when
a reader needs Pillow, OpenCV, scipy or rarfile and it is not installed."""

from __future__ import annotations

import importlib
from typing import Any

from paddle_compat.engine.framework.registry import export

PIP_NAMES = {"PIL": "Pillow", "cv2": "opencv-python", "scipy": "scipy", "rarfile": "rarfile", "nltk": "nltk"}
VISION_EXTRA = ("PIL", "cv2")


def try_import(module_name: str, err_msg: str | None = None) -> Any:
    """Import module_name, or raise ImportError saying which package to install."""
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            pip = PIP_NAMES.get(module_name.split(".")[0], module_name)
            err_msg = (f"Failed importing {module_name}. This likely means that some paddle modules require "
                       f"additional dependencies that have to be manually installed (usually with "
                       f"`pip install {pip}`).")
        raise ImportError(err_msg) from None


def require(module_name: str, api: str) -> Any:
    """module_name for `api`, or ImportError naming the API and the pip package (and paddle_compat[vision])."""
    top = module_name.split(".")[0]
    pip = PIP_NAMES.get(top, top)
    extra = " (or `pip install paddle_compat[vision]`)" if top in VISION_EXTRA else ""
    return try_import(module_name, f"{api} needs the optional package {pip}: `pip install {pip}`{extra}")


export(try_import, "paddle.utils.try_import")
