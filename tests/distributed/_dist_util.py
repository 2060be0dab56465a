"""Launch helpers for the multi-process tests: torchrun on 127.0.0.1 with a free port, bounded in time."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(**extra: str) -> dict:
    """The test process's environment without any launcher variables and with no GPU visible, plus `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PADDLE_TRAINER", "PADDLE_CURRENT", "TORCHELASTIC"))
           and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")}
    env.setdefault("PADDLE_COMPAT_DIST_TIMEOUT", "30")
    env["OMP_NUM_THREADS"] = "1"
    env["CUDA_VISIBLE_DEVICES"] = ""  # the gloo/CPU checks; test_dist_cuda.py passes its GPUs back in `extra`
    env.update(extra)
    return env


def torchrun(script: str, nproc: int = 2, env: dict | None = None, timeout: float = 120,
             args: tuple = ()) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "torch.distributed.run", f"--nproc_per_node={nproc}", "--master_addr",
           "127.0.0.1", "--master_port", str(free_port()), "--monitor_interval", "0.2", script, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env or clean_env(), cwd=HERE)


def tail(proc: subprocess.CompletedProcess, n: int = 4000) -> str:
    return f"rc={proc.returncode}\n--- stdout\n{proc.stdout[-n:]}\n--- stderr\n{proc.stderr[-n:]}"
