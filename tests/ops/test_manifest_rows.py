"""Meta-test: every function of modules `paddle` and `paddle.nn.functional` in the API manifest has a row in
the op table (tests/ops/rows_*.py), so the generic tests cover it. A name counts as covered by a row whose
`api` is the name, or whose `inplace` variant is it (e.g. the `paddle.tanh` row covers `paddle.tanh_`)."""

from __future__ import annotations

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from optable import all_rows  # noqa: E402

MANIFEST = os.path.join(os.path.dirname(__file__), "..", "..", "paddle_compat", "data", "api_manifest.json")
MODULES = ("paddle", "paddle.nn.functional")

# Functions that are not ops, so they have no row; each is tested where it is implemented.
NOT_OPS = {
    # mode switches and queries
    "paddle.enable_static", "paddle.disable_static", "paddle.in_dynamic_mode",
    # device / build configuration
    "paddle.set_device", "paddle.get_device", "paddle.is_compiled_with_cuda", "paddle.is_compiled_with_xpu",
    "paddle.get_cudnn_version",
    # dtype configuration
    "paddle.set_default_dtype", "paddle.get_default_dtype",
    # random state (the random ops have rows)
    "paddle.seed", "paddle.get_cuda_rng_state", "paddle.set_cuda_rng_state",
    # autograd API over a computed graph
    "paddle.grad",
    # model-level APIs owned by paddle.nn / hapi (serialization, summaries)
    "paddle.save", "paddle.load", "paddle.summary", "paddle.flops",
}

# paddle.nn.functional names whose rows (rows_functional.py) have not landed yet: strict xfail, so the test
# starts failing (XPASS) as soon as a row lands; remove the name from this set then.
FUNCTIONAL_PENDING: set[str] = set()


def _functions() -> list[str]:
    with open(MANIFEST, encoding="utf-8") as f:
        entries = json.load(f)
    return [f"{e['module']}.{e['name']}" for e in entries if e["module"] in MODULES and e["kind"] == "function"]


def _covered() -> set[str]:
    out = set()
    for r in all_rows():
        out.add(r.api)
        if r.inplace and "." not in r.inplace:
            out.add(f"{r.module}.{r.inplace}")
    return out


COVERED = _covered()


def _params():
    for api in _functions():
        if api in NOT_OPS:
            continue
        marks = [pytest.mark.xfail(reason="row not in rows_functional.py yet", strict=True)] \
            if api in FUNCTIONAL_PENDING else []
        yield pytest.param(api, id=api, marks=marks)


@pytest.mark.parametrize("api", list(_params()))
def test_manifest_function_has_row(api):
    assert api in COVERED, f"{api} is in the API manifest but has no row in tests/ops/rows_*.py"


def test_allow_list_is_not_stale():
    names = set(_functions())
    assert NOT_OPS <= names, f"NOT_OPS names not in the manifest: {sorted(NOT_OPS - names)}"
    assert not (NOT_OPS & COVERED), f"allow-listed names that have rows: {sorted(NOT_OPS & COVERED)}"
