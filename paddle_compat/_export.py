"""Fill the `paddle` shim modules from the registry.

Each module under shims/paddle is two lines: `populate(__name__, globals())`. populate imports every
implementation module once (their `@op` / `export` calls fill `registry.EXPORTS`), copies the names
registered for that module, imports the module's child shims (so `paddle.static` is an attribute of
`paddle`), attaches Tensor methods, and gives every manifest name that has no implementation yet a stub
that raises UnsupportedAPIError naming the API (docs/coverage.md lists them).
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
from typing import Any

from paddle_compat.core.errors import UnsupportedAPIError
from paddle_compat.ops import registry

# The implementation packages whose modules register exports when imported.
IMPL_PACKAGES = ("paddle_compat.ops", "paddle_compat.static", "paddle_compat.optimizer", "paddle_compat.nn",
                 "paddle_compat.fluid", "paddle_compat.parallel", "paddle_compat.io", "paddle_compat.vision",
                 "paddle_compat.hapi", "paddle_compat.distributed", "paddle_compat.metric")

# shim module -> child shim modules that are attributes of it
CHILDREN = {
    "paddle": ["fluid", "static", "nn", "optimizer", "regularizer", "vision", "metric", "io", "framework",
               "device", "distributed", "autograd", "utils", "jit", "amp", "incubate", "callbacks", "hapi"],
    "paddle.fluid": ["layers", "initializer", "optimizer", "regularizer", "clip", "framework", "core", "executor",
                     "compiler", "dygraph", "io", "unique_name", "backward", "param_attr", "data_feeder",
                     "contrib", "metrics", "nets", "transpiler"],
    "paddle.static": ["nn"],
    "paddle.nn": ["functional", "initializer", "utils"],
    "paddle.optimizer": ["lr"],
    "paddle.vision": ["transforms", "models", "datasets"],
    "paddle.device": ["cuda"],
}

_loaded = [False]


def load_all() -> None:
    if _loaded[0]:
        return
    _loaded[0] = True
    import paddle_compat.api  # noqa: F401

    for pkg_name in IMPL_PACKAGES:
        try:
            pkg = importlib.import_module(pkg_name)
        except ModuleNotFoundError as e:
            if e.name == pkg_name:
                continue
            raise
        _import_tree(pkg)
    registry.resolve_aliases()
    from paddle_compat.framework.tensor import TensorMethods

    for name, fn in registry.METHODS.items():
        setattr(TensorMethods, name, fn)


def _import_tree(pkg: Any) -> None:
    if not hasattr(pkg, "__path__"):
        return
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_") and info.name != "__init__":
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        if info.ispkg:
            _import_tree(mod)


_manifest: dict[str, list[tuple[str, str]]] | None = None


def manifest() -> dict[str, list[tuple[str, str]]]:
    global _manifest
    if _manifest is None:
        path = os.path.join(os.path.dirname(__file__), "data", "api_manifest.json")
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)
        _manifest = {}
        for r in rows:
            _manifest.setdefault(r["module"], []).append((r["name"], r["kind"]))
    return _manifest


def unsupported_stub(api: str, kind: str) -> Any:
    """A stand-in for an API we do not implement: raises UnsupportedAPIError when used."""
    if kind == "class":
        def __init__(self: Any, *a: Any, **k: Any) -> None:
            raise UnsupportedAPIError(api)

        return type(api.rpartition(".")[2], (), {"__init__": __init__, "__paddle_unsupported__": True,
                                                 "__doc__": f"{api}: not supported by paddle_compat yet"})

    def stub(*a: Any, **k: Any) -> Any:
        raise UnsupportedAPIError(api)

    stub.__name__ = api.rpartition(".")[2]
    stub.__paddle_unsupported__ = True  # type: ignore[attr-defined]
    stub.__doc__ = f"{api}: not supported by paddle_compat yet"
    return stub


def populate(modname: str, namespace: dict) -> None:
    load_all()
    for name, kind in manifest().get(modname, []):
        if name not in registry.EXPORTS.get(modname, {}) and name not in CHILDREN.get(modname, ()):
            namespace[name] = unsupported_stub(f"{modname}.{name}", kind)
    namespace.update(registry.EXPORTS.get(modname, {}))
    for child in CHILDREN.get(modname, ()):
        namespace[child] = importlib.import_module(f"{modname}.{child}")
    namespace.setdefault("__all__", sorted(k for k in namespace if not k.startswith("_")))
