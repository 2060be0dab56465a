"""Paddle 2.x `paddle.distributed.fleet`, collective data parallelism, in dygraph and in static programs:

    fleet.init(is_collective=True)
    model = fleet.distributed_model(model)            # paddle.DataParallel over the trainers (the model alone: 1)
    opt = fleet.distributed_optimizer(opt)            # HybridParallelOptimizer (the optimizer alone: 1 trainer)

    paddle.enable_static(); fleet.init(is_collective=True)
    fleet.distributed_optimizer(opt, strategy).minimize(loss)
    exe.run(paddle.static.default_main_program(), ...)   # gradients averaged over the trainers

Each trainer is one torch.distributed process (torchrun, paddle.distributed.launch / spawn). In a static program,
Paddle inserts c_allreduce ops after the backward; here minimize() marks the program so that Executor.run runs
it data parallel over every trainer (engine/parallel/pserver.py's trainer path: the same all-reduce). The
DistributedStrategy keeps Paddle 2.6.2's fields, defaults and checks; amp and recompute are applied in static
programs, hybrid parallelism with a degree above 1 and the other meta optimizers raise, naming the option, and
the parameter-server fleet (is_collective=False with servers) runs only as one worker without servers.
"""

from __future__ import annotations

import copy
import logging
import os
from typing import Any

from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.core.mode import MODE
from paddle_compat.paddle2.distributed import fleet_base as fleet1
from paddle_compat.paddle2.distributed.data_generator import MultiSlotDataGenerator, MultiSlotStringDataGenerator
from paddle_compat.engine.framework.registry import export, partial
from paddle_compat.engine.framework.lookup import api as exported

_F = "paddle.distributed.fleet"
_log = logging.getLogger("paddle_compat.fleet")

# Paddle 2.6.2's DistributedStrategy (distributed_strategy.proto): scalar fields and their defaults.
_SCALARS: dict[str, Any] = {
    "amp": False, "recompute": False, "localsgd": False, "adaptive_localsgd": False, "dgc": False,
    "gradient_merge": False, "lars": False, "lamb": False, "pipeline": False, "elastic": False, "auto": False,
    "semi_auto": False, "auto_search": False, "a_sync": True, "sync_nccl_allreduce": True, "nccl_comm_num": 1,
    "use_hierarchical_allreduce": False, "hierarchical_allreduce_inter_nranks": 1, "sync_batch_norm": False,
    "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32, "fuse_grad_size_in_TFLOPS": 50.0,
    "cudnn_exhaustive_search": False, "conv_workspace_size_limit": 512, "cudnn_batchnorm_spatial_persistent": False,
    "fp16_allreduce": False, "sharding": False, "last_comm_group_size_MB": 1.0, "find_unused_parameters": False,
    "tensor_parallel": False, "without_graph_optimization": True, "fuse_grad_size_in_num": 8,
    "calc_comm_same_stream": False, "asp": False, "fuse_grad_merge": False, "adam_d2sum": False,
    "heter_ccl_mode": False, "is_fl_ps_mode": False, "is_with_coordinator": False, "qat": False, "split_data": True,
}
# The *_configs messages and their defaults.
_CONFIGS: dict[str, dict[str, Any]] = {
    "amp_configs": {"init_loss_scaling": 32768.0, "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2,
                    "incr_ratio": 2.0, "decr_ratio": 0.8, "use_dynamic_loss_scaling": True,
                    "custom_white_list": [], "custom_black_list": [], "custom_black_varnames": [],
                    "use_pure_fp16": False, "use_fp16_guard": True, "use_optimizer_fp16": False,
                    "use_pure_bf16": False},
    "recompute_configs": {"checkpoints": [], "enable_offload": False, "checkpoint_shape": [], "enable_tuning": False,
                          "refined_ops_patterns": []},
    "hybrid_configs": {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1, "sep_degree": 1,
                       "mp_configs": {"sync_param": True, "sync_grad": False, "sync_moment": False,
                                      "sync_mode": "broadcast", "mp_async_allreduce": False,
                                      "mp_skip_c_identity": False, "mp_fused_linear_param_grad_add": False,
                                      "need_broadcast_data": True},
                       "pp_configs": {"dp_comm_overlap": False, "delay_scale_loss": False, "enable_timer": False,
                                      "sharding_comm_overlap": False, "profiling": False},
                       "sharding_configs": {"tensor_fusion": False, "accumulate_steps": 1, "comm_overlap": False,
                                            "split_param": False, "fuse_optimizer": True}},
    "sharding_configs": {"sharding_segment_strategy": "segment_broadcast_MB", "segment_broadcast_MB": 32.0,
                         "segment_anchors": [], "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1,
                         "hybrid_dp": False, "gradient_merge_acc_step": 1, "optimize_offload": False,
                         "pp_allreduce_in_optimize": False, "pp_degree": 1, "optimize_cast": False,
                         "_dp_as_optimizer_sharding": False, "stage": 1, "enable_tuning": False,
                         "use_calc_stream": False},
    "pipeline_configs": {"micro_batch_size": 1, "accumulate_steps": 1, "schedule_mode": "1F1B",
                         "p2p_cache_shape": True, "enable_partial_send_recv": True},
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "adaptive_localsgd_configs": {"init_k_steps": 1, "begin_step": 1},
    "lars_configs": {"lars_coeff": 0.001, "lars_weight_decay": 0.0005,
                     "epsilon": 0.0, "exclude_from_weight_decay": []},
    "lamb_configs": {"lamb_weight_decay": 0.01, "exclude_from_weight_decay": []},
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": []},
    "a_sync_configs": {"k_steps": -1, "max_merge_var_num": 1, "send_queue_size": 16,
                       "independent_recv_thread": False, "min_send_grad_num_before_recv": 1, "thread_pool_size": 1,
                       "send_wait_times": 1, "runtime_split_send_recv": False, "launch_barrier": True,
                       "heter_worker_device_guard": "cpu", "lr_decay_steps": 10, "use_ps_gpu": 0,
                       "use_gpu_graph": 0},
}
# Options that change what is computed, and what this layer does with each when it is on.
_META_UNSUPPORTED = {
    "localsgd": "local SGD", "adaptive_localsgd": "adaptive local SGD", "dgc": "deep gradient compression",
    "gradient_merge": "gradient merge", "lars": "the LARS meta optimizer", "lamb": "the LAMB meta optimizer",
    "pipeline": "pipeline parallelism", "sharding": "sharding", "tensor_parallel": "tensor parallelism",
    "fp16_allreduce": "fp16 all-reduce", "asp": "automatic sparsity", "qat": "quantization-aware training",
}


def _merge(api: str, name: str, have: dict, new: Any) -> dict:
    if not isinstance(new, dict):
        raise TypeError(f"{api}: {name} should be a dict, got {type(new).__name__}")
    out = copy.deepcopy(have)
    for k, v in new.items():
        assert k in out, f"key:{k} not in {name}"  # Paddle's check_configs_key
        out[k] = _merge(api, f"{name}.{k}", out[k], v) if isinstance(out[k], dict) else \
            (type(out[k])(v) if isinstance(out[k], (bool, int, float, str)) and not isinstance(v, list) else v)
    return out


class DistributedStrategy:
    """`fleet.DistributedStrategy`: Paddle 2.6.2's fields and defaults. A flag set to a non-bool is ignored with
    Paddle's warning; a *_configs dict is merged into the defaults and an unknown key fails Paddle's assertion."""

    def __init__(self) -> None:
        from paddle_compat.engine.static.strategy import BuildStrategy, ExecutionStrategy

        object.__setattr__(self, "_values", dict(_SCALARS))
        object.__setattr__(self, "_configs", copy.deepcopy(_CONFIGS))
        object.__setattr__(self, "_build", BuildStrategy())
        object.__setattr__(self, "_exec", ExecutionStrategy())
        _log.info("distributed strategy initialized")

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        configs = self.__dict__.get("_configs", {})
        if name in configs:
            return copy.deepcopy(configs[name])
        if name == "build_strategy":
            return self._build
        if name == "execution_strategy":
            return self._exec
        raise AttributeError(f"'DistributedStrategy' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SCALARS:
            default = _SCALARS[name]
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    _log.warning(f"{name} should have value of bool type")
                    return
            elif isinstance(default, (int, float)):
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise TypeError(f"{_F}.DistributedStrategy.{name} should be a number, got {value!r}")
                value = type(default)(value)
            self._values[name] = value
        elif name in _CONFIGS:
            self._configs[name] = _merge(f"{_F}.DistributedStrategy", name, self._configs[name], value)
        elif name in ("build_strategy", "execution_strategy"):
            object.__setattr__(self, "_build" if name == "build_strategy" else "_exec", value)
        else:
            raise AttributeError(f"{_F}.DistributedStrategy has no field {name!r}")

    def _hybrid_degrees(self) -> dict:
        h = self._configs["hybrid_configs"]
        return {k: h[k] for k in ("mp_degree", "pp_degree", "sharding_degree", "sep_degree")}

    def _check_supported(self, api: str) -> None:
        for name, what in _META_UNSUPPORTED.items():
            if self._values[name]:
                raise UnsupportedAPIError(f"{api} with DistributedStrategy.{name}=True",
                                          f"{what} is not provided; data parallelism (the default), amp and "
                                          "recompute are")
        for name, degree in self._hybrid_degrees().items():
            if degree > 1:
                raise UnsupportedAPIError(f"{api} with hybrid_configs {name}={degree}",
                                          "only data parallelism is provided (every other degree 1)")

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._values.items() if v != _SCALARS[k]}
        changed.update({k: v for k, v in self._configs.items() if v != _CONFIGS[k]})
        return f"DistributedStrategy({changed})"


class Role:
    WORKER = 1
    SERVER = 2
    HETER_WORKER = 3
    ALL = 4
    COORDINATOR = 5


class PaddleCloudRoleMaker(fleet1.PaddleCloudRoleMaker):
    """2.x: the role from Paddle's launch variables; collective trainers without them are one trainer at
    127.0.0.1:6170, as Paddle 2.6.2 defaults."""

    def __init__(self, is_collective: bool = False, **kwargs: Any) -> None:
        super().__init__(is_collective=is_collective)
        self._kwargs = kwargs

    def generate_role(self) -> None:
        if self._role_is_generated:
            return
        if self._is_collective:
            from paddle_compat.engine.core.launch_env import sync_paddle_env

            sync_paddle_env()
            env = os.environ
            self._worker_endpoints = env.get("PADDLE_TRAINER_ENDPOINTS", "127.0.0.1:6170").split(",")
            self._current_id = int(env.get("PADDLE_TRAINER_ID", "0"))
            self._role, self._trainers_num = Role.WORKER, len(self._worker_endpoints)
            self._role_is_generated = True
        elif "PADDLE_PSERVERS_IP_PORT_LIST" in os.environ:
            super().generate_role()
        else:  # Paddle 2.6.2: a parameter-server job started without a launcher is one worker, no servers
            self._role, self._current_id, self._trainers_num = Role.WORKER, 0, 1
            self._role_is_generated = True

    def _is_collective_mode(self) -> bool:
        return self._is_collective


class UserDefinedRoleMaker(fleet1.RoleMakerBase):
    """2.x: the role given by the script: current_id, role, worker_num, worker_endpoints, server_endpoints."""

    def __init__(self, is_collective: bool = False, init_gloo: bool = False, **kwargs: Any) -> None:
        super().__init__()
        self._is_collective = is_collective
        self._current_id = int(kwargs.get("current_id", 0))
        self._role = kwargs.get("role", Role.WORKER)
        self._worker_endpoints = list(kwargs.get("worker_endpoints", []))
        self._server_endpoints = list(kwargs.get("server_endpoints", []))
        self._trainers_num = int(kwargs.get("worker_num", len(self._worker_endpoints) or 1))
        self._role_is_generated = True

    def worker_num(self) -> int:
        return self._trainers_num

    def _is_collective_mode(self) -> bool:
        return self._is_collective


class HybridParallelOptimizer:
    """What fleet.distributed_optimizer returns in dygraph with several trainers: the optimizer, whose
    gradients paddle.DataParallel has already averaged (data parallelism only)."""

    def __init__(self, optimizer: Any, hcg: Any, strategy: Any) -> None:
        self.__dict__.update(_inner_opt=optimizer, _hcg=hcg, _strategy=strategy)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_inner_opt"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._inner_opt, name, value)


class CommunicateTopology:
    """The trainers as a grid over the named parallel axes (rank = row-major index of its coordinate)."""

    def __init__(self, hybrid_group_names: Any = ("data", "pipe", "sharding", "sep", "model"),
                 dims: Any = (1, 1, 1, 1, 1)) -> None:
        import itertools

        self._parallel_names, self._dims = list(hybrid_group_names), list(dims)
        self._world = 1
        for d in self._dims:
            self._world *= d
        self._coords = list(itertools.product(*[range(d) for d in self._dims]))
        self._rank_of = {c: r for r, c in enumerate(self._coords)}

    def get_hybrid_group_names(self) -> list:
        return self._parallel_names

    def get_dim(self, axis_name: str) -> int:
        return self._dims[self._parallel_names.index(axis_name)]

    def world_size(self) -> int:
        return self._world

    def get_rank(self, **kwargs: Any) -> int:
        if len(kwargs) != len(self._dims):
            raise AssertionError(f"{_F}.CommunicateTopology.get_rank: give a coordinate for each of "
                                 f"{self._parallel_names}")
        return self._rank_of[tuple(kwargs[n] for n in self._parallel_names)]

    def get_coord(self, rank: int) -> tuple:
        if not 0 <= rank < self._world:
            raise AssertionError(f"rank {rank} is out of range [0, {self._world})")
        return self._coords[rank]

    def get_axis_list(self, axis_name: str, index: int) -> list:
        axis = self._parallel_names.index(axis_name)
        return sorted(r for c, r in self._rank_of.items() if c[axis] == index)

    def get_comm_list(self, axis_name: str) -> list:
        """The groups of ranks that differ only along axis_name."""
        axis = self._parallel_names.index(axis_name)
        groups: dict = {}
        for c, r in self._rank_of.items():
            groups.setdefault(c[:axis] + c[axis + 1:], []).append(r)
        return [sorted(g) for _, g in sorted(groups.items())]


class HybridCommunicateGroup:
    """fleet.get_hybrid_communicate_group() for data parallelism: every other degree is 1."""

    def __init__(self, topology: CommunicateTopology) -> None:
        from paddle_compat.paddle2.distributed.env import get_rank

        self._topo = topology
        self.global_rank = get_rank()
        self.nranks = topology.world_size()

    def topology(self) -> CommunicateTopology:
        return self._topo

    def get_parallel_mode(self) -> int:
        from paddle_compat.paddle2.distributed.config import ParallelMode

        return ParallelMode.DATA_PARALLEL

    def get_global_rank(self) -> int:
        return self.global_rank

    def get_data_parallel_world_size(self) -> int:
        return self.nranks

    def get_data_parallel_rank(self) -> int:
        return self.global_rank

    def get_data_parallel_group(self) -> Any:
        from paddle_compat.paddle2.distributed.collective import _default_group

        return _default_group()

    def get_data_parallel_group_src_rank(self) -> int:
        return 0

    def _one(self) -> int:
        return 1

    def _zero(self) -> int:
        return 0

    get_model_parallel_world_size = get_pipe_parallel_world_size = get_sharding_parallel_world_size = _one
    get_sep_parallel_world_size = _one
    get_model_parallel_rank = get_stage_id = get_sharding_parallel_rank = get_sep_parallel_rank = _zero


class Fleet(fleet1.Fleet):
    """Paddle 2.x's Fleet; `paddle.distributed.fleet.<method>` are the methods of one instance. The role queries
    (worker_index, worker_num, is_first_worker, endpoints, barrier_worker, ...) are fluid's Fleet base's."""

    def __init__(self) -> None:
        super().__init__(fleet1.Mode.COLLECTIVE)
        self._role_maker: Any = None
        self._is_collective = False
        self._user_defined_strategy: Any = None  # a default DistributedStrategy on first use
        self._user_defined_optimizer: Any = None
        self._hcg: Any = None
        self._log_level = "INFO"

    def _strategy(self) -> DistributedStrategy:
        if self._user_defined_strategy is None:
            self._user_defined_strategy = DistributedStrategy()
        return self._user_defined_strategy

    def _rm(self) -> Any:
        if self._role_maker is None:
            raise InvalidArgumentError(f"{_F}: call fleet.init() first (fleet.init(is_collective=True) for "
                                       "collective training)")
        return self._role_maker

    def init(self, role_maker: Any = None, is_collective: bool = False, strategy: Any = None,
             log_level: Any = "INFO") -> None:
        if strategy is None:
            strategy = DistributedStrategy()
        if not isinstance(strategy, DistributedStrategy):
            raise TypeError(f"{_F}.init: strategy must be a fleet.DistributedStrategy, got {type(strategy).__name__}")
        if role_maker is None:
            if not isinstance(is_collective, bool):
                raise ValueError("`is_collective` should be instance of `bool`, but got {}".format(type(is_collective)))
            role_maker = PaddleCloudRoleMaker(is_collective=is_collective)
        elif not isinstance(role_maker, fleet1.RoleMakerBase):
            raise ValueError(f"`role_maker` should be subclass of `RoleMakerBase`, but got {type(role_maker)}")
        self.set_log_level(log_level)
        self._role_maker = role_maker
        role_maker.generate_role()
        self._is_collective = bool(getattr(role_maker, "_is_collective", is_collective))
        self._user_defined_strategy = strategy
        if self._is_collective:
            if not MODE.static and self.worker_num() > 1:
                from paddle_compat.paddle2.distributed.env import init_parallel_env

                init_parallel_env()
            self._hcg = HybridCommunicateGroup(CommunicateTopology(dims=[self.worker_num(), 1, 1, 1, 1]))

    # --- roles ------------------------------------------------------------------------------------------------
    def node_num(self) -> int:
        return len({e.split(":")[0] for e in self.worker_endpoints()}) or 1

    def local_rank(self) -> Any:
        """PADDLE_RANK_IN_NODE (torchrun's LOCAL_RANK when absent); None outside a launcher, as Paddle."""
        v = os.environ.get("PADDLE_RANK_IN_NODE", os.environ.get("LOCAL_RANK"))
        return int(v) if v not in (None, "") else None

    def is_coordinator(self) -> bool:
        return False

    def all_reduce(self, input: Any, mode: str = "sum") -> Any:  # noqa: A002 - Paddle's name
        import numpy as np

        out = np.zeros(np.asarray(input).reshape(-1).shape, "float64")
        self._rm().all_reduce_worker(input, out, mode)
        return out.reshape(np.asarray(input).shape)

    def set_log_level(self, level: Any) -> None:
        self._log_level = level if isinstance(level, str) else logging.getLevelName(level)
        _log.setLevel(self._log_level)

    def get_log_level_code(self) -> int:
        return logging.getLevelName(self._log_level)

    def get_log_level_name(self) -> str:
        return self._log_level

    # --- parameter-server roles: a worker without servers ---------------------------------------------------
    def _ps_only(self, name: str) -> None:
        if self.server_num() > 0:
            raise UnsupportedAPIError(f"{_F}.{name}", "parameter-server training with servers is provided by "
                                      "fluid's DistributeTranspiler (sync mode) only; use fleet.init(is_collective="
                                      "True) for data parallelism")

    def init_worker(self, scopes: Any = None) -> None:
        self._ps_only("init_worker")

    def stop_worker(self) -> None:
        self._ps_only("stop_worker")

    def init_server(self, *args: Any, **kwargs: Any) -> None:
        self._ps_only("init_server")
        raise UnsupportedAPIError(f"{_F}.init_server", "this process has no server role")

    def run_server(self) -> None:
        self.init_server()

    # --- models and optimizers --------------------------------------------------------------------------------
    def get_hybrid_communicate_group(self) -> HybridCommunicateGroup:
        if self._hcg is None:
            raise InvalidArgumentError(f"{_F}.get_hybrid_communicate_group: call fleet.init(is_collective=True) "
                                       "first")
        return self._hcg

    def distributed_model(self, model: Any) -> Any:
        s = self._strategy()
        s._check_supported(f"{_F}.distributed_model")
        if self.worker_num() <= 1:
            return model
        from paddle_compat.paddle2.distributed.data_parallel import DataParallel

        return DataParallel(model, comm_buffer_size=s.fuse_grad_size_in_MB,
                            last_comm_buffer_size=s.last_comm_group_size_MB,
                            find_unused_parameters=s.find_unused_parameters)

    def distributed_optimizer(self, optimizer: Any, strategy: Any = None) -> Any:
        if strategy is not None:
            if not isinstance(strategy, DistributedStrategy):
                raise TypeError(f"{_F}.distributed_optimizer: strategy must be a fleet.DistributedStrategy")
            self._user_defined_strategy = strategy
        self._user_defined_optimizer = optimizer
        if MODE.static:
            return self  # as Paddle: fleet.minimize(loss) is what the script calls next
        self._strategy()._check_supported(f"{_F}.distributed_optimizer")
        if self.worker_num() > 1:
            return HybridParallelOptimizer(optimizer, self._hcg, self._strategy())
        return optimizer

    def distributed_scaler(self, scaler: Any) -> Any:
        """The GradScaler: with data parallelism its found-inf check already sees the averaged gradients."""
        return scaler

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> Any:
        """In a static program: amp / recompute as the strategy asks, the optimizer's minimize, and the program
        marked for data parallelism over the trainers (Paddle inserts c_allreduce ops instead)."""
        if self._user_defined_optimizer is None:
            raise InvalidArgumentError(f"{_F}.minimize: call fleet.distributed_optimizer(optimizer) first")
        s = self._strategy()
        s._check_supported(f"{_F}.minimize")
        opt = self._user_defined_optimizer
        if s.recompute:
            RecomputeOptimizer = exported("paddle.fluid.optimizer.RecomputeOptimizer", "fleet's recompute strategy")

            block = loss.block.program.global_block()
            opt = RecomputeOptimizer(opt)
            opt._set_checkpoints([block.var(c) if isinstance(c, str) else c for c in s.recompute_configs["checkpoints"]])
        if s.amp:
            from paddle_compat.engine.static.amp import AutoMixedPrecisionLists, decorate

            c = s.amp_configs
            lists = AutoMixedPrecisionLists(set(c["custom_white_list"]) or None, set(c["custom_black_list"]) or None,
                                            set(c["custom_black_varnames"]) or None)
            opt = decorate(opt, lists, c["init_loss_scaling"], c["incr_every_n_steps"], c["decr_every_n_nan_or_inf"],
                           c["incr_ratio"], c["decr_ratio"], c["use_dynamic_loss_scaling"])
        out = opt.minimize(loss, startup_program, parameter_list, no_grad_set)
        n = self.worker_num() if self._role_maker is not None else 1
        if n > 1:  # Executor.run runs it data parallel over every trainer (engine/parallel/pserver.py's trainer path)
            loss.block.program._ps_trainer = {"trainers": n, "trainer_id": self.worker_index()}
        return out

    # --- saving -------------------------------------------------------------------------------------------------
    def save_inference_model(self, executor: Any, dirname: str, feeded_var_names: Any, target_vars: Any,
                             main_program: Any = None, export_for_deployment: bool = True, mode: int = 0) -> Any:
        from paddle_compat.engine.static.io import fluid_save_inference_model

        return fluid_save_inference_model(dirname, feeded_var_names, target_vars, executor, main_program,
                                          export_for_deployment=export_for_deployment)

    def save_persistables(self, executor: Any, dirname: str, main_program: Any = None, mode: int = 0) -> None:
        from paddle_compat.engine.static.io import save_persistables

        save_persistables(executor, dirname, main_program)


class UtilBase:
    """fleet.util: collectives over the trainers and file sharding."""

    def __init__(self, fleet: Fleet) -> None:
        self._fleet = fleet

    def all_reduce(self, input: Any, mode: str = "sum", comm_world: str = "worker") -> Any:  # noqa: A002
        return self._fleet.all_reduce(input, mode)

    def barrier(self, comm_world: str = "worker") -> None:
        self._fleet.barrier_worker()

    def all_gather(self, input: Any, comm_world: str = "worker") -> list:  # noqa: A002
        return self._fleet._rm().all_gather(input)

    def get_file_shard(self, files: Any) -> list:
        return self._fleet.split_files(files)

    def print_on_rank(self, message: Any, rank_id: int) -> None:
        if self._fleet.worker_index() == rank_id:
            print(message)


fleet = Fleet()
fleet.util = UtilBase(fleet)  # type: ignore[attr-defined]
export(fleet.util, f"{_F}.util")  # type: ignore[attr-defined]
export(fleet, f"{_F}.fleet")
for _name in ("init", "is_first_worker", "worker_index", "worker_num", "node_num", "local_rank", "is_worker",
              "is_server", "is_coordinator", "worker_endpoints", "server_num", "server_index", "server_endpoints",
              "barrier_worker", "all_reduce", "set_log_level", "get_log_level_code", "get_log_level_name",
              "init_worker", "stop_worker", "init_server", "run_server", "get_hybrid_communicate_group",
              "distributed_model", "distributed_optimizer", "distributed_scaler", "minimize", "save_inference_model",
              "save_persistables"):
    export(getattr(fleet, _name), f"{_F}.{_name}")
for _obj in (DistributedStrategy, Role, PaddleCloudRoleMaker, UserDefinedRoleMaker, Fleet, CommunicateTopology,
             HybridCommunicateGroup, UtilBase):
    export(_obj, f"{_F}.{_obj.__name__}")
export(HybridParallelOptimizer, f"{_F}.meta_optimizers.HybridParallelOptimizer")
export(fleet1.RoleMakerBase, f"{_F}.base.role_maker.RoleMakerBase")
for _obj in (PaddleCloudRoleMaker, UserDefinedRoleMaker, Role):
    export(_obj, f"{_F}.base.role_maker.{_obj.__name__}")
export(MultiSlotDataGenerator, f"{_F}.MultiSlotDataGenerator", f"{_F}.data_generator.MultiSlotDataGenerator")
export(MultiSlotStringDataGenerator, f"{_F}.MultiSlotStringDataGenerator",
       f"{_F}.data_generator.MultiSlotStringDataGenerator")


# ------------------------------------------------------------------------------------------------ fleet.utils
def recompute(function: Any, *args: Any, **kwargs: Any) -> Any:
    """`fleet.utils.recompute(function, *args, preserve_rng_state=True, use_reentrant=True, **kwargs)`: run
    `function` without keeping its activations; backward runs it again (torch.utils.checkpoint), so the gradients
    are the same and the memory of the activations is saved. In a static program the function is recorded as it
    is (the gradients are the same; the program keeps its activations)."""
    import torch

    from paddle_compat.engine.framework.tensor import Tensor

    preserve = kwargs.pop("preserve_rng_state", True)
    kwargs.pop("use_reentrant", None)  # torch's non-reentrant form: the same gradients, and kwargs allowed
    for k in ("offload_indices", "offload"):
        kwargs.pop(k, None)
    if MODE.static:
        return function(*args, **kwargs)

    def wrap(v: Any) -> Any:
        return Tensor._wrap(v) if isinstance(v, torch.Tensor) else v

    def unwrap(v: Any) -> Any:
        if isinstance(v, Tensor):
            return v._t
        if isinstance(v, (list, tuple)):
            return type(v)(unwrap(x) for x in v)
        return v

    def run(*targs: Any) -> Any:
        return unwrap(function(*[wrap(a) for a in targs], **kwargs))

    with torch.utils.checkpoint.set_checkpoint_early_stop(False):  # recompute the whole function in backward
        out = torch.utils.checkpoint.checkpoint(run, *[unwrap(a) for a in args], use_reentrant=False,
                                                preserve_rng_state=preserve)
    if isinstance(out, (list, tuple)):
        return type(out)(wrap(o) for o in out)
    return wrap(out)


def fused_allreduce_gradients(parameter_list: Any, hcg: Any = None) -> None:
    """Average the gradients of `parameter_list` over the data-parallel trainers (after `model.no_sync()`
    accumulation, as Paddle's hybrid_parallel_util does): each grad is scaled by 1 / trainers and all-reduced."""
    from paddle_compat.engine.parallel import collective

    grads = [p.grad._t for p in parameter_list if getattr(p, "grad", None) is not None]
    n = collective.world_size()
    if n <= 1 or not grads:
        return
    for g in grads:
        g.mul_(1.0 / n)
    collective.all_reduce_(grads, "sum")


export(recompute, f"{_F}.utils.recompute", f"{_F}.recompute.recompute", f"{_F}.utils.recompute_utils.recompute")
export(fused_allreduce_gradients, f"{_F}.utils.hybrid_parallel_util.fused_allreduce_gradients")
for _obj in (CommunicateTopology, HybridCommunicateGroup):
    export(_obj, f"{_F}.base.topology.{_obj.__name__}")
partial(f"{_F}.DistributedStrategy", "data parallelism (and amp / recompute in static programs); the other meta "
                                     "optimizers and hybrid degrees above 1 raise where they would act")
partial(f"{_F}.init_server", "parameter-server training with servers is not provided (one worker without servers "
                             "runs)")
