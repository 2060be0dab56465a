"""docs/coverage.md is generated from the manifest and the exports; it must be current."""

from __future__ import annotations

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_coverage_page_is_current():
    sys.path.insert(0, os.path.join(REPO, "tools"))
    try:
        import gen_coverage
    finally:
        sys.path.pop(0)
    with open(gen_coverage.OUT, encoding="utf-8") as f:
        current = f.read()
    assert current == gen_coverage.render(), "docs/coverage.md is stale: run python tools/gen_coverage.py"


def test_every_manifest_name_is_listed_once():
    import json

    rows = json.load(open(os.path.join(REPO, "paddle_compat", "data", "api_manifest.json")))
    text = open(os.path.join(REPO, "docs", "coverage.md"), encoding="utf-8").read()
    listed = [ln for ln in text.splitlines() if ln.startswith("| `") and ln.count("|") == 5]
    assert len(listed) == len(rows)
    statuses = {ln.split("|")[3].strip() for ln in listed}
    assert statuses <= {"supported", "partial", "not yet"}
