"""Static programs whose sizes are runtime values, against Paddle 2.6.2 (tests/goldens/static_sizes26.json,
tools/oracle/rec_static_sizes26.py): `F.interpolate(x, paddle.shape(y)[2:])` records unknown (-1) spatial dims, and
a concat of it with y takes y's known sizes (PaddleSeg's UNet / DeepLabV3P / PP-LiteSeg in static mode)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from tests.api2x.static_sizes_cases import build
from tests.conftest import GOLDENS

with open(os.path.join(GOLDENS, "static_sizes26.json"), encoding="utf-8") as f:
    G = json.load(f)


@pytest.mark.parametrize("mode", sorted(G))
def test_runtime_size_then_concat(mode):
    import paddle

    g = G[mode]
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            u, z, w = build(paddle, mode)
        assert [list(u.shape), list(z.shape), list(w.shape)] == [g["u_shape"], g["z_shape"], g["w_shape"]]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.array(g["x"], "float32"), "y": np.array(g["y"], "float32")}
        zv, wv = exe.run(main, feed=feed, fetch_list=[z, w])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(zv, np.array(g["z"], "float32"), rtol=1e-6, atol=1e-6)
    assert abs(float(wv.sum()) - g["w_sum"]) <= 1e-4 * abs(g["w_sum"])


def test_known_dims_that_disagree_still_raise():
    import paddle

    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            a = paddle.static.data("a", [2, -1, 4], "float32")
            b = paddle.static.data("b", [2, 3, 5], "float32")
            with pytest.raises(ValueError, match="paddle.concat"):
                paddle.concat([a, b], axis=1)
    finally:
        paddle.disable_static()
