"""paddle.vision.models.AlexNet / alexnet (Paddle's variant: no local response norm, Uniform init)."""

import math

from paddle_compat.paddle2.vision.models._layers import (
    F, P, Conv2D, Dropout, Layer, Linear, MaxPool2D, ReLU, uniform_attr)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values

model_urls = {"alexnet": ("https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/AlexNet_pretrained.pdparams",
                          "7f0f9f737132e02732d75a1459d98a43")}


def _conv(cin, cout, k, stride, padding, groups=1):
    stdv = 1.0 / math.sqrt(cin * k * k)
    return Conv2D(cin, cout, k, stride=stride, padding=padding, groups=groups, weight_attr=uniform_attr(stdv),
                  bias_attr=uniform_attr(stdv))


def _fc(cin, cout, stdv):
    return Linear(cin, cout, weight_attr=uniform_attr(stdv), bias_attr=uniform_attr(stdv))


class ConvPoolLayer(Layer):
    """Conv2D (`_conv`, Uniform(-stdv, stdv) init), optional ReLU, 3x3/2 max pool (`_pool`)."""

    def __init__(self, input_channels, output_channels, filter_size, stride, padding, stdv, groups=1, act=None):
        super().__init__()
        self.relu = ReLU() if act == "relu" else None
        self._conv = Conv2D(input_channels, output_channels, filter_size, stride=stride, padding=padding,
                            groups=groups, weight_attr=uniform_attr(stdv), bias_attr=uniform_attr(stdv))
        self._pool = MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(Layer):
    """AlexNet(num_classes=1000) for 3x224x224 inputs: _conv1.._conv5, then _fc6, _fc7, _fc8 with dropout."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        self._conv3 = _conv(192, 384, 3, 1, 1)
        self._conv4 = _conv(384, 256, 3, 1, 1)
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(256 * 6 * 6)
            self._drop1 = Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = _fc(256 * 6 * 6, 4096, stdv)
            self._drop2 = Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = _fc(4096, 4096, stdv)
            self._fc8 = _fc(4096, num_classes, stdv)

    def forward(self, inputs):
        relu = F("relu")
        x = self._conv2(self._conv1(inputs))
        x = self._conv5(relu(self._conv4(relu(self._conv3(x)))))
        if self.num_classes > 0:
            x = self._drop1(P("flatten")(x, start_axis=1, stop_axis=-1))
            x = self._drop2(relu(self._fc6(x)))
            x = self._fc8(relu(self._fc7(x)))
        return x


alexnet = constructor("alexnet", AlexNet, model_urls, doc="AlexNet(**kwargs)")


register("alexnet", AlexNet, alexnet)
register("alexnet", ConvPoolLayer, public=False)
register_values("alexnet", model_urls=model_urls)
