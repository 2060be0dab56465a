"""Record real Paddle's public surface with what each name is: its kind, and which names are one object.

usage (inside an oracle venv, see record_all.sh): python rec_surface.py VERSION SURFACE.json [SURFACE.json ...]
Each SURFACE.json is a module path -> public names map from ../shared/reference/surface/: paddle_<VERSION>.json
(each module's __all__) and paddle_<VERSION>_public.json (what its dir() shows that Paddle itself defines, the
helpers scripts import outside __all__: `fluid.layers.nn.LayerHelper`, `fluid.io.Executor`); the names are
their union. Writes paddle_compat/data/surface_<VERSION>.json:

  {"version": ..., "modules": {module: {name: kind}}, "same": [[path, path, ...], ...], "submodules": [...],
   "homes": {path: home path}}

kind is "module:<module path>" for a name bound to a module, else class / function / dtype / value, or
"absent" for a name real Paddle lists in __all__ but never defines.
"same" groups the paths (module.name) whose objects are identical in real Paddle, which is how
paddle_compat knows that `fluid.layers.nn.fc` is `fluid.layers.fc` but `fluid.layers.load` is not
`fluid.load` (paddle_compat/_export.py binds a missing path to an implemented member of its group).
"homes" gives, for a listed class or function that Paddle defines in another module, the path where it is
defined (`paddle.fluid.layers.nn.LayerHelper` -> `paddle.fluid.layer_helper.LayerHelper`): a name paddle_compat
registers at its home resolves at every path that re-exports it, and the home module holds it too.
"submodules" lists the public module paths real Paddle has under the packages scripts reach into
(SUBMODULE_ROOTS), such as `paddle.fluid.layer_helper` or `paddle.nn.layer.conv`: they are importable here too,
their names falling back to the nearest listed module's.
"""
import importlib
import inspect
import json
import os
import sys
import types
import warnings

warnings.filterwarnings("ignore")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def resolve(path):
    try:
        return importlib.import_module(path)
    except Exception:  # noqa: BLE001 - not a module: an attribute of the parent (paddle.Tensor)
        parent, _, attr = path.rpartition(".")
        return getattr(resolve(parent), attr)


def kind_of(o):
    if isinstance(o, types.ModuleType):
        return "module:" + o.__name__
    if inspect.isclass(o):
        return "class"
    if callable(o):
        return "function"
    if type(o).__name__ in ("dtype", "VarType"):
        return "dtype"
    return "value"


# Packages whose public submodules scripts import; per version (1.8.5 names fluid, 2.6.2 the 2.x packages).
SUBMODULE_ROOTS = {
    "1.8.5": ("paddle.fluid", "paddle.dataset", "paddle.reader", "paddle.batch", "paddle.incubate.hapi"),
    "2.6.2": ("paddle.nn", "paddle.tensor", "paddle.optimizer", "paddle.vision", "paddle.text", "paddle.io",
              "paddle.metric", "paddle.framework", "paddle.static", "paddle.distribution", "paddle.hapi",
              "paddle.amp", "paddle.autograd", "paddle.device", "paddle.utils", "paddle.linalg", "paddle.fft",
              "paddle.signal", "paddle.sparse", "paddle.inference", "paddle.incubate"),
}
# Never: generated protobuf, compiled cores, Paddle's tests, quantization / distributed internals.
SKIP_PARTS = ("tests", "proto", "core_noavx", "quant", "quantization", "gast", "cpp_extension", "distributed",
              "auto_parallel", "asp", "xpu", "passes", "slim")


def submodules(version):
    import pkgutil

    import paddle

    out = []
    for info in pkgutil.walk_packages(paddle.__path__, "paddle.", onerror=lambda n: None):
        parts = info.name.split(".")
        if any(p.startswith("_") or p in SKIP_PARTS for p in parts):
            continue
        if any(info.name == r or info.name.startswith(r + ".") for r in SUBMODULE_ROOTS[version]):
            out.append(info.name)
    return sorted(out)


def home_of(o, path):
    """Where Paddle defines class / function `o` (its module and qualified name), when that is another path
    and the object is really reachable there; else None."""
    mod_name, qual = getattr(o, "__module__", None), getattr(o, "__qualname__", None)
    if not isinstance(mod_name, str) or not isinstance(qual, str) or "<" in qual or "." in qual:
        return None
    if not mod_name.startswith("paddle.") or any(p.startswith("_") for p in mod_name.split(".")[1:]):
        return None
    home = f"{mod_name}.{qual}"
    if home == path:
        return None
    try:
        ok = getattr(importlib.import_module(mod_name), qual, None) is o
    except Exception:  # noqa: BLE001 - a home module that does not import on its own
        ok = False
    return home if ok else None


def union(files):
    """module -> names, over several surface files, in first-seen order; a module recorded as an error is left
    out (paddle.Tensor in the public dump: not a module)."""
    out = {}
    for src in files:
        for mod_name, names in json.load(open(src)).items():
            if isinstance(names, list):
                entry = out.setdefault(mod_name, [])
                entry.extend(n for n in names if n not in entry)
    return out


def main():
    version, files = sys.argv[1], sys.argv[2:]
    surface = union(files)
    modules, by_id, keep, homes = {}, {}, [], {}
    for mod_name, names in surface.items():
        mod = resolve(mod_name)
        entry = modules.setdefault(mod_name, {})
        for n in names:
            if not hasattr(mod, n):  # listed in __all__ but never defined (fluid.DistMultiTrainer in 1.8.5)
                entry[n] = "absent"
                continue
            o = getattr(mod, n)
            entry[n] = kind_of(o)
            if mod_name == "paddle.Tensor" or isinstance(o, (int, float, str, bool, type(None))):
                continue  # methods are bound per class; small constants are shared by value, not identity
            keep.append(o)
            by_id.setdefault(id(o), []).append(f"{mod_name}.{n}")
            if inspect.isclass(o) or inspect.isfunction(o):
                home = home_of(o, f"{mod_name}.{n}")
                if home is not None:
                    homes[f"{mod_name}.{n}"] = home
    same = sorted(sorted(g) for g in by_id.values() if len(g) > 1)
    out = os.path.join(REPO, "paddle_compat", "data", f"surface_{version}.json")
    with open(out, "w") as f:
        json.dump({"version": version, "modules": modules, "same": same, "submodules": submodules(version),
                   "homes": homes}, f,
                  indent=0, sort_keys=True)
        f.write("\n")
    print("wrote", out, sum(len(v) for v in modules.values()), "names,", len(same), "groups,", len(homes), "homes")


if __name__ == "__main__":
    main()
