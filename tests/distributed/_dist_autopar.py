"""One rank of test_autopar_multiprocess.py (torchrun, 2 processes, gloo): tools/oracle/rec_autopar26_2ranks.py's
record_rank() (what real Paddle 2.6.2 recorded on two processes) and loads of checkpoints, written to
$DIST_OUT/rank{r}.json."""

import importlib.util
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [ROOT, os.path.join(ROOT, "shims")]

import paddle  # noqa: E402
import paddle.distributed as dist  # noqa: E402

spec = importlib.util.spec_from_file_location("rec2", os.path.join(ROOT, "tools", "oracle", "rec_autopar26_2ranks.py"))
rec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rec)

out_dir = os.environ["DIST_OUT"]
res = rec.record_rank(paddle, os.path.join(out_dir, "ckpt"))
mesh = dist.ProcessMesh([0, 1], dim_names=["x"])


def load_into(path, placements):
    """The checkpoint's s0 ([4, 3] arange) / r / dense loaded into tensors placed by `placements`."""
    sd = {"s0": dist.shard_tensor(paddle.zeros([4, 3]), mesh, placements),
          "r": dist.shard_tensor(paddle.zeros([2, 2]), mesh, [dist.Shard(0)]),
          "dense": paddle.zeros([4], dtype="int64")}
    dist.load_state_dict(sd, path)
    return {k: [np.asarray(v.numpy()).tolist(), np.asarray(v._local_value().numpy()).tolist()] for k, v in sd.items()}


golden_ckpt = os.path.join(ROOT, "tests", "goldens", "autopar26_2ranks_ckpt")
for name, pl in (("shard0", [dist.Shard(0)]), ("shard1", [dist.Shard(1)]), ("replicate", [dist.Replicate()])):
    res[f"load_paddle_{name}"] = rec._try(lambda pl=pl: load_into(golden_ckpt, pl))
    res[f"load_ours_{name}"] = rec._try(lambda pl=pl: load_into(os.path.join(out_dir, "ckpt"), pl))
res["ckpt_files"] = sorted(os.listdir(os.path.join(out_dir, "ckpt")))


class _Data(paddle.io.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def to_static_losses():
    """The same pair trained through dist.to_static (one batch of 4, three steps)."""
    x, y, net = rec.pair_net(paddle)
    net = dist.shard_layer(net, mesh, rec.pair_shard_fn(paddle))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    loader = paddle.io.DataLoader(_Data(x, y), batch_size=4)
    model, dl = dist.to_static(net, loader, paddle.nn.MSELoss(), opt)
    losses = []
    for _ in range(3):
        for xb, yb in dl():
            losses.append(float(np.asarray(model(xb, yb)).reshape(-1)[0]))
    model.predict()
    pred = model(paddle.to_tensor(x))["out0"]
    return {"losses": losses, "pred_shape": list(pred.shape),
            "w0_local": list(net[0].weight._local_value().shape)}


res["to_static"] = rec._try(to_static_losses)
with open(os.path.join(out_dir, f"rank{res['rank']}.json"), "w") as f:
    json.dump(res, f)
