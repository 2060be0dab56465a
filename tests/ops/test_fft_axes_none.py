"""paddle.fft's 2-D transforms with axes=None transform every axis, as Paddle 2.6.2 (its rfft2 calls rfftn):
shapes read from real 2.6.2 ([2, 3, 4] -> rfft2 [2, 3, 3]), values numpy's n-D transforms."""

from __future__ import annotations

import numpy as np
import pytest

X = np.arange(24, dtype="float64").reshape(2, 3, 4)


@pytest.mark.parametrize("name,ref,shape", [("fft2", np.fft.fftn, [2, 3, 4]), ("rfft2", np.fft.rfftn, [2, 3, 3]),
                                            ("ifft2", np.fft.ifftn, [2, 3, 4])])
def test_two_d_transform_with_axes_none_is_n_d(name, ref, shape):
    import paddle

    out = getattr(paddle.fft, name)(paddle.to_tensor(X), axes=None)
    assert out.shape == shape
    np.testing.assert_allclose(out.numpy(), ref(X), rtol=1e-12, atol=1e-9)


def test_irfft2_with_axes_none_inverts_rfft2():
    import paddle

    x = paddle.to_tensor(X)
    back = paddle.fft.irfft2(paddle.fft.rfft2(x, axes=None), axes=None)  # last axis 3 -> 2 * (3 - 1) = 4
    np.testing.assert_allclose(back.numpy(), X, atol=1e-9)
