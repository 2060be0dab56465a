"""paddle.vision.models.MobileNetV1 / mobilenet_v1."""

from paddle_compat.paddle2.vision.models._layers import P, AdaptiveAvgPool2D, Layer, Linear
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values
from paddle_compat.paddle2.vision.ops import ConvNormActivation

model_urls = {"mobilenetv1_1.0": ("https://paddle-hapi.bj.bcebos.com/models/mobilenetv1_1.0.pdparams",
                                  "3033ab1975b1670bef51545feb65fc45")}


class DepthwiseSeparable(Layer):
    """A 3x3 depthwise ConvNormActivation (`_depthwise_conv`) then a 1x1 one (`_pointwise_conv`)."""

    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, in, out1, out2, groups, stride), channels before scaling
_BLOCKS = ([("conv2_1", 32, 32, 64, 32, 1), ("conv2_2", 64, 64, 128, 64, 2), ("conv3_1", 128, 128, 128, 128, 1),
            ("conv3_2", 128, 128, 256, 128, 2), ("conv4_1", 256, 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 256, 2)]
           + [(f"conv5_{i}", 512, 512, 512, 512, 1) for i in range(1, 6)]
           + [("conv5_6", 512, 512, 1024, 512, 2), ("conv6", 1024, 1024, 1024, 1024, 1)])


class MobileNetV1(Layer):
    """MobileNetV1(scale=1.0, num_classes=1000, with_pool=True): conv1, depthwise-separable blocks conv2_1 ..
    conv6, average pool, fc."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(in_channels=3, out_channels=int(32 * scale), kernel_size=3, stride=2,
                                        padding=1)
        self.dwsl = [self.add_sublayer(name, DepthwiseSeparable(int(cin * scale), o1, o2, g, s, scale))
                     for name, cin, o1, o2, g, s in _BLOCKS]
        if with_pool:
            self.pool2d_avg = AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(P("flatten")(x, 1))
        return x


mobilenet_v1 = constructor("mobilenet_v1", MobileNetV1, model_urls, arch=lambda a: "mobilenetv1_" + str(a["scale"]),
                           defaults={"scale": 1.0}, doc="MobileNetV1(scale=scale, **kwargs)")


register("mobilenetv1", MobileNetV1, mobilenet_v1)
register("mobilenetv1", DepthwiseSeparable, public=False)
register_values("mobilenetv1", model_urls=model_urls)
