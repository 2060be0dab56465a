"""The wrong-type sweep (issue 27 item 3): every public function of `paddle`, `paddle.nn.functional` and
`paddle.fluid.layers` (taken from the modules as `import paddle` fills them, so from the registry and the
recorded surface, not from a hand-written list) gets a wrong value where its first argument expects a Tensor:
a Python list, None, a string, a numpy array of the wrong dtype. In dygraph and in static mode.

A case is handled when the call raises an error whose message names the API (a dotted `paddle.` / `fluid.`
path ending in the function's name, or one of the paths the same object is exported at) and the argument
(`'x'`), or when it accepts a list / array as the Tensor it converts to and returns a result.

`python -m tests.hardening._wrong_types` prints the table of categories (tried / handled) and the cases not
handled; tests/hardening/test_wrong_types.py asserts it case by case, with the known failures as data
(KNOWN in that file, strict xfail).
"""

from __future__ import annotations

import inspect
import re
import types
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

MODULES = ("paddle", "paddle.nn.functional", "paddle.fluid.layers")
# First-parameter names that take a Tensor (Variable) in Paddle's signatures.
TENSOR_ARGS = frozenset({
    "x", "input", "y", "label", "logits", "logit", "X", "input1", "x1", "log_probs", "condition", "ids",
    "index", "query", "theta", "real", "sorted_sequence", "pred", "scores", "bboxes", "anchor", "prior_box",
    "bbox_pred", "im_info", "rpn_rois", "multi_rois", "fpn_rois", "dist_matrix", "detect_res", "loc",
    "location", "pre_ids", "x_t", "ref", "mean", "weight", "arr", "abs", "array",
})
# Sample values for other required parameters, by name (a Tensor for the names above).
SAMPLES: dict[str, Any] = {
    "size": 2, "shape": [2, 3], "axis": 0, "axes": [0], "num_classes": 3, "perm": [1, 0], "dtype": "float32",
    "value": 1.0, "k": 1, "num_filters": 2, "filter_size": 1, "pool_size": 1, "num_or_sections": 1,
    "repeat_times": [1, 1], "num_rows": 2, "shifts": 1, "dims": [0], "start": 0, "end": 1, "starts": [0],
    "ends": [1], "dim": 0, "scale": 1.0, "p": 2.0, "depth": 3, "chunks": 1, "offset": 0, "padding": [0, 0],
    "pad": [0, 0], "paddings": [0, 0], "groups": 1, "kernel_size": 1, "ksize": 1, "n": 2, "out_shape": [2, 3],
    "expand_times": [1, 1], "target_shape": [2, 3], "min": 0.0, "max": 1.0, "num": 2, "stop": 1, "diagonal": 0,
    "sections": 1, "indices_or_sections": 1, "upscale_factor": 1, "downscale_factor": 1, "output_size": 1,
    "num_channels": 3, "epsilon": 1e-5, "alpha": 1.0, "beta": 1.0, "threshold": 1.0, "new_shape": [2, 3],
}
BAD: dict[str, Callable[[], Any]] = {
    "list": lambda: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    "None": lambda: None,
    "str": lambda: "abc",
    "ndarray_dtype": lambda: np.array([["a", "b", "c"], ["d", "e", "f"]]),  # a numpy array of strings
}
MODES = ("dygraph", "static")
# Calls the sweep does not make: they start threads, processes or readers, or print / plot, whatever the input.
SKIP = frozenset({
    "paddle.fluid.layers.py_reader", "paddle.fluid.layers.create_py_reader_by_data", "paddle.fluid.layers.Print",
    "paddle.fluid.layers.double_buffer", "paddle.fluid.layers.read_file", "paddle.fluid.layers.load",
})


@dataclass(frozen=True)
class Case:
    api: str  # e.g. "paddle.fluid.layers.fc"
    arg: str  # the parameter given the bad value
    bad: str  # a key of BAD
    mode: str  # "dygraph" / "static"

    @property
    def id(self) -> str:
        return f"{self.api}:{self.arg}:{self.bad}:{self.mode}"


def _functions(modname: str):
    import importlib

    mod = importlib.import_module(modname)
    for name in sorted(n for n in dir(mod) if not n.startswith("_")):
        obj = getattr(mod, name)
        if isinstance(obj, (type, types.ModuleType)) or not callable(obj):
            continue
        yield f"{modname}.{name}", obj


def _signature(fn) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _required(fn, api: str) -> list[str] | None:
    """The required parameters after the first (an in-place variant written `(x, *args, **kwargs)`: its
    out-of-place function's); None if one of them has no sample value."""
    sig = _signature(fn)
    if api.endswith("_") and inspect.Parameter.VAR_POSITIONAL in [p.kind for p in sig.parameters.values()]:
        import importlib

        mod, _, name = api.rpartition(".")
        out_of_place = getattr(importlib.import_module(mod), name[:-1], None)
        if out_of_place is not None and _signature(out_of_place) is not None:
            sig = _signature(out_of_place)
    names = [p.name for p in list(sig.parameters.values())[1:] if p.default is inspect.Parameter.empty
             and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return names if all(n in TENSOR_ARGS or n in SAMPLES for n in names) else None


def plan() -> tuple[list[Case], dict[str, str]]:
    """(the cases, api -> why it has none) over every public function of MODULES."""
    import paddle  # noqa: F401 - fills the modules

    cases, skipped = [], {}
    for modname in MODULES:
        for api, fn in _functions(modname):
            sig = _signature(fn)
            if getattr(fn, "__paddle_unsupported__", False):
                skipped[api] = "unsupported (raises UnsupportedAPIError)"
                continue
            if api in SKIP:
                skipped[api] = "skipped (side effects)"
                continue
            params = list(sig.parameters.values()) if sig else []
            if not params or params[0].name not in TENSOR_ARGS or params[0].kind not in (
                    inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
                skipped[api] = "no Tensor first argument"
                continue
            if _required(fn, api) is None:
                skipped[api] = "required argument without a sample"
                continue
            first = params[0]
            for bad in BAD:
                if bad == "None" and first.default is None:
                    continue  # None is a valid value there
                for mode in MODES:
                    cases.append(Case(api, first.name, bad, mode))
    return cases, skipped


def _fn(api: str):
    import importlib

    mod, _, name = api.rpartition(".")
    return getattr(importlib.import_module(mod), name)


INT_ARGS = frozenset({"index", "ids", "label", "indices", "pre_ids"})


def _good_tensor(static: bool, name: str):
    import paddle

    dtype = "int64" if name in INT_ARGS else "float32"
    if static:
        return paddle.static.data(f"good_{name}", [2, 3], dtype)
    return paddle.zeros([2, 3], dtype) if dtype == "int64" else paddle.ones([2, 3], dtype)


def call(case: Case, good: Any = None) -> Any:
    """Make the call of `case` in its mode (fresh programs in static mode); returns the result or raises.
    `good`: a function making the value to pass instead of the bad one (the same call with a good Tensor)."""
    import paddle

    fn = _fn(case.api)
    static = case.mode == "static"
    required = _required(fn, case.api)
    bad = BAD[case.bad]() if good is None else good

    variadic = inspect.Parameter.VAR_POSITIONAL in [p.kind for p in _signature(fn).parameters.values()]

    def run():
        first = bad() if callable(bad) and good is not None else bad
        kwargs = {k: _good_tensor(static, k) if k in TENSOR_ARGS else SAMPLES[k] for k in required}
        if variadic:  # an in-place variant `(x, *args, **kwargs)`: the out-of-place function's arguments in order
            return fn(first, *kwargs.values())
        return fn(first, **kwargs)

    if static:
        main, startup = paddle.static.Program(), paddle.static.Program()
        paddle.enable_static()
        try:
            with paddle.static.program_guard(main, startup):
                return run()
        finally:
            paddle.disable_static()
    return run()


def api_paths(case: Case) -> set[str]:
    """The dotted paths that name `case.api`'s function: its own, and every path the same object is exported at."""
    from paddle_compat.engine.framework import registry

    fn = _fn(case.api)
    paths = {case.api}
    for mod, names in registry.EXPORTS.items():
        for n, obj in names.items():
            if obj is fn:
                paths.add(f"{mod}.{n}")
    op = getattr(fn, "__paddle_op__", None)
    if op is not None:
        paths.update(op.exports)
    out = set()
    for p in paths:
        out.add(p)
        if p.startswith("paddle.fluid."):
            out.add(p[len("paddle."):])  # fluid.layers.fc
    return out


def outcome(case: Case) -> tuple[str, str]:
    """('named' | 'accepted' | 'unnamed' | 'no_error', detail)."""
    try:
        r = call(case)
    except Exception as e:  # noqa: BLE001 - what the sweep measures
        msg = str(e)
        names_api = any(re.search(rf"(?<![\w.]){re.escape(p)}(?!\w)", msg) for p in api_paths(case))
        # `'x'`, or a bare one-letter name in a body's own words ("paddle.hypot: x must be a Tensor, but got list";
        # a bare `input` would also match "needs the LoD of its input")
        names_arg = f"'{case.arg}'" in msg or (len(case.arg) == 1 and re.search(
            rf"(?<![\w.'\[]){re.escape(case.arg)}(?![\w'(\[])", msg) is not None)
        if names_api and names_arg:  # soft: None given, and the error's own words kept (engine/framework/argcheck.blame)
            return "named_soft" if "is None, and the call failed" in msg else "named", msg
        if case.bad in ("list", "ndarray_dtype") and _same_with_a_tensor(case, e):
            return "accepted", f"converted; the call fails with a good Tensor too: {type(e).__name__}: {msg[:200]}"
        return "unnamed", f"{type(e).__name__}: {msg[:300]}"
    if case.api.rpartition(".")[2].startswith("is_") and isinstance(r, bool):
        return "accepted", f"a predicate's answer: {r}"
    if case.bad == "list" and _holds_tensors(r):
        return "accepted", f"converted: {type(r).__name__}"
    return "no_error", repr(r)[:200]


def _holds_tensors(r: Any) -> bool:
    from paddle_compat.engine.framework.program import Variable
    from paddle_compat.engine.framework.tensor import Tensor

    if isinstance(r, (Tensor, Variable)):
        return True
    return type(r) in (list, tuple) and len(r) > 0 and all(_holds_tensors(x) for x in r)


def _same_with_a_tensor(case: Case, exc: BaseException) -> bool:
    """The list / array was taken as the Tensor it converts to: a good Tensor there fails the same way (the
    sample values of the other arguments do not suit this function, e.g. image_resize without out_shape)."""
    try:
        call(case, good=lambda: _good_tensor(case.mode == "static", case.arg))
    except Exception as e:  # noqa: BLE001
        strip = re.compile(r"[\w.]*(tmp|good)_?\w*|\[[\d, -]*\]|\d+")

        def core(m: str) -> str:  # the message without the static recorder's list of inputs
            return strip.sub("", m.split(" Inputs: ")[0])

        return type(e) is type(exc) and core(str(e)) == core(str(exc))
    return False


def handled(kind: str) -> bool:
    return kind in ("named", "named_soft", "accepted")


def main() -> None:
    import collections
    import sys

    cases, skipped = plan()
    table: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    kinds: collections.Counter = collections.Counter()
    bad_cases = []
    for c in cases:
        kind, detail = outcome(c)
        kinds[kind] += 1
        module = c.api.rpartition(".")[0]
        for key in ((module, c.bad), (module, "all"), ("all", c.bad), ("all", "all"), (f"{c.mode} mode", "all")):
            table[key][0] += 1
            table[key][1] += handled(kind)
        if not handled(kind):
            bad_cases.append((c.id, kind, detail))
    print("| module | wrong value | tried | handled |\n|---|---|---|---|")
    for (m, b), (n, h) in sorted(table.items()):
        print(f"| {m} | {b} | {n} | {h} |")
    print("\noutcomes:", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"functions tried: {len({c.api for c in cases})}")
    print(f"\nfunctions without a case: {len(skipped)}")
    for why, n in collections.Counter(v.split(":")[0] for v in skipped.values()).most_common():
        print(f"  {n:4d} {why}")
    print(f"\nnot handled: {len(bad_cases)}")
    for row in bad_cases:
        print("  ", *row, sep=" | ", file=sys.stdout)


if __name__ == "__main__":
    main()
