"""Convolution and pooling windows larger than their input (issue 25 item 1), as Paddle 2.6.2 computes them.

Paddle sizes the output with C integer division, which truncates toward zero: (in + pads - k) / s + 1 is 1, not
0, when the window is wider than the padded input by less than the stride (InceptionV3's 3x3 stride-2 conv on a
2x2 map; InceptionV4's pools on 2x2 maps). The window then reads past the input: a convolution sees zeros (the
im2col buffer is zero outside the input), a pool clips the window to the input (max over the cells that exist;
avg divides by the real cells with exclusive=True, and with exclusive=False by the window clipped to
[-pad_before, in + pad_before), Paddle's CPU kernel's `hend = min(hstart + k, in + pad)`).

`CASES[name](paddle)` returns {key: array}: the output, and the gradient of sum(out * w) (w = 1, 2, 3, ... so
every output position weighs differently) with respect to the input (and the weight for convolutions); a
configuration Paddle refuses returns {"raised": True}. Recorded by tools/oracle/rec_run26.py into
tests/goldens/windows26_small_inputs.*, replayed by tests/nn/test_windows26.py; numpy only.
"""

import numpy as np

# (name, function, x shape, kwargs, weight shape or None)
TABLE = [
    # convolutions: kernel wider than the (padded) input
    ("conv2d_k3s2_2x2", "conv2d", (1, 2, 2, 2), dict(stride=2), (3, 2, 3, 3)),
    ("conv2d_k3s2_2x3", "conv2d", (2, 2, 2, 3), dict(stride=2), (3, 2, 3, 3)),
    ("conv2d_k3s2_1x1", "conv2d", (1, 2, 1, 1), dict(stride=2), (2, 2, 3, 3)),
    ("conv2d_k5s4_3x3_p1", "conv2d", (1, 1, 3, 3), dict(stride=4, padding=1), (2, 1, 5, 5)),
    ("conv2d_k3s2_2x2_asym", "conv2d", (1, 2, 2, 2), dict(stride=2, padding=[0, 1, 1, 0]), (1, 2, 4, 4)),
    ("conv2d_k3s2_2x2_dil", "conv2d", (1, 1, 3, 3), dict(stride=3, dilation=2), (1, 1, 3, 3)),
    ("conv2d_k3s2_2x2_groups", "conv2d", (1, 4, 2, 2), dict(stride=2, groups=2), (4, 2, 3, 3)),
    ("conv2d_k3s2_2x2_nhwc", "conv2d", (1, 2, 2, 2), dict(stride=2, data_format="NHWC"), (3, 2, 3, 3)),
    ("conv2d_k3s2_2x2_same", "conv2d", (1, 2, 2, 2), dict(stride=2, padding="SAME"), (3, 2, 3, 3)),
    ("conv2d_k3s1_2x2_same", "conv2d", (1, 2, 2, 2), dict(stride=1, padding="SAME"), (3, 2, 3, 3)),
    ("conv2d_k3s2_2x2_valid", "conv2d", (1, 2, 2, 2), dict(stride=2, padding="VALID"), (3, 2, 3, 3)),
    ("conv2d_k1x3s2_4x2", "conv2d", (1, 2, 4, 2), dict(stride=2), (2, 2, 1, 3)),
    ("conv1d_k3s2_2", "conv1d", (2, 2, 2), dict(stride=2), (3, 2, 3)),
    ("conv1d_k4s3_2_p1", "conv1d", (1, 1, 2), dict(stride=3, padding=[0, 1]), (2, 1, 4)),
    ("conv3d_k3s2_2", "conv3d", (1, 2, 2, 2, 2), dict(stride=2), (2, 2, 3, 3, 3)),
    ("conv3d_k3s2_2x3x2", "conv3d", (1, 1, 2, 3, 2), dict(stride=2, padding=[0, 1, 0]), (2, 1, 3, 3, 3)),
    # transposed convolutions (a kernel wider than the input is their usual case)
    ("conv2d_transpose_k3s2_2x2", "conv2d_transpose", (1, 2, 2, 2), dict(stride=2), (2, 3, 3, 3)),
    ("conv2d_transpose_k3s2_2x2_p2", "conv2d_transpose", (1, 2, 2, 2), dict(stride=2, padding=2), (2, 1, 3, 3)),
    ("conv2d_transpose_k3s2_1x1_same", "conv2d_transpose", (1, 2, 1, 1), dict(stride=2, padding="SAME"),
     (2, 1, 3, 3)),
    ("conv1d_transpose_k5s2_1", "conv1d_transpose", (1, 2, 1), dict(stride=2, padding=1), (2, 2, 5)),
    ("conv3d_transpose_k3s2_1", "conv3d_transpose", (1, 1, 1, 2, 1), dict(stride=2), (1, 2, 3, 3, 3)),
    # max / avg pools with the window wider than the map
    ("max_pool2d_k3s2_2x2", "max_pool2d", (1, 3, 2, 2), dict(kernel_size=3, stride=2), None),
    ("max_pool2d_k8s8_2x2", "max_pool2d", (2, 2, 2, 2), dict(kernel_size=8, stride=8), None),
    ("max_pool2d_k3s1_2x2", "max_pool2d", (1, 1, 2, 2), dict(kernel_size=3, stride=1), None),
    ("max_pool2d_k3s2_2x2_mask", "max_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, return_mask=True), None),
    ("max_pool2d_k3s2_2x2_ceil", "max_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, ceil_mode=True), None),
    ("max_pool2d_k4s3_2x2_p1_ceil", "max_pool2d", (1, 2, 2, 2), dict(kernel_size=4, stride=3, padding=1,
                                                                     ceil_mode=True), None),
    ("max_pool2d_k3s2_2x2_same", "max_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, padding="SAME"), None),
    ("max_pool2d_k3s2_2x2_nhwc", "max_pool2d", (1, 2, 2, 3), dict(kernel_size=3, stride=2, data_format="NHWC"),
     None),
    ("max_pool2d_k7s7_6x6", "max_pool2d", (1, 2, 6, 6), dict(kernel_size=7, stride=7), None),
    ("max_pool2d_k3x1s2_2x4", "max_pool2d", (1, 1, 2, 4), dict(kernel_size=[3, 1], stride=2), None),
    ("avg_pool2d_k3s2_2x2", "avg_pool2d", (1, 3, 2, 2), dict(kernel_size=3, stride=2), None),
    ("avg_pool2d_k3s2_2x2_incl", "avg_pool2d", (1, 3, 2, 2), dict(kernel_size=3, stride=2, exclusive=False), None),
    ("avg_pool2d_k8s8_2x2", "avg_pool2d", (2, 2, 2, 2), dict(kernel_size=8, stride=8), None),
    ("avg_pool2d_k7s7_6x6_incl", "avg_pool2d", (1, 2, 6, 6), dict(kernel_size=7, stride=7, exclusive=False), None),
    ("avg_pool2d_k3s1_2x2", "avg_pool2d", (1, 1, 2, 2), dict(kernel_size=3, stride=1), None),
    ("avg_pool2d_k3s2_2x2_p1_incl", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, padding=1,
                                                                     exclusive=False), None),
    ("avg_pool2d_k5s2_2x2_p1_incl", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=5, stride=2, padding=1,
                                                                     exclusive=False), None),
    ("avg_pool2d_k5s2_2x2_p1_ceil_incl", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=5, stride=2, padding=1,
                                                                          exclusive=False, ceil_mode=True), None),
    ("avg_pool2d_k4s3_2x2_p1_ceil", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=4, stride=3, padding=1,
                                                                     ceil_mode=True), None),
    ("avg_pool2d_k3s2_2x2_same", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, padding="SAME"), None),
    ("avg_pool2d_k3s2_2x2_same_incl", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, padding="SAME",
                                                                       exclusive=False), None),
    ("avg_pool2d_k3s2_2x2_asym_incl", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2,
                                                                       padding=[0, 1, 0, 1], exclusive=False), None),
    ("avg_pool2d_k3s2_2x2_divisor", "avg_pool2d", (1, 2, 2, 2), dict(kernel_size=3, stride=2, divisor_override=2),
     None),
    ("avg_pool2d_k3s2_2x2_nhwc", "avg_pool2d", (1, 2, 2, 3), dict(kernel_size=3, stride=2, data_format="NHWC"),
     None),
    ("max_pool1d_k3s2_2", "max_pool1d", (1, 2, 2), dict(kernel_size=3, stride=2), None),
    ("max_pool1d_k5s4_3_p1_ceil", "max_pool1d", (1, 2, 3), dict(kernel_size=5, stride=4, padding=1, ceil_mode=True),
     None),
    ("max_pool1d_k3s2_2_mask", "max_pool1d", (1, 2, 2), dict(kernel_size=3, stride=2, return_mask=True), None),
    ("avg_pool1d_k3s2_2", "avg_pool1d", (1, 2, 2), dict(kernel_size=3, stride=2), None),
    ("avg_pool1d_k3s2_2_incl", "avg_pool1d", (1, 2, 2), dict(kernel_size=3, stride=2, exclusive=False), None),
    ("max_pool3d_k3s2_2", "max_pool3d", (1, 2, 2, 2, 2), dict(kernel_size=3, stride=2), None),
    ("max_pool3d_k3s2_2_mask", "max_pool3d", (1, 1, 2, 2, 2), dict(kernel_size=3, stride=2, return_mask=True),
     None),
    ("avg_pool3d_k3s2_2", "avg_pool3d", (1, 2, 2, 2, 2), dict(kernel_size=3, stride=2), None),
    ("avg_pool3d_k3s2_2_incl", "avg_pool3d", (1, 2, 2, 3, 2), dict(kernel_size=3, stride=2, exclusive=False), None),
    # adaptive pools with more bins than cells
    ("adaptive_avg_pool2d_4_on_2x3", "adaptive_avg_pool2d", (1, 2, 2, 3), dict(output_size=4), None),
    ("adaptive_max_pool2d_4_on_2x3", "adaptive_max_pool2d", (1, 2, 2, 3), dict(output_size=4), None),
    ("adaptive_avg_pool1d_5_on_2", "adaptive_avg_pool1d", (1, 2, 2), dict(output_size=5), None),
    ("adaptive_max_pool1d_5_on_2", "adaptive_max_pool1d", (1, 2, 2), dict(output_size=5), None),
    ("adaptive_avg_pool3d_3_on_1x2x2", "adaptive_avg_pool3d", (1, 1, 1, 2, 2), dict(output_size=3), None),
    ("adaptive_max_pool3d_3_on_1x2x2", "adaptive_max_pool3d", (1, 1, 1, 2, 2), dict(output_size=3), None),
]


def _case(fn_name, x_shape, kwargs, w_shape, seed):
    def run(paddle):
        rs = np.random.RandomState(seed)
        xv = rs.rand(*x_shape)
        fn = getattr(paddle.nn.functional, fn_name)
        x = paddle.to_tensor(xv, stop_gradient=False)
        args = [x]
        if w_shape is not None:
            w = paddle.to_tensor(rs.rand(*w_shape) - 0.5, stop_gradient=False)
            args.append(w)
        try:
            out = fn(*args, **kwargs)
        except Exception:  # noqa: BLE001 - Paddle refuses the configuration (output size below 1)
            return {"raised": np.array(True)}
        res = {}
        if isinstance(out, (list, tuple)):
            out, mask = out
            res["mask"] = mask.numpy().astype("int64")
        res["out"] = out.numpy()
        if res["out"].size:
            weights = paddle.to_tensor(np.arange(1, res["out"].size + 1, dtype="float64").reshape(out.shape))
            (out * weights).sum().backward()
            res["x_grad"] = x.grad.numpy()
            if w_shape is not None:
                res["w_grad"] = args[1].grad.numpy()
        return res

    return run


CASES = {name: _case(fn, shape, kw, w, 100 + i) for i, (name, fn, shape, kw, w) in enumerate(TABLE)}
