"""fluid 1.x `paddle.fluid.incubate.fleet`: role makers, the Fleet base and the collective fleet.

The collective fleet is how 1.8 multi-trainer scripts were written:

    role = role_maker.PaddleCloudRoleMaker(is_collective=True)
    fleet.init(role)
    opt = fleet.distributed_optimizer(fluid.optimizer.Momentum(...), strategy=DistributedStrategy())
    opt.minimize(loss)
    exe.run(fleet.startup_program)
    exe.run(fleet.main_program, feed=..., fetch_list=[loss])

As in Paddle 1.8, `minimize` runs the wrapped optimizer, records the trainers on the program (the nccl2
DistributeTranspiler) and makes `fleet.main_program` the program compiled for data parallelism over every
trainer (`CompiledProgram.with_data_parallel`, the DistributedStrategy as its BuildStrategy). Here each trainer is
one torch.distributed process (torchrun or `python -m paddle.distributed.launch`, README "Several processes and
machines"); the endpoints Paddle's launcher sets are filled in from torchrun's. The parameter-server fleet
(`fleet.parameter_server`) runs synchronous training the way `DistributeTranspiler` mode "pserver" does here
(engine/parallel/pserver.py); local SGD, dist FC and the asynchronous modes raise, naming the option.
"""

from __future__ import annotations


import logging
import os
from typing import Any

from paddle_compat.engine.core.unsupported import unsupported_stub
from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.framework.registry import export
from paddle_compat.engine.static.strategy import BuildStrategy, ExecutionStrategy
from paddle_compat.engine.framework.lookup import api as exported

# The fluid 1.x surface's (paddle_compat/_export.py keeps 1.8's shapes for it at API level 2.6); the 2.x surface reuses it.
FLUID_ONLY = True

_FLEET = "paddle.fluid.incubate.fleet"
_ROLE = _FLEET + ".base.role_maker"
_BASE = _FLEET + ".base.fleet_base"
_COLL = _FLEET + ".collective"


class Mode:
    """The kinds of Fleet (Paddle's fleet.base.mode.Mode)."""

    TRANSPILER = 1
    PSLIB = 2
    COLLECTIVE = 3


class Role:
    WORKER = 1
    SERVER = 2


# ------------------------------------------------------------------------------------------------ role makers
class RoleMakerBase:
    """What a role maker answers: this process's role and index, and the trainers' / servers' endpoints. The
    collectives (barrier_worker, all_reduce_worker, all_gather) run over the trainers' process group when one
    exists (several trainers); a single process has nothing to wait for."""

    def __init__(self) -> None:
        self._worker_endpoints: list = []
        self._server_endpoints: list = []
        self._role_is_generated = False
        self._role: Any = None
        self._current_id = -1

    def generate_role(self) -> None:
        self._role_is_generated = True

    def _generated(self) -> "RoleMakerBase":
        if not self._role_is_generated:
            self.generate_role()
        return self

    def is_worker(self) -> bool:
        return self._generated()._role == Role.WORKER

    def is_server(self) -> bool:
        return self._generated()._role == Role.SERVER

    def is_first_worker(self) -> bool:
        return self.is_worker() and self._current_id == 0

    def worker_num(self) -> int:
        return len(self._generated()._worker_endpoints)

    def worker_index(self) -> int:
        return self._generated()._current_id

    def server_index(self) -> int:
        return self._generated()._current_id

    def server_num(self) -> int:
        return len(self._generated()._server_endpoints)

    def get_trainer_endpoints(self) -> list:
        return self._generated()._worker_endpoints

    def get_pserver_endpoints(self) -> list:
        return self._generated()._server_endpoints

    def to_string(self) -> str:
        return (f"role: {self._role}, current_id: {self._current_id}, worker_endpoints: {self._worker_endpoints}, "
                f"server_endpoints: {self._server_endpoints}")

    def barrier_worker(self) -> None:
        if self.is_worker():
            from paddle_compat.engine.parallel import collective

            collective.barrier()

    def barrier_all(self) -> None:
        self.barrier_worker()

    def all_reduce_worker(self, input: Any, output: Any, mode: str = "sum") -> None:  # noqa: A002 - Paddle's name
        """output[:] = the element-wise reduction ("sum", "min" or "max") of every trainer's 1-D input."""
        import numpy as np
        import torch

        from paddle_compat.engine.parallel import collective

        if mode not in ("sum", "min", "max"):
            raise InvalidArgumentError(f"{_ROLE}.all_reduce_worker: mode must be 'sum', 'min' or 'max', got {mode!r}")
        t = torch.as_tensor(np.asarray(input, dtype="float64").reshape(-1))
        collective.all_reduce_([t], mode)
        output[:] = t.numpy().tolist() if isinstance(output, list) else t.numpy().astype(output.dtype)

    def all_gather(self, input: Any) -> list:  # noqa: A002 - Paddle's name
        """Every trainer's scalar, in trainer order."""
        import torch

        from paddle_compat.engine.parallel import collective

        return [t.item() for t in collective.all_gather(torch.tensor([float(input)], dtype=torch.float64))]


class PaddleCloudRoleMaker(RoleMakerBase):
    """The role from Paddle's launch variables: collective (PADDLE_TRAINER_ID, PADDLE_TRAINER_ENDPOINTS, filled
    in from torchrun's when absent) or parameter-server (TRAINING_ROLE, PADDLE_PSERVERS_IP_PORT_LIST,
    PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ID / POD_IP + PADDLE_PORT)."""

    def __init__(self, is_collective: bool = False) -> None:
        super().__init__()
        self._is_collective = is_collective

    def generate_role(self) -> None:
        if self._role_is_generated:
            return
        env = os.environ
        if self._is_collective:
            from paddle_compat.engine.core.launch_env import sync_paddle_env

            sync_paddle_env()
            if env.get("PADDLE_TRAINING_ROLE", "TRAINER") != "TRAINER":
                raise InvalidArgumentError(f"{_ROLE}.PaddleCloudRoleMaker: PADDLE_TRAINING_ROLE must be TRAINER in "
                                           f"collective mode, got {env['PADDLE_TRAINING_ROLE']!r}")
            eps = env.get("PADDLE_TRAINER_ENDPOINTS")
            if not eps:
                raise InvalidArgumentError(f"{_ROLE}.PaddleCloudRoleMaker(is_collective=True): can't find "
                                           "PADDLE_TRAINER_ENDPOINTS; launch with torchrun or "
                                           "python -m paddle.distributed.launch")
            self._worker_endpoints = eps.split(",")
            self._current_id = int(env.get("PADDLE_TRAINER_ID", "0"))
            # NOTE: 1.8.5 sets no role in collective mode, so is_worker() / is_first_worker() answer False there
            self._trainers_num = len(self._worker_endpoints)
        else:
            try:
                servers = env["PADDLE_PSERVERS_IP_PORT_LIST"].split(",")
                trainers = int(env["PADDLE_TRAINERS_NUM"])
                role = env["TRAINING_ROLE"]
                if role == "TRAINER":
                    self._role, self._current_id = Role.WORKER, int(env["PADDLE_TRAINER_ID"])
                elif role == "PSERVER":
                    self._role = Role.SERVER
                    self._current_id = servers.index(f"{env['POD_IP']}:{env['PADDLE_PORT']}")
                else:
                    raise ValueError(role)
            except (KeyError, ValueError) as e:
                raise ValueError("something wrong with PaddleCloud, please check environment "
                                 f"(PaddleCloudRoleMaker: {type(e).__name__} {e}; TRAINING_ROLE must be TRAINER or "
                                 "PSERVER)") from None
            self._server_endpoints, self._trainers_num = servers, trainers
        self._role_is_generated = True

    def worker_num(self) -> int:
        return self._generated()._trainers_num


def _check_endpoints(api: str, what: str, eps: Any) -> list:
    if not isinstance(eps, list):
        raise TypeError(f"{api}: {what} must be as string list")
    if not eps:
        raise ValueError(f"{api}: the length of {what} list must be greater than 0")
    if len(eps) != len(set(eps)):
        raise ValueError(f"{api}: {what} can't have duplicate elements")
    if not all(isinstance(e, str) for e in eps):
        raise TypeError(f"{api}: every element in {what} list must be as string")
    return eps


def _check_id(api: str, current_id: Any) -> int:
    if not isinstance(current_id, int):
        raise TypeError(f"{api}: current_id must be as int")
    if current_id < 0:
        raise ValueError(f"{api}: current_id must be greater than or equal to 0")
    return current_id


class UserDefinedRoleMaker(RoleMakerBase):
    """A role given by the script (parameter-server mode)."""

    def __init__(self, current_id: int = 0, role: int = Role.WORKER, worker_num: int = 0,
                 server_endpoints: Any = None) -> None:
        super().__init__()
        api = _ROLE + ".UserDefinedRoleMaker"
        self._server_endpoints = _check_endpoints(api, "server_endpoints", server_endpoints)
        if role not in (Role.WORKER, Role.SERVER):
            raise TypeError(f"{api}: role must be as Role")
        self._role = role
        self._current_id = _check_id(api, current_id)
        if role == Role.SERVER and current_id >= len(server_endpoints):
            raise ValueError(f"{api}: if role is Role.SERVER, current_id must be less than or equal to "
                             "len(server_endpoints) - 1")
        if not isinstance(worker_num, int):
            raise TypeError(f"{api}: worker_num must be as int")
        if worker_num <= 0:
            raise ValueError(f"{api}: worker_num must be greater than 0")
        self._worker_num = worker_num

    def worker_num(self) -> int:
        return self._worker_num


class UserDefinedCollectiveRoleMaker(RoleMakerBase):
    """A collective trainer whose index and trainer endpoints the script gives."""

    def __init__(self, current_id: int = 0, worker_endpoints: Any = None) -> None:
        super().__init__()
        api = _ROLE + ".UserDefinedCollectiveRoleMaker"
        self._worker_endpoints = _check_endpoints(api, "worker_endpoints", worker_endpoints)
        self._current_id = _check_id(api, current_id)
        if current_id >= len(worker_endpoints):
            raise ValueError(f"{api}: current_id must be less than or equal to len(worker_endpoints) - 1")
        self._role = Role.WORKER


for _cls in (Role, RoleMakerBase, PaddleCloudRoleMaker, UserDefinedRoleMaker, UserDefinedCollectiveRoleMaker):
    export(_cls, f"{_ROLE}.{_cls.__name__}")
for _name, _why in (("MPIRoleMaker", "it needs mpi4py and an MPI launch"), ("MPISymetricRoleMaker", "it needs "
                    "mpi4py and an MPI launch"), ("GeneralRoleMaker", "its gloo rendezvous over HDFS / a shared "
                    "file system serves asynchronous parameter servers")):
    export(unsupported_stub(f"{_ROLE}.{_name}", "class", f"{_why}; use PaddleCloudRoleMaker (torchrun or "
                            "python -m paddle.distributed.launch set its variables)"), f"{_ROLE}.{_name}")


# ------------------------------------------------------------------------------------------------ Fleet base
class Fleet:
    """The role queries every fleet shares; init(role_maker) must come first."""

    def __init__(self, mode: int) -> None:
        self._is_initialized = False
        self._mode = mode
        self._optimizer: Any = None
        self._role_maker: Any = None
        self._executor: Any = None

    def _rm(self) -> RoleMakerBase:
        if self._role_maker is None:
            raise InvalidArgumentError(f"{_FLEET}: call fleet.init(role_maker) first, e.g. "
                                       "fleet.init(role_maker.PaddleCloudRoleMaker(is_collective=True))")
        return self._role_maker

    def init(self, role_maker: Any = None) -> None:
        from paddle_compat.engine.core.place import CPUPlace
        from paddle_compat.engine.static.executor import Executor

        if role_maker is None:
            raise InvalidArgumentError(f"{_FLEET}.fleet.init: role_maker is required in Paddle 1.8, e.g. "
                                       "role_maker.PaddleCloudRoleMaker(is_collective=True)")
        if not isinstance(role_maker, RoleMakerBase):
            raise TypeError("role_maker must be an instance of RoleMakerBase")
        self._executor = Executor(CPUPlace())
        self._role_maker = role_maker
        role_maker.generate_role()
        self._is_initialized = True

    def is_first_worker(self) -> bool:
        return self._rm().is_first_worker()

    def worker_index(self) -> int:
        return self._rm().worker_index()

    def worker_num(self) -> int:
        return self._rm().worker_num()

    def is_worker(self) -> bool:
        return self._rm().is_worker()

    def worker_endpoints(self, to_string: bool = False) -> Any:
        eps = self._rm().get_trainer_endpoints()
        return ",".join(eps) if to_string else eps

    def server_num(self) -> int:
        return len(self._rm().get_pserver_endpoints())

    def server_index(self) -> int:
        return self._rm().server_index()

    def server_endpoints(self, to_string: bool = False) -> Any:
        eps = self._rm().get_pserver_endpoints()
        return ",".join(eps) if to_string else eps

    def is_server(self) -> bool:
        return self._rm().is_server()

    def split_files(self, files: Any) -> list:
        """This trainer's contiguous share of `files`; the first len(files) % trainers shares get one more."""
        if not isinstance(files, list):
            raise TypeError("files should be a list of file need to be read.")
        n, i = self.worker_num(), self.worker_index()
        base, extra = divmod(len(files), n)
        start = i * base + min(i, extra)
        return files[start:start + base + (1 if i < extra else 0)]

    def all_reduce_worker(self, input: Any, output: Any) -> None:  # noqa: A002 - Paddle's name
        self._rm().all_reduce_worker(input, output)

    def barrier_worker(self) -> None:
        self._rm().barrier_worker()


class DistributedOptimizer:
    """Wraps a fluid optimizer; minimize() is the fleet's."""

    def __init__(self, optimizer: Any, strategy: Any = None) -> None:
        from paddle_compat.paddle2.optimizer.optimizer import Optimizer

        if not isinstance(optimizer, Optimizer):
            raise ValueError("optimizer must be an instance of Optimizer")
        self._optimizer = optimizer
        self._strategy = strategy

    def backward(self, loss: Any, startup_program: Any = None, parameter_list: Any = None, no_grad_set: Any = None,
                 callbacks: Any = None) -> Any:
        return self._optimizer.backward(loss, startup_program, parameter_list, no_grad_set, callbacks)

    def apply_gradients(self, params_grads: Any) -> Any:
        return self._optimizer.apply_gradients(params_grads)


export(Mode, f"{_FLEET}.base.mode.Mode", f"{_BASE}.Mode")
export(Fleet, f"{_BASE}.Fleet")
export(DistributedOptimizer, f"{_BASE}.DistributedOptimizer")


# ------------------------------------------------------------------------------------------------ collective
class LambConfig:
    pass


class DistFCConfig:
    pass


class TrainStatus:
    """The epoch a checkpoint completed."""

    def __init__(self, epoch_no: int = -1) -> None:
        self._epoch_no = epoch_no

    def next(self) -> int:
        return self._epoch_no + 1

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, TrainStatus) and self._epoch_no == other._epoch_no

    def __ne__(self, other: Any) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


class DistributedStrategy(BuildStrategy):
    """1.8's collective strategy: a BuildStrategy (the compiled program's) plus the fleet's own options. Like
    Paddle's Python subclass of the C++ BuildStrategy, it takes attributes of any other name as well."""

    FIELDS = {**BuildStrategy.FIELDS}

    def __init__(self) -> None:
        super().__init__()
        self.use_local_sgd = False
        self.use_dist_fc = False
        self.dist_fc_config = None
        self.mode = "nccl2"
        self.collective_mode = None
        self.forward_recompute = False
        self.recompute_checkpoints: list = []
        self.use_amp = False
        self.amp_loss_scaling = 2 ** 15
        self.exec_strategy = ExecutionStrategy()
        self._ut4grad_allreduce = False

    def __setattr__(self, name: str, value: Any) -> None:
        if name in type(self).FIELDS:
            super().__setattr__(name, value)
        else:
            object.__setattr__(self, name, value)


class Collective(Fleet):
    """The collective fleet (`fleet` of paddle.fluid.incubate.fleet.collective)."""

    def __init__(self) -> None:
        super().__init__(Mode.COLLECTIVE)
        self._local_ip = 0
        self.startup_program: Any = None
        self._origin_program: Any = None
        self._transpiled_program: Any = None
        self.main_program: Any = None

    def _not_in_collective(self, name: str) -> None:
        logging.warning(f"You should not call '{name}' method for collective mode.")

    def init_worker(self) -> None:
        self._not_in_collective("init_worker")

    def run_worker(self, main_programs: Any = None, scopes: Any = None) -> None:
        self._not_in_collective("run_worker")

    def init_server(self, model_dir: Any = None) -> None:
        self._not_in_collective("init_server")

    def run_server(self) -> None:
        self._not_in_collective("run_server")

    def stop_worker(self) -> None:
        self._not_in_collective("stop_worker")

    def distributed_optimizer(self, optimizer: Any, strategy: Any = None) -> "CollectiveOptimizer":
        self._optimizer = CollectiveOptimizer(optimizer, strategy)
        return self._optimizer

    def _program(self, main_program: Any, api: str) -> Any:
        from paddle_compat.engine.framework.program import Program

        program = main_program if main_program is not None else self._origin_program
        if not isinstance(program, Program):
            raise TypeError(f"In fleet.{api}() function, main_program must be as Program type (run "
                            "distributed_optimizer(...).minimize(loss) first or pass main_program)")
        return program

    def save_inference_model(self, executor: Any, dirname: str, feeded_var_names: Any = None, target_vars: Any = None,
                             main_program: Any = None, export_for_deployment: bool = True) -> Any:
        from paddle_compat.engine.static.io import fluid_save_inference_model

        return fluid_save_inference_model(dirname, feeded_var_names, target_vars, executor,
                                          self._program(main_program, "save_inference_model"),
                                          export_for_deployment=export_for_deployment)

    def save_persistables(self, executor: Any, dirname: str, main_program: Any = None, filename: Any = None) -> None:
        from paddle_compat.engine.static.io import save_persistables

        save_persistables(executor, dirname, self._program(main_program, "save_persistables"), filename)


class CollectiveOptimizer(DistributedOptimizer):
    """minimize(): the wrapped optimizer (Recompute / AMP when the strategy asks), then the program compiled for
    data parallelism over every trainer becomes fleet.main_program."""

    def __init__(self, optimizer: Any, strategy: Any = None) -> None:
        strategy = strategy if strategy is not None else DistributedStrategy()
        if not isinstance(strategy, DistributedStrategy):
            raise TypeError(f"{_COLL}.CollectiveOptimizer: strategy must be a DistributedStrategy of "
                            f"paddle.fluid.incubate.fleet.collective, got {type(strategy).__name__}")
        super().__init__(optimizer, strategy)
        if not isinstance(strategy.recompute_checkpoints, list):
            raise ValueError("DistStrategy.recompute_checkpoints should be a List")
        self.print_config = False

    def _check_mode(self) -> None:
        s = self._strategy
        for flag, what in (("use_local_sgd", "local SGD (trainers average parameters every few steps)"),
                           ("use_dist_fc", "distributed FC (a classifier split over trainers)"),
                           ("_ut4grad_allreduce", "mode 'collective' (c_allreduce ops in the program)")):
            if getattr(s, flag):
                raise UnsupportedAPIError(f"{_COLL}.DistributedStrategy.{flag}",
                                          f"{what} is not provided; use the default nccl2 mode")
        if s.mode != "nccl2":
            raise UnsupportedAPIError(f"{_COLL}.DistributedStrategy.mode={s.mode!r}",
                                      "only mode 'nccl2' (gradients all-reduced over the trainers) is provided")

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> Any:
        from paddle_compat.engine.framework.program import default_startup_program

        s = self._strategy
        if s.forward_recompute:
            if not s.recompute_checkpoints:
                raise ValueError("please set strategy.recompute_checkpoints when set strategy.forward_recompute as "
                                 "True")
            if type(self._optimizer).__name__ in ("RecomputeOptimizer", "OptimizerWithMixedPrecision"):
                raise ValueError(f"can not use {type(self._optimizer).__name__} when you set "
                                 "DistStrategy.forward_recompute as True")
            RecomputeOptimizer = exported("paddle.fluid.optimizer.RecomputeOptimizer", "fleet's recompute strategy")

            self._optimizer = RecomputeOptimizer(self._optimizer)
            self._optimizer._set_checkpoints(s.recompute_checkpoints)
        if s.use_amp:
            if type(self._optimizer).__name__ in ("OptimizerWithMixedPrecision", "DGCMomentumOptimizer"):
                raise ValueError(f"can not use {type(self._optimizer).__name__} when you set "
                                 "DistStrategy.mixed_precision as True")
            from paddle_compat.engine.static.amp import decorate

            self._optimizer = decorate(self._optimizer, init_loss_scaling=s.amp_loss_scaling,
                                       use_dynamic_loss_scaling=True)
        self._check_mode()
        main = loss.block.program
        startup = startup_program if startup_program is not None else default_startup_program()
        fleet.startup_program = startup
        self._loss = loss
        out = self._optimizer.minimize(loss, startup_program=startup, parameter_list=parameter_list,
                                       no_grad_set=no_grad_set)
        fleet._origin_program = main.clone(for_test=False)
        fleet._transpiled_program = main
        fleet.main_program = self._compile(startup, main)
        return out

    def _compile(self, startup: Any, main: Any) -> Any:
        DistributeTranspiler = exported("paddle.fluid.transpiler.DistributeTranspiler", "fleet's parameter-server mode")
        DistributeTranspilerConfig = exported("paddle.fluid.DistributeTranspilerConfig", "fleet's parameter-server mode")
        from paddle_compat.engine.static.compiler import CompiledProgram

        s = self._strategy
        eps, tid = fleet.worker_endpoints(), fleet.worker_index()
        if len({e.split(":")[0].strip() for e in eps}) <= 1:  # one node: Paddle drops the multi-node options
            s.nccl_comm_num = 1
            s.use_hierarchical_allreduce = False
        cfg = DistributeTranspilerConfig()
        cfg.mode, cfg.collective_mode = s.mode, s.collective_mode
        cfg.nccl_comm_num = s.nccl_comm_num
        cfg.use_hierarchical_allreduce = s.use_hierarchical_allreduce
        cfg.hierarchical_allreduce_inter_nranks = s.hierarchical_allreduce_inter_nranks
        DistributeTranspiler(cfg).transpile(trainer_id=tid, trainers=",".join(eps), startup_program=startup,
                                            program=main, current_endpoint=eps[tid])
        s.num_trainers, s.trainer_id = fleet.worker_num(), tid
        s.trainers_endpoints = list(eps)
        s.enable_backward_optimizer_op_deps = True
        return CompiledProgram(main).with_data_parallel(loss_name=self._loss.name, build_strategy=s,
                                                        exec_strategy=s.exec_strategy)


fleet = Collective()

for _obj in (LambConfig, DistFCConfig, TrainStatus, DistributedStrategy, Collective, CollectiveOptimizer):
    export(_obj, f"{_COLL}.{_obj.__name__}")
export(fleet, f"{_COLL}.fleet")
export(DistributedOptimizer, f"{_COLL}.DistributedOptimizer")


class _ParameterServerFleet:
    """`fleet` of paddle.fluid.incubate.fleet.parameter_server.*: every use names what to use instead."""

    __paddle_unsupported__ = True

    def __init__(self, path: str) -> None:
        self._path = path

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise UnsupportedAPIError(f"{self._path}.{name}", "the parameter-server fleet is not provided; use "
                                  "fluid.DistributeTranspiler (sync pserver or nccl2 mode) or the collective fleet "
                                  "(paddle.fluid.incubate.fleet.collective)")


for _mod in ("distribute_transpiler", "pslib"):
    _path = f"{_FLEET}.parameter_server.{_mod}"
    export(_ParameterServerFleet(_path + ".fleet"), _path + ".fleet")
