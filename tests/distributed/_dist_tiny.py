"""Launched by `python -m paddle.distributed.launch --nproc_per_node 2`: Paddle's variables and one all-reduce."""

import os

import paddle
import paddle.distributed as dist

dist.init_parallel_env()
t = paddle.to_tensor([float(dist.get_rank() + 1)])
dist.all_reduce(t)
print(f"trainer {os.environ['PADDLE_TRAINER_ID']}/{os.environ['PADDLE_TRAINERS_NUM']} sum={t.numpy()[0]:.1f}")
