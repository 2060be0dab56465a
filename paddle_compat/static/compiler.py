"""CompiledProgram: a Program plus a BuildStrategy (passes) and, with `with_data_parallel`, places."""

from __future__ import annotations

from typing import Any

from paddle_compat.framework.program import Program
from paddle_compat.ops.registry import exporting
from paddle_compat.static.executor import check_feed_dict, fetch_names, _update_lr
from paddle_compat.static.strategy import BuildStrategy, ExecutionStrategy


@exporting("paddle.static.CompiledProgram", "paddle.fluid.CompiledProgram",
           "paddle.fluid.compiler.CompiledProgram")
class CompiledProgram:
    def __init__(self, program_or_graph: Any, build_strategy: BuildStrategy | None = None) -> None:
        if not isinstance(program_or_graph, Program):
            raise TypeError(
                "The type of program_to_graph parameter is wrong, expected Graph or Program, but received "
                f"{type(program_or_graph)}"
            )
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"build_strategy should be a BuildStrategy, but received {type(build_strategy)}")
        self._program = program_or_graph
        self._build_strategy = build_strategy if build_strategy is not None else BuildStrategy()
        self._exec_strategy: ExecutionStrategy | None = None
        self._is_data_parallel = False
        self._loss_name: str | None = None
        self._share_vars_from: CompiledProgram | None = None
        self._places: Any = None
        self._runner: Any = None
        self._compiler_backend: str | None = None

    def with_data_parallel(self, loss_name: str | None = None, build_strategy: BuildStrategy | None = None,
                           exec_strategy: ExecutionStrategy | None = None, share_vars_from: Any = None,
                           places: Any = None) -> "CompiledProgram":
        if self._is_data_parallel:
            raise AssertionError("Already compiled with data parallel")
        if share_vars_from is not None and not isinstance(share_vars_from, CompiledProgram):
            raise TypeError("share_vars_from must be a CompiledProgram")
        self._is_data_parallel = True
        if build_strategy is not None:
            self._build_strategy = build_strategy
        self._exec_strategy = exec_strategy
        self._loss_name = loss_name
        self._share_vars_from = share_vars_from
        self._places = places
        return self

    def _with_compiler(self, backend: str | None = "inductor") -> "CompiledProgram":
        """Opt-in: run the final GraphModule through torch.compile (see README, 'compiler path')."""
        self._compiler_backend = backend
        return self

    def _transform(self, exe: Any, feeds: list[str], fetches: list[str]):
        from paddle_compat.passes import PassContext, apply_pipeline

        strategy = self._build_strategy.resolved(1)
        program = self._program
        protected = set(feeds) | set(fetches) | {v.name for v in program.list_vars() if v.persistable}
        ctx = PassContext(protected=protected, num_places=1, device=exe.place.kind,
                          debug_path=strategy.debug_graphviz_path)
        backend = self._compiler_backend

        def transform(gm):
            gm = apply_pipeline(gm, strategy, ctx)
            if backend:
                from paddle_compat.static.compile_backend import compile_graph

                gm = compile_graph(gm, backend)
            return gm

        return transform

    def _token(self) -> Any:
        return (repr(self._build_strategy), self._compiler_backend)

    def _run(self, exe: Any, feed: Any, fetch_list: Any, scope: Any, return_numpy: bool,
             return_merged: bool = True) -> list:
        from paddle_compat.framework.scope import global_scope

        scope = scope if scope is not None else global_scope()
        if self._is_data_parallel:
            from paddle_compat.parallel.data_parallel import run_data_parallel

            return run_data_parallel(self, exe, feed, fetch_list, scope, return_numpy, return_merged)
        feed = check_feed_dict(feed)
        fetches = fetch_names(fetch_list)
        _update_lr(self._program, scope)
        feeds = sorted(feed)
        plan = exe._plan(self._program, feeds, fetches, self._transform(exe, feeds, fetches), self._token())
        return plan.run(scope, feed, return_numpy)
