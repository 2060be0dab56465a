"""The pass tests' programs are small: run memory_optimize's lean-gradient bodies (engine/ops/fused.py) on them too,
as on the activation-sized tensors they are chosen for outside tests (LEAN_MIN_NUMEL)."""

import pytest


@pytest.fixture(autouse=True)
def _lean_bodies_on_small_tensors(monkeypatch):
    from paddle_compat.engine.ops import fused

    monkeypatch.setattr(fused, "LEAN_MIN_NUMEL", 0)


@pytest.fixture(autouse=True)
def _plain_plans_unpassed(monkeypatch):
    """The pass tests take a plain Program's plan graph as the graph before the passes (_programs.train with
    compiled=False): without the rewrites a plain plan gets by default (engine/static/executor.py plain_transform;
    tests/passes/test_plain_plan_passes.py turns them on)."""
    from paddle_compat.engine.static import executor

    monkeypatch.setattr(executor, "PLAIN_PASSES", [False])
