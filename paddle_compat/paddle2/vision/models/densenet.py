"""paddle.vision.models.DenseNet / densenet121, 161, 169, 201, 264 (BN-ReLU-conv ordering, fluid-style BatchNorm)."""

import math

from paddle_compat.paddle2.vision.models._layers import (
    P, AdaptiveAvgPool2D, AvgPool2D, BatchNorm, Conv2D, Dropout, Layer, Linear, MaxPool2D, ParamAttr, uniform_attr)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values

_BASE = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
model_urls = {f"densenet{n}": (f"{_BASE}DenseNet{n}_pretrained.pdparams", md5) for n, md5 in (
    (121, "db1b239ed80a905290fd8b01d3af08e4"), (161, "62158869cb315098bd25ddbfd308a853"),
    (169, "82cc7c635c3f19098c748850efb2d796"), (201, "16ca29565a7712329cf9e36e02caaf58"),
    (264, "3270ce516b85370bba88cfdd9f60bff4"))}


def _conv(cin, cout, k, stride, pad, groups):
    return Conv2D(cin, cout, k, stride=stride, padding=pad, groups=groups, weight_attr=ParamAttr(), bias_attr=False)


class BNACConvLayer(Layer):
    """BatchNorm with activation (`_batch_norm`), then Conv2D without bias (`_conv`)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1, act="relu"):
        super().__init__()
        self._batch_norm = BatchNorm(num_channels, act=act)
        self._conv = _conv(num_channels, num_filters, filter_size, stride, pad, groups)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class ConvBNLayer(Layer):
    """Conv2D without bias (`_conv`), then BatchNorm with activation (`_batch_norm`)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1, act="relu"):
        super().__init__()
        self._conv = _conv(num_channels, num_filters, filter_size, stride, pad, groups)
        self._batch_norm = BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


class DenseLayer(Layer):
    """1x1 (bn_size * growth) then 3x3 (growth) BN-ReLU-conv, optional dropout, concatenated to the input."""

    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1, pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1, stride=1)
        if dropout:
            self.dropout_func = Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return P("concat")([input, conv], axis=1)


class DenseBlock(Layer):
    """num_layers DenseLayers named <name>_1 .. <name>_<num_layers>."""

    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        for i in range(num_layers):
            layer = DenseLayer(num_channels + i * growth_rate, growth_rate, bn_size, dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{i + 1}", layer))

    def forward(self, input):
        for layer in self.dense_layer_func:
            input = layer(input)
        return input


class TransitionLayer(Layer):
    """BN-ReLU-1x1 conv then 2x2 average pool."""

    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, pad=0, stride=1)
        self.pool2d_avg = AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


# layers -> (initial features, growth rate, layers per block)
_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
          201: (64, 32, [6, 12, 48, 32]), 264: (64, 32, [6, 12, 64, 48])}


class DenseNet(Layer):
    """DenseNet(layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True): conv1_func, pool2d_max,
    dense blocks db_conv_2..5 with transitions tr_conv2_blk..4_blk, batch_norm, pool2d_avg, out."""

    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported_layers = list(_SPECS)
        if layers not in supported_layers:
            raise AssertionError(f"supported layers are {supported_layers} but input layer is {layers}")
        features, growth, block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(3, features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        for i, n in enumerate(block_config):
            block = DenseBlock(features, n, bn_size, growth, dropout, name=f"conv{i + 2}")
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            features += n * growth
            if i != len(block_config) - 1:
                trans = TransitionLayer(features, features // 2)
                self.transition_func_list.append(self.add_sublayer(f"tr_conv{i + 2}_blk", trans))
                features //= 2
        self.batch_norm = BatchNorm(features, act="relu")
        if with_pool:
            self.pool2d_avg = AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.out = Linear(features, num_classes, weight_attr=uniform_attr(1.0 / math.sqrt(features * 1.0)),
                              bias_attr=ParamAttr())

    def forward(self, input):
        y = self.pool2d_max(self.conv1_func(input))
        for i, block in enumerate(self.dense_block_func_list):
            y = block(y)
            if i < len(self.transition_func_list):
                y = self.transition_func_list[i](y)
        y = self.batch_norm(y)
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = self.out(P("flatten")(y, start_axis=1, stop_axis=-1))
        return y


def _constructor(n):
    return constructor(f"densenet{n}", lambda **kw: DenseNet(layers=n, **kw), model_urls,
                       doc=f"DenseNet(layers={n}, **kwargs)")


densenet121, densenet161, densenet169, densenet201, densenet264 = (_constructor(n) for n in _SPECS)

register("densenet", DenseNet, densenet121, densenet161, densenet169, densenet201, densenet264)
register("densenet", BNACConvLayer, ConvBNLayer, DenseLayer, DenseBlock, TransitionLayer, public=False)
register_values("densenet", model_urls=model_urls)
