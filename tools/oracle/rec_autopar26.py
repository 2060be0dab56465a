"""Record Paddle 2.6.2's auto-parallel API on one process -> tests/goldens/autopar26.json (+ the checkpoint directory
tests/goldens/autopar26_ckpt/ that real Paddle's save_state_dict wrote). tests/distributed/test_autopar.py runs
record() on paddle_compat and compares.

Run: cd /tmp && env -u PYTHONPATH /work/oracle/p26/bin/python -s <this file>
(It sets Paddle's one-trainer launch variables itself: a distributed tensor's numpy() needs a communicator.)
"""
import os
import shutil
import socket
import sys


def _err(fn):
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - the error is the behaviour recorded
        # the first builtin class: Paddle raises ValueError where paddle_compat raises its ValueError subclass
        kind = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
        return [kind, str(e).strip().splitlines()[0][:160] if str(e).strip() else ""]
    return ["no error", ""]


def _net(paddle, np):
    """Two linears with fixed weights (the dygraph training both sides run)."""
    lin0 = paddle.nn.Linear(4, 6)
    lin1 = paddle.nn.Linear(6, 3)
    lin0.weight.set_value(np.linspace(-1, 1, 24).reshape(4, 6).astype("float32"))
    lin0.bias.set_value(np.linspace(0, 0.5, 6).astype("float32"))
    lin1.weight.set_value(np.linspace(1, -1, 18).reshape(6, 3).astype("float32"))
    lin1.bias.set_value(np.zeros(3, "float32"))
    return paddle.nn.Sequential(lin0, paddle.nn.ReLU(), lin1)


def _data(np):
    rs = np.random.RandomState(0)
    return rs.rand(8, 4).astype("float32"), rs.rand(8, 3).astype("float32")


def train_dense(paddle, np, opt_name, steps=3):
    """Losses of plain dygraph training, batches of 4 (what DistModel / sharded training must reproduce)."""
    x, y = _data(np)
    net = _net(paddle, np)
    opt = getattr(paddle.optimizer, opt_name)(learning_rate=0.1, parameters=net.parameters())
    out = []
    for i in range(steps):
        b = slice((i % 2) * 4, (i % 2) * 4 + 4)
        loss = paddle.nn.functional.mse_loss(net(paddle.to_tensor(x[b])), paddle.to_tensor(y[b]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        out.append(float(loss))
    return out


def record(paddle):
    import numpy as np

    d = paddle.distributed
    out = {}
    R = d.ReduceType
    names = ["kRedSum", "kRedMax", "kRedMin", "kRedProd", "kRedAvg", "kRedAny", "kRedAll"]
    out["reduce_types"] = [[n, getattr(R, n).name, int(getattr(R, n)), str(getattr(R, n)), repr(getattr(R, n)),
                            getattr(R, n) == int(getattr(R, n)), hash(getattr(R, n)) == hash(int(getattr(R, n))),
                            str(d.Partial(getattr(R, n)))] for n in names]
    pl = [d.Shard(0), d.Shard(1), d.Replicate(), d.Partial(), d.Partial(R.kRedMax)]
    out["placements"] = [[str(p), p.is_shard(), p.is_replicated(), p.is_partial(), isinstance(p, d.Placement)]
                         for p in pl]
    out["placements_eq"] = [[a == b for b in pl] for a in pl]
    out["placements_hash"] = [hash(d.Shard(1)) == hash(d.Shard(1)), hash(d.Replicate()) == hash(d.Replicate())]
    out["shard_get_dim"] = d.Shard(3).get_dim()
    out["placement_errors"] = [_err(lambda: d.Shard())[0], _err(lambda: d.Shard("a"))[0],
                               _err(lambda: d.Partial(0))[0], _err(lambda: d.Shard(dim=1))[0]]

    m = d.ProcessMesh([[2, 4, 5], [0, 1, 3]], dim_names=["x", "y"])
    out["mesh"] = [str(m), m.shape, m.process_ids, m.dim_names, m.ndim, m.size, m.mesh.tolist(), m.dim_size("x"),
                   m.dim_size(1), m.contains(4), m.contains(9), m.empty(), m.get_dim_size("y")]
    out["mesh_views"] = [str(m.get_mesh_with_dim("y")), str(m[1]), str(m[1, 2]), str(m[:, 1:]), str(m[0:1]),
                         str(m[:, 1])]
    out["mesh_default_names"] = [str(d.ProcessMesh([0, 1])), str(d.ProcessMesh(shape=[2, 1], process_ids=[1, 0])),
                                 d.ProcessMesh(np.array([1, 0])).process_ids]
    out["mesh_eq"] = [d.ProcessMesh([0, 1]) == d.ProcessMesh([0, 1], dim_names=["y"]),
                      d.ProcessMesh([0, 1]) == d.ProcessMesh([[0, 1]]), d.ProcessMesh([0, 1]) != d.ProcessMesh([1, 0]),
                      d.ProcessMesh([0]) == [0]]
    out["mesh_errors"] = [_err(f) for f in (
        lambda: d.ProcessMesh((0, 1)), lambda: d.ProcessMesh([0, 1], dim_names="x"),
        lambda: d.ProcessMesh([0, 0]), lambda: d.ProcessMesh([0, -1]),
        lambda: d.ProcessMesh([0, 1], dim_names=["x", "y"]), lambda: d.ProcessMesh([[0, 1]], dim_names=["x", "x"]),
        lambda: d.ProcessMesh([0.5]), lambda: m.get_mesh_with_dim("z"), lambda: m.get_dim_size("z"))]
    out["mesh_dim_size_error"] = _err(lambda: m.dim_size("z"))[0]

    da = d.DistAttr(mesh=m, sharding_specs=["x", None])
    out["dist_attr"] = [str(da), da.sharding_specs, da.dims_mapping, str(da.process_mesh)]
    out["dist_attr_errors"] = [_err(f) for f in (
        lambda: d.DistAttr(mesh=[0], sharding_specs=["x"]), lambda: d.DistAttr(mesh=m, sharding_specs="x"),
        lambda: d.DistAttr(mesh=m, sharding_specs=[0]))]

    mesh = d.ProcessMesh([0], dim_names=["x"])
    a = paddle.to_tensor([[1.0, 2, 3], [5, 6, 7]])
    out["dense"] = [a.is_dist(), a.placements, a.process_mesh, a.dist_attr]
    for name, p in (("shard0", [d.Shard(0)]), ("shard1", [d.Shard(1)]), ("replicate", [d.Replicate()]),
                    ("partial", [d.Partial()]), ("empty", [])):
        t = d.shard_tensor(a, mesh, p)
        out["tensor_" + name] = [t.is_dist(), [str(x) for x in t.placements], str(t.process_mesh),
                                 t.process_mesh == mesh, t.shape, str(t.dist_attr), t._local_value().numpy().tolist(),
                                 t.numpy().tolist(), t.stop_gradient, str(t)]
    out["tensor_sg"] = [d.shard_tensor(a, mesh, [d.Shard(0)], stop_gradient=False).stop_gradient,
                        str(d.shard_tensor([1, 2], mesh, [d.Replicate()]).dtype),
                        str(d.shard_tensor(np.ones(2), mesh, [d.Replicate()], dtype="float32").dtype)]
    s = d.shard_tensor(paddle.to_tensor(3.0), mesh, [d.Replicate()])
    out["tensor_scalar"] = [s.shape, str(s.dist_attr)]
    out["tensor_errors"] = [_err(f)[0] for f in (
        lambda: d.shard_tensor(a, [0], [d.Replicate()]), lambda: d.shard_tensor(a, mesh, [0]),
        lambda: d.shard_tensor(a, mesh, [d.Shard(0), d.Shard(1)]), lambda: d.reshard(a, mesh, [d.Replicate()]))]
    sh = d.shard_tensor(a, mesh, [d.Shard(0)])
    out["ops"] = [(sh + 1).numpy().tolist(), [str(x) for x in (sh + 1).placements], (sh + a).is_dist(),
                  [str(x) for x in (sh + a).placements], np.asarray(sh.sum().numpy()).reshape(-1).tolist(), [str(x) for x in sh.sum().placements],
                  paddle.matmul(sh, sh, transpose_y=True).numpy().tolist()]
    r = d.reshard(sh, mesh, [d.Replicate()])
    out["reshard"] = [r.is_dist(), r._local_value().numpy().tolist(), r.numpy().tolist()]
    f = d.dtensor_from_fn(paddle.ones, mesh, [d.Replicate()], shape=[2])
    out["from_fn"] = [[str(x) for x in f.placements], f.shape, f.numpy().tolist(), f.stop_gradient]

    lin = paddle.nn.Linear(3, 2)
    w = d.shard_tensor(lin.weight, mesh, [d.Shard(1)])
    out["param"] = [type(w).__name__.startswith("Eager"), w.stop_gradient, w.trainable, w.persistable, w.is_dist(), str(w).split("\n")[0]]

    def shard_fn(name, layer, pm):
        if isinstance(layer, paddle.nn.Linear) and name == "0":
            layer.weight = d.shard_tensor(layer.weight, pm, [d.Shard(1)])

    net = d.shard_layer(_net(paddle, np), mesh, shard_fn)
    out["shard_layer"] = sorted([n, [str(x) for x in p.placements], p.stop_gradient] for n, p in net.named_parameters())
    out["shard_layer_errors"] = [_err(lambda: d.shard_layer(paddle.nn.Linear(2, 2), None)),
                                 _err(lambda: d.shard_layer(paddle.nn.Linear(2, 2), [0]))]
    out["shard_optimizer_errors"] = [
        _err(lambda: d.shard_optimizer(None)),
        _err(lambda: d.shard_optimizer(paddle.optimizer.Adam(parameters=paddle.nn.Linear(2, 2).parameters())))]

    # training: sharded parameters + shard_optimizer give the dense losses
    x, y = _data(np)
    for opt_name in ("SGD", "AdamW"):
        out["dense_" + opt_name] = train_dense(paddle, np, opt_name)
        net = d.shard_layer(_net(paddle, np), mesh, shard_fn)
        opt = d.shard_optimizer(getattr(paddle.optimizer, opt_name)(learning_rate=0.1, parameters=net.parameters()))
        losses = []
        for i in range(3):
            b = slice((i % 2) * 4, (i % 2) * 4 + 4)
            loss = paddle.nn.functional.mse_loss(net(paddle.to_tensor(x[b])), paddle.to_tensor(y[b]))
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(np.asarray(loss.numpy()).reshape(-1)[0]))
        out["sharded_" + opt_name] = losses

    st = d.Strategy()
    out["strategy"] = [repr(st), repr(st.sharding), repr(st.gradient_merge), repr(st.pipeline),
                       sorted(vars(st.fused_passes).items())]
    st2 = d.Strategy({"sharding": {"enable": True, "stage": 2}, "gradient_merge": {"k_steps": 4},
                      "fused_passes": {"enable": True}})
    st2.pipeline.micro_batch_size = 2
    out["strategy2"] = [repr(st2), st2.sharding.stage, st2.gradient_merge.get("k_steps"), st2.fused_passes.enable,
                        st2.pipeline.to_dict()]
    out["strategy_errors"] = [_err(lambda: d.Strategy([1])), _err(lambda: d.Strategy({"fused_passes": {"x": 1}}))]

    out["split_errors"] = [_err(lambda: d.split(a, (2, 2), "linear")), _err(lambda: d.split(a, [2], "linear")),
                           _err(lambda: d.split(a, 3, "linear")), _err(lambda: d.split(a, (2, 2), 1)),
                           _err(lambda: d.split(a, (2, 2), "conv"))]
    out["io_dygraph"] = [_err(lambda: d.io.save_persistables(None, "/nonexistent")),
                         _err(lambda: d.io.load_inference_model_distributed("/nonexistent", None))]
    return out


def record_checkpoint(paddle, path):
    """Real Paddle's save_state_dict of a dense, a sharded and a replicated tensor (one process)."""
    import numpy as np

    d = paddle.distributed
    mesh = d.ProcessMesh([0], dim_names=["x"])
    sd = {"w": d.shard_tensor(paddle.to_tensor(np.arange(12, dtype="float32").reshape(3, 4)), mesh, [d.Shard(0)]),
          "b": paddle.to_tensor(np.arange(4, dtype="int64")),
          "r": d.shard_tensor(paddle.to_tensor(np.ones([2, 2], "float64")), mesh, [d.Replicate()])}
    if os.path.isdir(path):
        shutil.rmtree(path)
    d.save_state_dict(sd, path)
    meta = paddle.load(os.path.join(path, "0.metadata"))
    return {"files": sorted(os.listdir(path)),
            "state_dict_metadata": {k: [[list(v.global_offset), list(v.local_shape)] for v in vs]
                                    for k, vs in meta.state_dict_metadata.items()},
            "storage_metadata": sorted([i.tensor_key, list(i.global_offset), f]
                                       for i, f in meta.storage_metadata.items())}


if __name__ == "__main__":  # imports here: the test loads this file for record() on paddle_compat
    with socket.socket() as _s:
        _s.bind(("127.0.0.1", 0))
        _ep = f"127.0.0.1:{_s.getsockname()[1]}"
    os.environ.update(PADDLE_TRAINER_ENDPOINTS=_ep, PADDLE_CURRENT_ENDPOINT=_ep, PADDLE_TRAINER_ID="0",
                      PADDLE_TRAINERS_NUM="1", PADDLE_MASTER=_ep)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import warnings

    import numpy.random  # noqa: F401 - before paddle (its zlib breaks the lazy numpy.random import)
    import paddle
    from _common import GOLDEN_DIR, save

    warnings.filterwarnings("ignore")
    res = record(paddle)
    res["checkpoint"] = record_checkpoint(paddle, os.path.join(GOLDEN_DIR, "autopar26_ckpt"))
    save("autopar26", {}, dict(res, paddle_version=paddle.__version__))
