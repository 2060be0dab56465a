"""Two trainer processes under torchrun (gloo, 127.0.0.1): one launch runs every check in _worker.py, each
rank writing its results; the tests below read them. Each comparison is against one process trained on the
full batches (computed inside the worker), to 1e-5."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from _dist_util import clean_env, tail, torchrun

CHECKS = ["env", "collectives", "collectives2x", "bucketed_all_reduce", "sync_batch_norm", "data_parallel", "no_sync",
          "static_data_parallel",
          "static_sync_bn_two_places"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    proc = torchrun("_dist_worker.py", 2, clean_env(DIST_OUT=str(out), CPU_NUM="1"), timeout=180)
    assert proc.returncode == 0, tail(proc)
    res = []
    for r in (0, 1):
        with open(os.path.join(out, f"rank{r}.json"), encoding="utf-8") as f:
            res.append(json.load(f))
    return res


@pytest.mark.parametrize("name", CHECKS)
def test_two_trainers(results, name):
    if name.startswith("static_") and importlib.util.find_spec("paddle_compat.engine.parallel.data_parallel") is None:
        pytest.skip("the in-process data-parallel runner (paddle_compat/engine/parallel/data_parallel.py) is absent")
    for r, res in enumerate(results):
        assert name in res, f"rank {r} did not run check {name!r}"
        ok, detail = res[name]
        assert ok, f"rank {r}, {name}: {detail}"
