"""paddle.vision.models.SqueezeNet / squeezenet1_0 / squeezenet1_1."""

from paddle_compat.paddle2.vision.models._layers import (
    F, P, AdaptiveAvgPool2D, Conv2D, Dropout, Layer, MaxPool2D, ParamAttr)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values

_BASE = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
model_urls = {"squeezenet1_0": (f"{_BASE}SqueezeNet1_0_pretrained.pdparams", "30b95af60a2178f03cf9b66cd77e1db1"),
              "squeezenet1_1": (f"{_BASE}SqueezeNet1_1_pretrained.pdparams", "a11250d3a1f91d7131fd095ebbf09eee")}


def _conv(cin, cout, k, **kw):
    return Conv2D(cin, cout, k, weight_attr=ParamAttr(), bias_attr=ParamAttr(), **kw)


class MakeFireConv(Layer):
    """Conv2D (`_conv`) then ReLU."""

    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = _conv(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x):
        return F("relu")(self._conv(x))


class MakeFire(Layer):
    """A fire module: 1x1 squeeze (`_conv`), then 1x1 and 3x3 expands concatenated on channels."""

    def __init__(self, input_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return P("concat")([self._conv_path1(x), self._conv_path2(x)], axis=1)


# fire modules _conv1.._conv8 (in, squeeze, expand1x1, expand3x3) after the stem; the first in differs by version
_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192), (48, 192, 192),
          (64, 256, 256), (64, 256, 256)]
_POOL_AFTER = {"1.0": (3, 7), "1.1": (2, 4)}  # max pools after these fire modules


class SqueezeNet(Layer):
    """SqueezeNet(version, num_classes=1000, with_pool=True), version '1.0' or '1.1'."""

    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported_versions = ["1.0", "1.1"]
        if version not in supported_versions:
            raise AssertionError(f"supported versions are {supported_versions} but input version is {version}")
        if version == "1.0":
            self._conv = _conv(3, 96, 7, stride=2)
        else:
            self._conv = _conv(3, 64, 3, stride=2, padding=1)
        self._pool = MaxPool2D(kernel_size=3, stride=2, padding=0)
        cin = 96 if version == "1.0" else 64
        for i, (sq, e1, e3) in enumerate(_FIRES, 1):
            setattr(self, f"_conv{i}", MakeFire(cin, sq, e1, e3))
            cin = e1 + e3
        self._drop = Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = _conv(512, num_classes, 1)
        self._avg_pool = AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F("relu")(self._conv(inputs)))
        pools = _POOL_AFTER[self.version]
        for i in range(1, 9):
            x = getattr(self, f"_conv{i}")(x)
            if i in pools:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = P("squeeze")(self._avg_pool(F("relu")(x)), axis=[2, 3])
        return x


squeezenet1_0 = constructor("squeezenet1_0", lambda **kw: SqueezeNet("1.0", **kw), model_urls,
                            doc="SqueezeNet('1.0', **kwargs)")
squeezenet1_1 = constructor("squeezenet1_1", lambda **kw: SqueezeNet("1.1", **kw), model_urls,
                            doc="SqueezeNet('1.1', **kwargs)")

register("squeezenet", SqueezeNet, squeezenet1_0, squeezenet1_1)
register("squeezenet", MakeFire, MakeFireConv, public=False)
register_values("squeezenet", model_urls=model_urls)
