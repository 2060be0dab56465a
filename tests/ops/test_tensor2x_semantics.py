"""Paddle 2.x tensor APIs that real Paddle 2.6.2 cannot run on CPU (no golden possible): checked by their
definition. top_p_sampling has a GPU kernel only in Paddle; here it samples on any device."""

from __future__ import annotations

import numpy as np


def test_top_p_sampling_draws_inside_the_nucleus():
    import paddle

    paddle.seed(0)
    probs = paddle.to_tensor([[0.5, 0.3, 0.15, 0.05], [0.05, 0.05, 0.1, 0.8]] * 200)
    ps = paddle.to_tensor([[0.6], [0.5]] * 200)
    out, ids = probs.top_p_sampling(ps)
    assert out.shape == [400, 1] and ids.shape == [400, 1] and ids.dtype == paddle.int64
    ids, out = ids.numpy().reshape(200, 2), out.numpy().reshape(200, 2)
    # row 0: the nucleus of mass >= 0.6 is tokens {0, 1}, drawn about 5 : 3; row 1: token 3 alone (0.8 >= 0.5)
    assert set(ids[:, 0]) <= {0, 1} and 0.45 < (ids[:, 0] == 0).mean() < 0.8
    assert (ids[:, 1] == 3).all() and np.allclose(out[:, 1], 0.8)
    np.testing.assert_allclose(out[:, 0], np.where(ids[:, 0] == 0, 0.5, 0.3))


def test_top_p_sampling_threshold_and_seed():
    import paddle

    probs = paddle.to_tensor([[0.4, 0.35, 0.25]] * 50)
    ps = paddle.full([50, 1], 0.99)
    _, ids = probs.top_p_sampling(ps, threshold=paddle.full([50, 1], 0.3))
    assert set(ids.numpy().ravel()) <= {0, 1}  # 0.25 is below the threshold
    a = probs.top_p_sampling(ps, seed=7)[1].numpy()
    b = probs.top_p_sampling(ps, seed=7)[1].numpy()
    np.testing.assert_array_equal(a, b)


def test_multi_output_ops_give_paddle_tensors():
    """torch.return_types named tuples are converted: users get paddle Tensors, not torch tensors."""
    import paddle

    a = paddle.to_tensor(np.array([[2.0, 1.0], [1.0, 3.0]], "float32"))
    for outs in (paddle.linalg.eig(a), paddle.linalg.eigh(a), paddle.linalg.svd(a), paddle.linalg.qr(a),
                 paddle.linalg.lu(a), paddle.linalg.lstsq(a, a), paddle.kthvalue(a, 1), paddle.mode(a),
                 paddle.cummax(a), paddle.frexp(a), paddle.linalg.pca_lowrank(a, q=1)):
        assert all(isinstance(o, paddle.Tensor) for o in outs), [type(o) for o in outs]
