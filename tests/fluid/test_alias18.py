"""fluid.layers 1.8 names from the 2.0-alpha tensor API that draw random numbers (shape and dtype as Paddle 1.8),
the shared objects behind the direct aliases, and 1.8's `out=` argument."""

from __future__ import annotations

import pytest


def test_random_ones_give_paddle18_shapes_and_dtypes():
    import paddle

    L = paddle.fluid.layers
    r = L.randint(0, 5, shape=[2, 3])
    assert r.shape == [2, 3] and str(r.dtype).endswith("int64") and 0 <= int(r.min()) and int(r.max()) < 5
    n = L.randn([3, 2])
    assert n.shape == [3, 2] and str(n.dtype).endswith("float32")
    p = L.randperm(6)
    assert sorted(p.numpy().tolist()) == list(range(6)) and str(p.dtype).endswith("int64")


def test_direct_aliases_are_the_2x_objects_and_out_is_refused():
    import paddle

    L = paddle.fluid.layers
    assert L.acos is paddle.acos and L.BeamSearchDecoder is paddle.nn.BeamSearchDecoder
    assert L.dynamic_decode is paddle.nn.dynamic_decode
    with pytest.raises(Exception, match="fluid.layers.full: `out=`"):
        L.full([2], 1.0, out=paddle.zeros([2]))


def test_batch_size_like_randoms_take_the_fed_batch():
    import numpy as np
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        x = fluid.data("x", [None, 5], "float32")
        u = fluid.layers.uniform_random_batch_size_like(x, [-1, 3], min=2.0, max=3.0)
        g = fluid.layers.gaussian_random_batch_size_like(x, [1, 4, -1], input_dim_idx=1, output_dim_idx=2)
    assert tuple(u.shape) == (-1, 3) and tuple(g.shape) == (1, 4, 5)
    a, b = fluid.Executor(fluid.CPUPlace()).run(main, feed={"x": np.ones([7, 5], "float32")}, fetch_list=[u, g])
    assert a.shape == (7, 3) and a.dtype == np.float32 and 2.0 <= a.min() and a.max() < 3.0
    assert b.shape == (1, 4, 5)
