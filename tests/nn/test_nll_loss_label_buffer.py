"""nll_loss on a 2-D input with a [N, K] label: Paddle 2.6.2's kernel reads the first N values of the label's
buffer (PaddleTest loss/test_nll_loss feeds such labels). Expected values printed by real Paddle 2.6.2 for
this exact input (RandomState(0): x = rand(4, 6), label = randint(0, 6, [4, 3]))."""

from __future__ import annotations

import numpy as np


def test_nll_loss_reads_the_first_n_labels():
    import paddle

    rs = np.random.RandomState(0)
    x = paddle.to_tensor(rs.rand(4, 6).astype("float32"))
    lab = paddle.to_tensor(rs.randint(0, 6, size=[4, 3]).astype("int64"))
    F = paddle.nn.functional
    np.testing.assert_allclose(F.nll_loss(x, lab, reduction="none").numpy(),
                               [-0.5488135, -0.891773, -0.92559665, -0.87001216], rtol=1e-6)
    np.testing.assert_allclose(F.nll_loss(x, lab).numpy(), [-0.8090489], rtol=1e-6)
