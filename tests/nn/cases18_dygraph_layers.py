"""fluid 1.8 dygraph layers beyond the first set (Conv2DTranspose, Conv3D, Conv3DTranspose, GroupNorm, InstanceNorm,
GRUUnit, BilinearTensorProduct) with fixed parameters. Shared by tools/oracle/rec_dygraph_layers18.py (real Paddle
1.8.5, python 3.8) and tests/nn/test_fluid_dygraph18_layers.py."""

import numpy as np


def run(fluid):
    """-> {name: output array}; call inside fluid.dygraph.guard()."""
    rs = np.random.RandomState(5)
    x4, x5 = rs.randn(2, 4, 5, 5).astype("float32"), rs.randn(2, 4, 3, 4, 4).astype("float32")
    a, b = rs.randn(3, 3).astype("float32"), rs.randn(3, 4).astype("float32")
    gx, gh = rs.randn(2, 9).astype("float32"), rs.randn(2, 3).astype("float32")

    def init(shape, seed):
        w = np.random.RandomState(seed).randn(*shape).astype("float32") * 0.3
        return fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(w))

    D, v = fluid.dygraph, fluid.dygraph.to_variable
    out = {
        "conv2d_transpose": D.Conv2DTranspose(4, 6, 3, stride=2, padding=1, param_attr=init([4, 6, 3, 3], 1),
                                              bias_attr=init([6], 2), act="relu")(v(x4)),
        "conv2d_transpose_out_size_groups": D.Conv2DTranspose(4, 6, 3, output_size=[12, 12], stride=2, groups=2,
                                                              param_attr=init([4, 3, 3, 3], 3))(v(x4)),
        "conv3d": D.Conv3D(4, 2, [2, 3, 3], padding=1, param_attr=init([2, 4, 2, 3, 3], 4), act="tanh")(v(x5)),
        "conv3d_transpose": D.Conv3DTranspose(4, 2, 2, stride=2, param_attr=init([4, 2, 2, 2, 2], 5))(v(x5)),
        "group_norm": D.GroupNorm(4, 2, param_attr=init([4], 6), bias_attr=init([4], 7), act="relu")(v(x4)),
        "instance_norm": D.InstanceNorm(4, param_attr=init([4], 8), bias_attr=init([4], 9))(v(x4)),
        "bilinear": D.BilinearTensorProduct(3, 4, 2, act="sigmoid", param_attr=init([2, 3, 4], 12),
                                            bias_attr=init([1, 2], 13))(v(a), v(b)),
        # channels not divisible by groups: 1.8 normalizes groups of ceil(C / groups) channels (2.6 refuses)
        "group_norm_uneven": D.GroupNorm(4, 3, param_attr=init([4], 14), bias_attr=init([4], 15))(v(x4)),
    }
    unit = D.GRUUnit(9, param_attr=init([3, 9], 10), bias_attr=init([1, 9], 11))
    out.update({f"gru_unit_{i}": r for i, r in enumerate(unit(v(gx), v(gh)))})
    return {k: t.numpy() for k, t in out.items()}
