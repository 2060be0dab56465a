"""paddle.distributed.spawn(train, nprocs=2): each child trains a DataParallel layer one step on its half."""

import numpy as np

import paddle
import paddle.distributed as dist


def train(scale):
    dist.init_parallel_env()
    paddle.seed(dist.get_rank())
    model = paddle.DataParallel(paddle.nn.Linear(2, 1))
    opt = paddle.optimizer.SGD(0.5, parameters=model.parameters())
    x = paddle.to_tensor(np.array([[1.0, 2.0], [3.0, 4.0]], "float32")[dist.get_rank():dist.get_rank() + 1])
    (model(x) * scale).mean().backward()
    opt.step()
    return dist.get_rank(), model.state_dict()["weight"].numpy().tolist()


if __name__ == "__main__":
    ctx = dist.spawn(train, args=(2.0,), nprocs=2, backend="gloo", start_method="fork")  # fork: no re-import
    results = dict(q.get() for q in ctx.return_queues)
    print("weights", results[0] == results[1], results[0])
