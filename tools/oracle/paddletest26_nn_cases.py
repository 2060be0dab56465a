"""Cases over the public API (each takes the `paddle` module, returns {name: array}) reduced from PaddleTest
`framework/api/nn` failures (tools/paddletest/run.py --areas nn): recorded on Paddle 2.6.2 by
`rec_cases26.py paddletest26_nn_cases paddletest26_nn`, replayed by tests/api2x/test_paddletest26_nn.py
(an expected error: record it with paddletest26_cases._raises)."""
import functools

import numpy as np
from _common import static_run
from paddletest26_cases import _raises

X23 = np.array([[0.5, -1.25, 2.0], [-3.0, 0.0, 1.5]])


def alpha_dropout_p1(paddle):
    """p=1 in training gives scale(x, 0.0); p=0 gives x; both layer and functional (nn/test_alpha_dropout2, 3)."""
    x = paddle.to_tensor(X23)
    out = {}
    for p in (0.0, 1.0):
        out[f"functional_p{p:g}"] = paddle.nn.functional.alpha_dropout(x, p=p).numpy()
        out[f"layer_p{p:g}"] = paddle.nn.AlphaDropout(p=p)(x).numpy()
    out["eval_p1"] = paddle.nn.functional.alpha_dropout(x, p=1.0, training=False).numpy()
    return out


_static_run = functools.partial(static_run, shapes=True)  # outputs plus their recorded static shapes

_RNG = np.random.RandomState(7)
X_NCW = _RNG.uniform(-10, 10, [2, 3, 10]).astype("float32")
X_NCHW = _RNG.uniform(-10, 10, [2, 2, 7, 10]).astype("float32")


def interpolate_scale_size(paddle):
    """The output size from a scale is int(float32(in) * float32(scale)) in float32 (10 * 0.8000000000000002 -> 8,
    7 * 1.0000000000000002 -> 7), the ratio 1 / scale; an output dim of 1 samples at ratio 0
    (nn/test_upsample::test_upsample_linear_base, test_upsample_bilinear_base)."""
    F = paddle.nn.functional
    x1, x2 = paddle.to_tensor(X_NCW), paddle.to_tensor(X_NCHW)
    out = {}
    for ac in (True, False):
        for am in (0, 1):
            for s in (0.15, 0.7, 0.8000000000000002, 1.3, 2.4):
                out[f"linear_ac{ac:d}_am{am}_s{s:g}"] = F.interpolate(
                    x1, scale_factor=[s], mode="linear", align_corners=ac, align_mode=am, data_format="NCW").numpy()
            out[f"linear_nwc_ac{ac:d}_am{am}"] = F.interpolate(
                x1, scale_factor=[1.7], mode="linear", align_corners=ac, align_mode=am, data_format="NWC").numpy()
            for sh, sw in ((0.6, 0.6), (1.8, 4.2), (0.15, 2.5)):
                for mode in ("bilinear", "bicubic"):
                    out[f"{mode}_ac{ac:d}_am{am}_s{sh:g}x{sw:g}"] = F.interpolate(
                        x2, scale_factor=[sh, sw], mode=mode, align_corners=ac, align_mode=am).numpy()
            out[f"linear_size1_ac{ac:d}_am{am}"] = F.interpolate(
                x1, size=[1], mode="linear", align_corners=ac, align_mode=am, data_format="NCW").numpy()
    x7 = paddle.to_tensor(X_NCHW[:, :, :, :7])
    out["nearest_s1.0000000000000002"] = F.interpolate(x7, scale_factor=1.0000000000000002).numpy()
    for sh, sw in ((0.6, 0.6), (1.05, 2.05), (0.15, 2.5)):
        out[f"nearest_s{sh:g}x{sw:g}"] = F.interpolate(x2, scale_factor=[sh, sw], mode="nearest").numpy()
    return out


def interpolate_nearest_int(paddle):
    """nearest keeps an integer dtype (nn/test_functional_interpolate::test_instancenorm_base)."""
    F = paddle.nn.functional
    out = {}
    for dt in ("int32", "int64"):
        x = paddle.to_tensor(np.round(X_NCHW)).astype(dt)
        for k, r in (("size", F.interpolate(x, size=[6, 6])),
                     ("scale_nhwc", F.interpolate(x, scale_factor=1.7, data_format="NHWC"))):
            out[f"{dt}_{k}"] = r.numpy()
            out[f"{dt}_{k}_same_dtype"] = np.array(r.dtype == x.dtype)
    return out


def interpolate_errors(paddle):
    """Both size and scale_factor: ValueError; a scale giving an output dim 0 or a scale <= 0: ValueError
    (nn/test_upsample::test_upsample_linear4, test_upsampling_bilinear_2d::test_upsampling_bilinear2d_10)."""
    F = paddle.nn.functional
    x1, x2 = paddle.to_tensor(X_NCW), paddle.to_tensor(X_NCHW)
    return {
        "size_and_scale_linear": _raises(lambda: F.interpolate(x1, size=[15], scale_factor=[3.0], mode="linear",
                                                               align_corners=True, data_format="NCW"), ValueError),
        "size_and_scale_bilinear": _raises(lambda: F.interpolate(x2, size=[10, 10], scale_factor=[4.0, 5.0],
                                                                 mode="bilinear"), ValueError),
        "scale_to_zero": _raises(lambda: F.interpolate(x1, scale_factor=0.05, mode="linear"), ValueError),
        "scale_negative": _raises(lambda: F.interpolate(x2, scale_factor=[-1.0, 2.0], mode="bilinear"), ValueError),
        "area_size_and_scale": F.interpolate(x2, size=[3, 4], scale_factor=2.0, mode="area").numpy(),
    }


def interpolate_static_tensor_size(paddle):
    """size / scale_factor fed as Variables: the spatial dims are -1 in the program, the run gives the real output
    (nn/test_upsample::test_upsample_linear3, test_upsampling_bilinear_2d::_6, _7)."""
    F = paddle.nn.functional

    def build(p):
        x1 = p.static.data("x1", [2, 10, 3], "float32")
        x2 = p.static.data("x2", [2, 2, 7, 10], "float32")
        size1 = p.static.data("size1", [1], "int32")
        size2 = p.static.data("size2", [2], "int32")
        scale2 = p.static.data("scale2", [2], "float32")
        return {"linear_size": F.interpolate(x1, size=size1, mode="linear", align_corners=True, data_format="NWC"),
                "bilinear_size": F.interpolate(x2, size=size2, mode="bilinear"),
                "bilinear_size_nhwc": F.interpolate(x2, size=size2, mode="bilinear", data_format="NHWC"),
                "bilinear_scale": F.interpolate(x2, scale_factor=scale2, mode="bilinear")}

    feed = {"x1": X_NCW.transpose(0, 2, 1).copy(), "x2": X_NCHW, "size1": np.array([17], "int32"),
            "size2": np.array([5, 9], "int32"), "scale2": np.array([3.7, 0.8], "float32")}
    return _static_run(paddle, build, feed)


THETA = np.array([[[-0.7, -0.4, 0.3], [0.6, 0.5, 1.5]], [[0.2, 1.1, -0.3], [0.9, -0.5, 0.25]]], "float32")


def affine_grid_static_out_shape(paddle):
    """out_shape fed as a Variable (nn/test_functional_affine_grid::test_affine_grid_base, 0, 1); Paddle records
    the output as [N, -1, -1, -1, 3] there, which is not this output's rank: only the values are compared."""
    def build(p):
        theta = p.static.data("theta", [2, 2, 3], "float32")
        shape = p.static.data("shape", [4], "int32")
        return {"grid": p.nn.functional.affine_grid(theta, shape, align_corners=False)}

    out = _static_run(paddle, build, {"theta": THETA, "shape": np.array([2, 3, 4, 5], "int32")})
    return {"grid": out["grid"]}


def conv2d_transpose_static_output_size(paddle):
    """output_size fed as a Variable: spatial dims -1 in the program (nn/test_functional_transpose_conv2d::
    test_transpose_conv2d9)."""
    x = _RNG.uniform(0, 1, [2, 6, 2, 2]).astype("float32")
    w = np.ones([6, 1, 3, 3], "float32")

    def build(p):
        xs = p.static.data("x", [2, 2, 2, 6], "float32")
        xc = p.static.data("xc", [2, 6, 2, 2], "float32")
        ws = p.static.data("w", [6, 1, 3, 3], "float32")
        size = p.static.data("size", [2], "int32")
        kw = dict(stride=2, padding=[1, 0], groups=3, output_size=size)
        return {"nhwc": p.nn.functional.conv2d_transpose(xs, ws, data_format="NHWC", **kw),
                "nchw": p.nn.functional.conv2d_transpose(xc, ws, **kw)}

    return _static_run(paddle, build, {"x": x.transpose(0, 2, 3, 1).copy(), "xc": x, "w": w,
                                       "size": np.array([4, 6], "int32")})


def pad_circular_wide(paddle):
    """circular padding wider than the input wraps around as often as needed (nn/test_functional_pad::test_pad4,
    test_pad5)."""
    x = paddle.to_tensor(np.array([[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]]))
    F = paddle.nn.functional
    return {"ncdhw": F.pad(x, (0, 1, 1, 1, 2, 0), mode="circular", data_format="NCDHW").numpy(),
            "ndhwc": F.pad(x, (0, 1, 1, 1, 2, 0), mode="circular", data_format="NDHWC").numpy(),
            "wider": F.pad(x, (4, 7, 1, 1, 2, 0), mode="circular", data_format="NCDHW").numpy(),
            "negative": F.pad(x, (-1, 1, 1, -1, 2, 0), mode="circular", data_format="NCDHW").numpy(),
            "ncl": F.pad(paddle.to_tensor(X_NCW), (7, 12), mode="circular", data_format="NCL").numpy()}


def group_norm_indivisible(paddle):
    """GroupNorm(num_channels=16, num_groups=5) is built; its forward raises InvalidArgument (ValueError)
    (nn/test_group_norm::test_group_norm8)."""
    m = paddle.nn.GroupNorm(num_channels=16, num_groups=5, epsilon=1e-6)
    x = paddle.rand([2, 16, 5, 1, 1, 2, 1, 1, 2])
    return {"weight_shape": np.array(m.weight.shape), "forward": _raises(lambda: m(x), ValueError)}


def softmax_axis_range(paddle):
    """softmax's axis must lie in [-R, R-1] (nn/test_functional_softmax::test_functional_softmax2, softmax_,
    nn/test_softmax)."""
    x = paddle.to_tensor(X_NCW)
    F = paddle.nn.functional
    out = {f"axis{a}": _raises(lambda a=a: F.softmax(x, axis=a), ValueError) for a in (3, 4, -4)}
    out["layer_axis4"] = _raises(lambda: paddle.nn.Softmax(axis=4)(x), ValueError)
    out["axis_m3"] = F.softmax(x, axis=-3).numpy()
    out["axis2"] = F.softmax(x, axis=2).numpy()
    return out


def instance_norm_data_format(paddle):
    """instance_norm takes dim 1 as the channels whatever data_format says (nn/test_instance_norm1D::
    test_dygraph6, test_static6)."""
    x = paddle.to_tensor(X_NCW)
    x4 = paddle.to_tensor(X_NCHW)
    return {"1d_nlc": paddle.nn.InstanceNorm1D(3, data_format="NLC")(x).numpy(),
            "2d_nhwc": paddle.nn.InstanceNorm2D(2, data_format="NHWC")(x4).numpy(),
            "functional_nhwc": paddle.nn.functional.instance_norm(x4, data_format="NHWC").numpy(),
            "scale_mismatch": _raises(lambda: paddle.nn.InstanceNorm1D(10, data_format="NLC")(x), ValueError)}


def maxout_groups(paddle):
    """maxout needs groups > 1 and a 4-D x (nn/test_functional_maxout::test_maxout2, nn/test_maxout)."""
    x = paddle.to_tensor(X_NCHW[:, :, :, :4].reshape([2, 4, 7, 2]))
    F = paddle.nn.functional
    return {"groups1": _raises(lambda: F.maxout(x, 1), ValueError),
            "groups0": _raises(lambda: F.maxout(x, 0), ValueError),
            "layer_groups1": _raises(lambda: paddle.nn.Maxout(1)(x), ValueError),
            "rank3": _raises(lambda: F.maxout(paddle.to_tensor(X_NCW), 3), ValueError),
            "groups2": F.maxout(x, 2).numpy(),
            "groups2_axis3": F.maxout(x, 2, axis=3).numpy()}


CASES = [alpha_dropout_p1, interpolate_scale_size, interpolate_nearest_int, interpolate_errors,
         interpolate_static_tensor_size, affine_grid_static_out_shape, conv2d_transpose_static_output_size,
         pad_circular_wide, group_norm_indivisible, softmax_axis_range, instance_norm_data_format, maxout_groups]
