"""fluid 1.x `DistributeTranspiler` / `DistributeTranspilerConfig`.

Mode "nccl2" (collective data parallel, one trainer process per device) is what our multi-process layer runs:
`transpile(trainer_id, program, trainers="ip:port,ip:port", current_endpoint=...)` records the trainers on the
program as Paddle 1.8 does (`program._trainers_endpoints`, `_nccl_comm_num`, ...), and the script then runs it
with `ParallelExecutor(num_trainers=..., trainer_id=...)` or `BuildStrategy.num_trainers` under torchrun, which
creates the process group (README "Several processes and machines"); Paddle's `gen_nccl_id` startup op has no
counterpart. The parameter-server modes ("pserver", geo, half-async) and "collective" (c_allreduce ops in the
program) raise UnsupportedAPIError.
"""

from __future__ import annotations

import os
from typing import Any

from paddle_compat.core.errors import InvalidArgumentError, UnsupportedAPIError
from paddle_compat.framework.program import default_main_program, default_startup_program
from paddle_compat.ops.registry import export

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
        if mode != "nccl2":
            raise UnsupportedAPIError(
                f"{_API}.transpile", f"mode {mode!r} needs Paddle's parameter servers (or, for 'collective', "
                "c_allreduce ops in the program), which paddle_compat does not provide; use mode 'nccl2' with one "
                "trainer process per device under torchrun")
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

    def get_trainer_program(self, wait_port: bool = True) -> Any:
        self._check_transpiled("get_trainer_program")
        return self.origin_program

    def get_startup_program(self, endpoint: Any = None, pserver_program: Any = None, startup_program: Any = None) -> Any:
        self._check_transpiled("get_startup_program")
        return self.startup_program

    def get_pserver_program(self, endpoint: str) -> Any:
        raise UnsupportedAPIError(f"{_API}.get_pserver_program", "parameter servers are not provided")

    def get_pserver_programs(self, endpoint: str) -> Any:
        raise UnsupportedAPIError(f"{_API}.get_pserver_programs", "parameter servers are not provided")

    def _check_transpiled(self, what: str) -> None:
        if self.origin_program is None:
            raise InvalidArgumentError(f"{_API}.{what}: call transpile() first")


export(DistributeTranspilerConfig, "paddle.fluid.DistributeTranspilerConfig",
       "paddle.fluid.transpiler.DistributeTranspilerConfig")
export(DistributeTranspiler, "paddle.fluid.DistributeTranspiler", "paddle.fluid.transpiler.DistributeTranspiler")

