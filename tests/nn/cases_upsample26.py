"""interpolate with align_mode=1 (src = dst * ratio, clamped to the last input) in linear / bilinear / trilinear
modes, float32 and float64, up- and down-sampling, by size and by scale, an axis of one cell, channels-last: the
output and the input gradient of sum(out * w) (w = 1, 2, 3, ...) as Paddle 2.6.2 computes them (issue 25 item 6
made this path one grid_sample). Recorded by tools/oracle/rec_run26.py into tests/goldens/windows26_upsample.*,
replayed by tests/nn/test_upsample26.py; numpy only."""

import numpy as np

TABLE = [
    ("linear_up_size", (2, 3, 5), dict(size=[12], mode="linear", data_format="NCW")),
    ("linear_down_scale", (1, 2, 9), dict(scale_factor=0.6, mode="linear", data_format="NCW")),
    ("linear_nwc_scale", (2, 7, 3), dict(scale_factor=[2.3], mode="linear", data_format="NWC")),
    ("bilinear_up_size", (2, 2, 4, 5), dict(size=[9, 7], mode="bilinear")),
    ("bilinear_mixed_scale", (1, 3, 6, 8), dict(scale_factor=[1.7, 0.6], mode="bilinear")),
    ("bilinear_one_row", (1, 2, 1, 5), dict(size=[3, 8], mode="bilinear")),
    ("bilinear_to_one", (1, 2, 4, 5), dict(size=[1, 3], mode="bilinear")),
    ("bilinear_nhwc", (2, 5, 4, 3), dict(size=[8, 6], mode="bilinear", data_format="NHWC")),
    ("trilinear_up_size", (1, 2, 3, 4, 5), dict(size=[5, 6, 7], mode="trilinear", data_format="NCDHW")),
    ("trilinear_down_scale", (2, 2, 10, 10, 10), dict(scale_factor=[0.6, 0.6, 0.6], mode="trilinear",
                                                      data_format="NCDHW")),
    ("trilinear_ndhwc", (1, 3, 4, 2, 2), dict(size=[5, 3, 4], mode="trilinear", data_format="NDHWC")),
]


def _case(shape, kwargs, dtype, seed):
    def run(paddle):
        rs = np.random.RandomState(seed)
        x = paddle.to_tensor((rs.rand(*shape) * 20 - 10).astype(dtype), stop_gradient=False)
        out = paddle.nn.functional.interpolate(x, align_corners=False, align_mode=1, **kwargs)
        w = paddle.to_tensor(np.arange(1, out.numpy().size + 1, dtype=dtype).reshape(out.shape) / out.numpy().size)
        (out * w).sum().backward()
        return {"out": out.numpy(), "x_grad": x.grad.numpy()}

    return run


CASES = {f"{name}_{dt}": _case(shape, kw, dt, 500 + i)
         for i, (name, shape, kw) in enumerate(TABLE) for dt in ("float32", "float64")}
