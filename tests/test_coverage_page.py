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


def test_every_surface_and_index_name_is_listed_once():
    sys.path.insert(0, os.path.join(REPO, "tools"))
    try:
        import gen_coverage
    finally:
        sys.path.pop(0)
    text = open(os.path.join(REPO, "docs", "coverage.md"), encoding="utf-8").read()
    section_rows = text.split("\n## ", 1)[1].split("\n## Beyond the reference surface", 1)[0].splitlines()
    listed = [ln for ln in section_rows if ln.startswith("| `")]
    want = gen_coverage.rows()
    assert len(listed) == len(want) > 2700  # 711 index names, 1143 of 1.8.5, 1618 of 2.6.2, overlapping
    statuses = {ln.split("|")[4].strip() for ln in listed}
    assert statuses <= {"supported", "partial", "not yet"}
