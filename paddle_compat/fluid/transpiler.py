"""fluid 1.x `DistributeTranspiler` / `DistributeTranspilerConfig`.

- Mode "nccl2" (collective data parallel, one trainer process per device) is what our multi-process layer runs:
  `transpile(trainer_id, program, trainers="ip:port,ip:port", current_endpoint=...)` records the trainers on the
  program as Paddle 1.8 does (`program._trainers_endpoints`, `_nccl_comm_num`, ...), and the script then runs it
  with `ParallelExecutor(num_trainers=..., trainer_id=...)` or `BuildStrategy.num_trainers` under torchrun, which
  creates the process group (README "Several processes and machines"); Paddle's `gen_nccl_id` startup op has no
  counterpart.
- Mode "pserver" (the default) with sync_mode=True: the same numbers without servers - the trainers average their
  gradients with an all-reduce and the pserver processes only hold the rendezvous (engine/parallel/pserver.py).
  Asynchronous / half-async / geo training, and mode "collective" (c_allreduce ops in the program), raise
  UnsupportedAPIError.
"""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.engine.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.engine.framework.program import default_main_program, default_startup_program
from paddle_compat.engine.framework.registry import export

_API = "paddle.fluid.DistributeTranspiler"


class DistributeTranspilerConfig:
    """The transpiler's settings, with Paddle 1.8's defaults."""

    def __init__(self) -> None:
        self.slice_var_up = True
        self.split_method = None
        self.min_block_size = 8192
        self.enable_dc_asgd = False
        self.mode = "pserver"
        self.print_log = False
        self.wait_port = True
        self.runtime_split_send_recv = False
        self.sync_mode = True
        self.half_async = False
        self.completely_not_async = False
        self.geo_sgd_mode = False
        self.geo_sgd_need_push_nums = 100
        self.nccl_comm_num = 1
        self.use_hierarchical_allreduce = False
        self.hierarchical_allreduce_inter_nranks = 0
        self.collective_mode = None


class DistributeTranspiler:
    def __init__(self, config: DistributeTranspilerConfig | None = None) -> None:
        self.config = config if config is not None else DistributeTranspilerConfig()
        if self.config.nccl_comm_num < 1:
            raise InvalidArgumentError(f"{_API}: config.nccl_comm_num must be >= 1, got {self.config.nccl_comm_num}")
        self.origin_program: Any = None
        self.startup_program: Any = None

    def transpile(self, trainer_id: int, program: Any = None, pservers: str = "127.0.0.1:6174", trainers: Any = 1,
                  sync_mode: bool = True, startup_program: Any = None, current_endpoint: str = "127.0.0.1:6174") -> None:
        mode = self.config.mode
        if mode == "pserver":
            self._transpile_pserver(trainer_id, program, pservers, trainers, sync_mode, startup_program,
                                    current_endpoint)
            return
        if mode != "nccl2":
            raise UnsupportedAPIError(
                f"{_API}.transpile", f"mode {mode!r} needs c_allreduce ops in the program, which paddle_compat does "
                "not provide; use mode 'nccl2' (or 'pserver', sync) with one trainer process per device")
        if not isinstance(trainers, str):
            raise InvalidArgumentError(f"{_API}.transpile: in nccl2 mode `trainers` is the comma-separated list of "
                                       f"trainer endpoints, got {trainers!r}")
        endpoints = [e for e in trainers.split(",") if e]
        if not 0 <= int(trainer_id) < len(endpoints):
            raise InvalidArgumentError(f"{_API}.transpile: trainer_id {trainer_id} is not an index of the "
                                       f"{len(endpoints)} trainer endpoints {endpoints}")
        world = os.environ.get("WORLD_SIZE")
        if world is not None and int(world) != len(endpoints):
            raise InvalidArgumentError(f"{_API}.transpile: {len(endpoints)} trainer endpoints but torchrun started "
                                       f"WORLD_SIZE={world} trainers")
        prog = program if program is not None else default_main_program()
        prog._trainers_endpoints = endpoints
        prog._nccl_comm_num = self.config.nccl_comm_num
        prog._use_hierarchical_allreduce = self.config.use_hierarchical_allreduce
        prog._hierarchical_allreduce_inter_nranks = self.config.hierarchical_allreduce_inter_nranks
        self.origin_program = prog
        self.startup_program = startup_program if startup_program is not None else default_startup_program()
        self.trainer_id, self.trainer_num = int(trainer_id), len(endpoints)
        self.current_endpoint = current_endpoint

    def _transpile_pserver(self, trainer_id, program, pservers, trainers, sync_mode, startup_program,
                           current_endpoint) -> None:
        from paddle_compat.engine.parallel.pserver import loss_name_of, split_endpoint, trainer_setup

        cfg = self.config
        if not (sync_mode and cfg.sync_mode) or cfg.half_async or cfg.geo_sgd_mode or cfg.runtime_split_send_recv:
            raise UnsupportedAPIError(
                f"{_API}.transpile (asynchronous / half-async / geo parameter servers)",
                "their updates use stale gradients by design, which synchronous collectives cannot reproduce; use "
                "sync_mode=True (the default), or mode 'nccl2'")
        if isinstance(trainers, str) or int(trainers) < 1:
            raise InvalidArgumentError(f"{_API}.transpile: in pserver mode `trainers` is the number of trainers, "
                                       f"got {trainers!r}")
        endpoints = [e.strip() for e in str(pservers).split(",") if e.strip()]
        if not endpoints:
            raise InvalidArgumentError(f"{_API}.transpile: pservers must list the parameter servers as ip:port,...")
        for e in endpoints:
            split_endpoint(e, f"{_API}.transpile")
        n, t = int(trainers), int(trainer_id)
        if not 0 <= t < n:
            raise InvalidArgumentError(f"{_API}.transpile: trainer_id {t} must be in [0, {n})")
        prog = program if program is not None else default_main_program()
        loss_name_of(prog)  # fails now, naming the fix, if minimize() has not run
        self.origin_program = prog
        self.startup_program = startup_program if startup_program is not None else default_startup_program()
        self.trainer_id, self.trainer_num = t, n
        self.pserver_endpoints = endpoints
        self.current_endpoint = current_endpoint
        self._pserver_mode = True
        if os.environ.get("TRAINING_ROLE", "TRAINER").upper() == "TRAINER":
            trainer_setup(endpoints, n, t, _API)

    def get_trainer_program(self, wait_port: bool = True) -> Any:
        self._check_transpiled("get_trainer_program")
        if getattr(self, "_pserver_mode", False):
            self.origin_program._ps_trainer = {"trainers": self.trainer_num, "trainer_id": self.trainer_id}
        return self.origin_program

    def get_startup_program(self, endpoint: Any = None, pserver_program: Any = None, startup_program: Any = None) -> Any:
        self._check_transpiled("get_startup_program")
        if getattr(self, "_pserver_mode", False) and (endpoint is not None or pserver_program is not None):
            from paddle_compat.engine.framework.program import Program

            return Program()  # a server holds no parameters here: the trainers do
        return self.startup_program

    def get_pserver_program(self, endpoint: str) -> Any:
        from paddle_compat.engine.framework.program import Program

        self._check_transpiled("get_pserver_program")
        if not getattr(self, "_pserver_mode", False):
            raise InvalidArgumentError(f"{_API}.get_pserver_program: the program was transpiled in mode "
                                       f"{self.config.mode!r}; pserver programs exist in mode 'pserver'")
        if endpoint not in self.pserver_endpoints:
            raise InvalidArgumentError(f"{_API}.get_pserver_program: {endpoint!r} is not one of the pservers "
                                       f"{self.pserver_endpoints}")
        prog = Program()
        prog._ps_server = {"endpoint": endpoint, "first": self.pserver_endpoints[0], "trainers": self.trainer_num}
        return prog

    def get_pserver_programs(self, endpoint: str) -> Any:
        prog = self.get_pserver_program(endpoint)
        return prog, self.get_startup_program(endpoint, prog)

    def _check_transpiled(self, what: str) -> None:
        if self.origin_program is None:
            raise InvalidArgumentError(f"{_API}.{what}: call transpile() first")


export(DistributeTranspilerConfig, "paddle.fluid.DistributeTranspilerConfig",
       "paddle.fluid.transpiler.DistributeTranspilerConfig")
export(DistributeTranspiler, "paddle.fluid.DistributeTranspiler", "paddle.fluid.transpiler.DistributeTranspiler")

