"""A trainer that dies makes the others stop with a clear error in bounded time (no hang)."""

from __future__ import annotations

import subprocess
import sys
import time

from _dist_util import HERE, clean_env, free_port


def test_killed_trainer_stops_the_other():
    port = str(free_port())
    procs = []
    for r in (0, 1):
        env = clean_env(RANK=str(r), WORLD_SIZE="2", LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1", MASTER_PORT=port,
                        PADDLE_COMPAT_DIST_TIMEOUT="20")
        procs.append(subprocess.Popen([sys.executable, "_dist_fault.py"], cwd=HERE, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    t0 = time.monotonic()
    try:
        out0, err0 = procs[0].communicate(timeout=90)
        procs[1].communicate(timeout=30)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    elapsed = time.monotonic() - t0
    assert procs[1].returncode == -9
    assert procs[0].returncode not in (0, None), f"trainer 0 did not fail:\n{out0}\n{err0}"
    assert "UNREACHABLE" not in out0
    assert "lost contact with the other trainers" in err0 and "trainer 0 of 2" in err0, err0[-3000:]
    assert elapsed < 90
