"""paddle.vision.models.InceptionV3 / inception_v3."""

import math

from paddle_compat.paddle2.vision.models._layers import (
    P, AdaptiveAvgPool2D, AvgPool2D, Dropout, Layer, LayerList, Linear, MaxPool2D, ParamAttr, ReLU, uniform_attr)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values
from paddle_compat.paddle2.vision.ops import ConvNormActivation

model_urls = {"inception_v3": ("https://paddle-hapi.bj.bcebos.com/models/inception_v3.pdparams",
                               "649a4547c3243e8b59c656f41fe330b8")}


def _cbr(cin, cout, k, stride=1, padding=0):
    """A ConvNormActivation with ReLU (every conv of InceptionV3)."""
    return ConvNormActivation(cin, cout, kernel_size=k, stride=stride, padding=padding, activation_layer=ReLU)


class _Branches(Layer):
    """An Inception block: sublayers are created from SPEC (name, in, out, kernel, stride, padding; in None
    means the block's input channels) in Paddle's order; forward concatenates BRANCHES, each a list of
    sublayer names applied in turn, a tuple inside a branch concatenating parallel sublayers."""

    SPEC: list = []
    BRANCHES: list = []

    def _build(self, num_channels, **outs):
        for name, cin, cout, k, stride, pad in self.SPEC:
            if name == "branch_pool":
                self.branch_pool = (AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False) if stride == 1
                                    else MaxPool2D(kernel_size=3, stride=2))
                continue
            setattr(self, name, _cbr(num_channels if cin is None else cin, outs.get(cout, cout), k, stride, pad))

    def forward(self, x):
        concat = P("concat")
        outs = []
        for branch in self.BRANCHES:
            y = x
            for step in branch:
                y = concat([getattr(self, s)(y) for s in step], axis=1) if isinstance(step, tuple) \
                    else getattr(self, step)(y)
            outs.append(y)
        return concat(outs, axis=1)


_POOL_AVG = ("branch_pool", None, None, 3, 1, 1)
_POOL_MAX = ("branch_pool", None, None, 3, 2, 0)


class InceptionStem(Layer):
    """conv_1a_3x3 .. conv_4a_3x3 with two 3x3/2 max pools: 3 -> 192 channels, about 1/8 the size."""

    def __init__(self):
        super().__init__()
        self.conv_1a_3x3 = _cbr(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cbr(32, 32, 3)
        self.conv_2b_3x3 = _cbr(32, 64, 3, padding=1)
        self.max_pool = MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cbr(64, 80, 1)
        self.conv_4a_3x3 = _cbr(80, 192, 3)

    def forward(self, x):
        x = self.max_pool(self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x))))
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


class InceptionA(_Branches):
    SPEC = [("branch1x1", None, 64, 1, 1, 0), ("branch5x5_1", None, 48, 1, 1, 0), ("branch5x5_2", 48, 64, 5, 1, 2),
            ("branch3x3dbl_1", None, 64, 1, 1, 0), ("branch3x3dbl_2", 64, 96, 3, 1, 1),
            ("branch3x3dbl_3", 96, 96, 3, 1, 1), _POOL_AVG, ("branch_pool_conv", None, "pool", 1, 1, 0)]
    BRANCHES = [["branch1x1"], ["branch5x5_1", "branch5x5_2"], ["branch3x3dbl_1", "branch3x3dbl_2", "branch3x3dbl_3"],
                ["branch_pool", "branch_pool_conv"]]

    def __init__(self, num_channels, pool_features):
        super().__init__()
        self._build(num_channels, pool=pool_features)


class InceptionB(_Branches):
    SPEC = [("branch3x3", None, 384, 3, 2, 0), ("branch3x3dbl_1", None, 64, 1, 1, 0),
            ("branch3x3dbl_2", 64, 96, 3, 1, 1), ("branch3x3dbl_3", 96, 96, 3, 2, 0), _POOL_MAX]
    BRANCHES = [["branch3x3"], ["branch3x3dbl_1", "branch3x3dbl_2", "branch3x3dbl_3"], ["branch_pool"]]

    def __init__(self, num_channels):
        super().__init__()
        self._build(num_channels)


class InceptionC(_Branches):
    SPEC = [("branch1x1", None, 192, 1, 1, 0), ("branch7x7_1", None, "c7", 1, 1, 0),
            ("branch7x7_2", "c7", "c7", (1, 7), 1, (0, 3)), ("branch7x7_3", "c7", 192, (7, 1), 1, (3, 0)),
            ("branch7x7dbl_1", None, "c7", 1, 1, 0), ("branch7x7dbl_2", "c7", "c7", (7, 1), 1, (3, 0)),
            ("branch7x7dbl_3", "c7", "c7", (1, 7), 1, (0, 3)), ("branch7x7dbl_4", "c7", "c7", (7, 1), 1, (3, 0)),
            ("branch7x7dbl_5", "c7", 192, (1, 7), 1, (0, 3)), _POOL_AVG, ("branch_pool_conv", None, 192, 1, 1, 0)]
    BRANCHES = [["branch1x1"], ["branch7x7_1", "branch7x7_2", "branch7x7_3"],
                ["branch7x7dbl_1", "branch7x7dbl_2", "branch7x7dbl_3", "branch7x7dbl_4", "branch7x7dbl_5"],
                ["branch_pool", "branch_pool_conv"]]

    def __init__(self, num_channels, channels_7x7):
        super().__init__()
        self.SPEC = [(n, channels_7x7 if i == "c7" else i, o, k, s, p) for n, i, o, k, s, p in self.SPEC]
        self._build(num_channels, c7=channels_7x7)


class InceptionD(_Branches):
    SPEC = [("branch3x3_1", None, 192, 1, 1, 0), ("branch3x3_2", 192, 320, 3, 2, 0),
            ("branch7x7x3_1", None, 192, 1, 1, 0), ("branch7x7x3_2", 192, 192, (1, 7), 1, (0, 3)),
            ("branch7x7x3_3", 192, 192, (7, 1), 1, (3, 0)), ("branch7x7x3_4", 192, 192, 3, 2, 0), _POOL_MAX]
    BRANCHES = [["branch3x3_1", "branch3x3_2"], ["branch7x7x3_1", "branch7x7x3_2", "branch7x7x3_3", "branch7x7x3_4"],
                ["branch_pool"]]

    def __init__(self, num_channels):
        super().__init__()
        self._build(num_channels)


class InceptionE(_Branches):
    SPEC = [("branch1x1", None, 320, 1, 1, 0), ("branch3x3_1", None, 384, 1, 1, 0),
            ("branch3x3_2a", 384, 384, (1, 3), 1, (0, 1)), ("branch3x3_2b", 384, 384, (3, 1), 1, (1, 0)),
            ("branch3x3dbl_1", None, 448, 1, 1, 0), ("branch3x3dbl_2", 448, 384, 3, 1, 1),
            ("branch3x3dbl_3a", 384, 384, (1, 3), 1, (0, 1)), ("branch3x3dbl_3b", 384, 384, (3, 1), 1, (1, 0)),
            _POOL_AVG, ("branch_pool_conv", None, 192, 1, 1, 0)]
    BRANCHES = [["branch1x1"], ["branch3x3_1", ("branch3x3_2a", "branch3x3_2b")],
                ["branch3x3dbl_1", "branch3x3dbl_2", ("branch3x3dbl_3a", "branch3x3dbl_3b")],
                ["branch_pool", "branch_pool_conv"]]

    def __init__(self, num_channels):
        super().__init__()
        self._build(num_channels)


class InceptionV3(Layer):
    """InceptionV3(num_classes=1000, with_pool=True): inception_stem, inception_block_list (3 A, 1 B, 4 C, 1 D,
    2 E), avg_pool, dropout, fc."""

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.layers_config = {"inception_a": [[192, 256, 288], [32, 64, 64]], "inception_b": [288],
                              "inception_c": [[768, 768, 768, 768], [128, 160, 160, 192]], "inception_d": [768],
                              "inception_e": [1280, 2048]}
        cfg = self.layers_config
        self.inception_stem = InceptionStem()
        self.inception_block_list = LayerList(
            [InceptionA(c, p) for c, p in zip(*cfg["inception_a"])] + [InceptionB(c) for c in cfg["inception_b"]]
            + [InceptionC(c, c7) for c, c7 in zip(*cfg["inception_c"])] + [InceptionD(c) for c in cfg["inception_d"]]
            + [InceptionE(c) for c in cfg["inception_e"]])
        if with_pool:
            self.avg_pool = AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = Dropout(p=0.2, mode="downscale_in_infer")
            self.fc = Linear(2048, num_classes, weight_attr=uniform_attr(1.0 / math.sqrt(2048.0)),
                             bias_attr=ParamAttr())

    def forward(self, x):
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(P("reshape")(x, shape=[-1, 2048])))
        return x


inception_v3 = constructor("inception_v3", InceptionV3, model_urls, doc="InceptionV3(**kwargs)")

register("inceptionv3", InceptionV3, inception_v3)
register("inceptionv3", InceptionStem, InceptionA, InceptionB, InceptionC, InceptionD, InceptionE, public=False)
register_values("inceptionv3", model_urls=model_urls)
