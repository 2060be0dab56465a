"""fleet.meta_parallel on one model-parallel rank: Paddle's parameter layouts (read from Paddle 2.6.2 with world
size 1), the plain layers' numbers, the RNG tracker, and the clear error for several model-parallel ranks."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _fleet():
    from paddle.distributed import fleet

    fleet.init(is_collective=True)


@pytest.mark.parametrize("cls,args,kwargs,want", [
    ("ColumnParallelLinear", (4, 6), {"has_bias": True}, [("weight", [4, 6]), ("bias", [6])]),
    ("ColumnParallelLinear", (4, 6), {}, [("weight", [4, 6])]),
    ("RowParallelLinear", (6, 4), {}, [("weight", [6, 4]), ("bias", [4])]),
    ("VocabParallelEmbedding", (10, 3), {}, [("weight", [10, 3])]),
])
def test_layouts_and_numbers(cls, args, kwargs, want):
    import paddle
    from paddle.distributed.fleet import meta_parallel as mp

    layer = getattr(mp, cls)(*args, **kwargs)
    assert [(n, list(p.shape)) for n, p in layer.named_parameters()] == want
    if cls == "VocabParallelEmbedding":
        ids = paddle.to_tensor([[1, 9]])
        np.testing.assert_array_equal(layer(ids).numpy(), layer.weight.numpy()[[[1, 9]]])
        return
    x = np.random.RandomState(0).rand(2, args[0]).astype("float32")
    want_out = x @ layer.weight.numpy() + (layer.bias.numpy() if layer.bias is not None else 0)
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), want_out, rtol=1e-6)
    if layer.bias is not None:
        assert not layer.bias.numpy().any()  # zero-initialised, as Megatron / Paddle


def test_parallel_cross_entropy_is_per_token():
    import paddle
    from paddle.distributed.fleet.meta_parallel import ParallelCrossEntropy

    logits = paddle.to_tensor(np.random.RandomState(1).rand(2, 3, 5).astype("float32"))
    label = paddle.to_tensor([[[1], [4], [-100]], [[0], [2], [3]]])
    loss = ParallelCrossEntropy()(logits, label)
    want = paddle.nn.functional.softmax_with_cross_entropy(logits, label, ignore_index=-100)
    assert loss.shape == [2, 3, 1] and float(loss[0, 2, 0]) == 0.0
    np.testing.assert_allclose(loss.numpy(), want.numpy())


def test_rng_tracker_draws_its_own_stream():
    import paddle
    from paddle.distributed.fleet.meta_parallel import get_rng_state_tracker, model_parallel_random_seed

    model_parallel_random_seed(100)
    with get_rng_state_tracker().rng_state():
        a = paddle.rand([3]).numpy()
    outer = paddle.rand([3]).numpy()
    model_parallel_random_seed(100)
    with get_rng_state_tracker().rng_state():
        b = paddle.rand([3]).numpy()
    np.testing.assert_array_equal(a, b)
    paddle.seed(100)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), outer)  # the global stream did not move
    with pytest.raises(ValueError, match="does not exist"):
        with get_rng_state_tracker().rng_state("other"):
            pass


def test_several_model_parallel_ranks_raise():
    from paddle.distributed.fleet.meta_parallel import ColumnParallelLinear, PipelineLayer
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    class Group:
        nranks = 2

    with pytest.raises(UnsupportedAPIError, match="tensor parallelism"):
        ColumnParallelLinear(4, 6, mp_group=Group())
    with pytest.raises(UnsupportedAPIError, match="pipeline parallelism"):
        PipelineLayer([], num_stages=2)
