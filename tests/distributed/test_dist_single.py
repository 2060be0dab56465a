"""The multi-process layer in one process: identities without a process group, the environment mapping,
trainer resolution, owner placement, launch argument translation, and SyncBatchNorm / DataParallel falling
back to BatchNorm / the wrapped layer."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import paddle
from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.core import launch_env
from paddle_compat.engine.core.launch_env import paddle_env_from_torchrun
from paddle_compat.paddle2.distributed.launch import torchrun_argv
from paddle_compat.engine.parallel import collective


def _one_process_cases():
    d = paddle.distributed
    one = lambda v: paddle.to_tensor(v)  # noqa: E731

    def scatter():
        t = paddle.zeros([2])
        d.scatter(t, [one([1.0, 2.0])])
        return t.numpy().tolist(), [1.0, 2.0]

    def gather():
        got = []
        d.gather(one([3.0]), got)
        return [g.numpy().tolist() for g in got], [[3.0]]

    def alltoall():
        outs = []
        d.alltoall([one([4.0])], outs)
        return [o.numpy().tolist() for o in outs], [[4.0]]

    def reduce_scatter():
        t = paddle.zeros([1])
        d.reduce_scatter(t, [one([5.0])])
        return t.numpy().tolist(), [5.0]

    def objects():
        lst, out = ["old"], []
        d.all_gather_object(lst, {"a": 1})
        d.scatter_object_list(out, [7])
        return (lst, out), ([{"a": 1}], [7])

    return {f.__name__: f for f in (scatter, gather, alltoall, reduce_scatter, objects)}


@pytest.mark.parametrize("name", list(_one_process_cases()))
def test_2x_collectives_are_their_definition_in_one_process(name):
    got, want = _one_process_cases()[name]()
    assert got == want


@pytest.mark.parametrize("call", ["send", "recv", "isend", "irecv"])
def test_point_to_point_without_a_peer_says_how_to_start_trainers(call):
    from paddle_compat.engine.core.errors import PreconditionNotMetError

    with pytest.raises(PreconditionNotMetError, match=f"paddle.distributed.{call} needs a peer trainer"):
        getattr(paddle.distributed, call)(paddle.zeros([1]), 1)


def test_backend_queries_in_one_process():
    from paddle_compat.engine.core.errors import PreconditionNotMetError

    assert paddle.distributed.is_available() is True
    with pytest.raises(PreconditionNotMetError, match="init_parallel_env"):
        paddle.distributed.get_backend()
    with pytest.raises(InvalidArgumentError, match="one tensor per trainer \\(1\\), but holds 2"):
        paddle.distributed.alltoall([paddle.zeros([1])] * 2, [])

def test_collectives_are_identities_in_one_process():
    ts = [torch.ones(3), torch.arange(4)]
    collective.all_reduce_sum_(ts, bucket_bytes=8)
    collective.broadcast_(ts)
    assert collective.world_size() == 1 and collective.rank() == 0 and not collective.is_initialized()
    assert torch.equal(ts[0], torch.ones(3)) and torch.equal(ts[1], torch.arange(4))
    t = paddle.to_tensor([2.0])
    paddle.distributed.all_reduce(t)
    parts = []
    paddle.distributed.all_gather(parts, t)
    assert t.numpy().tolist() == [2.0] and len(parts) == 1
    assert paddle.distributed.get_rank() == 0 and paddle.distributed.get_world_size() == 1


def test_torchrun_env_fills_paddle_variables():
    env = {"RANK": "1", "WORLD_SIZE": "2", "LOCAL_RANK": "1", "MASTER_ADDR": "10.0.0.5", "MASTER_PORT": "6000"}
    values, conflicts = paddle_env_from_torchrun(env)
    assert values["PADDLE_TRAINER_ID"] == "1" and values["PADDLE_TRAINERS_NUM"] == "2"
    assert values["PADDLE_TRAINER_ENDPOINTS"] == "10.0.0.5:6001,10.0.0.5:6002"
    assert values["PADDLE_CURRENT_ENDPOINT"] == "10.0.0.5:6002" and not conflicts
    kept, conflicts = paddle_env_from_torchrun({**env, "PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2"})
    assert "PADDLE_TRAINER_ID" not in kept and not conflicts
    _, conflicts = paddle_env_from_torchrun({**env, "PADDLE_TRAINER_ID": "0"})
    assert conflicts == ["PADDLE_TRAINER_ID=0 but torchrun set RANK=1"]


def test_resolve_trainers(monkeypatch):
    assert launch_env.resolve_trainers(1, 0) == (1, 0)
    with pytest.raises(InvalidArgumentError, match="num_trainers is 2, but the launcher started 1"):
        launch_env.resolve_trainers(2, 0)
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "1")
    assert launch_env.resolve_trainers(1, 0) == (2, 1) == launch_env.resolve_trainers(2, 1)
    with pytest.raises(InvalidArgumentError, match="trainer_id is 3, but this process is trainer 1"):
        launch_env.resolve_trainers(2, 3)
    bs = paddle.static.BuildStrategy()  # under a launcher the defaults follow WORLD_SIZE / RANK
    assert (bs.num_trainers, bs.trainer_id) == (2, 1)
    with pytest.raises(InvalidArgumentError, match="BuildStrategy.num_trainers is 4"):
        bs.num_trainers = 4


def test_reduce_owners_are_greedy_by_numel():
    assert collective.assign_owners([100, 10, 10, 10, 200], 2) == [0, 1, 1, 1, 1]
    assert collective.assign_owners([5, 5, 5], 3) == [0, 1, 2]


def test_buckets_split_by_dtype_and_size():
    ts = [torch.zeros(4), torch.zeros(4, dtype=torch.int64), torch.zeros(4), torch.zeros(8)]
    assert collective._buckets(ts, 32) == [[0, 2], [3], [1]]


@pytest.mark.parametrize("argv, want, env", [
    (["--nproc_per_node", "2", "train.py", "--lr", "0.1"],
     ["--nnodes", "1", "--nproc_per_node", "2", "--node_rank", "0"], {}),
    (["--gpus", "0,1", "train.py"], ["--nproc_per_node", "2"], {"CUDA_VISIBLE_DEVICES": "0,1"}),
    (["--nnodes", "2", "--rank", "1", "--master", "10.0.0.1:8090", "--nproc_per_node", "4", "t.py"],
     ["--nnodes", "2", "--nproc_per_node", "4", "--node_rank", "1", "--master_addr", "10.0.0.1",
      "--master_port", "8090"], {}),
    (["--ips", "10.0.0.1,10.0.0.2", "--host", "10.0.0.2", "t.py"],
     ["--nnodes", "2", "--node_rank", "1", "--master_addr", "10.0.0.1", "--master_port", "6070"], {}),
])
def test_launch_translates_to_torchrun(argv, want, env):
    out, got_env = torchrun_argv(argv, cuda_count=2)
    for i in range(0, len(want), 2):
        assert out[out.index(want[i]) + 1] == want[i + 1], (want[i], out)
    script = argv[[i for i, a in enumerate(argv) if a.endswith(".py")][0]:]
    assert out[-len(script):] == script
    assert got_env == env


def test_launch_rejects_what_it_cannot_do():
    with pytest.raises(UnsupportedAPIError, match="--run_mode ps"):
        torchrun_argv(["--run_mode", "ps", "t.py"])
    with pytest.raises(ValueError, match="several nodes need --master"):
        torchrun_argv(["--nnodes", "2", "t.py"])


def test_sync_batch_norm_alone_is_batch_norm():
    x = np.random.RandomState(0).randn(4, 3, 2, 2).astype("float32")
    paddle.seed(1)
    sbn = paddle.nn.SyncBatchNorm(3)
    bn = paddle.nn.BatchNorm2D(3)
    np.testing.assert_allclose(sbn(paddle.to_tensor(x)).numpy(), bn(paddle.to_tensor(x)).numpy(), atol=1e-6)
    np.testing.assert_allclose(sbn._mean.numpy(), bn._mean.numpy(), atol=1e-7)
    assert list(sbn.state_dict()) == ["weight", "bias", "_mean", "_variance"]
    assert sbn.weight.name.startswith("sync_batch_norm_")


def test_convert_sync_batchnorm_shares_parameters():
    model = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 1), paddle.nn.BatchNorm2D(4),
                                 paddle.nn.Sequential(paddle.nn.BatchNorm1D(4)))
    bn = model[1]
    conv = paddle.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(conv[1], paddle.nn.SyncBatchNorm) and isinstance(conv[2][0], paddle.nn.SyncBatchNorm)
    assert conv[1].weight is bn.weight and conv[1]._mean is bn._mean and conv[2][0]._data_format == "NCL"
    assert list(conv.state_dict()) == list(model.state_dict())


def test_data_parallel_alone_is_the_layer():
    paddle.seed(2)
    layer = paddle.nn.Linear(3, 2)
    with pytest.warns(UserWarning, match="single-card"):
        dp = paddle.DataParallel(layer)
    x = paddle.to_tensor(np.ones([2, 3], "float32"))
    np.testing.assert_array_equal(dp(x).numpy(), layer(x).numpy())
    assert list(dp.state_dict()) == ["weight", "bias"] and dp.scale_loss(x) is x
    assert len(dp.parameters()) == 2
    dp.set_state_dict({"weight": np.zeros([3, 2], "float32"), "bias": np.ones([2], "float32")})
    assert layer.bias.numpy().tolist() == [1.0, 1.0]


def test_gpu_without_index_is_this_trainers_device(monkeypatch):
    from paddle_compat.engine.core.place import to_place

    monkeypatch.setenv("FLAGS_selected_gpus", "1")
    assert to_place("gpu").device_id == 1 and to_place("gpu:0").device_id == 0
    monkeypatch.delenv("FLAGS_selected_gpus")
    assert to_place("gpu").device_id == 0


def test_sync_batch_norm_records_sync_batch_norm_in_static_mode():
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3, 2, 2])
        y = paddle.nn.SyncBatchNorm(3)(x)
    assert [op.type for op in main.global_block().ops] == ["sync_batch_norm"]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xv = np.random.RandomState(0).rand(4, 3, 2, 2).astype("float32")
    out, = exe.run(main, feed={"x": xv}, fetch_list=[y])
    ref = (xv - xv.mean((0, 2, 3), keepdims=True)) / np.sqrt(xv.var((0, 2, 3), keepdims=True) + 1e-5)
    np.testing.assert_allclose(out, ref, atol=1e-5)


def test_collective_errors_are_clear():
    with pytest.raises(Exception, match="lost contact with the other trainers"):
        collective._guard("all_reduce(sum)", lambda: (_ for _ in ()).throw(RuntimeError("Connection closed by peer")))
    with pytest.raises(Exception, match="all_reduce.sum. failed on trainer 0 of 1: bad dtype"):
        collective._guard("all_reduce(sum)", lambda: (_ for _ in ()).throw(RuntimeError("bad dtype")))


def test_config_objects_as_paddle_26():
    """ParallelMode and the entry policies against tests/goldens/dist_config26.json (tools/oracle/
    rec_dist_config26.py, whose record() runs here too)."""
    import importlib.util
    import json
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    spec = importlib.util.spec_from_file_location("rec", os.path.join(root, "tools", "oracle", "rec_dist_config26.py"))
    with open(os.path.join(root, "tests", "goldens", "dist_config26.json"), encoding="utf-8") as f:
        want = json.load(f)
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)
    got = rec.record(paddle)
    assert got == {k: want[k] for k in got}


def test_gloo_barrier_context_joins_and_synchronises_ranks():
    """gloo_init_parallel_env's context (paddle2/distributed/gloo_ctx.py) with two ranks, each in a thread: a rank leaves a
    barrier only once the other has reached it."""
    import socket
    import threading
    import time

    from paddle_compat.paddle2.distributed.gloo_ctx import GlooContext

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    events, ctxs = [], {}

    def rank(r):
        ctxs[r] = GlooContext(r, 2, f"127.0.0.1:{port}")
        if r == 1:
            time.sleep(0.3)
        events.append(("arrive", r))
        ctxs[r].barrier()
        events.append(("leave", r))

    threads = [threading.Thread(target=rank, args=(r,)) for r in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert set(events[:2]) == {("arrive", 0), ("arrive", 1)} and len(events) == 4, events
    with pytest.raises(AssertionError, match="rank_num should greater than or equal to 2"):
        GlooContext(0, 1, f"127.0.0.1:{port}")
    with pytest.raises(AssertionError, match="gloo context is not initialzed"):
        paddle.distributed.gloo_barrier()
