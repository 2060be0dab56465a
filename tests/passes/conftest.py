"""The pass tests' programs are small: run memory_optimize's lean-gradient bodies (engine/ops/fused.py) on them too,
as on the activation-sized tensors they are chosen for outside tests (LEAN_MIN_NUMEL)."""

import pytest


@pytest.fixture(autouse=True)
def _lean_bodies_on_small_tensors(monkeypatch):
    from paddle_compat.engine.ops import fused

    monkeypatch.setattr(fused, "LEAN_MIN_NUMEL", 0)
