"""`python -m paddle.distributed.launch` (front to torchrun) and `paddle.distributed.spawn`, end to end."""

from __future__ import annotations

import subprocess
import sys

from _dist_util import HERE, clean_env, tail


def test_paddle_launch_runs_two_trainers():
    proc = subprocess.run([sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
                           "_dist_tiny.py"], capture_output=True, text=True, timeout=120, env=clean_env(), cwd=HERE)
    assert proc.returncode == 0, tail(proc)
    assert "trainer 0/2 sum=3.0" in proc.stdout and "trainer 1/2 sum=3.0" in proc.stdout, tail(proc)


def test_spawn_trains_with_data_parallel():
    proc = subprocess.run([sys.executable, "_dist_spawn.py"], capture_output=True, text=True, timeout=120,
                          env=clean_env(), cwd=HERE)
    assert proc.returncode == 0, tail(proc)
    # both children end with rank 0's initial weight moved by the averaged gradient (identical on both)
    assert "weights True" in proc.stdout, tail(proc)
