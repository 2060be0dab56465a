"""tools/zoo26/compare.py's verdicts on hand-made dumps: a NaN on one side only fails; a difference that 2.6.2's own
jittered run (run.py --jitter) also shows is reported as 2.6.2 disagreeing with itself, not as a pass."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("zoo26_compare", os.path.join(ROOT, "tools", "zoo26", "compare.py"))
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)


def _dump(d, side, arrays, mode="dygraph", ok=True):
    os.makedirs(os.path.join(d, "clas"), exist_ok=True)
    stem = os.path.join(d, "clas", "M.%s.%s" % (mode, side))
    np.savez(stem + ".npz", **arrays)
    with open(stem + ".json", "w") as f:
        json.dump({"ok": ok, "params": {"w": [2]}}, f)


REF = {"eval_0": np.array([1.0, -2.0]), "after_0": np.array([1.0, 2.0])}


@pytest.mark.parametrize("a, b, want", [
    ([1.0, 2.0], [1.0, 2.0], 0.0),
    ([1.0, 2.001], [1.0, 2.0], 0.0005),
    ([np.nan, 2.0], [1.0, 2.0], float("inf")),       # NaN here only: NaN > rtol is False, so it must not be NaN
    ([1.0, 2.0], [np.nan, 2.0], float("inf")),
    ([np.nan, 2.0], [np.nan, 2.0], 0.0),             # the same NaN on both sides
    ([np.inf, 2.0], [-np.inf, 2.0], float("inf")),
])
def test_rel(a, b, want):
    assert compare.rel(np.array(a), np.array(b)) == pytest.approx(want)


@pytest.mark.parametrize("ours_after, jitter_after, verdict, text", [
    ([1.0, 2.0], None, True, "max rel"),
    ([1.0, 2.1], None, False, "after_0 differs: max rel 0.05"),
    ([1.0, np.nan], None, False, "after_0 differs: max rel inf"),
    ([1.0, 2.1], [1.0, 2.2], None, "2.6.2 disagrees with itself: after_0 ours 0.05, 2.6.2 jittered by 1e-6 0.1"),
    ([1.0, 2.1], [1.0, 2.0000001], False, "after_0 differs"),  # 2.6.2 is stable there: a real difference
])
def test_verdict(tmp_path, ours_after, jitter_after, verdict, text):
    d = str(tmp_path)
    _dump(d, "ref", REF)
    _dump(d, "ours", dict(REF, after_0=np.array(ours_after)))
    if jitter_after is not None:
        _dump(d, "refjitter", dict(REF, after_0=np.array(jitter_after)))
    ok, msg = compare.compare(d, "clas", "M", "dygraph", 1e-3)
    assert ok is verdict and text in msg, msg


@pytest.mark.parametrize("static_ref_after, verdict", [
    ([1.0, 2.0], None),        # 2.6.2 static equals 2.6.2 dygraph: the dygraph jitter run stands for it
    ([1.0, 2.01], False),      # it does not: no jitter run for this row, a plain failure
])
def test_static_row_uses_dygraph_jitter_when_2_6_2_static_equals_dygraph(tmp_path, static_ref_after, verdict):
    d = str(tmp_path)
    _dump(d, "ref", REF)
    _dump(d, "refjitter", dict(REF, after_0=np.array([1.0, 2.2])))
    _dump(d, "ref", dict(REF, after_0=np.array(static_ref_after)), mode="static")
    _dump(d, "ours", dict(REF, after_0=np.array([1.0, 2.1])), mode="static")
    ok, msg = compare.compare(d, "clas", "M", "static", 1e-3)
    assert ok is verdict, msg


@pytest.mark.parametrize("draws, verdict, text", [
    ({"refjitter": [1.0, 2.0000001]}, False, "after_0 differs"),
    # one draw lands small by chance; another moves it past rtol: the largest over the draws counts
    ({"refjitter": [1.0, 2.0000001], "refjitter3": [1.0, 2.2]}, None,
     "after_0 ours 0.05, 2.6.2 jittered by 1e-6 0.1 (largest of 2 draws)"),
    ({"refjitter": [1.0, 2.0000001], "refjitter3": [1.0, 2.0000002]}, False, "after_0 differs"),
])
def test_verdict_takes_the_largest_jitter_draw(tmp_path, draws, verdict, text):
    d = str(tmp_path)
    _dump(d, "ref", REF)
    _dump(d, "ours", dict(REF, after_0=np.array([1.0, 2.1])))
    for side, after in draws.items():
        _dump(d, side, dict(REF, after_0=np.array(after)))
    ok, msg = compare.compare(d, "clas", "M", "dygraph", 1e-3)
    assert ok is verdict and text in msg, msg


@pytest.mark.parametrize("ours64_after, verdict, text", [
    ([1.0, 2.0 + 1e-9], None, "in float64 ours equals 2.6.2 to 5e-10"),
    ([1.0, 2.001], False, "after_0 differs in float64 (run.py --float64): max rel 0.0005"),
])
def test_float64_run_decides_a_row_2_6_2_cannot_reproduce_in_float32(tmp_path, ours64_after, verdict, text):
    d = str(tmp_path)
    _dump(d, "ref", REF)
    _dump(d, "ours", dict(REF, after_0=np.array([1.0, 2.1])))
    _dump(d, "refjitter", dict(REF, after_0=np.array([1.0, 2.2])))
    _dump(d, "ref64", REF)
    _dump(d, "ours64", dict(REF, after_0=np.array(ours64_after)))
    ok, msg = compare.compare(d, "clas", "M", "dygraph", 1e-3)
    assert ok is verdict and text in msg, msg
