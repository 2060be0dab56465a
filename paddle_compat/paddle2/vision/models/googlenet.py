"""paddle.vision.models.GoogLeNet / googlenet (returns [out, aux1, aux2])."""

from paddle_compat.paddle2.vision.models._layers import (
    F, P, AdaptiveAvgPool2D, AvgPool2D, Conv2D, Dropout, Layer, Linear, MaxPool2D, uniform_attr)
from paddle_compat.paddle2.vision.models._utils import constructor, register, register_values

model_urls = {"googlenet": ("https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/GoogLeNet_pretrained.pdparams",
                            "80c06f038e905c53ab32c40eca6e26ae")}


def xavier(channels, filter_size):
    """ParamAttr with Uniform(+-sqrt(3 / (filter_size**2 * channels)))."""
    return uniform_attr((3.0 / (filter_size ** 2 * channels)) ** 0.5)


class ConvLayer(Layer):
    """Conv2D with 'same' padding for odd kernels and no bias (`_conv`)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, groups=1):
        super().__init__()
        self._conv = Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=(filter_size - 1) // 2,
                            groups=groups, bias_attr=False)

    def forward(self, inputs):
        return self._conv(inputs)


class Inception(Layer):
    """1x1, 1x1->3x3, 1x1->5x5 and maxpool->1x1 branches, concatenated, then ReLU."""

    def __init__(self, input_channels, output_channels, filter1, filter3R, filter3, filter5R, filter5, proj):
        super().__init__()
        self._conv1 = ConvLayer(input_channels, filter1, 1)
        self._conv3r = ConvLayer(input_channels, filter3R, 1)
        self._conv3 = ConvLayer(filter3R, filter3, 3)
        self._conv5r = ConvLayer(input_channels, filter5R, 1)
        self._conv5 = ConvLayer(filter5R, filter5, 5)
        self._pool = MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = ConvLayer(input_channels, proj, 1)

    def forward(self, inputs):
        branches = [self._conv1(inputs), self._conv3(self._conv3r(inputs)), self._conv5(self._conv5r(inputs)),
                    self._convprj(self._pool(inputs))]
        return F("relu")(P("concat")(branches, axis=1))


_INCEPTIONS = [("_ince3a", 192, 64, 96, 128, 16, 32, 32), ("_ince3b", 256, 128, 128, 192, 32, 96, 64),
               ("_ince4a", 480, 192, 96, 208, 16, 48, 64), ("_ince4b", 512, 160, 112, 224, 24, 64, 64),
               ("_ince4c", 512, 128, 128, 256, 24, 64, 64), ("_ince4d", 512, 112, 144, 288, 32, 64, 64),
               ("_ince4e", 528, 256, 160, 320, 32, 128, 128), ("_ince5a", 832, 256, 160, 320, 32, 128, 128),
               ("_ince5b", 832, 384, 192, 384, 48, 128, 128)]


class GoogLeNet(Layer):
    """GoogLeNet(num_classes=1000, with_pool=True); forward returns [out, out1, out2] (main and the two
    auxiliary heads, taken after _ince4a and _ince4d)."""

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._conv = ConvLayer(3, 64, 7, 2)
        self._pool = MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = ConvLayer(64, 64, 1)
        self._conv_2 = ConvLayer(64, 192, 3)
        for name, cin, *rest in _INCEPTIONS:
            setattr(self, name, Inception(cin, cin, *rest))
        if with_pool:
            self._pool_5 = AdaptiveAvgPool2D(1)
            self._pool_o1 = AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = Linear(1024, num_classes, weight_attr=xavier(1024, 1))
            for i, cin in ((1, 512), (2, 528)):
                setattr(self, f"_conv_o{i}", ConvLayer(cin, 128, 1))
                setattr(self, f"_fc_o{i}", Linear(1152, 1024, weight_attr=xavier(2048, 1)))
                setattr(self, f"_drop_o{i}", Dropout(p=0.7, mode="downscale_in_infer"))
                setattr(self, f"_out{i}", Linear(1024, num_classes, weight_attr=xavier(1024, 1)))

    def forward(self, inputs):
        x = self._pool(self._conv_2(self._conv_1(self._pool(self._conv(inputs)))))
        x = self._pool(self._ince3b(self._ince3a(x)))
        out1 = self._ince4a(x)
        out2 = self._ince4d(self._ince4c(self._ince4b(out1)))
        out = self._ince5b(self._ince5a(self._pool(self._ince4e(out2))))
        if self.with_pool:
            out, out1, out2 = self._pool_5(out), self._pool_o1(out1), self._pool_o2(out2)
        if self.num_classes > 0:
            flat = P("flatten")
            out = self._fc_out(P("squeeze")(self._drop(out), axis=[2, 3]))
            out1 = self._fc_o1(flat(self._conv_o1(out1), start_axis=1, stop_axis=-1))
            out1 = self._out1(self._drop_o1(F("relu")(out1)))
            # NOTE: Paddle applies no ReLU on the second auxiliary head; kept for parity
            out2 = self._fc_o2(flat(self._conv_o2(out2), start_axis=1, stop_axis=-1))
            out2 = self._out2(self._drop_o2(out2))
        return [out, out1, out2]


googlenet = constructor("googlenet", GoogLeNet, model_urls, doc="GoogLeNet(**kwargs)")

register("googlenet", GoogLeNet, googlenet)
register("googlenet", ConvLayer, Inception, xavier, public=False)
register_values("googlenet", model_urls=model_urls)
