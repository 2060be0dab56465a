"""Fleet in one process, written once over the public API: each case takes the `paddle` module and returns
JSON-able answers. `rec_fleet.py` records them from real Paddle (fleet18: 1.8.5, fleet26: 2.6.2) into
tests/goldens/<golden>.json; tests/distributed/test_fleet_single.py replays them on paddle_compat."""
import os


def _error(fn):
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - the type and message are the answer
        return [type(e).__name__, str(e).splitlines()[0][:200]]
    return None


def _env(**kv):
    for k in ("PADDLE_TRAINER_ID", "PADDLE_TRAINER_ENDPOINTS", "PADDLE_TRAINERS_NUM", "PADDLE_CURRENT_ENDPOINT",
              "TRAINING_ROLE", "PADDLE_PSERVERS_IP_PORT_LIST", "POD_IP", "PADDLE_PORT"):
        os.environ.pop(k, None)
    os.environ.update(kv)


# ------------------------------------------------------------------------------------------------ 1.8.5
def role_makers18(paddle):
    from paddle.fluid.incubate.fleet.base import role_maker as rm

    _env(PADDLE_TRAINER_ID="1", PADDLE_TRAINER_ENDPOINTS="10.0.0.1:6170,10.0.0.1:6171,10.0.0.2:6170")
    cloud = rm.PaddleCloudRoleMaker(is_collective=True)
    cloud.generate_role()
    out = {"cloud": [cloud.is_worker(), cloud.is_first_worker(), cloud.worker_index(), cloud.worker_num(),
                     cloud.get_trainer_endpoints()]}
    _env(TRAINING_ROLE="PSERVER", PADDLE_PSERVERS_IP_PORT_LIST="127.0.0.1:6000,127.0.0.1:6001",
         PADDLE_TRAINERS_NUM="4", POD_IP="127.0.0.1", PADDLE_PORT="6001")
    ps = rm.PaddleCloudRoleMaker()
    ps.generate_role()
    out["ps"] = [ps.is_worker(), ps.is_server(), ps.server_index(), ps.worker_num(), ps.get_pserver_endpoints()]
    _env()
    ud = rm.UserDefinedCollectiveRoleMaker(current_id=0, worker_endpoints=["a:1", "b:2"])
    out["user_collective"] = [ud.is_worker(), ud.is_first_worker(), ud.worker_index(), ud.worker_num()]
    out["errors"] = [
        _error(lambda: rm.UserDefinedCollectiveRoleMaker(0, "a:1")),
        _error(lambda: rm.UserDefinedCollectiveRoleMaker(0, [])),
        _error(lambda: rm.UserDefinedCollectiveRoleMaker(0, ["a:1", "a:1"])),
        _error(lambda: rm.UserDefinedCollectiveRoleMaker(2, ["a:1", "b:1"])),
        _error(lambda: rm.UserDefinedCollectiveRoleMaker(-1, ["a:1"])),
        _error(lambda: rm.UserDefinedRoleMaker(0, rm.Role.SERVER, 2, ["s:1"])),
        _error(lambda: rm.UserDefinedRoleMaker(1, rm.Role.SERVER, 2, ["s:1"])),
        _error(lambda: rm.UserDefinedRoleMaker(0, rm.Role.WORKER, 0, ["s:1"])),
        _error(lambda: rm.UserDefinedRoleMaker(0, 7, 1, ["s:1"])),
    ]
    ur = rm.UserDefinedRoleMaker(0, rm.Role.SERVER, 2, ["s:1", "s:2"])
    out["user"] = [ur.is_worker(), ur.is_server(), ur.server_index(), ur.worker_num()]
    return out


def collective18(paddle):
    from paddle.fluid.incubate.fleet.base import role_maker as rm
    from paddle.fluid.incubate.fleet.collective import DistributedStrategy, TrainStatus, fleet

    fleet.init(rm.UserDefinedCollectiveRoleMaker(current_id=1, worker_endpoints=["h:1", "h:2", "h:3"]))
    s = DistributedStrategy()
    out = {"fleet": [fleet.worker_index(), fleet.worker_num(), fleet.is_first_worker(), fleet.is_worker(),
                     fleet.worker_endpoints(), fleet.worker_endpoints(to_string=True)],
           # split_files itself fails on Python 3 in 1.8.5 (a float slice index); test_fleet_single checks ours
           "strategy": [s.mode, s.collective_mode, s.nccl_comm_num, s.use_local_sgd, s.use_dist_fc,
                        s.forward_recompute, s.recompute_checkpoints, s.use_amp, s.amp_loss_scaling,
                        s.num_trainers, s.fuse_all_reduce_ops, type(s.exec_strategy).__name__],
           "status": [TrainStatus(3).next(), TrainStatus(2) == TrainStatus(2), TrainStatus(1) != TrainStatus(2)],
           "split_error": _error(lambda: fleet.split_files("abc"))}
    s.my_flag = 3
    out["extra_attr"] = s.my_flag
    return out


# ------------------------------------------------------------------------------------------------ 2.6.2
def fleet26(paddle):
    from paddle.distributed import fleet

    _env()
    fleet.init(is_collective=True)
    m = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(0.1, parameters=m.parameters())
    hcg = fleet.get_hybrid_communicate_group()
    out = {"roles": [fleet.worker_num(), fleet.worker_index(), fleet.is_first_worker(), fleet.is_worker(),
                     fleet.is_server(), fleet.worker_endpoints(), fleet.server_num(), fleet.node_num()],
           "wrapped": [fleet.distributed_model(m) is m, fleet.distributed_optimizer(opt) is opt],
           "hcg": [hcg.get_data_parallel_world_size(), hcg.get_model_parallel_world_size(),
                   hcg.get_data_parallel_rank(), hcg.get_pipe_parallel_world_size(),
                   hcg.get_sharding_parallel_world_size(), hcg.get_stage_id()],
           "all_reduce": fleet.util.all_reduce([1.0, 2.0], "sum").tolist() if hasattr(fleet.util.all_reduce(
               [1.0, 2.0], "sum"), "tolist") else list(fleet.util.all_reduce([1.0, 2.0], "sum")),
           "shard": fleet.util.get_file_shard(list("abc"))}
    paddle.enable_static()
    try:
        out["static_returns_fleet"] = type(fleet.distributed_optimizer(paddle.optimizer.SGD(0.1))).__name__
    finally:
        paddle.disable_static()
    return out


def strategy26(paddle):
    from paddle.distributed import fleet

    s = fleet.DistributedStrategy()
    names = ["a_sync", "amp", "recompute", "sharding", "pipeline", "tensor_parallel", "gradient_merge", "lars",
             "lamb", "dgc", "localsgd", "fuse_all_reduce_ops", "fuse_grad_size_in_MB", "nccl_comm_num",
             "sync_batch_norm", "find_unused_parameters", "without_graph_optimization", "last_comm_group_size_MB",
             "sync_nccl_allreduce", "use_hierarchical_allreduce", "hierarchical_allreduce_inter_nranks",
             "fp16_allreduce", "heter_ccl_mode", "semi_auto", "auto", "split_data", "fuse_grad_merge"]
    out = {"defaults": {n: getattr(s, n) for n in names}}
    for c in ("amp_configs", "recompute_configs", "pipeline_configs", "gradient_merge_configs",
              "tensor_parallel_configs", "localsgd_configs", "sharding_configs"):
        out[c] = getattr(s, c)
    # the nested mp / pp / sharding configs come back as protobuf messages in 2.6.2: the degrees only
    out["hybrid_degrees"] = {k: s.hybrid_configs[k] for k in ("dp_degree", "mp_degree", "pp_degree",
                                                              "sharding_degree", "sep_degree")}
    s.amp = 1  # not a bool: Paddle warns and keeps the old value
    s.recompute = True
    s.amp_configs = {"init_loss_scaling": 1024, "custom_white_list": ["matmul"]}
    s.hybrid_configs = {"dp_degree": 2, "mp_configs": {"sync_param": False}}
    s.fuse_grad_size_in_MB = 16
    out["after"] = [s.amp, s.recompute, s.amp_configs["init_loss_scaling"], s.amp_configs["custom_white_list"],
                    s.hybrid_configs["dp_degree"], s.hybrid_configs["mp_degree"], s.fuse_grad_size_in_MB]
    out["bad_key"] = _error(lambda: setattr(s, "amp_configs", {"bogus": 1}))
    out["build_strategy"] = type(s.build_strategy).__name__
    return out


CASES18 = [role_makers18, collective18]
CASES26 = [fleet26, strategy26]
