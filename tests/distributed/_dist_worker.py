"""Run by tests/distributed under torchrun (2 processes, gloo, 127.0.0.1): every check of the multi-process
layer in one launch (a launch costs seconds), each rank writing {check: [ok, detail]} to $DIST_OUT/rank<r>.json.

Each rank also computes the single-process reference on the full batches itself, so no second launch is
needed for the comparisons.
"""

from __future__ import annotations

import json
import os
import sys
import traceback

import numpy as np

import paddle
import paddle.distributed as dist

CHECKS: dict[str, list] = {}
TOL = 1e-5


def check(name):
    def deco(fn):
        try:
            ok, detail = fn()
        except Exception:  # noqa: BLE001 - reported to the test
            ok, detail = False, traceback.format_exc()[-3000:]
        CHECKS[name] = [bool(ok), str(detail)]
        return fn

    return deco


def close(a, b, tol=TOL):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    return a.shape == b.shape and err <= tol, f"max |diff| = {err:.3g} (shapes {a.shape} {b.shape})"


rank, world = dist.get_rank(), dist.get_world_size()
dist.init_parallel_env()
CUDA = os.environ.get("DIST_EXPECT_CUDA") == "1"  # test_dist_cuda.py: place gpu:FLAGS_selected_gpus (or LOCAL_RANK)
GPU = os.environ.get("FLAGS_selected_gpus", os.environ.get("LOCAL_RANK", "0"))


@check("env")
def _():
    env = dist.ParallelEnv()
    eps = os.environ["PADDLE_TRAINER_ENDPOINTS"].split(",")
    ok = (env.rank == rank == int(os.environ["RANK"]) and env.world_size == world == 2
          and os.environ["PADDLE_TRAINER_ID"] == str(rank) and os.environ["PADDLE_TRAINERS_NUM"] == "2"
          and len(eps) == 2 and os.environ["PADDLE_CURRENT_ENDPOINT"] == eps[rank]
          and env.local_rank == rank and env.nranks == 2
          and paddle.get_device() == (f"gpu:{GPU}" if CUDA else "cpu"))
    return ok, f"{env} {eps} {paddle.get_device()}"


@check("collectives")
def _():
    out = []
    t = paddle.to_tensor([1.0 + rank, 10.0])
    dist.all_reduce(t)
    out.append(close(t.numpy(), [3.0, 20.0]))
    t = paddle.to_tensor([1.0 + rank])
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    out.append(close(t.numpy(), [2.0]))
    t = paddle.to_tensor([1.0 + rank])
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    out.append(close(t.numpy(), [1.5]))
    t = paddle.to_tensor([float(rank), 5.0])
    dist.broadcast(t, src=1)
    out.append(close(t.numpy(), [1.0, 5.0]))
    parts = []
    dist.all_gather(parts, paddle.to_tensor([[rank, rank]]))
    out.append((len(parts) == 2 and [p.numpy().tolist() for p in parts] == [[[0, 0]], [[1, 1]]], "all_gather"))
    t = paddle.to_tensor([2.0 + rank])
    dist.reduce(t, dst=0)
    if rank == 0:
        out.append(close(t.numpy(), [5.0]))
    g = dist.new_group([0, 1])
    t = paddle.to_tensor([1.0])
    dist.all_reduce(t, group=g)
    out.append(close(t.numpy(), [2.0]))
    out.append((g.nranks == 2 and g.rank == rank, repr(g)))
    dist.barrier()
    return all(o[0] for o in out), [o[1] for o in out if not o[0]]


@check("collectives2x")
def _():
    """Paddle 2.6's scatter / gather / alltoall / reduce_scatter / p2p / object collectives on two trainers."""
    out = []
    t = paddle.zeros([2])
    dist.scatter(t, [paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])] if rank == 1 else None, src=1)
    out.append(close(t.numpy(), [[1.0, 2.0], [3.0, 4.0]][rank]))
    got = []
    dist.gather(paddle.to_tensor([10.0 * (rank + 1)]), got if rank == 0 else None, dst=0)
    if rank == 0:
        out.append(close(np.concatenate([g.numpy() for g in got]), [10.0, 20.0]))
    outs = []
    dist.alltoall([paddle.to_tensor([rank * 10.0 + j]) for j in range(2)], outs)
    out.append(close(np.concatenate([o.numpy() for o in outs]), [rank, 10.0 + rank]))
    single = paddle.zeros([2])
    dist.alltoall_single(paddle.to_tensor([rank * 10.0, rank * 10.0 + 1]), single)
    out.append(close(single.numpy(), [rank, 10.0 + rank]))
    t = paddle.zeros([1])
    dist.reduce_scatter(t, [paddle.to_tensor([1.0 + rank]), paddle.to_tensor([5.0 + rank])])
    out.append(close(t.numpy(), [[3.0], [11.0]][rank]))
    if rank == 0:
        dist.send(paddle.to_tensor([7.0, 8.0]), dst=1)
        task = dist.isend(paddle.to_tensor([9.0]), dst=1)
        task.wait()
    else:
        r = paddle.zeros([2])
        dist.recv(r, src=0)
        r2 = paddle.zeros([1])
        dist.irecv(r2, src=0).wait()
        out.append(close(np.concatenate([r.numpy(), r2.numpy()]), [7.0, 8.0, 9.0]))
    objs = []
    dist.all_gather_object(objs, {"rank": rank})
    out.append((objs == [{"rank": 0}, {"rank": 1}], f"all_gather_object {objs}"))
    lst = [rank, "x"]
    dist.broadcast_object_list(lst, src=1)
    out.append((lst == [1, "x"], f"broadcast_object_list {lst}"))
    one = ["stale"]
    dist.scatter_object_list(one, [["a"], ["b"]] if rank == 0 else None, src=0)
    out.append((one == [[["a"], ["b"]][rank]], f"scatter_object_list {one}"))
    out.append((dist.get_backend() == "GLOO" and dist.is_available(), dist.get_backend()))
    dist.barrier()
    return all(o[0] for o in out), [o[1] for o in out if not o[0]]


@check("bucketed_all_reduce")
def _():
    import torch

    from paddle_compat.engine.parallel import collective

    gen = torch.Generator().manual_seed(rank)
    dev = paddle.to_tensor([0.0])._t.device
    ts = [torch.randn(s, generator=gen).to(dev) for s in ((3, 4), (5,), (2, 2, 2), (7,))]
    ts.append(torch.arange(4, device=dev) + rank)
    plain = [t.clone() for t in ts]
    fused = [t.clone() for t in ts]
    collective.all_reduce_(plain, "sum")
    collective.all_reduce_(fused, "sum", bucket_bytes=64)  # several buckets, mixed dtypes
    same = all(torch.equal(a, b) for a, b in zip(plain, fused))
    owners = collective.reduce_to_owners_([t.clone() for t in ts[:4]])
    red = [t.clone() for t in ts[:4]]
    collective.sync_gradients_(red, reduce_strategy=1)
    same_reduce = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(red, plain[:4]))
    return same and same_reduce and owners == collective.assign_owners([12, 5, 8, 7], 2), owners


def _full_batch(seed, n, shape):
    rs = np.random.RandomState(seed)
    return rs.randn(n, *shape).astype("float32")


def _shard(a):
    half = a.shape[0] // world
    return a[rank * half:(rank + 1) * half]


@check("sync_batch_norm")
def _():
    import paddle.nn.functional as F

    x_full = _full_batch(1, 8, (3, 4, 4)) * 2.0 + 0.5
    w_full = _full_batch(2, 8, (3, 4, 4))
    bn = paddle.nn.SyncBatchNorm(3)
    x = paddle.to_tensor(_shard(x_full), stop_gradient=False)
    y = bn(x)
    (y * paddle.to_tensor(_shard(w_full))).sum().backward()
    # reference: plain batch norm over the full batch, one process
    rm, rv = paddle.zeros([3]), paddle.ones([3])
    wt = paddle.ones([3])
    wt.stop_gradient = False
    xr = paddle.to_tensor(x_full, stop_gradient=False)
    yr = F.batch_norm(xr, rm, rv, wt, paddle.zeros([3]), training=True)
    (yr * paddle.to_tensor(w_full)).sum().backward()
    wgrad = paddle.to_tensor(bn.weight.grad.numpy())
    dist.all_reduce(wgrad)
    res = [close(y.numpy(), _shard(yr.numpy())), close(bn._mean.numpy(), rm.numpy()),
           close(bn._variance.numpy(), rv.numpy()), close(x.grad.numpy(), _shard(xr.grad.numpy()), 1e-4),
           close(wgrad.numpy(), wt.grad.numpy(), 1e-4)]
    return all(r[0] for r in res), [r[1] for r in res]


def _mlp(seed, sync_bn):
    paddle.seed(seed)
    norm = paddle.nn.BatchNorm1D(8)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), norm, paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
    return paddle.nn.SyncBatchNorm.convert_sync_batchnorm(model) if sync_bn else model


def _train(model, opt, xs, ys):
    for x, y in zip(xs, ys):
        out = model(paddle.to_tensor(x))
        loss = ((out - paddle.to_tensor(y)) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()


@check("data_parallel")
def _():
    xs = [_full_batch(10 + i, 8, (4,)) for i in range(3)]
    ys = [_full_batch(20 + i, 8, (2,)) for i in range(3)]
    inner = _mlp(100 + rank, sync_bn=True)  # different init per rank: DataParallel broadcasts rank 0's
    dp = paddle.DataParallel(inner)
    init = {k: v.numpy().copy() for k, v in dp.state_dict().items()}
    opt = paddle.optimizer.Momentum(0.1, 0.9, parameters=dp.parameters())
    _train(dp, opt, [_shard(x) for x in xs], [_shard(y) for y in ys])
    ref = _mlp(7, sync_bn=False)
    ref.set_state_dict(init)
    ropt = paddle.optimizer.Momentum(0.1, 0.9, parameters=ref.parameters())
    _train(ref, ropt, xs, ys)
    got, want = dp.state_dict(), ref.state_dict()
    res = [(list(got) == list(inner.state_dict()) == list(want), f"keys {list(got)}")]
    res += [close(got[k].numpy(), want[k].numpy()) for k in want]
    w0 = paddle.to_tensor(init["0.weight"])
    dist.broadcast(w0, src=0)
    res.append(close(init["0.weight"], w0.numpy(), 0.0))
    return all(r[0] for r in res), [r[1] for r in res if not r[0]]


@check("no_sync")
def _():
    paddle.seed(3)
    dp = paddle.DataParallel(paddle.nn.Linear(2, 1))
    x = paddle.to_tensor([[1.0 + rank, 2.0]])
    with dp.no_sync():
        dp(x).sum().backward()
    local = dp._layers.weight.grad.numpy().copy()
    dp._layers.clear_gradients()
    dp(x).sum().backward()
    synced = dp._layers.weight.grad.numpy()
    return (close(local, [[1.0 + rank], [2.0]])[0] and close(synced, [[1.5], [2.0]])[0]), (local, synced)


if os.environ.get("DIST_STATIC", "1") == "1":
    from _dist_static_case import static_case, static_sync_bn_two_places  # noqa: E402 - beside this file

    @check("static_data_parallel")
    def _():
        return static_case(rank, world, _shard, close)

    @check("static_sync_bn_two_places")
    def _():
        return static_sync_bn_two_places(rank, world, _shard, close)

out_dir = os.environ["DIST_OUT"]
with open(os.path.join(out_dir, f"rank{rank}.json"), "w", encoding="utf-8") as f:
    json.dump(CHECKS, f, indent=1)
print(f"rank {rank}: {sum(v[0] for v in CHECKS.values())}/{len(CHECKS)} checks ok", file=sys.stderr)
