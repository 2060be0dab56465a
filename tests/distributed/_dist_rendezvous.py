"""A trainer started by hand (RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT from the test): joins, all-reduces
once, and prints the result, or prints the error and how long the rendezvous took (tests/distributed/
test_dist_rendezvous.py)."""

import sys
import time

import paddle
import paddle.distributed as dist

t0 = time.monotonic()
try:
    dist.init_parallel_env()
    t = paddle.to_tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(t)
except Exception as e:  # noqa: BLE001 - the test reads it
    print(f"ERROR after {time.monotonic() - t0:.1f} s: {type(e).__name__}: {e}", flush=True)
    sys.exit(3)
print(f"sum={t.numpy()[0]:.1f}", flush=True)
