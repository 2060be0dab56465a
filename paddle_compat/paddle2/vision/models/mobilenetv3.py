"""paddle.vision.models.MobileNetV3Small / MobileNetV3Large / mobilenet_v3_small / mobilenet_v3_large."""

import functools

from paddle_compat.paddle2.vision.models._layers import (
    P, AdaptiveAvgPool2D, BatchNorm2D, Conv2D, Dropout, Hardsigmoid, Hardswish, Layer, Linear, ReLU, Sequential,
    Sigmoid)
from paddle_compat.paddle2.vision.models._utils import constructor, make_divisible, register, register_values
from paddle_compat.paddle2.vision.ops import ConvNormActivation

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
model_urls = {
    "mobilenet_v3_small_x1.0": (f"{_HAPI}mobilenet_v3_small_x1.0.pdparams", "34fe0e7c1f8b00b2b056ad6788d0590c"),
    "mobilenet_v3_large_x1.0": (f"{_HAPI}mobilenet_v3_large_x1.0.pdparams", "118db5792b4e183b925d8e8e334db3df")}


class SqueezeExcitation(Layer):
    """x * scale_activation(fc2(activation(fc1(avgpool(x))))), fc1 / fc2 being 1x1 convolutions."""

    def __init__(self, input_channels, squeeze_channels, activation=ReLU, scale_activation=Sigmoid):
        super().__init__()
        self.avgpool = AdaptiveAvgPool2D(1)
        self.fc1 = Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def _scale(self, input):
        return self.scale_activation(self.fc2(self.activation(self.fc1(self.avgpool(input)))))

    def forward(self, input):
        return self._scale(input) * input


_ACTIVATIONS = {None: None, "relu": ReLU, "hardswish": Hardswish}


class InvertedResidualConfig:
    """One block's settings; channel counts are scaled and rounded to multiples of 8."""

    def __init__(self, in_channels, kernel, expanded_channels, out_channels, use_se, activation, stride, scale=1.0):
        self.in_channels = self.adjust_channels(in_channels, scale=scale)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, scale=scale)
        self.out_channels = self.adjust_channels(out_channels, scale=scale)
        self.use_se = use_se
        if activation not in _ACTIVATIONS:
            raise RuntimeError(f"The activation function is not supported: {activation}")
        self.activation_layer = _ACTIVATIONS[activation]
        self.stride = stride

    @staticmethod
    def adjust_channels(channels, scale=1.0):
        return make_divisible(channels * scale, 8)


class InvertedResidual(Layer):
    """expand_conv (when channels grow), bottleneck_conv (depthwise), mid_se (optional), linear_conv; residual
    when stride 1 and channels equal."""

    def __init__(self, in_channels, expanded_channels, out_channels, filter_size, stride, use_se, activation_layer,
                 norm_layer):
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        if self.expand:
            self.expand_conv = ConvNormActivation(in_channels, expanded_channels, kernel_size=1, stride=1, padding=0,
                                                  norm_layer=norm_layer, activation_layer=activation_layer)
        self.bottleneck_conv = ConvNormActivation(expanded_channels, expanded_channels, kernel_size=filter_size,
                                                  stride=stride, padding=int((filter_size - 1) // 2),
                                                  groups=expanded_channels, norm_layer=norm_layer,
                                                  activation_layer=activation_layer)
        if use_se:
            self.mid_se = SqueezeExcitation(expanded_channels, make_divisible(expanded_channels // 4),
                                            scale_activation=Hardsigmoid)
        self.linear_conv = ConvNormActivation(expanded_channels, out_channels, kernel_size=1, stride=1, padding=0,
                                              norm_layer=norm_layer, activation_layer=None)

    def forward(self, x):
        identity = x
        if self.expand:
            x = self.expand_conv(x)
        x = self.bottleneck_conv(x)
        if self.use_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        return P("add")(identity, x) if self.use_res_connect else x


class MobileNetV3(Layer):
    """MobileNetV3(config, last_channel, scale=1.0, num_classes=1000, with_pool=True): conv, blocks, lastconv
    (6x the last block's input channels), average pool, classifier (Linear, Hardswish, Dropout(0.2), Linear).
    Batch norms use epsilon 0.001, momentum 0.99."""

    def __init__(self, config, last_channel, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.config = config
        self.scale = scale
        self.last_channel = last_channel
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.firstconv_in_channels = config[0].in_channels
        self.lastconv_in_channels = config[-1].in_channels
        self.lastconv_out_channels = self.lastconv_in_channels * 6
        norm_layer = functools.partial(BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(3, self.firstconv_in_channels, kernel_size=3, stride=2, padding=1, groups=1,
                                       activation_layer=Hardswish, norm_layer=norm_layer)
        self.blocks = Sequential(*[
            InvertedResidual(c.in_channels, c.expanded_channels, c.out_channels, c.kernel, c.stride, c.use_se,
                             c.activation_layer, norm_layer) for c in config])
        self.lastconv = ConvNormActivation(self.lastconv_in_channels, self.lastconv_out_channels, kernel_size=1,
                                           stride=1, padding=0, groups=1, norm_layer=norm_layer,
                                           activation_layer=Hardswish)
        if with_pool:
            self.avgpool = AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = Sequential(Linear(self.lastconv_out_channels, last_channel), Hardswish(),
                                         Dropout(p=0.2), Linear(last_channel, num_classes))

    def forward(self, x):
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(P("flatten")(x, 1))
        return x


# in, kernel, expanded, out, squeeze-excitation, activation, stride
_SMALL = [(16, 3, 16, 16, True, "relu", 2), (16, 3, 72, 24, False, "relu", 2), (24, 3, 88, 24, False, "relu", 1),
          (24, 5, 96, 40, True, "hardswish", 2), (40, 5, 240, 40, True, "hardswish", 1),
          (40, 5, 240, 40, True, "hardswish", 1), (40, 5, 120, 48, True, "hardswish", 1),
          (48, 5, 144, 48, True, "hardswish", 1), (48, 5, 288, 96, True, "hardswish", 2),
          (96, 5, 576, 96, True, "hardswish", 1), (96, 5, 576, 96, True, "hardswish", 1)]
_LARGE = [(16, 3, 16, 16, False, "relu", 1), (16, 3, 64, 24, False, "relu", 2), (24, 3, 72, 24, False, "relu", 1),
          (24, 5, 72, 40, True, "relu", 2), (40, 5, 120, 40, True, "relu", 1), (40, 5, 120, 40, True, "relu", 1),
          (40, 3, 240, 80, False, "hardswish", 2), (80, 3, 200, 80, False, "hardswish", 1),
          (80, 3, 184, 80, False, "hardswish", 1), (80, 3, 184, 80, False, "hardswish", 1),
          (80, 3, 480, 112, True, "hardswish", 1), (112, 3, 672, 112, True, "hardswish", 1),
          (112, 5, 672, 160, True, "hardswish", 2), (160, 5, 960, 160, True, "hardswish", 1),
          (160, 5, 960, 160, True, "hardswish", 1)]


class MobileNetV3Small(MobileNetV3):
    """MobileNetV3Small(scale=1.0, num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__([InvertedResidualConfig(*row, scale) for row in _SMALL],
                         last_channel=make_divisible(1024 * scale, 8), scale=scale, with_pool=with_pool,
                         num_classes=num_classes)


class MobileNetV3Large(MobileNetV3):
    """MobileNetV3Large(scale=1.0, num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__([InvertedResidualConfig(*row, scale) for row in _LARGE],
                         last_channel=make_divisible(1280 * scale, 8), scale=scale, with_pool=with_pool,
                         num_classes=num_classes)


def _constructor(arch, cls):
    return constructor(arch, cls, model_urls, arch=lambda a: f"{arch}_x{a['scale']}", defaults={"scale": 1.0},
                       doc=f"{cls.__name__}(scale=scale, **kwargs)")


mobilenet_v3_small = _constructor("mobilenet_v3_small", MobileNetV3Small)
mobilenet_v3_large = _constructor("mobilenet_v3_large", MobileNetV3Large)

register("mobilenetv3", MobileNetV3Small, MobileNetV3Large, mobilenet_v3_small, mobilenet_v3_large)
register("mobilenetv3", MobileNetV3, SqueezeExcitation, InvertedResidualConfig, InvertedResidual, public=False)
register_values("mobilenetv3", model_urls=model_urls)
