"""BuildStrategy and ExecutionStrategy: every field of real Paddle, with its real default.

Defaults are Paddle 2.6.2's (shared/reference/static_api_facts.md); 1.8.5 agrees on every field both have.
Like Paddle's pybind classes, an unknown attribute raises AttributeError and a value of the wrong type
TypeError. What each flag does is decided in one place, `paddle_compat.engine.passes.PIPELINE`.
"""

from __future__ import annotations

import copy
import enum
from typing import Any


class _StrictStruct:
    """Attributes limited to FIELDS (name -> (default, accepted types))."""

    FIELDS: dict[str, tuple[Any, tuple[type, ...]]] = {}

    def __init__(self) -> None:
        for name, (default, _types) in self.FIELDS.items():
            object.__setattr__(self, name, copy.copy(default))

    def __setattr__(self, name: str, value: Any) -> None:
        spec = self.FIELDS.get(name)
        if spec is None:
            if name.startswith("_") and name in type(self).__dict__:
                object.__setattr__(self, name, value)
                return
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        default, types = spec
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types and int in types):
            want = " or ".join(t.__name__ for t in types)
            raise TypeError(
                f"{type(self).__name__}.{name}: incompatible value {value!r} ({type(value).__name__}); expected {want}"
            )
        if isinstance(default, enum.IntEnum) and not isinstance(value, type(default)):
            value = type(default)(int(value))
        object.__setattr__(self, name, value)
        object.__setattr__(self, "_key_cache", None)

    def _copy(self):
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.FIELDS)
        return f"{type(self).__name__}({body})"

    def _items(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.FIELDS}

    def _key(self) -> str:
        """repr(self) as a cache key, kept until a field is set or a list / set field's content changes (the
        executor asks for it on every run, so the check is a couple of comparisons: issue 15 item 2)."""
        cached = self.__dict__.get("_key_cache")
        if cached is not None:
            for name, snap in cached[0]:
                if getattr(self, name) != snap:
                    break
            else:
                return cached[1]
        cls = type(self)
        names = cls.__dict__.get("_MUTABLE_FIELDS")
        if names is None:  # fields that accept a list or a set: their content can change without a set
            names = tuple(k for k, (_default, types) in cls.FIELDS.items() if {list, set} & set(types))
            type.__setattr__(cls, "_MUTABLE_FIELDS", names)
        snaps = tuple((k, copy.copy(getattr(self, k))) for k in names)
        key = repr(self)
        object.__setattr__(self, "_key_cache", (snaps, key))
        return key


class ReduceStrategy(enum.IntEnum):
    AllReduce = 0
    Reduce = 1
    _NoReduce = 2

    def __repr__(self) -> str:
        return f"<ReduceStrategy.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"ReduceStrategy.{self.name}"


class GradientScaleStrategy(enum.IntEnum):
    CoeffNumDevice = 0
    One = 1
    Customized = 2

    def __repr__(self) -> str:
        return f"<GradientScaleStrategy.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"GradientScaleStrategy.{self.name}"


_B = (bool,)
_I = (int,)
_OB = (bool, type(None))


class BuildStrategy(_StrictStruct):
    ReduceStrategy = ReduceStrategy
    GradientScaleStrategy = GradientScaleStrategy

    FIELDS = {
        "allow_cuda_graph_capture": (False, _B),
        "async_mode": (False, _B),
        "bkcl_comm_num": (1, _I),
        "build_cinn_pass": (False, _B),
        "cache_runtime_context": (False, _B),
        "debug_graphviz_path": ("", (str,)),
        "enable_addto": (False, _B),
        "enable_auto_fusion": (False, _B),
        "enable_backward_optimizer_op_deps": (True, _B),
        "enable_inplace": (True, _B),
        "enable_sequential_execution": (False, _B),
        "fix_op_run_order": (False, _B),
        "fuse_adamw": (False, _B),
        "fuse_all_optimizer_ops": (False, _OB),
        "fuse_all_reduce_ops": (True, _OB),
        "fuse_bn_act_ops": (False, _B),
        "fuse_bn_add_act_ops": (True, _B),
        "fuse_broadcast_ops": (True, _OB),
        "fuse_elewise_add_act_ops": (False, _B),
        "fuse_gemm_epilogue": (False, _B),
        "fuse_relu_depthwise_conv": (False, _B),
        "fused_attention": (False, _B),
        "fused_feedforward": (False, _B),
        "gradient_scale_strategy": (GradientScaleStrategy.CoeffNumDevice, (GradientScaleStrategy, int)),
        "hierarchical_allreduce_inter_nranks": (0, _I),
        "is_distribution": (False, _B),
        "memory_optimize": (None, _OB),
        "mkldnn_enabled_op_types": (set(), (set, list, tuple)),
        "nccl_comm_num": (1, _I),
        "num_trainers": (1, _I),
        "reduce_strategy": (ReduceStrategy.AllReduce, (ReduceStrategy, int)),
        "remove_unnecessary_lock": (True, _B),
        "sequential_run": (False, _B),
        "sync_batch_norm": (False, _B),
        "trainer_id": (0, _I),
        "trainers_endpoints": ([], (list, tuple)),
        "use_hierarchical_allreduce": (False, _B),
    }

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "_finalized", False)
        from paddle_compat.engine.parallel import collective

        if collective.launched():  # under torchrun each process is one trainer (collective.resolve_trainers)
            object.__setattr__(self, "num_trainers", collective.env_world_size())
            object.__setattr__(self, "trainer_id", collective.env_rank())

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("num_trainers", "trainer_id") and isinstance(value, int) and not isinstance(value, bool):
            from paddle_compat.engine.parallel import collective

            if collective.launched():  # a value that contradicts the launcher is an error, not a hang
                n, t = (value, 0) if name == "num_trainers" else (self.num_trainers, value)
                value = collective.resolve_trainers(n, t, "BuildStrategy")[0 if name == "num_trainers" else 1]
        super().__setattr__(name, value)

    def _finalize_strategy_and_create_passes(self):
        object.__setattr__(self, "_finalized", True)
        from paddle_compat.engine.passes import enabled_passes

        return enabled_passes(self)

    def _clear_finalized(self) -> None:
        object.__setattr__(self, "_finalized", False)

    def resolved(self, num_places: int = 1) -> "BuildStrategy":
        """A copy with Paddle's ResolveOptionConfliction applied (build_strategy.cc): Reduce turns the
        fuse_all_* options off; AllReduce turns fuse_broadcast_ops off; Reduce on one rank is AllReduce;
        sync_batch_norm forces sequential execution (compiler.py)."""
        s = self._copy()
        if s.reduce_strategy == ReduceStrategy.Reduce and num_places * s.num_trainers <= 1:
            s.reduce_strategy = ReduceStrategy.AllReduce
        if s.reduce_strategy == ReduceStrategy.Reduce:
            s.fuse_all_optimizer_ops = False
            s.fuse_all_reduce_ops = False
        else:
            s.fuse_broadcast_ops = False
        for name in ("fuse_all_optimizer_ops", "fuse_all_reduce_ops", "fuse_broadcast_ops"):
            if getattr(s, name) is None:
                setattr(s, name, True)
        if s.async_mode or s.is_distribution:
            s.fuse_all_optimizer_ops = False
            s.fuse_all_reduce_ops = False
        if s.sync_batch_norm:
            s.enable_sequential_execution = True
        if s.memory_optimize is None:
            s.memory_optimize = False  # Paddle: None -> !gc_enabled, and GC is on by default
        return s


class ExecutionStrategy(_StrictStruct):
    FIELDS = {
        "allow_op_delay": (False, _B),
        "num_iteration_per_drop_scope": (100, _I),
        "num_iteration_per_run": (1, _I),
        "num_threads": (0, _I),
        "use_experimental_executor": (True, _B),
        "use_thread_barrier": (False, _B),
        "_dry_run": (False, _B),
        "use_cuda": (True, _B),
    }

    def resolved_threads(self, num_places: int, use_cuda: bool) -> int:
        """num_threads == 0 picks Paddle's default: 2 x places on CPU, 4 x places on CUDA (compiler.py)."""
        if self.num_threads:
            return self.num_threads
        return num_places * (4 if use_cuda else 2)
