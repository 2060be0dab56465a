"""The two-trainer checks of _dist_worker.py on CUDA; skipped without a GPU.

With two GPUs each trainer owns one and the default backend is torch's pair "cpu:gloo,cuda:nccl". With one
GPU, NCCL refuses two ranks on the same device, so both trainers run on gpu:0 over gloo (which carries CUDA
tensors): the CUDA data-parallel paths (buckets, SyncBatchNorm, static replicas on a CUDAPlace) still run
across processes. A third test checks the clear error when there are more trainers than GPUs.
"""

from __future__ import annotations

import json
import os

import pytest
import torch

from _dist_util import clean_env, tail, torchrun

N_GPU = torch.cuda.device_count() if torch.cuda.is_available() else 0
pytestmark = pytest.mark.skipif(N_GPU == 0, reason="needs a CUDA device")
VISIBLE = ",".join(str(i) for i in range(N_GPU))


def _run_worker(tmp_path, **extra):
    env = clean_env(DIST_OUT=str(tmp_path), DIST_EXPECT_CUDA="1", CUDA_VISIBLE_DEVICES=VISIBLE, CPU_NUM="1",
                    **extra)
    proc = torchrun("_dist_worker.py", 2, env, timeout=300)
    assert proc.returncode == 0, tail(proc)
    for r in (0, 1):
        with open(os.path.join(tmp_path, f"rank{r}.json"), encoding="utf-8") as f:
            res = json.load(f)
        bad = {k: v[1] for k, v in res.items() if not v[0]}
        assert not bad and len(res) == 8, f"rank {r}: {bad}"


@pytest.mark.skipif(N_GPU < 2, reason="NCCL needs one GPU per trainer")
def test_two_trainers_nccl(tmp_path):
    _run_worker(tmp_path)


def test_two_trainers_share_one_gpu_over_gloo(tmp_path):
    _run_worker(tmp_path, PADDLE_COMPAT_DIST_BACKEND="gloo", FLAGS_selected_gpus="0")


@pytest.mark.skipif(N_GPU >= 2, reason="needs fewer GPUs than trainers")
def test_more_trainers_than_gpus_is_a_clear_error():
    proc = torchrun("_dist_tiny.py", 2, clean_env(CUDA_VISIBLE_DEVICES=VISIBLE), timeout=120)
    assert proc.returncode != 0
    assert f"selects gpu:1 but only {N_GPU} CUDA device(s) are visible" in proc.stderr, tail(proc)
