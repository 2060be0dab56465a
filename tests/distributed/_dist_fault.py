"""Two trainers started by hand (no torchrun, so nothing else kills the survivor): trainer 1 dies with
SIGKILL after one all-reduce; trainer 0 must stop by itself with a clear error."""

import os
import signal
import time

import paddle
import paddle.distributed as dist

dist.init_parallel_env()
t = paddle.to_tensor([1.0])
dist.all_reduce(t)
if dist.get_rank() == 1:
    os.kill(os.getpid(), signal.SIGKILL)
time.sleep(0.5)
for _ in range(1000):
    dist.all_reduce(t)
print("UNREACHABLE: trainer 0 kept training without trainer 1")
