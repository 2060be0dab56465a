"""paddle.nn / nn.functional additions of Paddle 2.x that golden tables cannot pin down: random ops (checked by
their statistics), constructor signatures, and the paddle.static.nn names that share fluid.layers' bodies.
The numbers of every deterministic function and layer are checked against Paddle 2.6.2 in
tests/ops/rows_functional2x.py and tools/oracle/nn26_layer_cases2x.py."""

from __future__ import annotations

import inspect

import numpy as np
import pytest


def test_rrelu_training_slopes_are_uniform_in_lower_upper():
    import paddle
    import paddle.nn.functional as F

    paddle.seed(3)
    x = -paddle.ones([200, 100])
    slope = -F.rrelu(x, 0.1, 0.3, training=True).numpy()
    assert slope.min() >= 0.1 and slope.max() <= 0.3
    assert abs(slope.mean() - 0.2) < 0.005 and abs(slope.var() - 0.2 ** 2 / 12) < 0.0005
    layer = paddle.nn.RReLU(0.1, 0.3)
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy(), -0.2 * np.ones([200, 100]), rtol=1e-6)
    assert (F.rrelu(paddle.ones([3]), training=True).numpy() == 1).all()


def test_gumbel_softmax_statistics_and_hard_straight_through():
    import paddle
    import paddle.nn.functional as F

    paddle.seed(5)
    logits = paddle.to_tensor(np.log(np.array([[0.2, 0.5, 0.3]], "float32")).repeat(4000, 0), stop_gradient=False)
    hard = F.gumbel_softmax(logits, temperature=0.5, hard=True)
    h = hard.numpy()
    assert set(np.unique(h)) == {0.0, 1.0} and (h.sum(1) == 1).all()
    np.testing.assert_allclose(h.mean(0), [0.2, 0.5, 0.3], atol=0.03)  # argmax of logits + Gumbel noise
    (hard * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    assert logits.grad is not None and np.abs(logits.grad.numpy()).sum() > 0  # soft gradient flows
    soft = F.gumbel_softmax(logits[:5], temperature=2.0).numpy()
    np.testing.assert_allclose(soft.sum(1), 1, rtol=1e-5)
    assert (soft > 0).all() and (soft < 1).all()


def test_class_center_sample_keeps_positives_and_samples_distinct_negatives():
    import paddle
    import paddle.nn.functional as F

    paddle.seed(0)
    label = paddle.to_tensor([5, 2, 5, 9], dtype="int64")
    remapped, centers = F.class_center_sample(label, 20, 8)
    c = centers.numpy()
    assert list(c[:3]) == [2, 5, 9] and len(set(c)) == 8 and c.max() < 20
    assert (c[remapped.numpy()] == label.numpy()).all()
    seen = set()
    for _ in range(30):
        seen |= set(F.class_center_sample(label, 20, 8)[1].numpy()[3:])
    assert seen == set(range(20)) - {2, 5, 9}  # negatives cover every other class over draws
    remapped, centers = F.class_center_sample(label, 20, 2)  # fewer samples than positives: all positives
    assert list(centers.numpy()) == [2, 5, 9]


def test_margin_cross_entropy_matches_arcface_formula_and_rejects_model_parallel_groups():
    import paddle
    import paddle.nn.functional as F

    class FakeGroup:
        nranks = 2

        def is_member(self):
            return True

    logits = paddle.to_tensor([[0.5, -0.2]])
    label = paddle.to_tensor([0])
    loss = F.margin_cross_entropy(logits, label, 1.0, 0.0, 0.0, 1.0)  # no margin, scale 1: plain cross entropy
    np.testing.assert_allclose(loss.numpy(), [np.log1p(np.exp(-0.7))], rtol=1e-6)
    from paddle_compat.engine.core.errors import UnsupportedAPIError

    with pytest.raises(UnsupportedAPIError, match="margin_cross_entropy.*model-parallel"):
        F.margin_cross_entropy(logits, label, group=FakeGroup())


@pytest.mark.parametrize("name,params", [
    ("CELU", "alpha=1.0, name=None"), ("Silu", "name=None"), ("Mish", "name=None"), ("GLU", "axis=-1, name=None"),
    ("RReLU", "lower=0.125, upper=0.3333333333333333, name=None"),
    ("Fold", "output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1, name=None"),
    ("Unfold", "kernel_sizes, dilations=1, paddings=0, strides=1, name=None"),
    ("MaxUnPool1D", "kernel_size, stride=None, padding=0, data_format='NCL', output_size=None, name=None"),
    ("MultiMarginLoss", "p=1, margin=1.0, weight=None, reduction='mean', name=None"),
    ("RNNTLoss", "blank=0, fastemit_lambda=0.001, reduction='mean', name=None"),
    ("TripletMarginWithDistanceLoss", "distance_function=None, margin=1.0, swap=False, reduction='mean', name=None"),
    ("PairwiseDistance", "p=2.0, epsilon=1e-06, keepdim=False, name=None"),
])
def test_layer_signatures_are_paddles(name, params):
    import paddle

    assert str(inspect.signature(getattr(paddle.nn, name))) == f"({params})"


def test_identity_and_softmax2d():
    import paddle

    x = paddle.rand([2, 3, 2])
    assert paddle.nn.Identity(54, unused_argument1=0.1)(x) is x
    out = paddle.nn.Softmax2D()(x).numpy()
    np.testing.assert_allclose(out.sum(0), np.ones([3, 2]), rtol=1e-6)
    with pytest.raises(ValueError, match="Softmax2D requires a 3D or 4D tensor"):
        paddle.nn.Softmax2D()(paddle.rand([2, 3]))


def test_triplet_with_custom_distance_function_and_zero_distance_error():
    import paddle
    import paddle.nn.functional as F

    a, p, n = paddle.to_tensor([[0.0, 0.0]]), paddle.to_tensor([[1.0, 0.0]]), paddle.to_tensor([[3.0, 4.0]])
    l1 = lambda x, y: paddle.abs(x - y).sum(-1)  # noqa: E731
    np.testing.assert_allclose(F.triplet_margin_with_distance_loss(a, p, n, l1, margin=8.0).numpy(), [2.0])
    with pytest.raises(ValueError, match="distance should be greater than 0"):
        F.triplet_margin_with_distance_loss(a, a, n, l1)


def test_static_nn_sequence_names_are_the_fluid_functions():
    import paddle

    for name in ("sequence_pool", "sequence_pad", "sequence_unpad", "sequence_softmax", "sequence_concat"):
        assert getattr(paddle.static.nn, name) is getattr(paddle.fluid.layers, name)
    assert paddle.nn.functional.sequence_mask is paddle.fluid.layers.sequence_mask


def test_static_nn_embedding_takes_ids_of_any_shape():
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [None, 3], "int64")
        out = paddle.static.nn.embedding(ids, [10, 4], padding_idx=-1)
        sparse = paddle.static.nn.sparse_embedding(ids, [10, 4])
    assert list(out.shape) == [-1, 3, 4]
    assert [p.name for p in main.all_parameters()] == ["embedding_0.w_0", "embedding_1.w_0"]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    w = paddle.static.global_scope().find_var("embedding_0.w_0").get_tensor()
    got, got_sparse = exe.run(main, feed={"ids": np.array([[1, 9, 2]], "int64")}, fetch_list=[out, sparse])
    np.testing.assert_allclose(got[0], np.array(w)[[1, 9, 2]] * np.array([[1], [0], [1]]), rtol=1e-6)
    assert got_sparse.shape == (1, 3, 4)
    with pytest.raises(TypeError, match="paddle.static.nn.embedding.*int64"):
        with paddle.static.program_guard(main, startup):
            paddle.static.nn.embedding(paddle.static.data("f", [2], "float32"), [10, 4])


def test_static_nn_deform_conv2d_is_fluid_deformable_conv():
    import paddle

    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [1, 2, 4, 4], "float32")
        off = paddle.static.data("off", [1, 8, 3, 3], "float32")
        y1 = paddle.static.nn.deform_conv2d(x, off, None, 3, 2)
        mask = paddle.static.data("mask", [1, 4, 3, 3], "float32")
        y2 = paddle.static.nn.deform_conv2d(x, off, mask, 3, 2, bias_attr=False)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.rand(1, 2, 4, 4).astype("float32"), "off": np.zeros([1, 8, 3, 3], "float32"),
            "mask": np.ones([1, 4, 3, 3], "float32")}
    a, b = exe.run(main, feed=feed, fetch_list=[y1, y2])
    assert a.shape == b.shape == (1, 3, 3, 3)
