"""The same two-trainer checks on CUDA with NCCL (one GPU per trainer); skipped without two GPUs."""

from __future__ import annotations

import json
import os

import pytest
import torch

from _dist_util import clean_env, tail, torchrun

pytestmark = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                reason="needs 2 CUDA devices (NCCL)")


def test_two_trainers_nccl(tmp_path):
    # default backend on GPU trainers: "cpu:gloo,cuda:nccl" (the static case feeds CPUPlace, so it is skipped)
    env = clean_env(DIST_OUT=str(tmp_path), DIST_STATIC="0", DIST_EXPECT_CUDA="1")
    proc = torchrun("_dist_worker.py", 2, env, timeout=300)
    assert proc.returncode == 0, tail(proc)
    for r in (0, 1):
        with open(os.path.join(tmp_path, f"rank{r}.json"), encoding="utf-8") as f:
            res = json.load(f)
        bad = {k: v[1] for k, v in res.items() if not v[0]}
        assert not bad and len(res) == 6, f"rank {r}: {bad}"
