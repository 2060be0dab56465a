"""`paddle.distributed.fleet.meta_parallel` / `fleet.layers.mpu` for one model-parallel rank.

Model code written for Paddle's tensor parallelism (ColumnParallelLinear, RowParallelLinear,
VocabParallelEmbedding, ParallelCrossEntropy, the RNG state tracker) runs here with a model-parallel degree of 1
(data parallelism over the trainers, fleet.get_hybrid_communicate_group()): each layer then holds the whole
weight with Paddle's layout, names and initialisers, and computes what the plain layer computes, as Paddle's do
with world_size 1. A model-parallel group of more than one rank (hybrid_configs mp_degree > 1, or an mp_group
of several ranks) raises UnsupportedAPIError. PipelineLayer runs its layers in order for one pipeline stage.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import numpy as np
import torch

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.ops.control_flow import P
from paddle_compat.engine.framework.registry import export

_MP = "paddle.distributed.fleet.meta_parallel"
_MPU = "paddle.distributed.fleet.layers.mpu"
MODEL_PARALLEL_RNG = "model_parallel_rng"


def _one_rank(api: str, mp_group: Any) -> None:
    n = getattr(mp_group, "nranks", 1) if mp_group is not None else 1
    if n > 1:
        raise UnsupportedAPIError(f"{api} over {n} model-parallel ranks", "tensor parallelism is not provided; run "
                                  "with a model-parallel degree of 1 (data parallelism over the trainers)")


class VocabParallelEmbedding(Layer):
    """Embedding with weight [num_embeddings, embedding_dim] (one model-parallel rank)."""

    def __init__(self, num_embeddings, embedding_dim, weight_attr=None, mp_group=None, name=None):
        super().__init__()
        _one_rank(f"{_MP}.VocabParallelEmbedding", mp_group)
        self.world_size, self.rank, self.is_mp = 1, 0, False
        self.origin_num_embeddings = self.num_embeddings = num_embeddings
        self.vocab_start_index = 0
        self._size, self._name = [num_embeddings, embedding_dim], name
        self.weight = self.create_parameter(attr=weight_attr, shape=self._size, is_bias=False)
        self.weight.is_distributed = False

    def forward(self, x):
        return P("paddle.nn.functional.embedding")(x, weight=self.weight, name=self._name)


class _OneRankLinear(Layer):
    """Linear with weight [in_features, out_features] and a zero-initialised bias (one model-parallel rank)."""

    def __init__(self, api: str, in_features, out_features, weight_attr, has_bias, mp_group, name) -> None:
        super().__init__()
        _one_rank(f"{_MP}.{api}", mp_group)
        self.world_size, self.is_mp, self._name = 1, False, name
        self.weight = self.create_parameter(shape=[in_features, out_features], attr=weight_attr, is_bias=False)
        self.weight.is_distributed = False
        self.bias = None
        if has_bias:
            self.bias = self.create_parameter(shape=[out_features], is_bias=True,
                                              attr=P("paddle.nn.initializer.Constant")(value=0.0))
            self.bias.is_distributed = False

    def forward(self, x):
        return P("paddle.nn.functional.linear")(x, self.weight, self.bias, name=self._name)


class ColumnParallelLinear(_OneRankLinear):
    def __init__(self, in_features, out_features, weight_attr=None, has_bias=None, gather_output=True,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__("ColumnParallelLinear", in_features, out_features, weight_attr, has_bias, mp_group, name)
        self.gather_output, self.output_size_per_partition = gather_output, out_features


class RowParallelLinear(_OneRankLinear):
    def __init__(self, in_features, out_features, weight_attr=None, has_bias=True, input_is_parallel=False,
                 fuse_matmul_bias=False, mp_group=None, name=None):
        super().__init__("RowParallelLinear", in_features, out_features, weight_attr, has_bias, mp_group, name)
        self.input_is_parallel, self.input_size_per_partition = input_is_parallel, in_features


class ParallelCrossEntropy(Layer):
    """Softmax cross entropy per token ([..., 1], no reduction), ignore_index masked to 0."""

    def __init__(self, mp_group=None, name=None, ignore_index=-100):
        super().__init__()
        _one_rank(f"{_MP}.ParallelCrossEntropy", mp_group)
        self.name, self.ignore_index = name, ignore_index

    def forward(self, input, label):  # noqa: A002 - Paddle's name
        return P("paddle.nn.functional.softmax_with_cross_entropy")(input, label, ignore_index=self.ignore_index)


class RNGStatesTracker:
    """Named random states: `with tracker.rng_state(name):` draws from that state (seeded by add), then puts the
    global state back."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.states_: dict = {}
        self.seeds_: set = set()

    def add(self, name: str, seed: int) -> None:
        if seed in self.seeds_:
            raise ValueError(f"seed {seed} already exists")
        self.seeds_.add(seed)
        if name in self.states_:
            raise ValueError(f"state {name} already exists")
        self.states_[name] = torch.Generator().manual_seed(int(seed)).get_state()

    def get_states_tracker(self) -> dict:
        return {k: v.clone() for k, v in self.states_.items()}

    def set_states_tracker(self, states: dict) -> None:
        self.states_ = dict(states)

    @contextlib.contextmanager
    def rng_state(self, name: str = MODEL_PARALLEL_RNG) -> Iterator[None]:
        if name not in self.states_:
            raise ValueError(f"state {name} does not exist")
        outer = torch.get_rng_state()
        torch.set_rng_state(self.states_[name])
        try:
            yield
        finally:
            self.states_[name] = torch.get_rng_state()
            torch.set_rng_state(outer)


RNG_STATE_TRACKER = RNGStatesTracker()


def get_rng_state_tracker() -> RNGStatesTracker:
    return RNG_STATE_TRACKER


def model_parallel_random_seed(seed: int | None = None) -> None:
    """The global seed and the model-parallel stream's (seed + 1 on one model-parallel rank and stage)."""
    global_seed = seed if seed else int(np.random.randint(0, 10000))
    RNG_STATE_TRACKER.reset()
    RNG_STATE_TRACKER.add(MODEL_PARALLEL_RNG, global_seed + 1)
    P("paddle.seed")(global_seed)


class LayerDesc:
    """A layer to build later: layer_func(*inputs, **kwargs)."""

    def __init__(self, layer_func: Any, *inputs: Any, **kwargs: Any) -> None:
        if not issubclass(layer_func, Layer):
            raise TypeError("The input(layer_func) should be a derived class of Layer.")
        self.layer_func, self.inputs, self.kwargs = layer_func, inputs, kwargs

    def build_layer(self) -> Layer:
        return self.layer_func(*self.inputs, **self.kwargs)


class PipelineLayer(Layer):
    """The layers (Layer, LayerDesc or callables) run in order: one pipeline stage."""

    def __init__(self, layers, num_stages=None, topology=None, loss_fn=None, seg_method="uniform",
                 recompute_interval=0, recompute_ctx=None, num_virtual_pipeline_stages=None):
        super().__init__()
        if (num_stages or 1) > 1 or (num_virtual_pipeline_stages or 1) > 1:
            raise UnsupportedAPIError(f"{_MP}.PipelineLayer(num_stages={num_stages})",
                                      "pipeline parallelism is not provided; one stage runs every layer")
        self._loss_fn, self.run_function = loss_fn, []
        for i, desc in enumerate(layers):
            layer = desc.build_layer() if isinstance(desc, LayerDesc) else desc
            if isinstance(layer, Layer):
                self.add_sublayer(str(i), layer)
            self.run_function.append(layer)

    def forward(self, input, chunk_id=None):  # noqa: A002 - Paddle's name
        for fn in self.run_function:
            input = fn(input)  # noqa: A001
        return input


for _obj in (VocabParallelEmbedding, ColumnParallelLinear, RowParallelLinear, ParallelCrossEntropy):
    export(_obj, f"{_MP}.{_obj.__name__}", f"{_MPU}.{_obj.__name__}", f"{_MPU}.mp_layers.{_obj.__name__}")
for _obj in (RNGStatesTracker, get_rng_state_tracker, model_parallel_random_seed):
    export(_obj, f"{_MP}.{_obj.__name__}", f"{_MPU}.random.{_obj.__name__}")
for _obj in (LayerDesc, PipelineLayer):
    export(_obj, f"{_MP}.{_obj.__name__}", f"{_MP}.parallel_layers.pp_layers.{_obj.__name__}")
