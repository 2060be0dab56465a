"""Auto-parallel under Paddle's own entry points: `python -m paddle.distributed.launch --nproc_per_node 2 <this>`
runs the script on two trainers; `python <this> spawn` starts them with paddle.distributed.spawn. Each trainer
shards a [4, 3] arange by rows on mesh [0, 1], reshards it to replicated and prints what it holds."""

import sys

import numpy as np

import paddle
import paddle.distributed as dist


def work():
    mesh = dist.ProcessMesh([0, 1], dim_names=["x"])
    a = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))
    s = dist.shard_tensor(a, mesh, [dist.Shard(0)])
    r = dist.reshard(s, mesh, [dist.Replicate()])
    total = float(np.asarray(dist.reshard(s.sum(), mesh, [dist.Replicate()]).numpy()).reshape(-1)[0])
    return dist.get_rank(), s._local_value().numpy().tolist(), r._local_value().numpy().sum().item(), total


if __name__ == "__main__":
    if sys.argv[1:] == ["spawn"]:
        ctx = dist.spawn(work, nprocs=2, backend="gloo", start_method="fork")
        for q in ctx.return_queues:
            print("spawned %s %s %s %s" % q.get())
    else:
        sys.stdout.write("launched %s %s %s %s\n" % work())  # one write: the trainers share the terminal
        sys.stdout.flush()
