"""Record Paddle 2.6.2's auto-parallel API on TWO processes (CPU, Paddle's own launcher) ->
tests/goldens/autopar26_2ranks.json (+ the checkpoint tests/goldens/autopar26_2ranks_ckpt/ the two ranks wrote).
tests/distributed/test_autopar_multiprocess.py runs record_rank() on paddle_compat under torchrun and compares.

Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <this file>
(it starts `python -m paddle.distributed.launch --nproc_per_node 2` on itself; each rank writes its part.)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _try(fn):
    try:
        return {"value": fn()}
    except BaseException as e:  # noqa: BLE001 - the error is the behaviour recorded
        kind = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
        return {"raised": kind, "message": str(e).strip().splitlines()[0][:200] if str(e).strip() else ""}


def _np(t):
    import numpy as np

    return np.asarray(t.numpy()).tolist()


def pair_net(paddle):
    """(x, y, net): a column-parallel linear, ReLU, a row-parallel linear, with fixed weights."""
    import numpy as np

    rs = np.random.RandomState(0)
    x = rs.rand(4, 4).astype("float32")
    y = rs.rand(4, 3).astype("float32")
    lin0, lin1 = paddle.nn.Linear(4, 6), paddle.nn.Linear(6, 3)
    lin0.weight.set_value(np.linspace(-1, 1, 24).reshape(4, 6).astype("float32"))
    lin0.bias.set_value(np.linspace(0, 0.5, 6).astype("float32"))
    lin1.weight.set_value(np.linspace(1, -1, 18).reshape(6, 3).astype("float32"))
    lin1.bias.set_value(np.zeros(3, "float32"))
    return x, y, paddle.nn.Sequential(lin0, paddle.nn.ReLU(), lin1)


def pair_shard_fn(paddle):
    d = paddle.distributed

    def shard_fn(name, layer, pm):
        if name == "0":
            layer.weight = d.shard_tensor(layer.weight, pm, [d.Shard(1)])
            layer.bias = d.shard_tensor(layer.bias, pm, [d.Shard(0)])
        if name == "2":
            layer.weight = d.shard_tensor(layer.weight, pm, [d.Shard(0)])

    return shard_fn


def record_rank(paddle, ckpt_dir):
    """What one rank sees (mesh [0, 1]); every rank runs the same calls in the same order."""
    import numpy as np

    d = paddle.distributed
    mesh = d.ProcessMesh([0, 1], dim_names=["x"])
    a = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))
    out = {"rank": d.get_rank(), "world": d.get_world_size()}
    s0 = d.shard_tensor(a, mesh, [d.Shard(0)])
    s1 = d.shard_tensor(a, mesh, [d.Shard(1)])
    p = d.shard_tensor(a, mesh, [d.Partial()])
    out["s0_local"] = _try(lambda: _np(s0._local_value()))
    out["s0_shape"] = s0.shape
    out["s1_local"] = _try(lambda: _np(s1._local_value()))
    out["p_local"] = _try(lambda: _np(p._local_value()))
    out["s0_numpy"] = _try(lambda: _np(s0))
    out["s0_to_r"] = _try(lambda: _np(d.reshard(s0, mesh, [d.Replicate()])._local_value()))
    out["p_to_r"] = _try(lambda: _np(d.reshard(p, mesh, [d.Replicate()])._local_value()))
    out["r_to_s0"] = _try(lambda: _np(d.reshard(d.shard_tensor(a, mesh, [d.Replicate()]), mesh,
                                                 [d.Shard(0)])._local_value()))
    out["s0_plus_1"] = _try(lambda: _np((s0 + 1)._local_value()))
    # matmul of a row-sharded matrix with a replicated one: rows stay sharded
    w = d.shard_tensor(paddle.to_tensor(np.linspace(-1, 1, 6, dtype="float32").reshape(3, 2)), mesh,
                       [d.Replicate()])
    mm = paddle.matmul(s0, w)
    out["matmul_placements"] = [str(x) for x in mm.placements]
    out["matmul_local"] = _try(lambda: _np(mm._local_value()))
    # column-parallel then row-parallel linear pair (Megatron style), one SGD step each; the losses on each rank
    x, y, net = pair_net(paddle)
    shard_fn = pair_shard_fn(paddle)

    def train():
        n = d.shard_layer(net, mesh, shard_fn)
        opt = d.shard_optimizer(paddle.optimizer.SGD(learning_rate=0.1, parameters=n.parameters()))
        losses = []
        for _ in range(3):
            loss = paddle.nn.functional.mse_loss(n(paddle.to_tensor(x)), paddle.to_tensor(y))
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(np.asarray(loss.numpy()).reshape(-1)[0]))
        return {"losses": losses, "w0_local_shape": n[0].weight._local_value().shape,
                "w0_placements": [str(x) for x in n[0].weight.placements]}

    out["train"] = _try(train)
    # distributed checkpoint written by both ranks
    sd = {"s0": s0, "r": d.shard_tensor(paddle.ones([2, 2]), mesh, [d.Replicate()]),
          "dense": paddle.to_tensor(np.arange(4, dtype="int64"))}
    out["save"] = _try(lambda: d.save_state_dict(sd, ckpt_dir))
    # Paddle 2.6.2 needs each sharded dim divisible by the mesh dim (s1: 3 columns over 2 ranks)
    out["save_uneven"] = _try(lambda: d.save_state_dict({"s1": s1}, ckpt_dir + "_uneven"))
    return out


def main():
    if os.environ.get("AUTOPAR_REC_OUT"):  # a rank, started by the launcher
        import numpy.random  # noqa: F401 - before paddle (its zlib breaks the lazy numpy.random import)
        import paddle

        res = record_rank(paddle, os.environ["AUTOPAR_REC_CKPT"])
        with open(os.path.join(os.environ["AUTOPAR_REC_OUT"], f"rank{res['rank']}.json"), "w") as f:
            json.dump(res, f)
        return
    sys.path.insert(0, HERE)
    from _common import GOLDEN_DIR, save

    ckpt = os.path.join(GOLDEN_DIR, "autopar26_2ranks_ckpt")
    for old in (ckpt, ckpt + "_uneven"):
        if os.path.isdir(old):
            shutil.rmtree(old)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, AUTOPAR_REC_OUT=tmp, AUTOPAR_REC_CKPT=ckpt)
        subprocess.run([sys.executable, "-s", "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
                        "--log_dir", os.path.join(tmp, "log"), os.path.abspath(__file__)], env=env, check=True,
                       timeout=300, cwd=tmp)
        ranks = []
        for r in (0, 1):
            with open(os.path.join(tmp, f"rank{r}.json")) as f:
                ranks.append(json.load(f))
    import numpy.random  # noqa: F401
    import paddle

    save("autopar26_2ranks", {}, {"paddle_version": paddle.__version__, "ranks": ranks,
                                  "checkpoint_files": sorted(os.listdir(ckpt))})
    shutil.rmtree(ckpt + "_uneven", ignore_errors=True)


if __name__ == "__main__":
    main()
