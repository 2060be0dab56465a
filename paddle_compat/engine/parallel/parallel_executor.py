"""`paddle.static.ParallelExecutor` / `paddle.fluid.ParallelExecutor` with Paddle 1.8.5's signature.

Like Paddle's `parallel_executor.py`, a thin wrapper: a CompiledProgram `with_data_parallel` compiled at
construction (so a test executor built with `share_vars_from=train_exe` before any run shares the training
places' scopes) and an Executor that runs it. Places: `cuda_places()` if use_cuda else `cpu_places()`
(CPU_NUM, with Paddle's banner when unset).
"""

from __future__ import annotations

import sys
from typing import Any

from paddle_compat.engine.core.place import CPUPlace, CUDAPlace
from paddle_compat.engine.framework.registry import exporting


@exporting("paddle.static.ParallelExecutor", "paddle.fluid.ParallelExecutor")
class ParallelExecutor:
    def __init__(self, use_cuda: bool, loss_name: str | None = None, main_program: Any = None,
                 share_vars_from: "ParallelExecutor | None" = None, exec_strategy: Any = None,
                 build_strategy: Any = None, num_trainers: int = 1, trainer_id: int = 0, scope: Any = None) -> None:
        from paddle_compat.engine.framework.program import default_main_program
        from paddle_compat.engine.framework.scope import global_scope
        from paddle_compat.engine.parallel.data_parallel import get_runner
        from paddle_compat.engine.parallel.places import default_places, no_places_error
        from paddle_compat.engine.static.compiler import CompiledProgram
        from paddle_compat.engine.static.executor import Executor
        from paddle_compat.engine.static.strategy import BuildStrategy

        if build_strategy is None:
            build_strategy = BuildStrategy()
        if num_trainers != 1 and build_strategy.num_trainers != num_trainers:
            sys.stderr.write(f"The value of build_strategy.num_trainers[{build_strategy.num_trainers}] is overwritten "
                             f"by the passed num_trainers[{num_trainers}].\n")
            build_strategy.num_trainers = num_trainers
        if trainer_id != 0 and build_strategy.trainer_id != trainer_id:
            sys.stderr.write(f"The value of build_strategy.trainer_id[{build_strategy.trainer_id}] is overwritten by "
                             f"the passed trainer_id[{trainer_id}].\n")
            build_strategy.trainer_id = trainer_id
        self._places = default_places(bool(use_cuda))
        if not self._places:
            raise no_places_error(bool(use_cuda), f"ParallelExecutor(use_cuda={bool(use_cuda)})")
        self._scope = scope if scope is not None else global_scope()
        main_program = main_program if main_program is not None else default_main_program()
        self._compiled_program = CompiledProgram(main_program)
        if share_vars_from:
            assert isinstance(share_vars_from, ParallelExecutor), "The share_vars_from should be ParallelExecutor."
        self._compiled_program.with_data_parallel(
            loss_name=loss_name, build_strategy=build_strategy, exec_strategy=exec_strategy,
            share_vars_from=share_vars_from._compiled_program if share_vars_from else None, places=self._places)
        self._place = CUDAPlace(0) if use_cuda else CPUPlace()
        self._exe = Executor(self._place)
        get_runner(self._compiled_program, self._exe, self._scope, num_trainers if num_trainers != 1 else None)

    def run(self, fetch_list: Any, feed: Any = None, feed_dict: Any = None, return_numpy: bool = True) -> list:
        """Run every op of the program once on every place; `feed_dict` is the deprecated spelling of feed."""
        if feed is None and feed_dict is not None:
            feed = feed_dict
            sys.stderr.write("`feed_dict` is deprecated. Please use `feed=`\n")
        return self._exe.run(program=self._compiled_program, scope=self._scope, feed=feed, fetch_list=fetch_list,
                             return_numpy=return_numpy)

    @property
    def device_count(self) -> int:
        return len(self._places)

    def drop_local_exe_scopes(self) -> None:
        """Drop the temporaries in the places' local execution scopes now."""
        self._compiled_program._executor.drop_local_exe_scopes()

    def _need_create_local_exe_scopes(self) -> bool:
        return self._compiled_program._executor._need_create_local_exe_scopes()
