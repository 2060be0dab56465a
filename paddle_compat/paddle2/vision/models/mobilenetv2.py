"""paddle.vision.models.MobileNetV2 / mobilenet_v2."""

from paddle_compat.paddle2.vision.models._layers import (
    P, AdaptiveAvgPool2D, BatchNorm2D, Conv2D, Dropout, Layer, Linear, ReLU6, Sequential)
from paddle_compat.paddle2.vision.models._utils import constructor, make_divisible, register, register_values
from paddle_compat.paddle2.vision.ops import ConvNormActivation

model_urls = {"mobilenetv2_1.0": ("https://paddle-hapi.bj.bcebos.com/models/mobilenet_v2_x1.0.pdparams",
                                  "0340af0a901346c8d46f4529882fb63d")}


class InvertedResidual(Layer):
    """Optional 1x1 expansion, 3x3 depthwise, 1x1 linear projection (all in `conv`), residual when shapes allow."""

    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=BatchNorm2D):
        super().__init__()
        if stride not in (1, 2):
            raise AssertionError(f"paddle.vision.models.mobilenetv2.InvertedResidual: stride should be 1 or 2, "
                                 f"got {stride}")
        self.stride = stride
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvNormActivation(inp, hidden, kernel_size=1, norm_layer=norm_layer, activation_layer=ReLU6))
        layers += [ConvNormActivation(hidden, hidden, stride=stride, groups=hidden, norm_layer=norm_layer,
                                      activation_layer=ReLU6),
                   Conv2D(hidden, oup, 1, 1, 0, bias_attr=False), norm_layer(oup)]
        self.conv = Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


# (expansion t, channels c, repeats n, first stride s)
_SETTING = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]


class MobileNetV2(Layer):
    """MobileNetV2(scale=1.0, num_classes=1000, with_pool=True): `features` (stem, inverted residuals, 1x1 to
    1280*max(1, scale)), average pool, `classifier` (Dropout(0.2), Linear)."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        cin = make_divisible(32 * scale, 8)
        self.last_channel = make_divisible(1280 * max(1.0, scale), 8)
        features = [ConvNormActivation(3, cin, stride=2, norm_layer=BatchNorm2D, activation_layer=ReLU6)]
        for t, c, n, s in _SETTING:
            cout = make_divisible(c * scale, 8)
            for i in range(n):
                features.append(InvertedResidual(cin, cout, s if i == 0 else 1, expand_ratio=t, norm_layer=BatchNorm2D))
                cin = cout
        features.append(ConvNormActivation(cin, self.last_channel, kernel_size=1, norm_layer=BatchNorm2D,
                                           activation_layer=ReLU6))
        self.features = Sequential(*features)
        if with_pool:
            self.pool2d_avg = AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = Sequential(Dropout(0.2), Linear(self.last_channel, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.classifier(P("flatten")(x, 1))
        return x


mobilenet_v2 = constructor("mobilenet_v2", MobileNetV2, model_urls, arch=lambda a: "mobilenetv2_" + str(a["scale"]),
                           defaults={"scale": 1.0}, doc="MobileNetV2(scale=scale, **kwargs)")


register("mobilenetv2", MobileNetV2, mobilenet_v2)
register("mobilenetv2", InvertedResidual, public=False)
register_values("mobilenetv2", model_urls=model_urls)
