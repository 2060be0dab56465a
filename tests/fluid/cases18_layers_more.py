"""fluid.layers that create parameters beyond cases18.py: conv2d_transpose (also from output_size), conv3d,
conv3d_transpose, layer_norm, group_norm, instance_norm, prelu (3 modes), bilinear_tensor_product, in the format
of cases18.py. Golden: tests/goldens/fluid18_layers_more.* (tools/oracle/rec_fluid18_layers.py)."""

import numpy as np

rs = np.random.RandomState(11)
CASES = {}


def case(name, data, feed, build, params=None, atol=1e-5):
    CASES[name] = {"data": data, "feed": feed, "build": build, "params": params or {}, "atol": atol}


def _p(shape, seed):
    return (np.random.RandomState(seed).randn(*shape) * 0.3).astype("float32")


X4 = rs.randn(2, 4, 5, 5).astype("float32")
X5 = rs.randn(2, 4, 3, 4, 4).astype("float32")
D4 = ([("x", [2, 4, 5, 5], "float32", 0)], {"x": (X4, None)})
D5 = ([("x", [2, 4, 3, 4, 4], "float32", 0)], {"x": (X5, None)})

case("conv2d_transpose", *D4, lambda L, F, v, pa: [L.conv2d_transpose(
    v["x"], 6, filter_size=3, stride=2, padding=1, param_attr=pa("w"), bias_attr=pa("b"), act="relu")],
    params={"w": _p([4, 6, 3, 3], 1), "b": _p([6], 2)})
case("conv2d_transpose_from_output_size", *D4, lambda L, F, v, pa: [L.conv2d_transpose(
    v["x"], 3, output_size=[11, 11], stride=2, param_attr=pa("w"))], params={"w": _p([4, 3, 3, 3], 3)})
case("conv3d", *D5, lambda L, F, v, pa: [L.conv3d(v["x"], 2, [2, 3, 3], padding=1, param_attr=pa("w"), act="tanh")],
     params={"w": _p([2, 4, 2, 3, 3], 4)})
case("conv3d_transpose", *D5, lambda L, F, v, pa: [L.conv3d_transpose(v["x"], 2, filter_size=2, stride=2,
                                                                       param_attr=pa("w"))],
     params={"w": _p([4, 2, 2, 2, 2], 5)})
case("layer_norm_axis2", *D4, lambda L, F, v, pa: [L.layer_norm(v["x"], begin_norm_axis=2, param_attr=pa("s"),
                                                                bias_attr=pa("b"))],
     params={"s": _p([25], 6), "b": _p([25], 7)})
case("layer_norm_default", *D4, lambda L, F, v, pa: [L.layer_norm(v["x"])])
case("group_norm", *D4, lambda L, F, v, pa: [L.group_norm(v["x"], 2, param_attr=pa("s"), bias_attr=pa("b"),
                                                          act="relu")],
     params={"s": _p([4], 8), "b": _p([4], 9)})
case("instance_norm", *D4, lambda L, F, v, pa: [L.instance_norm(v["x"], param_attr=pa("s"), bias_attr=pa("b"))],
     params={"s": _p([4], 10), "b": _p([4], 11)})
case("prelu_channel", *D4, lambda L, F, v, pa: [L.prelu(v["x"], "channel", param_attr=pa("a"))],
     params={"a": _p([1, 4, 1, 1], 12)})
case("prelu_element", *D4, lambda L, F, v, pa: [L.prelu(v["x"], "element", param_attr=pa("a"))],
     params={"a": _p([1, 4, 5, 5], 13)})
case("prelu_all_default", *D4, lambda L, F, v, pa: [L.prelu(v["x"], "all")])
case("bilinear_tensor_product", [("a", [3, 3], "float32", 0), ("b", [3, 4], "float32", 0)],
     {"a": (rs.randn(3, 3).astype("float32"), None), "b": (rs.randn(3, 4).astype("float32"), None)},
     lambda L, F, v, pa: [L.bilinear_tensor_product(v["a"], v["b"], 2, act="sigmoid", param_attr=pa("w"),
                                                    bias_attr=pa("bb"))],
     params={"w": _p([2, 3, 4], 14), "bb": _p([1, 2], 15)})

# row_conv: LoD rows (sequences of 3 and 4) and a padded batch
RC = rs.randn(7, 3).astype("float32")
case("row_conv_lod", [("x", [-1, 3], "float32", 1)], {"x": (RC, [3, 4])},
     lambda L, F, v, pa: [L.row_conv(v["x"], 2, param_attr=pa("w"), act="tanh")], params={"w": _p([3, 3], 16)})
case("row_conv_padded", [("x", [2, 4, 3], "float32", 0)], {"x": (rs.randn(2, 4, 3).astype("float32"), None)},
     lambda L, F, v, pa: [L.row_conv(v["x"], 1, param_attr=pa("w"))], params={"w": _p([2, 3], 17)})
