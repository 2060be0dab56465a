"""Write docs/coverage.md: every public name of real Paddle 1.8.5 and 2.6.2 (paddle_compat/data/surface_*.json,
`paddle.Tensor` methods included) and of the API index (paddle_compat/data/api_manifest.json), by module, with
its status in paddle_compat:

- supported: the export works end to end;
- partial: it works, with the gaps noted (PARTIAL below, or `registry.partial(path, note)` next to the code);
- not yet: its export is a stub (attribute `__paddle_unsupported__`) that raises UnsupportedAPIError.

Run `python tools/gen_coverage.py` (or `make coverage`); `--check` exits 1 when docs/coverage.md is stale
(tests/test_coverage_page.py does the same).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import types

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "docs", "coverage.md")

# "module.name" -> what is missing. Keep short; a name listed here but unsupported stays "not yet".
PARTIAL = {
    "paddle.fluid.incubate.fleet": "the collective fleet (fleet.collective) and role makers; the parameter-server "
                                   "fleets (fleet.parameter_server.*) raise, naming DistributeTranspiler instead",
    "paddle.fluid.DistributeTranspiler": "modes 'nccl2' and synchronous 'pserver' (trainers average gradients with "
                                         "an all-reduce; the servers only hold the rendezvous); asynchronous, "
                                         "half-async, geo and 'collective' modes raise",
    "paddle.fluid.layers.IfElse": "rows are routed by the mask and both branches run on their rows; "
                                  "ops inside must accept an empty batch",
    "paddle.fluid.layers.StaticRNN": "static mode only; writes to outer variables inside step() are not carried",
    "paddle.fluid.layers.embedding": "is_sparse / is_distributed only change how Paddle stores gradients: dense here",
    "paddle.fluid.layers.DynamicRNN": "ops inside the block see every sequence each step (finished ones padded "
                                      "with zeros, their memories frozen), not Paddle's shrinking batch",
    "paddle.fluid.layers.multiclass_nms": "the LoD form (scores [M, C]) needs static mode; polygon boxes (8+ "
                                          "coordinates) raise",
    "paddle.fluid.layers.sequence_expand": "ref_level=-1 only (LoD carries its last level)",
    "paddle.fluid.layers.lod_append": "only the last LoD level is carried, so the appended level replaces it",
    "paddle.fluid.layers.target_assign": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.swish": "follows Paddle 1.8.5's kernel, which ignores beta",
    "paddle.fluid.layers.lstm": "no Paddle goldens (Paddle 1.8 has no CPU kernel): checked against torch.nn.LSTM; max_len is ignored",
    "paddle.fluid.layers.locality_aware_nms": "4-coordinate boxes only; polygon boxes (8+ coordinates) raise",
    "paddle.fluid.layers.deformable_conv": "every image is computed exactly; Paddle 1.8.5's im2col_step blocking gives different numbers when im2col_step < batch",
    "paddle.fluid.layers.deformable_roi_pooling": "position_sensitive=True checked by its properties only (Paddle 1.8.5 crashes on it)",
    "paddle.fluid.layers.generate_proposal_labels": "static mode only (LoD); cascade mode with im_scale != 1 divides every RoI by im_scale",
    "paddle.fluid.layers.sampled_softmax_with_cross_entropy": "the random samples come from torch's generator, not Paddle's",
    "paddle.fluid.layers.distribute_fpn_proposals": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.collect_fpn_proposals": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.psroi_pool": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.roi_perspective_transform": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.ssd_loss": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.rpn_target_assign": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.retinanet_target_assign": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.generate_mask_labels": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.beam_search": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.beam_search_decode": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.dynamic_lstmp": "static mode only: needs the LoD that static programs carry",
    "paddle.fluid.layers.filter_by_instag": "static mode only: needs the LoD that static programs carry",
    "paddle.static.load_inference_model": "model files written by real Paddle (1.x `__model__`, 2.x `.pdmodel`) "
                                          "load for the op types in paddle_compat/engine/static/pdmodel.py only "
                                          "(block 0: no control flow)",
    "paddle.static.deserialize_program": "bytes written by real Paddle: the op types in "
                                         "paddle_compat/engine/static/pdmodel.py only (block 0: no control flow)",
}

STATUS_ORDER = ("supported", "partial", "not yet")


def rows() -> list[dict]:
    """Every (module, name) of the surface and the index, once, with its kind and where real Paddle has it."""
    from paddle_compat import _export

    out: dict[tuple[str, str], dict] = {}
    for module, names in _export.manifest().items():
        for name, kind in names:
            out[(module, name)] = {"module": module, "name": name, "kind": kind, "in": ["index"]}
    for fname in _export.SURFACE_FILES:
        with open(os.path.join(_export._DATA, fname), encoding="utf-8") as f:
            data = json.load(f)
        for module, names in data["modules"].items():
            for name, kind in names.items():
                r = out.setdefault((module, name), {"module": module, "name": name, "kind": kind, "in": []})
                r["in"].append(data["version"])
                if kind == "absent":
                    r["absent"] = data["version"]
    for r in out.values():
        r["kind"] = "module" if r["kind"].startswith("module:") else r["kind"]
    return sorted(out.values(), key=lambda r: (r["module"], r["name"].lower(), r["name"]))


def _module_has_content(module: str) -> bool:
    """A module counts as provided when something is registered there or in a submodule of it (a package of
    modules, as `paddle.dataset`), or one of its names works: a listed one, or one real Paddle defines there (its
    home, as `paddle.nn.functional.activation` for `relu`; a synthesised module such as
    `paddle.fluid.proto.framework_pb2` holds none of its own)."""
    from paddle_compat import _export
    from paddle_compat.engine.framework import registry

    if any(registry.EXPORTS.get(m) for m in registry.EXPORTS if m == module or m.startswith(module + ".")):
        return True
    mod = importlib.import_module(module)
    listed = [n for n, _ in _export.manifest().get(module, [])] + list(_export.surface_names(module)) + \
        list(_export.homed_names(module))
    return any(_works(getattr(mod, n, None)) for n in listed)


def _works(obj: object) -> bool:
    return obj is not None and not isinstance(obj, types.ModuleType) and \
        not getattr(obj, "__paddle_unsupported__", False)


def status_of(module: str, name: str) -> tuple[str, str]:
    from paddle_compat.engine.framework import registry

    # every surface module imports (paddle_compat/_export.py synthesises them): an ImportError is a bug to show,
    # never a page of "not yet"
    mod = importlib.import_module(module) if module != "paddle.Tensor" else importlib.import_module("paddle").Tensor
    try:
        obj = getattr(mod, name)
    except AttributeError:
        return "not yet", "no export"
    if getattr(obj, "__paddle_unsupported__", False):
        return "not yet", getattr(obj, "__paddle_unsupported_detail__", "") or ""  # why, when the stub says
    if isinstance(obj, types.ModuleType) and not _module_has_content(obj.__name__):
        return "not yet", "the module imports, but holds nothing of its own yet"
    path = f"{module}.{name}"
    note = PARTIAL.get(path) or registry.PARTIAL.get(path)
    return ("partial", note) if note else ("supported", "")


def render() -> str:
    sys.path[:0] = [os.path.join(REPO, "shims"), REPO]
    by_mod: dict[str, list] = {}
    for r in rows():
        st, note = status_of(r["module"], r["name"])
        if "absent" in r and st == "not yet":
            note = f"real Paddle {r['absent']} lists it in `__all__` but does not define it"
        by_mod.setdefault(r["module"], []).append((r["name"], r["kind"], "/".join(r["in"]), st, note))
    total = {s: 0 for s in STATUS_ORDER}
    lines = ["# API coverage", "",
             "Generated by `tools/gen_coverage.py`; do not edit by hand (`tests/test_coverage_page.py` checks it is "
             "current). It lists every public name of real Paddle 1.8.5 and 2.6.2 at each module path where Paddle "
             "exposes it (`paddle.Tensor` methods included), and the names of the API index; **in** says which.", "",
             "Status: **supported** works end to end; **partial** works with the gaps noted; **not yet** raises "
             "`UnsupportedAPIError` naming the API.", "",
             "| module | names | supported | partial | not yet |", "|---|---:|---:|---:|---:|"]
    summary = []
    for mod in sorted(by_mod):
        c = {s: sum(1 for *_, st, _n in by_mod[mod] if st == s) for s in STATUS_ORDER}
        for s in STATUS_ORDER:
            total[s] += c[s]
        summary.append(f"| `{mod}` | {len(by_mod[mod])} | {c['supported']} | {c['partial']} | {c['not yet']} |")
    lines += summary
    lines.append(f"| **all** | {sum(total.values())} | {total['supported']} | {total['partial']} | "
                 f"{total['not yet']} |")
    for mod in sorted(by_mod):
        lines += ["", f"## `{mod}`", "", "| name | kind | in | status | notes |", "|---|---|---|---|---|"]
        for name, kind, where, st, note in by_mod[mod]:
            lines.append(f"| `{name}` | {kind} | {where} | {st} | {note.replace('|', '/')} |")
    return "\n".join(lines + _beyond(set(by_mod))) + "\n"


def _beyond(listed: set) -> list[str]:
    """Modules real scripts import that the reference surface does not list (paddle.distributed.fleet,
    paddle.geometric, paddle.profiler, paddle.static.amp, ...): what each exports, with the gaps noted."""
    from paddle_compat import _export
    from paddle_compat.engine.framework import registry

    known = _export.listed_modules() | listed
    mods = sorted(m for m, names in registry.EXPORTS.items() if names and m not in known
                  and (m == "paddle" or m.startswith("paddle.")))
    out = ["", "## Beyond the reference surface", "",
           "Modules scripts import that the reference surface does not list; every name here works, except those "
           "whose notes say otherwise (`registry.partial`; stubs raise `UnsupportedAPIError`).", "",
           "| module | names | not yet | notes |", "|---|---:|---:|---|"]
    for m in mods:
        names = registry.EXPORTS[m]
        stubs = sum(1 for o in names.values() if getattr(o, "__paddle_unsupported__", False))
        notes = "; ".join(f"`{n}`: {registry.PARTIAL[f'{m}.{n}']}" for n in sorted(names)
                          if f"{m}.{n}" in registry.PARTIAL)
        out.append(f"| `{m}` | {len(names)} | {stubs} | {notes.replace('|', '/')} |")
    return out


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        cur = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if cur != text:
            print("docs/coverage.md is stale: run python tools/gen_coverage.py")
            return 1
        return 0
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
