"""Fill the `paddle` modules from the registry, at every module path real Paddle has.

Implementation modules register what they define with `@op` / `export` (`registry.EXPORTS`: module path ->
name -> object). The `paddle` package (shims/paddle) is filled from there: `import paddle` runs
`populate("paddle", globals())`, which installs `ShimFinder`, so every other `paddle.*` module path is
synthesised on import, no file per module. The paths that exist, and what each holds, are data:

- `data/surface_1.8.5.json`, `data/surface_2.6.2.json`, recorded from real Paddle by
  tools/oracle/rec_surface.py: each module's public names (its `__all__` and what its `dir()` shows that Paddle
  defines, `data/paddle_<version>_public.json`) with their kind, the groups of paths that are one object in real
  Paddle (`fluid.layers.nn.fc` is `fluid.layers.fc`; `fluid.layers.load` is not `fluid.load`), the path where
  Paddle defines each re-exported name (its home: `fluid.io.Executor` -> `fluid.executor.Executor`), and the
  public submodules scripts reach into (`paddle.fluid.layer_helper`, `paddle.nn.layer.conv`);
- `data/api_manifest.json`, the API index.

A listed module gets its registered exports; each other listed name is bound to a registered member of its
group or to what is registered at its home (`_group_member`, one rule for every re-export; HOME_RENAMES spells
both versions' homes alike), or else is a stub raising UnsupportedAPIError (docs/coverage.md lists them). An unlisted submodule
(`paddle.nn.layer.conv`, `paddle.tensor.math`) holds its nearest ancestor's names, as Paddle's re-exports do.
Child modules are imported on first attribute access, and an exported object wins over a submodule of the
same name (`paddle.batch` is the function, `import paddle.batch` the module), as in Paddle.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import json
import os
import pkgutil
import sys
import types
from functools import lru_cache
from typing import Any

from paddle_compat.engine.core import api_level
from paddle_compat.engine.core.unsupported import unsupported_stub
from paddle_compat.engine.framework import registry

# The folders that group packages (the shared engine, the 2.x surface), and the packages that register nothing:
# every other package under them, and fluid, is imported by load_all (no list to keep). engine/framework is
# imported: eager_parameter.py registers paddle's dygraph Parameter (ParamBase, is_parameter).
GROUPS = ("engine", "paddle2")
NOT_IMPL = frozenset({"engine.core", "data"})


def impl_packages() -> list[str]:
    """The implementation packages whose modules register exports when imported: every public subpackage of
    paddle_compat, of the engine and of the 2.x surface."""
    root = os.path.dirname(__file__)
    found = []
    for group in ("", *GROUPS):
        path = os.path.join(root, *group.split(".")) if group else root
        for i in sorted(pkgutil.iter_modules([path]), key=lambda i: i.name):
            name = f"{group}.{i.name}" if group else i.name
            if i.ispkg and not i.name.startswith("_") and name not in NOT_IMPL and name not in GROUPS:
                found.append(f"paddle_compat.{name}")
    return sorted(found, key=lambda m: m.rsplit(".", 1)[1])  # by package name: the import order does not depend on the folders


SURFACE_FILES = ("surface_1.8.5.json", "surface_2.6.2.json")
# The C++ core module of each version, which is paddle.fluid.core here.
_CORE_RENAMES = {"paddle.fluid.core_avx": "paddle.fluid.core", "paddle.base.libpaddle": "paddle.fluid.core"}
# Module objects real Paddle binds under another path than ours.
MODULE_RENAMES = {**_CORE_RENAMES, "paddle.incubate.hapi": "paddle.hapi"}
_DATA = os.path.join(os.path.dirname(__file__), "data")

_loaded = [False]


def load_all() -> None:
    if _loaded[0]:
        return
    _loaded[0] = True
    import paddle_compat.api  # noqa: F401

    for pkg_name in impl_packages():
        _import_tree(importlib.import_module(pkg_name))
    registry.resolve_aliases()
    for fn in registry.AFTER_LOAD:
        fn()
    from paddle_compat.engine.framework.tensor import TensorMethods

    for name, fn in registry.METHODS.items():
        setattr(TensorMethods, name, fn)
    for name, kind in surface_names("paddle.Tensor").items():
        if kind in ("function", "class") and not hasattr(TensorMethods, name):
            setattr(TensorMethods, name, unsupported_stub(f"paddle.Tensor.{name}", "function"))
    if api_level.LEVEL.name != "2.4":
        _legacy_classes(True)
    from paddle_compat.engine.core import flags

    flags.read_environment()  # FLAGS_* variables, once every module that implements a flag is loaded


def _import_tree(pkg: Any) -> None:
    if not hasattr(pkg, "__path__"):
        return
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_") and info.name != "__init__":
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        if info.ispkg:
            _import_tree(mod)


# --------------------------------------------------------------------------------------------- the data


@lru_cache(maxsize=None)
def manifest() -> dict[str, list[tuple[str, str]]]:
    with open(os.path.join(_DATA, "api_manifest.json"), encoding="utf-8") as f:
        rows = json.load(f)
    out: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        out.setdefault(r["module"], []).append((r["name"], r["kind"]))
    return out


@lru_cache(maxsize=None)
def _surface() -> tuple[dict[str, dict[str, str]], dict[str, frozenset], frozenset, dict[str, str]]:
    """(module -> {name: kind}, path -> the paths that are the same object, submodule paths, path -> the path
    where real Paddle defines that object) over both versions."""
    modules: dict[str, dict[str, str]] = {}
    same: dict[str, set] = {}
    subs: set = set()
    homes: dict[str, str] = {}
    for fname in SURFACE_FILES:
        with open(os.path.join(_DATA, fname), encoding="utf-8") as f:
            data = json.load(f)
        for mod, names in data["modules"].items():
            entry = modules.setdefault(mod, {})
            for n, k in names.items():
                entry.setdefault(n, k)
        for group in data["same"]:
            for p in group:
                same.setdefault(p, set()).update(group)
        subs.update(data["submodules"])
        for path, home in data.get("homes", {}).items():
            homes.setdefault(path, home)
    return modules, {p: frozenset(g - {p}) for p, g in same.items()}, frozenset(subs), homes


# Where real Paddle defines a name (its home, recorded per version in surface_*.json "homes"), spelled in one
# namespace for both versions: module renames between 1.8.5 and 2.6.2 (2.x's paddle.base is 1.x's fluid; the C++
# core is fluid.core here; 2.6 moved fluid.layers.utils, the static lr decays and the fluid initializers). Key:
# a module, or "M.*" for M's submodules. A name missing at a path resolves to what is registered at its home or at
# another path with the same home (`_group_member`).
HOME_RENAMES = {
    **_CORE_RENAMES, "paddle.base.*": "paddle.fluid.*", "paddle.base": "paddle.fluid",
    "paddle.utils.layers_utils": "paddle.fluid.layers.utils", "paddle.static.io": "paddle.fluid.io",
    "paddle.framework.io_utils": "paddle.fluid.io", "paddle.nn.initializer.*": "paddle.fluid.initializer",
    "paddle.optimizer.lr": "paddle.fluid.layers.learning_rate_scheduler", "paddle.regularizer": "paddle.fluid.regularizer",
    "paddle.fluid.dataloader.*": "paddle.io.dataloader.*",
}


def canonical_home(path: str) -> str:
    """`path` (module.name) with its module spelled as HOME_RENAMES says, e.g. paddle.base.libpaddle.VarDesc ->
    paddle.fluid.core.VarDesc."""
    mod, _, name = path.rpartition(".")
    if mod in HOME_RENAMES:
        return f"{HOME_RENAMES[mod]}.{name}"
    parts = mod.split(".")
    for i in range(len(parts) - 1, 0, -1):
        target = HOME_RENAMES.get(".".join(parts[:i]) + ".*")
        if target is not None:
            rest = ".".join(parts[i:])
            return f"{target[:-2]}.{rest}.{name}" if target.endswith(".*") else f"{target}.{name}"
    return path


@lru_cache(maxsize=None)
def _homed() -> dict[str, dict[str, tuple[str, ...]]]:
    """Home module -> {name: the listed paths of that object}, homes spelled by `canonical_home`: what Paddle
    defines in a module (which may be an unlisted one, `paddle.fluid.layer_helper`) and re-exports elsewhere."""
    modules, _, _, homes = _surface()
    out: dict[str, dict[str, set]] = {}
    for module, names in modules.items():
        if module == "paddle.Tensor":
            continue
        for name, kind in names.items():
            if kind in ("class", "function"):
                path = f"{module}.{name}"
                mod, _, hname = canonical_home(homes.get(path, path)).rpartition(".")
                out.setdefault(mod, {}).setdefault(hname, set()).add(path)
    return {m: {n: tuple(sorted(p)) for n, p in names.items()} for m, names in out.items()}


def homed_names(module: str) -> dict[str, tuple[str, ...]]:
    """The names real Paddle defines in `module` (and re-exports at the listed paths given)."""
    return _homed().get(canonical_home(f"{module}.x").rpartition(".")[0], {})


def _home_of(path: str) -> str:
    return canonical_home(_surface()[3].get(path, path))


def surface_names(module: str) -> dict[str, str]:
    """Real Paddle's public names of `module` (1.8.5 and 2.6.2 together) with their kinds."""
    return _surface()[0].get(module, {})


def listed_modules() -> set:
    """Modules whose public names are listed (surface or manifest): they hold those names and no others'."""
    return {m for m in _surface()[0] if m != "paddle.Tensor"} | set(manifest())


@lru_cache(maxsize=None)
def known_modules() -> frozenset:
    """Every `paddle.*` module path that imports here."""
    load_all()
    paths = listed_modules() | set(_surface()[2])
    paths |= {m for m in registry.EXPORTS if m == "paddle" or m.startswith("paddle.")}
    for mod, names in _surface()[0].items():
        paths |= {MODULE_RENAMES.get(k[7:], k[7:]) for k in names.values() if k.startswith("module:")}
    out = set()
    for p in paths:
        parts = p.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(m for m in out if m == "paddle" or m.startswith("paddle."))


def children(module: str) -> list[str]:
    return sorted(m.rpartition(".")[2] for m in known_modules() if m.rpartition(".")[0] == module)


# ------------------------------------------------------------------------------------------------ stubs


def _stub_kind(name: str, kind: str) -> str:
    if kind in ("class", "function"):
        return kind
    return "class" if name[:1].isupper() else "function"


# ------------------------------------------------------------------------------------- module contents


def _registered(path: str) -> Any:
    mod, _, attr = path.rpartition(".")
    return registry.EXPORTS.get(mod, {}).get(attr)


def _group_member(path: str) -> Any:
    """A registered object that real Paddle has at `path` under another path too, else None: one of the paths
    that are the same object in Paddle, else the path where Paddle defines it (its home, `canonical_home`), or
    another path with that home. This one rule binds every re-export (`fluid.io.Executor`,
    `fluid.layers.nn.LayerHelper`, 2.6's `paddle.utils.flatten`) to the object registered once."""
    others = sorted(_surface()[1].get(path, ()))
    home = _home_of(path)
    mod, _, name = home.rpartition(".")
    others += [_surface()[3].get(path, home), home] + list(_homed().get(mod, {}).get(name, ()))
    # Paddle's packages re-export their modules' names (`from .learning_rate_scheduler import *`): the name at
    # the home module's package, unless real Paddle lists a name there that is another object
    package = mod.rpartition(".")[0]
    if package and name not in surface_names(package):
        others.append(f"{package}.{name}")
    for other in others:
        obj = _registered(other) if other != path else None
        if obj is not None:
            return obj
    return None


def _nearest_ancestor(module: str) -> str | None:
    parent = module.rpartition(".")[0]
    return parent or None


def namespace(module: str) -> tuple[dict[str, Any], dict[str, str]]:
    """(names bound in `module`, names bound lazily to another module path)."""
    load_all()
    ns: dict[str, Any] = dict(registry.EXPORTS.get(module, {}))
    lazy: dict[str, str] = {}
    known = known_modules()
    for name, kind in surface_names(module).items():
        if name in ns:
            continue
        if kind == "value":
            obj = _group_member(f"{module}.{name}")
            ns[name] = obj if obj is not None else unsupported_stub(f"{module}.{name}", "value")
            continue
        if kind.startswith("module:"):
            if f"{module}.{name}" not in known:
                target = kind.partition(":")[2]
                lazy[name] = MODULE_RENAMES.get(target, target)
            continue
        obj = _group_member(f"{module}.{name}")
        ns[name] = obj if obj is not None else unsupported_stub(f"{module}.{name}", _stub_kind(name, kind))
    for name, kind in manifest().get(module, []):
        if name not in ns and f"{module}.{name}" not in known:
            ns[name] = unsupported_stub(f"{module}.{name}", kind)
    for name, paths in homed_names(module).items():
        # the module where Paddle defines names it re-exports elsewhere holds the ones registered at some path
        if name not in ns:
            obj = next((o for o in (_registered(p) or _group_member(p) for p in paths) if o is not None), None)
            if obj is not None:
                ns[name] = obj
    if module not in listed_modules():
        parent = _nearest_ancestor(module)
        if parent is not None:
            pmod = importlib.import_module(parent)
            for name, obj in vars(pmod).items():
                if not name.startswith("_") and not isinstance(obj, types.ModuleType):
                    ns.setdefault(name, obj)
            lazy = {**getattr(pmod, "_paddle_lazy", {}), **lazy}
    if api_level.LEVEL.name != "2.4":
        ns = {k: _legacy(v, _is_fluid(module)) for k, v in ns.items()}
    return ns, lazy


def _missing(modname: str, ns: dict, name: str) -> Any:
    """A name a `paddle.*` module's dict lacks: a child module imported on first access, or a lazy export."""
    if not name.startswith("__"):
        full = f"{modname}.{name}"
        if full in known_modules():
            return importlib.import_module(full)
        target = ns.get("_paddle_lazy", {}).get(name)
        if target is not None:
            return importlib.import_module(target)
    raise AttributeError(f"module {modname!r} has no attribute {name!r} (paddle_compat: see "
                         f"docs/coverage.md for the names it provides)")


def _is_fluid(module: str) -> bool:
    return module == "paddle.fluid" or module.startswith("paddle.fluid.")


def _legacy(obj: Any, fluid: bool = True) -> Any:
    """A paddle.fluid function at API level 2.6 (or, in another namespace, a function only the 1.x surface has,
    such as paddle.complex's): wrapped to keep 1.8's [1] shapes (engine/core/api_level.legacy_shapes)."""
    if isinstance(obj, types.FunctionType) and not getattr(obj, "__paddle_unsupported__", False) and (
            fluid or _fluid_only_module(getattr(obj, "__module__", "") or "")):
        return api_level.legacy_shapes(obj)
    return obj


def _fluid_only_module(name: str) -> bool:
    """An implementation module of the fluid 1.x surface only: paddle_compat/fluid/*, or an engine module of op
    bodies only fluid calls, which says so with `FLUID_ONLY = True`."""
    return name.startswith("paddle_compat.fluid") or (
        name.startswith("paddle_compat.") and getattr(sys.modules.get(name), "FLUID_ONLY", False) is True)


def _legacy_classes(on: bool) -> None:
    """Wrap (on) or unwrap the methods of every class the fluid-only modules define (fluid optimizers, the mixed
    precision decorator, fluid.dygraph layers, metrics): 1.8 scripts call them, and their ops keep 1.8's shapes."""
    for name, mod in list(sys.modules.items()):
        if mod is None or not _fluid_only_module(name):
            continue
        for obj in list(vars(mod).values()):
            if isinstance(obj, type) and obj.__module__ == name:
                api_level.legacy_class(obj, on)


def _relevel_fluid() -> None:
    """set_api_level after paddle.fluid modules were imported: wrap (level 2.6) or unwrap (2.4) their functions."""
    if _loaded[0]:
        _legacy_classes(api_level.LEVEL.name != "2.4")
    for name, mod in list(sys.modules.items()):
        if not name.startswith("paddle") or not isinstance(mod, ShimModule):
            continue
        for k, v in list(vars(mod).items()):
            if api_level.LEVEL.name == "2.4":
                if getattr(v, "__paddle_legacy_shapes__", False):
                    mod.__dict__[k] = v.__wrapped__
            else:
                mod.__dict__[k] = _legacy(v, _is_fluid(name))


api_level.LEVEL_HOOKS.append(_relevel_fluid)


class ShimModule(types.ModuleType):
    """A `paddle.*` module: children import on first access; exports win over same-named submodules.

    The fallback for a missing name is the module's own `__getattr__` (PEP 562, set by `populate`), not a class
    method: a class `__getattr__` sends every `paddle.reshape` lookup through Python's slower attribute hook
    (about 0.5 us each, a third of a small op's cost; bench/bench_dygraph_ops.py)."""

    def __setattr__(self, name: str, value: Any) -> None:
        # The import system binds a loaded submodule on its parent; Paddle's `from .batch import batch`
        # leaves the function there instead, so an exported non-module keeps its place.
        if isinstance(value, types.ModuleType) and name in self.__dict__ \
                and not isinstance(self.__dict__[name], types.ModuleType):
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted((set(self.__dict__) - {"__getattr__"}) | set(children(self.__name__))
                      | set(self.__dict__.get("_paddle_lazy", {})))


class ShimFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Synthesises every known `paddle.*` module that has no file under shims/paddle."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname.startswith("paddle.") and fullname in known_modules():
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        return ShimModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        populate(module.__name__, module.__dict__)


_FINDER = ShimFinder()


def populate(modname: str, ns: dict) -> None:
    """Fill module `modname`'s globals `ns` (a shim file calls this with its own)."""
    load_all()
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)  # after the path finders: a file under shims/paddle wins
    names, lazy = namespace(modname)
    ns.update(names)
    ns["_paddle_lazy"] = lazy
    ns["__getattr__"] = functools.partial(_missing, modname, ns)
    ns.setdefault("__all__", sorted(k for k, v in names.items()
                                    if not k.startswith("_") and not isinstance(v, types.ModuleType)))
    mod = sys.modules.get(modname)
    if mod is not None and type(mod) is types.ModuleType:
        mod.__class__ = ShimModule
