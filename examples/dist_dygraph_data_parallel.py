# A Paddle 2.x dygraph data-parallel script, unchanged: init_parallel_env, SyncBatchNorm, DataParallel,
# each trainer training on its share of each batch; trainer 0 saves the model (state_dict keys have no
# DataParallel prefix, so the checkpoint loads into the plain model). Runs as
#     python examples/dist_dygraph_data_parallel.py                       (one process: DataParallel is a no-op)
#     torchrun --nproc_per_node 2 examples/dist_dygraph_data_parallel.py  (two trainers, gloo)
#     python -m paddle.distributed.launch --nproc_per_node 2 examples/dist_dygraph_data_parallel.py
import numpy as np

import paddle
import paddle.distributed as dist
import paddle.nn as nn


class Net(nn.Layer):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(10, 32)
        self.bn = nn.BatchNorm1D(32)
        self.fc2 = nn.Linear(32, 3)

    def forward(self, x):
        return self.fc2(nn.functional.relu(self.bn(self.fc1(x))))


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(2023)
    model = paddle.DataParallel(nn.SyncBatchNorm.convert_sync_batchnorm(Net()))
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    rng = np.random.RandomState(0)
    centers = rng.randn(3, 10).astype("float32") * 2
    labels = rng.randint(0, 3, size=640)
    feats = (centers[labels] + rng.randn(640, 10)).astype("float32")
    batch = 64
    share = batch // world
    for epoch in range(3):
        for i in range(0, len(feats) - batch + 1, batch):
            lo = i + rank * share
            x = paddle.to_tensor(feats[lo:lo + share])
            y = paddle.to_tensor(labels[lo:lo + share].reshape(-1, 1).astype("int64"))
            logits = model(x)
            loss = paddle.mean(-paddle.log(paddle.nn.functional.softmax(logits) + 1e-9) *
                               paddle.nn.functional.one_hot(y.reshape([-1]), 3))
            loss.backward()
            opt.step()
            opt.clear_grad()
        print("trainer %d/%d epoch %d loss %.4f" % (rank, world, epoch, float(loss.numpy().mean())))
    model.eval()
    acc = float((model(paddle.to_tensor(feats)).numpy().argmax(1) == labels).mean())
    print("trainer %d accuracy %.3f" % (rank, acc))
    assert acc > 0.9, "did not learn"
    if rank == 0:
        assert list(model.state_dict())[:2] == ["fc1.weight", "fc1.bias"]
    print("dist_dygraph_data_parallel OK")


if __name__ == "__main__":
    main()
